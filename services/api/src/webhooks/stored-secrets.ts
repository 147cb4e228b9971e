import type { Logger } from '@radio/core';
import type { Webhook } from '@radio/db';
import { type SecretBox, UnreadableSecretError } from './secret-box.ts';
import type { WebhooksRepository } from './webhooks.repository.ts';

/**
 * The secret of a webhook, opened; null when no configured key opens it, and then the webhook
 * is disabled (logged once, when it was enabled) rather than sending unsigned or crashing.
 */
export async function openSecret(
  webhook: Webhook,
  box: SecretBox,
  repo: WebhooksRepository,
  log: Logger,
): Promise<string | null> {
  try {
    return box.open(webhook.secret);
  } catch (error) {
    if (!(error instanceof UnreadableSecretError)) throw error;
    if (await repo.disableWithSecret(webhook.id, webhook.secret)) {
      log.error({ webhook: webhook.id, name: webhook.name }, `webhook disabled: ${error.message}`);
    }
    return null;
  }
}

/**
 * Run at start: seals the secrets stored in clear (from before they were sealed) or under an
 * older SESSION_SECRET with the current one, and disables the webhooks whose secret none of
 * the configured secrets opens. Returns how many it sealed and disabled.
 */
export async function sealStoredSecrets(
  repo: WebhooksRepository,
  box: SecretBox,
  log: Logger,
): Promise<{ sealed: number; unreadable: number }> {
  let sealed = 0;
  let unreadable = 0;
  for (const webhook of await repo.list()) {
    const secret = await openSecret(webhook, box, repo, log);
    if (secret === null) unreadable += 1;
    else if (!box.isCurrent(webhook.secret)) {
      if (await repo.replaceSecret(webhook.id, webhook.secret, box.seal(secret))) sealed += 1;
    }
  }
  if (sealed > 0) log.info({ sealed }, 'webhook secrets sealed with the current SESSION_SECRET');
  return { sealed, unreadable };
}
