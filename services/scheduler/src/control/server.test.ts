import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { silentLogger } from '@radio/core';
import { captureLogger, type LogLine } from '@radio/core/testing';
import { ControlClient } from '../../tests/helpers/control-client.ts';
import { SchedulerError } from '../errors.ts';
import { renderAnswer } from './answer.ts';
import { registerBuiltins } from './builtins.ts';
import { CommandRegistry } from './registry.ts';
import { ControlServer, UNKNOWN_COMMAND } from './server.ts';

describe('ControlServer framing and limits', () => {
  let server: ControlServer;
  let clients: ControlClient[];

  const open = async (): Promise<ControlClient> => {
    const client = await ControlClient.connect(server.port);
    clients.push(client);
    return client;
  };

  beforeEach(async () => {
    clients = [];
    const registry = new CommandRegistry();
    // A fixed start, half a second into 01h 02m 03s: a start read again at each call could
    // land a millisecond after the clock the uptime is taken from, and read 02s.
    const startedAt = Date.now() - 3_723_500;
    registerBuiltins(registry, () => startedAt);
    registry.add('echo', 'echo <text>', 'Answers its argument.', (args) => args);
    registry.add('empty', 'empty', 'Answers nothing.', () => '');
    registry.add('slow', 'slow', 'Answers late.', async () => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      return 'slow done';
    });
    registry.add('fail', 'fail', 'Fails cleanly.', () => {
      throw new SchedulerError('SCHEDULER_BAD_VALUE', 'that value is wrong');
    });
    registry.add('crash', 'crash', 'Fails with a bug.', () => {
      throw new TypeError('boom');
    });
    server = new ControlServer({
      host: '127.0.0.1',
      port: 0,
      registry,
      logger: silentLogger(),
      maxClients: 5,
      maxLineBytes: 64,
      idleTimeoutMs: 1500,
    });
    await server.start();
  });

  afterEach(async () => {
    for (const client of clients) client.close();
    await server.stop();
  });

  it('frames each answer as body CRLF END CRLF, an empty body as CRLF END CRLF', async () => {
    const client = await open();
    client.write('echo hello world\n');
    expect(await client.readUntil('END\r\n')).toBe('hello world\r\nEND\r\n');
    client.write('empty\n');
    expect(await client.readUntil('END\r\n')).toBe('\r\nEND\r\n');
  });

  it('accepts CRLF line ends and trims the arguments', async () => {
    const client = await open();
    client.write('echo   spaced   \r\n');
    expect(await client.readUntil('END\r\n')).toBe('spaced\r\nEND\r\n');
  });

  it('answers several commands of one write in order, even when the first is slow', async () => {
    const client = await open();
    client.write('slow\necho second\nuptime\n');
    const first = await client.readUntil('END\r\n');
    const second = await client.readUntil('END\r\n');
    const third = await client.readUntil('END\r\n');
    expect([first, second, third]).toEqual([
      'slow done\r\nEND\r\n',
      'second\r\nEND\r\n',
      '0d 01h 02m 03s\r\nEND\r\n',
    ]);
  });

  it('ignores an empty line and answers a blank one with the unknown-command error', async () => {
    const client = await open();
    client.write('\n');
    client.write('\r\n');
    expect(await client.readFor(300)).toBe('');
    client.write('   \n');
    expect(await client.readUntil('END\r\n')).toBe(`${UNKNOWN_COMMAND}\r\nEND\r\n`);
    expect(UNKNOWN_COMMAND).toBe('ERROR: unknown command, type "help" to get a list of commands.');
  });

  it('is case sensitive and ignores extra arguments of a command that takes none', async () => {
    const client = await open();
    expect(await client.command('UPTIME')).toBe(UNKNOWN_COMMAND);
    expect(await client.command('uptime extra args')).toBe('0d 01h 02m 03s');
  });

  it('answers quit and exit with Bye! and closes, ignoring what follows', async () => {
    for (const word of ['quit', 'exit']) {
      const client = await open();
      client.write(`echo before\n${word}\necho after\n`);
      expect(await client.readToClose()).toBe(`before\r\nEND\r\nBye!\r\n`);
    }
  });

  it('answers pending commands after the client half-closes, then closes', async () => {
    const client = await open();
    client.write('slow\necho piped\n');
    client.socket.end();
    expect(await client.readToClose()).toBe('slow done\r\nEND\r\npiped\r\nEND\r\n');
  });

  it('does not run a last line without its newline (as Liquidsoap)', async () => {
    const client = await open();
    client.write('echo one\necho unterminated');
    client.socket.end();
    expect(await client.readToClose()).toBe('one\r\nEND\r\n');
  });

  it('turns a failing command into one ERROR line and keeps the connection', async () => {
    const client = await open();
    expect(await client.command('fail')).toBe('ERROR: that value is wrong');
    expect(await client.command('crash')).toBe('ERROR: internal error');
    expect(await client.command('echo still here')).toBe('still here');
  });

  it('refuses a line over the limit with an error and closes; others are still served', async () => {
    const other = await open();
    const client = await open();
    client.write(`echo ${'x'.repeat(100)}\n`);
    const answer = await client.readToClose();
    expect(answer).toMatch(/^ERROR: line too long \(more than 64 bytes\).*\r\nEND\r\n$/);
    // The same without a newline at all: refused as soon as it passes the limit.
    const flood = await open();
    flood.write('y'.repeat(200));
    expect(await flood.readToClose()).toMatch(/^ERROR: line too long/);
    expect(await other.command('echo fine')).toBe('fine');
  });

  it('refuses binary data with an error and closes', async () => {
    const client = await open();
    client.write(Buffer.from([0x00, 0xff, 0xfe, 0x01, 0x0a]));
    expect(await client.readToClose()).toBe(
      'ERROR: binary data is not a command, closing the connection.\r\nEND\r\n',
    );
    const invalidUtf8 = await open();
    invalidUtf8.write(Buffer.from([0x65, 0x63, 0x68, 0x6f, 0x20, 0xc3, 0x28, 0x0a]));
    expect(await invalidUtf8.readToClose()).toMatch(/^ERROR: binary data/);
    const text = await open();
    expect(await text.command('echo Café ☃')).toBe('Café ☃');
  });

  it('tells a client over the connection limit and keeps serving the others', async () => {
    const connected: ControlClient[] = [];
    for (let i = 0; i < 5; i++) connected.push(await open());
    // Each of these is accepted by the kernel; the server answers them once it sees them.
    for (const client of connected) expect(await client.command('echo in')).toBe('in');
    const extra = await open();
    expect(await extra.readToClose()).toBe(
      'ERROR: too many clients (5 connected), try again later.\r\nEND\r\n',
    );
    expect(await (connected[0] as ControlClient).command('echo still')).toBe('still');
    (connected[4] as ControlClient).close();
    const deadline = Date.now() + 5000;
    while (server.clientCount >= 5 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const next = await open();
    expect(await next.command('echo room again')).toBe('room again');
  });

  it('closes an idle client', async () => {
    const client = await open();
    expect(await client.command('echo awake')).toBe('awake');
    expect(await client.readToClose(10_000)).toBe('');
  });
});

describe('ControlServer answers with user text in them', () => {
  let server: ControlServer;
  let client: ControlClient;

  beforeEach(async () => {
    const registry = new CommandRegistry();
    registry.add('title', 'title', 'A title as a tag gave it.', () => 'a\r\nEND\r\nfake');
    registry.add('titles', 'titles', 'Lines of titles.', () => [
      'one',
      'two\nthree',
      'esc\u001b[31m',
    ]);
    registry.add('tags', 'tags', 'LF lines.', () => ({ lf: ['title="x\ry"', 'artist="\u2028z"'] }));
    registry.add('bad', 'bad', 'An error naming a title.', () => {
      throw new SchedulerError('SCHEDULER_BAD_VALUE', 'no such title: a\r\nEND\r\nx');
    });
    server = new ControlServer({ host: '127.0.0.1', port: 0, registry, logger: silentLogger() });
    await server.start();
    client = await ControlClient.connect(server.port);
  });

  afterEach(async () => {
    client.close();
    await server.stop();
  });

  it('escapes CR, LF and other control characters: no value ends an answer or adds a line', async () => {
    client.write('title\ntitles\ntags\nbad\n');
    expect(await client.readUntil('END\r\n')).toBe('a\\r\\nEND\\r\\nfake\r\nEND\r\n');
    expect(await client.readUntil('END\r\n')).toBe(
      'one\r\ntwo\\nthree\r\nesc\\u001b[31m\r\nEND\r\n',
    );
    expect(await client.readUntil('END\r\n')).toBe('title="x\\ry"\nartist="\\u2028z"\r\nEND\r\n');
    expect(await client.readUntil('END\r\n')).toBe(
      'ERROR: no such title: a\\r\\nEND\\r\\nx\r\nEND\r\n',
    );
    expect(await client.readFor(200)).toBe('');
  });
});

describe('ControlServer and browsers (cross-protocol requests)', () => {
  let server: ControlServer;
  let ran: string[];
  let logs: LogLine[];

  beforeEach(async () => {
    ran = [];
    const registry = new CommandRegistry();
    registry.add('request.skip', 'request.skip', 'Skip.', () => {
      ran.push('request.skip');
      return 'Done.';
    });
    registry.add('var.set', 'var.set <name> = <value>', 'Set.', (args) => {
      ran.push(`var.set ${args}`);
      return 'Variable amplify set.';
    });
    registry.add('echo', 'echo <text>', 'Answers its argument.', (args) => args);
    const capture = captureLogger();
    logs = capture.lines;
    server = new ControlServer({ host: '127.0.0.1', port: 0, registry, logger: capture.logger });
    await server.start();
  });

  afterEach(async () => {
    await server.stop();
  });

  /** A web page's POST as the browser sends it; resolves once the connection is closed. */
  function post(body: string): Promise<{ closed: boolean; status: number | null }> {
    return new Promise((resolve) => {
      let status: number | null = null;
      const req = httpRequest({
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path: '/',
        agent: false,
        headers: { 'Content-Type': 'text/plain', Origin: 'https://evil.example' },
      });
      req.on('response', (res) => {
        status = res.statusCode ?? null;
        res.resume();
      });
      req.on('error', () => {});
      req.on('socket', (socket) => socket.once('close', () => resolve({ closed: true, status })));
      req.end(body);
    });
  }

  it('closes an HTTP POST before any line of it runs, head and body in one packet', async () => {
    const outcome = await post('request.skip\nvar.set amplify 0\nvar.set amplify = 0\n');
    expect(outcome).toEqual({ closed: true, status: null });
    expect(ran).toEqual([]);
    const client = await ControlClient.connect(server.port);
    expect(await client.command('echo still served')).toBe('still served');
    client.close();
    expect(ran).toEqual([]);
  });

  it('closes on any HTTP request line (a custom method too) or a Host: line at any point', async () => {
    const heads = [
      'GET /x HTTP/1.1\r\nrequest.skip\r\n',
      'request.skip /x HTTP/1.1\r\n',
      'PRI * HTTP/2.0\r\n',
      'echo hi\nhost: 127.0.0.1:1234\nrequest.skip\n',
    ];
    for (const head of heads) {
      const client = await ControlClient.connect(server.port);
      client.write(head);
      expect(await client.readToClose()).toBe(
        'ERROR: this is the control port, not a web server.\r\nEND\r\n',
      );
    }
    expect(ran).toEqual([]);
    // A line answered before the Host: line arrived stays answered; nothing after it runs.
    const client = await ControlClient.connect(server.port);
    expect(await client.command('echo first')).toBe('first');
    client.write('Host: 127.0.0.1\r\nvar.set amplify 0\r\n');
    expect(await client.readToClose()).toMatch(/^ERROR: this is the control port/);
    expect(ran).toEqual([]);
  });

  it('logs the refusal once per client and interval', async () => {
    for (let i = 0; i < 3; i++) expect((await post('request.skip\n')).closed).toBe(true);
    const refusals = logs.filter((line) => line.refusal === 'http');
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ level: 'warn', ip: '127.0.0.1' });
    expect(ran).toEqual([]);
  });
});

describe('help', () => {
  it('lists every command with its usage, Liquidsoap style, and explains one', async () => {
    const registry = new CommandRegistry();
    registerBuiltins(registry, () => Date.now());
    registry.add(
      'request.push',
      'request.push <uri>',
      'Push a new request in the queue.',
      () => '',
    );
    const help = async (args: string) =>
      renderAnswer((await registry.get('help')?.handler(args)) ?? '');
    expect(await help('')).toBe(
      'Available commands:\r\n| exit\r\n| help [<command>]\r\n| quit\r\n| request.push <uri>\r\n| uptime\r\n| version\r\n\r\nType "help <command>" for more information.',
    );
    expect(await help('request.push')).toBe(
      'Usage: request.push <uri>\r\n  Push a new request in the queue.',
    );
    expect(await help('nosuch.command')).toMatch(
      /^No such command: nosuch.command\r\nAvailable commands:\r\n/,
    );
  });

  it('refuses a command registered twice', () => {
    const registry = new CommandRegistry();
    registry.add('a', 'a', 'first', () => '');
    expect(() => registry.add('a', 'a', 'again', () => '')).toThrow(
      expect.objectContaining({ code: 'SCHEDULER_COMMAND_EXISTS' }),
    );
  });
});
