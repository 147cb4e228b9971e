/**
 * Webhook signing secrets at rest: sealed with AES-256-GCM under a key derived from the api's
 * SESSION_SECRET (the first of several seals, all open), rows from before sealed at start, and
 * a row no configured secret opens disables its webhook with a clear error, never a crash.
 * Real receivers on loopback, api restarts on the same database, both dialects.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@radio/core/testing';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import {
  type Agent,
  BASE,
  createUser,
  expectError,
  login,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';
import { signatureIsValid, WebhookReceiver } from './helpers/webhook-receiver.ts';

const FIRST = 'test-session-secret-0123456789';
const SECOND = 'a-second-session-secret-abcdef';
const THIRD = 'a-third-session-secret-uvwxyz';

describe.each(ROUTE_SETUPS)('webhook secrets at rest ($dialect)', (setup) => {
  let t: TestApi;
  let admin: Agent;
  let hook: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestApi(setup, { sessionSecret: FIRST, webhooks: { allowLoopback: true } });
    await createUser(t.db, 'admin', 'admin');
    admin = await login(t.app, 'admin');
    hook = await new WebhookReceiver().start();
  });

  afterAll(async () => {
    await hook?.stop();
    await t?.close();
  });

  const stored = async (id: number) =>
    t.db.db
      .selectFrom('webhooks')
      .select(['secret', 'enabled'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  /** A restart with these session secrets (the first signs cookies: log in again). */
  async function restartWith(secrets: string[]): Promise<void> {
    (t.options as { sessionSecret: string | string[] }).sessionSecret = secrets;
    await t.restart();
    admin = await login(t.app, 'admin');
  }
  /** A test send, and whether the receiver got it signed with `secret`. */
  async function signedWith(id: number, secret: string): Promise<boolean> {
    const before = hook.received.length;
    const sent = await admin.post(`${BASE}/webhooks/${id}/test`).expect(200);
    expect(sent.body).toMatchObject({ status: 'delivered', statusCode: 204 });
    const received = hook.received[before];
    return received !== undefined && signatureIsValid(secret, received);
  }

  it('stores a new secret sealed, not in clear, and signs with the secret', async () => {
    const created = await admin
      .post(`${BASE}/webhooks`)
      .send({ name: 'sealed', url: hook.url, events: ['song.changed'] })
      .expect(201);
    const row = await stored(created.body.id);
    expect(row.secret).toMatch(/^sealed:v1:[0-9a-f]{8}:[A-Za-z0-9_-]+$/);
    expect(row.secret).not.toContain(created.body.secret);
    expect(await signedWith(created.body.id, created.body.secret)).toBe(true);

    const given = 'a secret the admin chose itself';
    const changed = await admin
      .patch(`${BASE}/webhooks/${created.body.id}`)
      .send({ secret: given })
      .expect(200);
    expect(changed.body.secret).toBe(given);
    expect((await stored(created.body.id)).secret).not.toContain(given);
    expect(await signedWith(created.body.id, given)).toBe(true);
  });

  it('seals a secret stored in clear (from before) when the api starts', async () => {
    const plain = 'an old secret kept in clear';
    const { id } = await t.db.db
      .insertInto('webhooks')
      .values({
        name: 'old',
        url: hook.url,
        events: '["song.changed"]',
        secret: plain,
        format: 'generic',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await restartWith([FIRST]);
    await waitFor('the old secret sealed', async () =>
      (await stored(id)).secret.startsWith('sealed:v1:'),
    );
    expect(await signedWith(id, plain)).toBe(true);
  });

  it('opens with an older SESSION_SECRET listed after the new one, and seals anew', async () => {
    const created = await admin
      .post(`${BASE}/webhooks`)
      .send({ name: 'rotated', url: hook.url, events: ['song.changed'] })
      .expect(201);
    const { id, secret } = created.body;
    const before = (await stored(id)).secret;
    await restartWith([SECOND, FIRST]);
    await waitFor('sealed under the new secret', async () => (await stored(id)).secret !== before);
    expect(await signedWith(id, secret)).toBe(true);
    // The first secret may go now: the row opens with the second alone.
    await restartWith([SECOND]);
    expect(await signedWith(id, secret)).toBe(true);
  });

  it('disables a webhook no configured secret opens, says why, and takes a new secret', async () => {
    const created = await admin
      .post(`${BASE}/webhooks`)
      .send({ name: 'orphan', url: hook.url, events: ['song.changed'] })
      .expect(201);
    const { id } = created.body;
    await restartWith([THIRD]);
    await waitFor('disabled at start', async () => (await stored(id)).enabled === 0);
    const before = hook.received.length;
    const sent = await admin.post(`${BASE}/webhooks/${id}/test`).expect(200);
    expect(sent.body).toMatchObject({ status: 'failed', statusCode: null });
    expect(sent.body.error).toMatch(/cannot be decrypted with the configured SESSION_SECRET/);
    expect(hook.received.length).toBe(before);
    expectError(
      await admin.patch(`${BASE}/webhooks/${id}`).send({ enabled: true }),
      409,
      'API_WEBHOOK_SECRET_UNREADABLE',
    );
    const fixed = await admin
      .patch(`${BASE}/webhooks/${id}`)
      .send({ enabled: true, rotateSecret: true })
      .expect(200);
    expect(fixed.body.enabled).toBe(true);
    expect(await signedWith(id, fixed.body.secret)).toBe(true);
  });
});
