import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { runFfmpeg, silentLogger } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import { SCHEDULER_NAME, SCHEDULER_VERSION } from '../src/index.ts';
import { ffmpegPath, TestStation } from './helpers/station.ts';

jest.setTimeout(60_000);

const UNKNOWN = 'ERROR: unknown command, type "help" to get a list of commands.';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('control port commands on a running scheduler', () => {
  let station: TestStation;

  beforeAll(async () => {
    station = await TestStation.start({ crossfadeSeconds: 2, trackSeconds: 4 });
    await mkdir(join(station.dir, 'outside'), { recursive: true });
    await writeFile(join(station.music, 'notes.txt'), 'not music\n');
    await copyFile(
      join(station.music, 'untagged-demo.mp3'),
      join(station.dir, 'outside', 'elsewhere.mp3'),
    );
  });

  afterAll(async () => {
    await station?.stop();
  });

  const requestLines = async (): Promise<string[]> => {
    const body = await station.command('request.queue');
    return body === '' ? [] : body.split('\r\n');
  };

  it('help lists every command with its usage and explains each', async () => {
    const help = await station.command('help');
    expect(help).toBe(
      [
        'Available commands:',
        '| exit',
        '| help [<command>]',
        '| playout.status',
        '| quit',
        '| request.metadata [<rid>]',
        '| request.on_air',
        '| request.push <uri>',
        '| request.queue',
        '| request.skip',
        '| schedule.timeline',
        '| uptime',
        '| var.get <name>',
        '| var.list',
        '| var.set <name> = <value>',
        '| version',
        '',
        'Type "help <command>" for more information.',
      ].join('\r\n'),
    );
    for (const line of help.split('\r\n').filter((l) => l.startsWith('| '))) {
      const name = line.slice(2).split(' ')[0] as string;
      expect(await station.command(`help ${name}`)).toMatch(
        new RegExp(`^Usage: ${name.replace(/\./g, '\\.')}.*\\r\\n  \\S.*$`),
      );
    }
    expect(await station.command('help request.push')).toBe(
      'Usage: request.push <uri>\r\n  Push a new request in the queue: a path relative to the music folder, an absolute path inside it or a file:// URI. Answers the request id.',
    );
  });

  it('answers version and uptime in their formats', async () => {
    expect(await station.command('version')).toBe(`${SCHEDULER_NAME} ${SCHEDULER_VERSION}`);
    expect(await station.command('uptime')).toMatch(/^\d+d \d\dh \d\dm \d\ds$/);
  });

  it("answers unknown commands with Liquidsoap's error line", async () => {
    expect(await station.command('nosuch.command')).toBe(UNKNOWN);
    expect(await station.command('foo')).toBe(UNKNOWN);
    expect(await station.command('VERSION')).toBe(UNKNOWN);
  });

  it('request.queue lists what plays next: id, artist - title, (path), [kind]', async () => {
    const lines = await requestLines();
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) {
      expect(line).toMatch(/^\d+ .+ \(.+\.(mp3|flac)\) \[(request|new|rotation|playlist)\]$/);
    }
  });

  it('request.push takes a relative path, an absolute path inside the folder and a file:// URI', async () => {
    const relative = await station.command('request.push Alpha Band/First Light/02 - Noon.mp3');
    const absolute = await station.command(
      `request.push ${join(station.music, 'Beta Trio/Waves/01 - Tide.flac')}`,
    );
    const uri = await station.command(
      `request.push ${pathToFileURL(join(station.music, 'untagged-demo.mp3')).href}`,
    );
    for (const rid of [relative, absolute, uri]) expect(rid).toMatch(/^\d+$/);
    // Request ids count up; a re-plan after a push may give the planned entries new ones too.
    expect(Number(absolute)).toBeGreaterThan(Number(relative));
    expect(Number(uri)).toBeGreaterThan(Number(absolute));
    const lines = await requestLines();
    expect(lines.slice(0, 3)).toEqual([
      `${relative} Alpha Band - Noon (Alpha Band/First Light/02 - Noon.mp3) [request]`,
      `${absolute} Beta Trio - Tide (Beta Trio/Waves/01 - Tide.flac) [request]`,
      `${uri} untagged-demo (untagged-demo.mp3) [request]`,
    ]);
    // The metadata of a queued request.
    const metadata = (await station.command(`request.metadata ${absolute}`)).split('\n');
    expect(metadata).toEqual(
      expect.arrayContaining([
        `rid="${absolute}"`,
        'status="ready"',
        'title="Tide"',
        'artist="Beta Trio"',
      ]),
    );
  });

  it('request.push refuses, with ERROR and nothing queued, what cannot be played', async () => {
    const before = await requestLines();
    const cases: [string, RegExp][] = [
      ['request.push', /^ERROR: give a file path or a file:\/\/ URI$/],
      ['request.push does-not-exist.mp3', /^ERROR: file not found: does-not-exist\.mp3$/],
      [
        `request.push ${join(station.dir, 'outside', 'elsewhere.mp3')}`,
        /^ERROR: .* is outside the music folder$/,
      ],
      [
        'request.push ../outside/elsewhere.mp3',
        /^ERROR: \.\.\/outside\/elsewhere\.mp3 is outside the music folder$/,
      ],
      [
        `request.push ${station.fixtures.corrupt}`,
        /^ERROR: not playable: broken\/corrupt\.mp3: unreadable audio file: /,
      ],
      [
        `request.push ${station.fixtures.empty}`,
        /^ERROR: not playable: broken\/empty\.mp3: empty file \(0 bytes\)$/,
      ],
      ['request.push notes.txt', /^ERROR: not an audio file: notes\.txt$/],
      [
        'request.push http://example.com/a.mp3',
        /^ERROR: only files in the music folder can be queued/,
      ],
      ['request.push Alpha Band', /^ERROR: not a file: Alpha Band$/],
    ];
    for (const [line, expected] of cases) {
      const answer = await station.command(line);
      expect(answer).toMatch(expected);
      expect(answer.split('\r\n')).toHaveLength(1);
    }
    // Tracks keep playing meanwhile (a new one every two seconds), so requests may have gone
    // on air and rotation refilled; but no request was added.
    const requests = (lines: string[]) => lines.filter((line) => line.endsWith('[request]'));
    expect(requests(before)).toEqual(expect.arrayContaining(requests(await requestLines())));
  });

  it('request.on_air and request.metadata describe the track on air', async () => {
    const line = await waitFor(
      'something on air',
      async () => (await station.command('request.on_air')) || undefined,
    );
    expect(line).toMatch(/^\d+ .+ \d+:\d\d \/ \d+:\d\d$/);
    const rid = line.split(' ')[0] as string;
    const metadata = (await station.command('request.metadata')).split('\n');
    for (const entry of metadata) expect(entry).toMatch(/^[a-z_]+=".*"$/);
    expect(metadata[0]).toBe(`rid="${rid}"`);
    expect(metadata).toContain('status="playing"');
    expect(metadata.some((m) => /^on_air="\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d"$/.test(m))).toBe(true);
    expect(await station.command('request.metadata 99999')).toBe('ERROR: no such request: 99999');
  });

  it('request.skip answers Done. and the next track goes on air', async () => {
    const before = await waitFor(
      'something on air',
      async () => (await station.command('request.on_air')) || undefined,
    );
    const next = (await requestLines())[0]?.split(' ')[0];
    expect(await station.command('request.skip')).toBe('Done.');
    const after = await waitFor('the next track on air', async () => {
      const line = await station.command('request.on_air');
      return line && line.split(' ')[0] !== before.split(' ')[0] ? line : undefined;
    });
    expect(after.split(' ')[0]).toBe(next);
  });

  it('var.get, var.set (every spelling), var.list and their errors', async () => {
    expect(await station.command('var.get amplify')).toBe('1.000');
    expect(await station.command('var.list')).toBe('amplify : float');
    const spellings: [string, string][] = [
      ['var.set amplify 0.5', '0.500'],
      ['var.set amplify = 0.7', '0.700'],
      ['var.set amplify=0.25', '0.250'],
      ['var.set amplify= 2', '2.000'],
      ['var.set amplify =1.5', '1.500'],
      ['var.set amplify = 1', '1.000'],
    ];
    for (const [line, value] of spellings) {
      expect(await station.command(line)).toBe('Variable amplify set.');
      expect(await station.command('var.get amplify')).toBe(value);
    }
    const errors: [string, string][] = [
      ['var.set amplify = abc', 'ERROR: amplify must be a number, got abc'],
      ['var.set amplify 5', 'ERROR: amplify must be a number from 0 to 4, got 5'],
      ['var.set amplify -0.5', 'ERROR: amplify must be a number from 0 to 4, got -0.5'],
      ['var.set amplify', 'ERROR: usage: var.set <name> = <value>'],
      ['var.set', 'ERROR: usage: var.set <name> = <value>'],
      ['var.set nosuchvar = 1', 'ERROR: unknown variable nosuchvar (try var.list)'],
      ['var.get nosuchvar', 'ERROR: unknown variable nosuchvar (try var.list)'],
      ['var.get', 'ERROR: give a variable name: var.get amplify'],
    ];
    for (const [line, answer] of errors) expect(await station.command(line)).toBe(answer);
    expect(await station.command('var.get amplify')).toBe('1.000');
  });

  it('a browser POST to the control port runs none of its lines and is closed', async () => {
    expect(await station.command('var.get amplify')).toBe('1.000');
    const closed = await new Promise<boolean>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port: station.scheduler.controlPort,
        method: 'POST',
        path: '/',
        agent: false,
        headers: { 'Content-Type': 'text/plain' },
      });
      req.on('error', () => {});
      req.on('socket', (socket) => socket.once('close', () => resolve(true)));
      req.end('var.set amplify 0\nvar.set amplify = 0.1\n');
    });
    expect(closed).toBe(true);
    expect(await station.command('var.get amplify')).toBe('1.000');
  });

  it('titles and file names with line breaks stay inside their line, here and on the stream', async () => {
    const name = 'evil\r\nEND\r\nname.mp3';
    await runFfmpeg(
      [
        ...['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=f=440:d=4', '-ac', '2'],
        ...['-c:a', 'libmp3lame', '-metadata', 'title=a\r\nEND\r\nfake'],
        ...['-metadata', 'artist=x\u001b[31my', join(station.music, name)],
      ],
      { ffmpegPath, logger: silentLogger(), name: 'evil track' },
    );
    const rid = await station.command(
      `request.push ${pathToFileURL(join(station.music, name)).href}`,
    );
    expect(rid).toMatch(/^\d+$/);
    const title = 'x\\u001b[31my - a\\r\\nEND\\r\\nfake';
    const queue = await requestLines();
    expect(queue).toContain(`${rid} ${title} (evil\\r\\nEND\\r\\nname.mp3) [request]`);
    for (const line of queue) expect(line).toMatch(/^\d+ .+ \(.+\) \[[a-z]+\]$/);
    const metadata = (await station.command(`request.metadata ${rid}`)).split('\n');
    for (const entry of metadata) expect(entry).toMatch(/^[a-z_]+=".*"$/);
    expect(metadata).toContain('title="a\\nEND\\nfake"');
    expect(metadata).toContain('path="evil\\nEND\\nname.mp3"');
    const onAir = await waitFor(
      'the track on air',
      async () => {
        const line = await station.command('request.on_air');
        return line.startsWith(`${rid} `) ? line : undefined;
      },
      45_000,
    );
    expect(onAir).toMatch(new RegExp(`^${rid} ${escapeRegExp(title)} \\d+:\\d\\d / 0:0\\d$`));
    const streamTitle = await waitFor('its title on the stream server', async () => {
      const res = await fetch(`${station.streamUrl}/status-json.xsl`);
      const body = (await res.json()) as { icestats: { source?: { title?: string }[] } };
      const titles = (body.icestats.source ?? []).map((source) => source.title ?? '');
      return titles.find((t) => t.includes('fake'));
    });
    expect(streamTitle).toBe('x [31my - a END fake');
  });

  it('serves a piped session like nc: several commands, quit, Bye!', async () => {
    const client = await station.control();
    client.write('version\nvar.get amplify\nquit\nversion\n');
    expect(await client.readToClose()).toBe(
      `${SCHEDULER_NAME} ${SCHEDULER_VERSION}\r\nEND\r\n1.000\r\nEND\r\nBye!\r\n`,
    );
    const halfClosed = await station.control();
    halfClosed.write('var.get amplify\n');
    halfClosed.socket.end();
    expect(await halfClosed.readToClose()).toBe('1.000\r\nEND\r\n');
  });
});
