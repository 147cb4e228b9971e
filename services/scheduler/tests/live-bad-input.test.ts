import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type LiveState, runFfmpeg, silentLogger } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import { decode, listen } from './helpers/listen.ts';
import {
  A_HZ,
  basic,
  createDj,
  exited,
  ffmpegSource,
  rawConnection,
  readAll,
  startLiveStation,
  type TestDj,
  toneMarks,
} from './helpers/live.ts';
import { ffmpegPath, type TestStation } from './helpers/station.ts';

jest.setTimeout(180_000);

describe('bad input on the live port', () => {
  let dir: string;
  let station: TestStation;
  let anna: TestDj;
  let ben: TestDj;
  let port: number;
  let mp3: Buffer;
  let ogg: Buffer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'live-bad-'));
    station = await startLiveStation(dir, { idleTimeoutMs: 2000, headerTimeoutMs: 2000 });
    anna = await createDj(station.db, 'anna', { name: 'Anna' });
    ben = await createDj(station.db, 'ben', { name: 'Ben' });
    await createDj(station.db, 'carl', { name: 'Carl', enabled: false });
    port = station.scheduler.livePort;
    const tone = [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `sine=f=${A_HZ}:d=3`,
      '-ac',
      '2',
    ];
    const encode = (file: string, args: string[]) =>
      runFfmpeg([...tone, ...args, join(dir, file)], {
        ffmpegPath,
        logger: silentLogger(),
        name: 'fixture',
      });
    await encode('tone.mp3', ['-c:a', 'libmp3lame', '-b:a', '128k']);
    await encode('tone.ogg', ['-c:a', 'libvorbis']);
    mp3 = await readFile(join(dir, 'tone.mp3'));
    ogg = await readFile(join(dir, 'tone.ogg'));
    await waitFor('the AutoDJ on air', () => station.scheduler.status().player.nowPlaying);
  });

  afterAll(async () => {
    await station?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const liveState = (): Promise<LiveState | null> => station.bus.getState('live-state');
  const logged = (text: string) =>
    waitFor(`a log line with ${text}`, () => station.warnings.find((line) => line.includes(text)));

  /** The AutoDJ plays on: a new listener hears its tone. */
  async function autoDjPlaysOn(): Promise<void> {
    expect(station.scheduler.status().player.state).toBe('playing');
    const capture = await listen(`${station.streamUrl}/radio.mp3`, 2500);
    expect(toneMarks(await decode(capture.audio, dir, `auto-${Date.now()}`))).toMatch(/o{10}/);
  }

  /** A PUT head for /live (the body is up to the test). */
  function put(auth: string | null, type = 'audio/mpeg'): string {
    const lines = ['PUT /live HTTP/1.1', 'Host: x', `Content-Type: ${type}`, 'Ice-Name: test'];
    if (auth) lines.push(`Authorization: ${auth}`);
    return `${lines.join('\r\n')}\r\n\r\n`;
  }

  it('wrong or missing credentials: 401 with WWW-Authenticate, logged with the address', async () => {
    for (const auth of [basic(anna.username, 'wrong'), null]) {
      const socket = await rawConnection(port);
      const reply = readAll(socket);
      socket.write(put(auth));
      const { text } = await reply;
      expect(text).toMatch(/^HTTP\/1\.0 401/);
      expect(text).toMatch(/WWW-Authenticate: Basic realm=/i);
    }
    const line = await logged('wrong password');
    expect(line).toContain('127.0.0.1');
    await autoDjPlaysOn();
  });

  it('the user source with username:password logs in like the DJ; a disabled DJ gets 403', async () => {
    const socket = await rawConnection(port);
    const reply = readAll(socket);
    socket.write(put(basic('carl', 'carl-secret')));
    expect((await reply).text).toMatch(/^HTTP\/1\.0 403[\s\S]*disabled/);
    const source = await rawConnection(port);
    let answer = '';
    source.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
    });
    source.write(put(basic('source', `${anna.username}:${anna.password}`)));
    source.write(mp3);
    await waitFor('Anna connected', async () => (await liveState())?.onAir?.dj.id === anna.id);
    // The input takes the air as it admits the source and answers 200 right after: the state
    // can be read before the answer's bytes reach this socket, so wait for them too.
    await waitFor('the 200 answer', () => answer.length > 0);
    source.destroy();
    expect(answer).toMatch(/^HTTP\/1\.0 200/);
    await waitFor('gone', async () => (await liveState())?.onAir === null);
    await autoDjPlaysOn();
  });

  it('a third connection while one DJ is on air and one waits: 403 naming them', async () => {
    const a = ffmpegSource(port, anna, A_HZ, 20);
    await waitFor('Anna on air', async () => (await liveState())?.onAir?.dj.id === anna.id);
    const b = ffmpegSource(port, ben, A_HZ, 20);
    await waitFor('Ben waiting', async () => (await liveState())?.waiting.length === 1);
    const socket = await rawConnection(port);
    const reply = readAll(socket);
    socket.write(put(basic(anna.username, anna.password)));
    const { text } = await reply;
    expect(text).toMatch(/^HTTP\/1\.0 403/);
    expect(text).toContain('Anna is on air and Ben is waiting');
    const kicked = await station.command('live.kick all');
    expect(kicked).toContain('kicked');
    await Promise.all([exited(a), exited(b)]);
    await waitFor('nobody', async () => (await liveState())?.onAir === null);
    await autoDjPlaysOn();
  });

  it('a source that sends nothing is closed after the timeout', async () => {
    const socket = await rawConnection(port);
    const reply = readAll(socket, 15_000);
    socket.write(put(basic(anna.username, anna.password)));
    const { text, closed } = await reply;
    expect(closed).toBe(true);
    expect(text).toMatch(/^HTTP\/1\.0 200/);
    await logged('no data for 2 s');
    await autoDjPlaysOn();
  });

  it('non-audio bytes are refused with a reason', async () => {
    const socket = await rawConnection(port);
    const reply = readAll(socket, 15_000);
    socket.write(put(basic(anna.username, anna.password)));
    socket.write(Buffer.alloc(8192, 'this is not audio at all '));
    expect((await reply).closed).toBe(true);
    await logged('not audio');
    await autoDjPlaysOn();
  });

  it('a codec change mid-stream drops the source', async () => {
    const socket = await rawConnection(port);
    const reply = readAll(socket, 15_000);
    socket.write(put(basic(anna.username, anna.password)));
    socket.write(mp3.subarray(0, 16_000));
    await new Promise((resolve) => setTimeout(resolve, 500));
    socket.write(ogg);
    expect((await reply).closed).toBe(true);
    await logged('codec change');
    await autoDjPlaysOn();
  });

  it('a header without end is refused long before 1 GB (431)', async () => {
    const socket = await rawConnection(port);
    const reply = readAll(socket, 15_000);
    socket.write('PUT /live HTTP/1.1\r\nX-Big: ');
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    while (!socket.destroyed && sent < 1024 ** 3) {
      const flushed = socket.write(chunk);
      sent += chunk.length;
      if (!flushed) break;
    }
    const { text, closed } = await reply;
    expect(closed).toBe(true);
    expect(text).toMatch(/^HTTP\/1\.0 431/);
    expect(sent).toBeLessThan(16 * 1024 * 1024);
    await logged('request head over');
    await autoDjPlaysOn();
  });

  it('slowloris (a head a byte at a time) is closed after the head timeout', async () => {
    const socket = await rawConnection(port);
    const reply = readAll(socket, 15_000);
    const head = put(basic(anna.username, anna.password));
    let at = 0;
    const timer = setInterval(() => {
      if (!socket.destroyed && at < head.length) socket.write(head[at++] as string);
    }, 200);
    const { closed } = await reply;
    clearInterval(timer);
    expect(closed).toBe(true);
    expect(at).toBeLessThan(head.length);
    await logged('no complete request head');
    await autoDjPlaysOn();
  });

  it('failed source logins are rate limited per address (429)', async () => {
    let last = '';
    for (let attempt = 0; attempt < 6 && !last.startsWith('HTTP/1.0 429'); attempt++) {
      const socket = await rawConnection(port);
      const reply = readAll(socket);
      socket.write(put(basic(anna.username, 'guess')));
      last = (await reply).text;
    }
    expect(last).toMatch(/^HTTP\/1\.0 429/);
    expect(last).toMatch(/Retry-After: \d+/);
    // Even the right password waits out the window.
    const socket = await rawConnection(port);
    const reply = readAll(socket);
    socket.write(put(basic(anna.username, anna.password)));
    expect((await reply).text).toMatch(/^HTTP\/1\.0 429/);
    await autoDjPlaysOn();
  });
});
