/**
 * Every service's /metrics, as embedded mode runs them: four services in one process, each with
 * its own registry on its own port (the scheduler's on the live port). Each output goes through
 * `promtool check metrics` (Debian's prometheus package; CI installs it, elsewhere the check is
 * skipped when it is missing), the admin login guards each, and the figures move with what
 * happens: a listener shows in radio_listeners, an api request in the latency histogram.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { embeddedSpec, loadConfig, silentLogger } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import { createWebServer, type WebServer } from '@radio/web';
import { type RunningStation, type StationConfig, startStation } from '../station.ts';

const ADMIN = { user: 'admin', password: 'metrics-test-password' };
const PROMTOOL = spawnSync('promtool', ['--version']).error === undefined;
if (!PROMTOOL && process.env.CI) {
  throw new Error("promtool is missing: CI installs Debian's prometheus package (.ci/run)");
}

interface Scrape {
  status: number;
  contentType: string;
  body: string;
}

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

async function scrape(base: string, authorization?: string): Promise<Scrape> {
  const headers: Record<string, string> = authorization ? { authorization } : {};
  const res = await fetch(`${base}/metrics`, { headers });
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    body: await res.text(),
  };
}

async function metricsOf(base: string): Promise<string> {
  const answer = await scrape(base, basic(ADMIN.user, ADMIN.password));
  expect(answer.status).toBe(200);
  return answer.body;
}

/** The value of one series (`name{labels…}`) in a text exposition, or null when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = new Map(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found.get(key) === value)) {
      return Number(match[3]);
    }
  }
  return null;
}

/** `promtool check metrics` on the text: its exit code and what it printed. */
function promtool(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
    child.stdin.end(text);
  });
}

/** Opens a listener on a mount and reads its first bytes; the caller destroys the request. */
function listen(url: string): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`listener got ${res.statusCode}`));
        return;
      }
      res.once('data', () => resolve(req));
    });
    req.once('error', reject);
  });
}

describe('/metrics of every service (embedded mode)', () => {
  let dir: string;
  let station: RunningStation | undefined;
  const base: Record<'stream' | 'scheduler' | 'api' | 'web', string> = {
    stream: '',
    scheduler: '',
    api: '',
    web: '',
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'radio-metrics-'));
    const env = {
      DATA_DIR: join(dir, 'data'),
      MUSIC_DIR: join(dir, 'music'),
      STREAM_PORT: '0',
      CONTROL_PORT: '0',
      LIVE_PORT: '0',
      API_PORT: '0',
      WEB_PORT: '0',
      ADMIN_USER: ADMIN.user,
      ADMIN_PASSWORD: ADMIN.password,
      SOURCE_PASSWORD: 'metrics-test-source',
      SESSION_SECRET: 'metrics-test-session-secret-of-some-length',
      FFMPEG_PATH: process.env.FFMPEG_PATH,
    };
    const config = loadConfig(embeddedSpec, env) as StationConfig;
    station = await startStation(config, () => silentLogger());
    const url = (name: string): string => {
      const found = station?.urls.find((entry) => entry.name === name);
      if (!found) throw new Error(`no ${name} in the station's URLs`);
      return found.url;
    };
    base.stream = url('Stream server admin').replace(/\/admin\/$/, '');
    base.scheduler = url('Live input (DJs)').replace(/\/live$/, '');
    base.api = url('REST API').replace(/\/api\/radio\/status$/, '');
    base.web = url('Web app').replace(/\/$/, '');
  }, 180_000);

  afterAll(async () => {
    await station?.stop();
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('asks for the admin login on every port', async () => {
    for (const [service, url] of Object.entries(base)) {
      const none = await scrape(url);
      expect({ service, status: none.status }).toEqual({ service, status: 401 });
      const wrong = await scrape(url, basic(ADMIN.user, 'not-the-password'));
      expect({ service, status: wrong.status }).toEqual({ service, status: 401 });
      const right = await scrape(url, basic(ADMIN.user, ADMIN.password));
      expect({ service, status: right.status }).toEqual({ service, status: 200 });
      expect(right.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    }
  });

  it("gives each port its own service's figures, which promtool accepts", async () => {
    for (const [service, url] of Object.entries(base)) {
      const text = await metricsOf(url);
      // The process's figures, labelled by the service whose port answered.
      expect(sample(text, 'nodejs_eventloop_lag_seconds', { service })).not.toBeNull();
      for (const other of Object.keys(base).filter((name) => name !== service)) {
        expect(text).not.toContain(`service="${other}"`);
      }
      if (PROMTOOL) {
        const checked = await promtool(text);
        expect({ service, ...checked }).toEqual({ service, code: 0, output: '' });
      }
    }
    const scheduler = await metricsOf(base.scheduler);
    expect(sample(scheduler, 'radio_queue_length')).toBeGreaterThan(0);
    expect(sample(scheduler, 'radio_live_on_air')).toBe(0);
    expect(sample(scheduler, 'radio_encoder_restarts_total', { mount: '/radio.mp3' })).toBe(0);
    expect(sample(scheduler, 'radio_playout_underruns_total')).not.toBeNull();
    expect(sample(scheduler, 'radio_dead_air_seconds_total')).toBe(0);
  });

  it('times the bus round trip of the services on the bus', async () => {
    for (const service of ['stream', 'scheduler', 'api'] as const) {
      const url = base[service];
      await waitFor(
        `${service}'s first bus ping`,
        async () => (sample(await metricsOf(url), 'radio_bus_roundtrip_seconds') ?? 0) > 0,
        20_000,
      );
      expect(sample(await metricsOf(url), 'radio_bus_roundtrip_failures_total')).toBe(0);
    }
  });

  it('counts a listener and its session, and not the scrapes', async () => {
    const mount = { mount: '/radio.mp3' };
    await waitFor(
      'the scheduler on /radio.mp3',
      async () => sample(await metricsOf(base.stream), 'radio_source_connected', mount) === 1,
      30_000,
    );
    expect(sample(await metricsOf(base.stream), 'radio_listeners', mount)).toBe(0);
    const listener = await listen(`${base.stream}/radio.mp3`);
    try {
      const text = await metricsOf(base.stream);
      expect(sample(text, 'radio_listeners', mount)).toBe(1);
      expect(sample(text, 'radio_bytes_sent_total', mount)).toBeGreaterThan(0);
      expect(sample(text, 'radio_listener_drops_total', mount)).toBe(0);
    } finally {
      listener.destroy();
    }
    await waitFor(
      'the listener gone',
      async () => sample(await metricsOf(base.stream), 'radio_listeners', mount) === 0,
      20_000,
    );
    // Its session goes to the api within a flush (2 s): sent by the one, stored by the other.
    await waitFor(
      'the session stored',
      async () => sample(await metricsOf(base.api), 'radio_listener_sessions_stored_total') === 1,
      15_000,
    );
    const stream = await metricsOf(base.stream);
    expect(sample(stream, 'radio_listener_sessions_sent_total')).toBe(1);
    expect(sample(stream, 'radio_listener_sessions_buffered')).toBe(0);
    expect(sample(stream, 'radio_listener_sessions_dropped_total')).toBe(0);
  });

  it('shows api requests in the latency histogram by route pattern, never the URL', async () => {
    const count = (text: string, route: string, status: string): number =>
      sample(text, 'radio_http_request_duration_seconds_count', { method: 'GET', route, status }) ??
      0;
    const before = await metricsOf(base.api);
    expect((await fetch(`${base.api}/api/radio/status`)).status).toBe(200);
    expect((await fetch(`${base.api}/api/radio/tracks/987654`)).status).toBe(401);
    expect((await fetch(`${base.api}/no-such-page-123`)).status).toBe(404);
    const after = await metricsOf(base.api);
    expect(
      count(after, '/api/radio/status', '200') - count(before, '/api/radio/status', '200'),
    ).toBe(1);
    expect(count(after, '/api/radio/tracks/:id', '401')).toBe(1);
    expect(count(after, 'unmatched', '404')).toBe(1);
    expect(after).not.toContain('987654');
    expect(after).not.toContain('no-such-page-123');
  });

  it('times the stream server by page and admin command, never the URL', async () => {
    const count = (text: string, route: string, status: string): number =>
      sample(text, 'radio_http_request_duration_seconds_count', { method: 'GET', route, status }) ??
      0;
    const admin = { authorization: basic(ADMIN.user, ADMIN.password) };
    const before = await metricsOf(base.stream);
    expect((await fetch(`${base.stream}/status-json.xsl`)).status).toBe(200);
    expect((await fetch(`${base.stream}/admin/stats.xml`, { headers: admin })).status).toBe(200);
    expect((await fetch(`${base.stream}/admin/no-such-command-123`, { headers: admin })).ok).toBe(
      false,
    );
    expect((await fetch(`${base.stream}/radio.mp3.m3u`)).status).toBe(200);
    const after = await metricsOf(base.stream);
    const grew = (route: string, status: string) =>
      count(after, route, status) - count(before, route, status);
    expect(grew('/status-json.xsl', '200')).toBe(1);
    expect(grew('/admin/stats.xml', '200')).toBe(1);
    expect(grew('*.m3u', '200')).toBe(1);
    expect(after).toMatch(/radio_http_request_duration_seconds_count\{[^}]*route="\/admin\/\*"/);
    expect(after).not.toContain('no-such-command-123');
    // Listeners hold their connection: they are not requests to time.
    expect(after).not.toContain('route="/radio.mp3"');
  });

  it('times the web server by kind of page', async () => {
    expect((await fetch(`${base.web}/library`)).status).toBe(200);
    const text = await metricsOf(base.web);
    const labels = { method: 'GET', route: '/*', status: '200' };
    expect(sample(text, 'radio_http_request_duration_seconds_count', labels)).toBeGreaterThan(0);
  });

  it('answers 404 on a web server without an admin password', async () => {
    const web: WebServer = createWebServer(
      { apiUrl: base.api, port: 0, host: '127.0.0.1' },
      { logger: silentLogger() },
    );
    await web.start();
    try {
      expect((await scrape(web.url, basic(ADMIN.user, ADMIN.password))).status).toBe(404);
    } finally {
      await web.close();
    }
  });
});
