/**
 * A webhook's `Send test` cannot scan ports: a refused, reset, silent or unreachable receiver
 * all answer alike (same status, same delivery, the same error, no latency) once the delivery
 * timeout is up, however fast the connection failed; a receiver that answered gets its status.
 * Real sockets on loopback.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { type Agent, BASE, loginAll, startTestApi, type TestApi } from './helpers/test-api.ts';
import { WebhookReceiver } from './helpers/webhook-receiver.ts';

const TIMEOUT_MS = 1500;

/** A TCP server on loopback that does `onConnection` to every connection. */
async function tcpServer(onConnection: (socket: Socket) => void): Promise<Server> {
  const server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const portOf = (server: Server) => (server.address() as { port: number }).port;

describe.each(ROUTE_SETUPS)('webhook test calls tell no port state ($dialect)', (setup) => {
  let t: TestApi;
  let admin: Agent;
  const servers: Server[] = [];
  const held: Socket[] = [];
  let answering: WebhookReceiver;
  let urls: Record<'refused' | 'reset' | 'silent' | 'unreachable', string>;

  beforeAll(async () => {
    t = await startTestApi(setup, {
      webhooks: { allowLoopback: true, timeoutMs: TIMEOUT_MS },
    });
    ({ admin } = await loginAll(t));
    const closed = await tcpServer(() => undefined);
    const refusedPort = portOf(closed);
    await new Promise((resolve) => closed.close(resolve));
    const reset = await tcpServer((socket) => socket.resetAndDestroy());
    // Accepts and says nothing: the sender's timeout ends it.
    const silent = await tcpServer((socket) => {
      held.push(socket);
      socket.on('error', () => undefined);
    });
    servers.push(reset, silent);
    answering = await new WebhookReceiver().start();
    answering.mode = { kind: 'fail', status: 503 };
    urls = {
      refused: `http://127.0.0.1:${refusedPort}/hook`,
      reset: `http://127.0.0.1:${portOf(reset)}/hook`,
      silent: `http://127.0.0.1:${portOf(silent)}/hook`,
      // TEST-NET-1: no host answers there (no route, or no reply in time).
      unreachable: 'http://192.0.2.77:8080/hook',
    };
  });

  afterAll(async () => {
    for (const socket of held) socket.destroy();
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await answering?.stop();
    await t?.close();
  });

  async function testCall(url: string) {
    const created = await admin
      .post(`${BASE}/webhooks`)
      .send({ name: 'probe', url, events: ['song.changed'] })
      .expect(201);
    const started = performance.now();
    const res = await admin.post(`${BASE}/webhooks/${created.body.id}/test`);
    const ms = performance.now() - started;
    const { id: _id, webhookId: _webhook, createdAt: _at, ...outcome } = res.body;
    return { status: res.status, outcome, ms };
  }

  it('answers refused, reset, silent and unreachable receivers the same, after the timeout', async () => {
    const answers = [];
    for (const url of Object.values(urls)) answers.push(await testCall(url));
    const [first] = answers;
    expect(first?.status).toBe(200);
    expect(first?.outcome).toEqual({
      event: 'test',
      status: 'failed',
      attempts: 1,
      statusCode: null,
      error: `no answer from the receiver within ${TIMEOUT_MS / 1000} s (it could not be reached, or did not answer)`,
      latencyMs: null,
      nextAttemptAt: null,
      deliveredAt: null,
    });
    for (const answer of answers) {
      expect({ status: answer.status, outcome: answer.outcome }).toEqual({
        status: first?.status,
        outcome: first?.outcome,
      });
      // None answers before the timeout, however fast its connection failed.
      expect(answer.ms).toBeGreaterThanOrEqual(TIMEOUT_MS);
    }
  });

  it('gives a receiver that answered its status', async () => {
    const { status, outcome } = await testCall(answering.url);
    expect(status).toBe(200);
    expect(outcome).toMatchObject({
      status: 'failed',
      statusCode: 503,
      error: 'the receiver answered 503',
      latencyMs: expect.any(Number),
    });
  });
});
