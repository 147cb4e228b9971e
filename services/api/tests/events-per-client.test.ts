import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@radio/core/testing';
import { openEvents, type SseClient } from './helpers/sse.ts';
import { BASE, startTestApi, type TestApi } from './helpers/test-api.ts';

describe('event streams per client', () => {
  let t: TestApi;
  const clients: SseClient[] = [];

  beforeAll(async () => {
    t = await startTestApi(
      { dialect: 'sqlite', sessions: 'db' },
      { trustedProxies: ['127.0.0.1', '::1'], events: { maxPerClient: 2 } },
    );
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await t.close();
  });

  const open = async (client: string) => {
    const stream = await openEvents(`${t.api.url}${BASE}/events`, { 'X-Forwarded-For': client });
    clients.push(stream);
    return stream;
  };

  it('refuses a client its streams beyond the cap with 429, not the clients beside it', async () => {
    const first = await open('203.0.113.20');
    const second = await open('203.0.113.20');
    await first.next('ready');
    await second.next('ready');

    const third = await open('203.0.113.20');
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBeDefined();
    third.close();
    const body = await fetch(`${t.api.url}${BASE}/events`, {
      headers: { 'X-Forwarded-For': '203.0.113.20' },
    });
    expect(body.status).toBe(429);
    expect(await body.json()).toMatchObject({ error: { code: 'API_TOO_MANY_STREAMS' } });

    const neighbour = await open('203.0.113.21');
    expect(neighbour.status).toBe(200);
    await neighbour.next('ready');

    // A closed stream gives its place back.
    first.close();
    const again = await waitFor('a free place for the client', async () => {
      const stream = await open('203.0.113.20');
      if (stream.status === 200) return stream;
      stream.close();
      return false;
    });
    await again.next('ready');
  });
});
