import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { silentLogger } from '@radio/core';
import { createStreamServer, type StreamServerOptions } from '../src/index.ts';
import { ADMIN_PASSWORD, Resources, request, SOURCE_PASSWORD } from './helpers.ts';

const resources = new Resources();
afterAll(() => resources.dispose());

const options: StreamServerOptions = {
  host: '127.0.0.1',
  port: 0,
  adminUser: 'admin',
  adminPassword: ADMIN_PASSWORD,
  sourcePassword: SOURCE_PASSWORD,
};

describe('stream server lifecycle', () => {
  test('creating it opens nothing; start listens; close is idempotent and final', async () => {
    const dataDir = join(await resources.tempDir(), 'data');
    const server = createStreamServer({ ...options, dataDir }, { logger: silentLogger() });
    resources.onCleanup(() => server.close());
    expect(server.port).toBe(0);
    expect(existsSync(dataDir)).toBe(false);

    await server.start();
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(existsSync(join(dataDir, 'logs'))).toBe(true);
    expect((await request(server, '/health')).status).toBe(200);

    const closing = server.close();
    expect(server.close()).toBe(closing);
    await closing;
    await expect(server.start()).rejects.toMatchObject({ code: 'STREAM_NOT_RESTARTABLE' });
  });

  test('close works before start, and a closed server is not started', async () => {
    const server = createStreamServer(options, { logger: silentLogger() });
    await server.close();
    await expect(server.start()).rejects.toMatchObject({ code: 'STREAM_NOT_RESTARTABLE' });
  });

  test('a start that cannot bind rejects; close still resolves', async () => {
    const first = await resources.server();
    const second = createStreamServer({ ...options, port: first.port }, { logger: silentLogger() });
    await expect(second.start()).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await second.close();
  });

  test('bad options are refused when it is created', () => {
    expect(() => createStreamServer({ ...options, port: -1 }, { logger: silentLogger() })).toThrow(
      expect.objectContaining({ code: 'STREAM_INVALID_OPTIONS' }),
    );
  });
});
