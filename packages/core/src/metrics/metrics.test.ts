import { afterEach, describe, expect, it } from '@jest/globals';
import type { Bus } from '../bus/bus.ts';
import { createMemoryBus, createMemoryHub } from '../bus/memory-bus.ts';
import { createRedisBus } from '../bus/redis-bus.ts';
import { silentLogger } from '../logging/logger.ts';
import { waitFor } from '../testing/index.ts';
import { checkBasicAuth } from './basic-auth.ts';
import { BusProbe } from './bus-probe.ts';
import { MetricsEndpoint } from './endpoint.ts';
import { createServiceRegistry } from './registry.ts';

const LOGIN = { user: 'admin', password: 'pa:ss wörd' };
const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** The value of a metric without labels of its own (only the registry's `service`). */
async function value(registry: ReturnType<typeof createServiceRegistry>, name: string) {
  const metric = await registry.getSingleMetric(name)?.get();
  return metric?.values[0]?.value ?? null;
}

describe('checkBasicAuth', () => {
  it('takes the admin pair only, a colon in the password included', () => {
    expect(checkBasicAuth(basic('admin', 'pa:ss wörd'), LOGIN)).toBe(true);
    expect(checkBasicAuth(`  basic ${basic('admin', 'pa:ss wörd').slice(6)} `, LOGIN)).toBe(true);
    expect(checkBasicAuth(basic('admin', 'pa:ss'), LOGIN)).toBe(false);
    expect(checkBasicAuth(basic('root', 'pa:ss wörd'), LOGIN)).toBe(false);
    expect(checkBasicAuth(undefined, LOGIN)).toBe(false);
    expect(checkBasicAuth('Bearer abc', LOGIN)).toBe(false);
    expect(checkBasicAuth(`Basic ${Buffer.from('no-colon').toString('base64')}`, LOGIN)).toBe(
      false,
    );
  });
});

describe('MetricsEndpoint', () => {
  it('answers 401 without the login, the text format with it, 404 without a login at all', async () => {
    const registry = createServiceRegistry('test');
    const endpoint = new MetricsEndpoint(registry, LOGIN);
    const refused = await endpoint.answer(undefined, '192.0.2.1');
    expect(refused.status).toBe(401);
    expect(refused.headers['WWW-Authenticate']).toMatch(/^Basic /);
    const answered = await endpoint.answer(basic(LOGIN.user, LOGIN.password), '192.0.2.1');
    expect(answered.status).toBe(200);
    expect(answered.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(answered.body).toMatch(/^nodejs_eventloop_lag_seconds\{service="test"\} /m);
    expect(answered.body).not.toContain('nodejs_active_handles_total');
    const hidden = new MetricsEndpoint(registry, null);
    expect((await hidden.answer(basic(LOGIN.user, LOGIN.password), '192.0.2.1')).status).toBe(404);
  });

  it('refuses a client after 10 wrong logins, the right one included, and no one else', async () => {
    const endpoint = new MetricsEndpoint(createServiceRegistry('test'), LOGIN);
    for (let i = 0; i < 10; i++) {
      expect((await endpoint.answer(basic(LOGIN.user, `guess ${i}`), '198.51.100.9')).status).toBe(
        401,
      );
    }
    const blocked = await endpoint.answer(basic(LOGIN.user, LOGIN.password), '198.51.100.9');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['Retry-After'])).toBeGreaterThan(0);
    const other = await endpoint.answer(basic(LOGIN.user, LOGIN.password), '198.51.100.10');
    expect(other.status).toBe(200);
  });
});

describe('BusProbe', () => {
  const open: { close(): unknown }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  function probeOn(bus: Bus, options = {}) {
    const registry = createServiceRegistry('test');
    const probe = new BusProbe(bus, registry, options);
    open.push(probe);
    return { registry, probe };
  }

  it('times its own pings and ignores those of the other services on the bus', async () => {
    const hub = createMemoryHub();
    const a = createMemoryBus({ logger: silentLogger(), hub });
    const b = createMemoryBus({ logger: silentLogger(), hub });
    open.push(a, b);
    const first = probeOn(a, { intervalMs: 50 });
    const second = probeOn(b, { intervalMs: 50 });
    first.probe.start();
    second.probe.start();
    for (const { registry } of [first, second]) {
      await waitFor(
        'a round trip',
        async () => ((await value(registry, 'radio_bus_roundtrip_seconds')) ?? 0) > 0,
      );
      expect(await value(registry, 'radio_bus_roundtrip_failures_total')).toBe(0);
    }
  });

  it('counts a ping that does not come back as a failure', async () => {
    const bus = createMemoryBus({ logger: silentLogger() });
    const { registry, probe } = probeOn(bus, { intervalMs: 20, timeoutMs: 200 });
    probe.start();
    await waitFor(
      'a round trip',
      async () => ((await value(registry, 'radio_bus_roundtrip_seconds')) ?? 0) > 0,
    );
    // A closed bus refuses the next ping: the probe counts it and goes on.
    await bus.close();
    await waitFor(
      'failures counted',
      async () => ((await value(registry, 'radio_bus_roundtrip_failures_total')) ?? 0) >= 2,
    );
  });

  it('goes through Redis and back', async () => {
    const bus = await createRedisBus({ url: 'redis://127.0.0.1:6379', logger: silentLogger() });
    open.push(bus);
    const { registry, probe } = probeOn(bus);
    probe.start();
    await waitFor(
      'a round trip through Redis',
      async () => ((await value(registry, 'radio_bus_roundtrip_seconds')) ?? 0) > 0,
    );
  });
});
