/**
 * A Discord message from the station pings nobody: it says `allowed_mentions: {parse: []}`, so
 * a track or webhook named "@everyone" (or `<@id>`, `<@&role>`) reads as text. A real receiver
 * on loopback stands in for Discord.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NowPlaying } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { type Agent, BASE, loginAll, startTestApi, type TestApi } from './helpers/test-api.ts';
import { WebhookReceiver } from './helpers/webhook-receiver.ts';

const PINGS = '@everyone @here <@80351110224678912> <@&165511591545143296>';

describe.each(ROUTE_SETUPS)('Discord messages mention nobody ($dialect)', (setup) => {
  let t: TestApi;
  let admin: Agent;
  let hook: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestApi(setup, { webhooks: { allowLoopback: true, pollMs: 100 } });
    ({ admin } = await loginAll(t));
    hook = await new WebhookReceiver().start();
  });

  afterAll(async () => {
    await hook?.stop();
    await t?.close();
  });

  it('sends song changes and test messages with no mention allowed', async () => {
    const created = await admin
      .post(`${BASE}/webhooks`)
      .send({ name: PINGS, url: hook.url, events: ['song.changed'], format: 'discord' })
      .expect(201);
    const song: NowPlaying = {
      trackId: null,
      requestId: null,
      path: 'music/ping.mp3',
      title: PINGS,
      artist: null,
      album: null,
      duration: 200,
      startedAt: Date.now(),
      source: 'rotation',
    };
    await t.bus.publish('player.now-playing', song);
    await waitFor('the song change', () => hook.received[0]);
    await admin.post(`${BASE}/webhooks/${created.body.id}/test`).expect(200);
    const messages = hook.received.map((received) => JSON.parse(received.body));
    expect(messages).toHaveLength(2);
    for (const message of messages) {
      expect(message.content).toContain('@everyone');
      expect(message.allowed_mentions).toEqual({ parse: [] });
    }
  });
});
