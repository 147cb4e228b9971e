import { describe, expect, test } from '@jest/globals';
import type { ContainerInfo } from '../src/docker/index.ts';
import { formatDuration, formatPorts, Printer, paint, table } from '../src/print.ts';
import { capture } from './helpers/run.ts';

function container(overrides: Partial<ContainerInfo>): ContainerInfo {
  return {
    id: 'a'.repeat(64),
    name: 'radio-api-1',
    project: 'radio',
    service: 'api',
    number: 1,
    image: 'radio-api',
    state: 'running',
    health: 'healthy',
    lastHealthOutput: null,
    startedAt: new Date('2026-11-21T11:00:00Z'),
    finishedAt: null,
    exitCode: null,
    restartCount: 0,
    ports: [],
    mounts: [],
    env: {},
    tty: false,
    networks: [],
    dependsOn: [],
    ...overrides,
  };
}

function printer(options: { json?: boolean; colour?: boolean } = {}) {
  const stdout = capture();
  const stderr = capture();
  const p = new Printer({
    stdout,
    stderr,
    json: options.json ?? false,
    colour: { stdout: options.colour ?? false, stderr: options.colour ?? false },
  });
  return { p, stdout, stderr };
}

describe('formatting', () => {
  test('table pads columns by their visible width, colour codes included', () => {
    const text = table(
      ['NAME', 'STATE'],
      [
        ['api', paint('healthy', 'green', true)],
        ['scheduler', 'starting'],
      ],
    );
    expect(text.split('\n')).toEqual([
      'NAME       STATE',
      'api        \u001b[32mhealthy\u001b[39m',
      'scheduler  starting',
    ]);
  });

  test('durations read like uptimes', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(59.9)).toBe('59s');
    expect(formatDuration(185)).toBe('3m 05s');
    expect(formatDuration(7260)).toBe('2h 01m');
    expect(formatDuration(3 * 86_400 + 4 * 3600)).toBe('3d 4h');
  });

  test('ports read like docker ps, one entry for 0.0.0.0 and ::', () => {
    expect(
      formatPorts([
        { containerPort: 1234, protocol: 'tcp', hostIp: '127.0.0.1', hostPort: 1234 },
        { containerPort: 8000, protocol: 'tcp', hostIp: '0.0.0.0', hostPort: 8000 },
        { containerPort: 8000, protocol: 'tcp', hostIp: '::', hostPort: 8000 },
      ]),
    ).toBe('127.0.0.1:1234->1234/tcp, 0.0.0.0:8000->8000/tcp');
    // As inspect() sorts them: "::" before "0.0.0.0".
    expect(
      formatPorts([
        { containerPort: 8000, protocol: 'tcp', hostIp: '::', hostPort: 8000 },
        { containerPort: 8000, protocol: 'tcp', hostIp: '0.0.0.0', hostPort: 8000 },
      ]),
    ).toBe('0.0.0.0:8000->8000/tcp');
    expect(formatPorts([])).toBe('');
  });

  test('paint does nothing when colour is off', () => {
    expect(paint('x', 'red', false)).toBe('x');
    expect(paint('x', 'red', true)).toBe('\u001b[31mx\u001b[39m');
  });
});

describe('Printer', () => {
  test('the containers table', () => {
    const { p, stdout } = printer();
    p.containers(
      [
        container({
          service: 'scheduler',
          name: 'radio-scheduler-1',
          ports: [{ containerPort: 1234, protocol: 'tcp', hostIp: '127.0.0.1', hostPort: 1234 }],
        }),
        container({ state: 'exited', exitCode: 137, health: 'unhealthy', startedAt: null }),
        container({ service: 'web', name: 'radio-web-1', health: null }),
      ],
      Date.parse('2026-11-21T11:02:03Z'),
    );
    expect(stdout.text.split('\n')).toEqual([
      'SERVICE    CONTAINER          STATE         HEALTH     UPTIME  PORTS',
      'scheduler  radio-scheduler-1  running       healthy    2m 03s  127.0.0.1:1234->1234/tcp',
      'api        radio-api-1        exited (137)  unhealthy  -       -',
      'web        radio-web-1        running       -          2m 03s  -',
      '',
    ]);
  });

  test('progress goes to stdout, or to stderr with --json', () => {
    const human = printer();
    human.p.progress('working');
    expect(human.stdout.text).toBe('working\n');
    const json = printer({ json: true });
    json.p.progress('working');
    expect(json.stdout.text).toBe('');
    expect(json.stderr.text).toBe('working\n');
  });

  test('errors and warnings go to stderr, in colour on a terminal', () => {
    const { p, stderr } = printer({ colour: true });
    p.error('broken');
    p.warn('careful');
    expect(stderr.text).toBe(
      '\u001b[31mradioctl:\u001b[39m broken\n\u001b[33mwarning:\u001b[39m careful\n',
    );
  });

  describe('log sinks', () => {
    const meta = { service: 'api', container: 'radio-api-1', prefix: false, timestamps: false };

    test('whole lines, stdout and stderr apart, a split line joined, a last line flushed', () => {
      const { p, stdout, stderr } = printer();
      const out = p.logSink('stdout', meta);
      const err = p.logSink('stderr', meta);
      out.write(Buffer.from('one\ntw'));
      err.write(Buffer.from('oops\r\n'));
      out.write(Buffer.from('o\nthree'));
      expect(stdout.text).toBe('one\ntwo\n');
      out.flush();
      err.flush();
      expect(stdout.text).toBe('one\ntwo\nthree\n');
      expect(stderr.text).toBe('oops\n');
    });

    test('a character split between chunks stays whole', () => {
      const { p, stdout } = printer();
      const out = p.logSink('stdout', meta);
      const bytes = Buffer.from('café\n');
      out.write(bytes.subarray(0, 4));
      out.write(bytes.subarray(4));
      expect(stdout.text).toBe('café\n');
    });

    test('stderr in red and a prefix per container on a terminal', () => {
      const { p, stdout, stderr } = printer({ colour: true });
      const prefixed = { ...meta, prefix: true };
      p.logSink('stdout', prefixed).write(Buffer.from('fine\n'));
      p.logSink('stderr', prefixed).write(Buffer.from('bad\n'));
      expect(stdout.text).toBe('\u001b[36mradio-api-1 | \u001b[39mfine\n');
      expect(stderr.text).toBe('\u001b[36mradio-api-1 | \u001b[39m\u001b[31mbad\u001b[39m\n');
    });

    test('--json: one object per line with the stream and the time split off', () => {
      const { p, stdout, stderr } = printer({ json: true });
      const sink = p.logSink('stderr', { ...meta, timestamps: true });
      sink.write(Buffer.from('2026-11-21T11:00:00.123456789Z it broke\n'));
      expect(stderr.text).toBe('');
      expect(JSON.parse(stdout.text)).toEqual({
        service: 'api',
        container: 'radio-api-1',
        stream: 'stderr',
        time: '2026-11-21T11:00:00.123456789Z',
        line: 'it broke',
      });
    });
  });
});
