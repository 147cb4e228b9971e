import type { Bus, Logger } from '@radio/core';
import type { DbHandle } from '@radio/db';
import { followBusEvents } from './event-sources.ts';
import type { WebhookEvent } from './events.ts';
import { ListenerPeaks } from './listener-peaks.ts';
import type { ResolvedWebhookOptions } from './options.ts';
import { SecretBox } from './secret-box.ts';
import { SsrfGuard } from './ssrf-guard.ts';
import { StationWatch } from './station-watch.ts';
import { sealStoredSecrets } from './stored-secrets.ts';
import { WebhooksRepository } from './webhooks.repository.ts';
import { WebhooksService } from './webhooks.service.ts';
import { DeliveryWorker } from './worker.ts';

/** The webhooks' parts: the routes' service, and the background work that feeds and sends. */
export interface Webhooks {
  service: WebhooksService;
  /** Follows the bus and sends queued deliveries; returns how to stop. */
  start(): () => void;
}

export function createWebhooks(
  options: ResolvedWebhookOptions & {
    streamUrl: string;
    /** The api's session secrets: the first seals the webhooks' secrets, all open them. */
    secretKeys: readonly string[];
  },
  deps: { db: DbHandle; bus: Bus; logger: Logger },
): Webhooks {
  const repo = new WebhooksRepository(deps.db);
  const guard = new SsrfGuard({
    streamUrl: options.streamUrl,
    allowLoopback: options.allowLoopback,
  });
  const box = new SecretBox(options.secretKeys);
  const worker = new DeliveryWorker(repo, guard, { ...options, box }, deps.logger);
  const service = new WebhooksService(repo, guard, worker, {
    box,
    keepDeliveries: options.keepDeliveries,
    claimMs: options.timeoutMs + 5000,
    logger: deps.logger,
  });
  const sink = (event: WebhookEvent) => service.publish(event);
  return {
    service,
    start() {
      const watch = new StationWatch(deps.bus, sink, options.offlineAfterMs);
      const peaks = new ListenerPeaks(deps.bus, repo, sink, deps.logger);
      const stopBus = followBusEvents(deps.bus, sink);
      // Secrets stored in clear (or under an older SESSION_SECRET) are sealed anew; the
      // worker opens either meanwhile.
      void sealStoredSecrets(repo, box, deps.logger).catch((error: unknown) =>
        deps.logger.error({ err: error }, 'webhook secrets not sealed'),
      );
      watch.start();
      peaks.start();
      worker.start();
      return () => {
        stopBus();
        watch.stop();
        void peaks.stop();
        worker.stop();
      };
    },
  };
}
