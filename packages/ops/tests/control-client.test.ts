import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, test } from '@jest/globals';
import {
  controlCommand,
  parseLiveStatus,
  parseMetadata,
  parseOnAir,
  parsePlayoutStatus,
  parseQueue,
} from '../src/control-client.ts';

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

/** A Liquidsoap-like control port answering from a table; returns its port. */
async function fakeControl(answers: Record<string, string | null>): Promise<number> {
  server = createServer((socket) => {
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString();
      for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
        const line = buffered.slice(0, at).trim();
        buffered = buffered.slice(at + 1);
        if (line === 'quit') {
          socket.end('Bye!\r\n');
          return;
        }
        const answer = answers[line];
        if (answer === null) {
          // Stalls: answers nothing more on this connection.
          socket.removeAllListeners('data');
          return;
        }
        socket.write(
          `${answer ?? 'ERROR: unknown command, type "help" to get a list of commands.'}\r\nEND\r\n`,
        );
      }
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

describe('controlCommand', () => {
  test('returns the answer without END', async () => {
    const port = await fakeControl({
      'request.queue': '1 A - B (a.mp3) [new]\r\n2 C - D (d/e.flac) [rotation]',
      version: 'Liquidsoap 2.1.3',
    });
    const address = { host: '127.0.0.1', port };
    expect(await controlCommand(address, 'version')).toBe('Liquidsoap 2.1.3');
    expect(await controlCommand(address, 'request.queue')).toBe(
      '1 A - B (a.mp3) [new]\n2 C - D (d/e.flac) [rotation]',
    );
  });

  test('an empty answer is an empty string', async () => {
    const port = await fakeControl({ 'request.on_air': '' });
    expect(await controlCommand({ host: '127.0.0.1', port }, 'request.on_air')).toBe('');
  });

  test('an ERROR line, a refused connection and silence are OPS_CONTROL_FAILED', async () => {
    const port = await fakeControl({ slow: null });
    const address = { host: '127.0.0.1', port };
    await expect(controlCommand(address, 'nonsense')).rejects.toMatchObject({
      code: 'OPS_CONTROL_FAILED',
      message: expect.stringContaining('ERROR: unknown command'),
    });
    await expect(controlCommand(address, 'slow', 200)).rejects.toMatchObject({
      code: 'OPS_CONTROL_FAILED',
      message: expect.stringContaining('no answer to "slow" in 200 ms'),
    });
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = null;
    await expect(controlCommand(address, 'version')).rejects.toMatchObject({
      code: 'OPS_CONTROL_FAILED',
    });
  });
});

describe('parsers', () => {
  test('request.queue lines', () => {
    expect(
      parseQueue(
        '12 Alpha Band - Morning (Alpha Band/01 - Morning.mp3) [new]\n13 untitled (x (live).flac) [rotation]\n',
      ),
    ).toEqual([
      {
        requestId: '12',
        title: 'Alpha Band - Morning',
        path: 'Alpha Band/01 - Morning.mp3',
        kind: 'new',
      },
      { requestId: '13', title: 'untitled', path: 'x (live).flac', kind: 'rotation' },
    ]);
    expect(parseQueue('1 Song (Remix) (a (b).mp3) [request]')).toEqual([
      { requestId: '1', title: 'Song (Remix)', path: 'a (b).mp3', kind: 'request' },
    ]);
    expect(parseQueue('')).toEqual([]);
  });

  test('request.on_air', () => {
    expect(parseOnAir('7 Alpha - Morning 1:02 / 3:07')).toEqual({
      requestId: '7',
      title: 'Alpha - Morning',
      position: '1:02',
      duration: '3:07',
    });
    expect(parseOnAir('')).toBeNull();
  });

  test('playout.status, tolerant of missing and unknown lines', () => {
    expect(
      parsePlayoutStatus(
        'state: playing\non_air: fallback\nfallback: the music folder is empty: add files to MUSIC_DIR\ndead_air_skips: 2',
      ),
    ).toEqual({
      state: 'playing',
      onAir: 'fallback',
      fallback: 'the music folder is empty: add files to MUSIC_DIR',
      deadAirSkips: 2,
    });
    expect(
      parsePlayoutStatus('state: playing\non_air: track\nfallback: none\nlater_field: x'),
    ).toEqual({ state: 'playing', onAir: 'track', fallback: null, deadAirSkips: null });
    expect(parsePlayoutStatus('')).toEqual({
      state: null,
      onAir: null,
      fallback: null,
      deadAirSkips: null,
    });
  });

  test('live.status: the DJ on air, who waits, silence and recording', () => {
    expect(
      parseLiveStatus(
        'on_air: Ana (id 2) since 2026-11-25T01:00:00.000Z (5 s), format mp3, bytes in 1, title "Hi"\n' +
          'waiting: Bo (id 3) since 2026-11-25T01:00:01.000Z (4 s), format ogg, bytes in 2, title none\n' +
          'silent: true\nrecording: false',
      ),
    ).toEqual({
      onAir: 'Ana (id 2) since 2026-11-25T01:00:00.000Z (5 s), format mp3, bytes in 1, title "Hi"',
      waiting: [
        'Bo (id 3) since 2026-11-25T01:00:01.000Z (4 s), format ogg, bytes in 2, title none',
      ],
      silent: true,
      recording: false,
    });
    expect(
      parseLiveStatus('on_air: none (AutoDJ)\nwaiting: none\nsilent: false\nrecording: false'),
    ).toEqual({
      onAir: null,
      waiting: [],
      silent: false,
      recording: false,
    });
  });

  test('request.metadata with escapes', () => {
    expect(parseMetadata('rid="7"\ntitle="Say \\"hi\\""\npath="a\\\\b.mp3"')).toEqual({
      rid: '7',
      title: 'Say "hi"',
      path: 'a\\b.mp3',
    });
  });
});
