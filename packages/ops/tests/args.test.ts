import { describe, expect, test } from '@jest/globals';
import { commandUsage, parseArgs, parseSince, parseTail, usage } from '../src/args.ts';
import { UsageError } from '../src/errors.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');

function usageError(argv: string[]): UsageError {
  try {
    parseArgs(argv, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error(`parsed: ${argv.join(' ')}`);
}

describe('parseArgs', () => {
  test('no command, --help and help show the usage', () => {
    expect(parseArgs([], NOW).command).toEqual({ name: 'help', topic: undefined });
    expect(parseArgs(['--help'], NOW).command).toEqual({ name: 'help', topic: undefined });
    expect(parseArgs(['help', 'logs'], NOW).command).toEqual({ name: 'help', topic: 'logs' });
    expect(parseArgs(['logs', '--help'], NOW).command).toEqual({ name: 'help', topic: 'logs' });
    expect(parseArgs(['-V'], NOW).command).toEqual({ name: 'version' });
    expect(parseArgs(['status', '--version'], NOW).command).toEqual({ name: 'version' });
  });

  test('global options go before or after the command', () => {
    const before = parseArgs(['--json', '-p', 'Radio', 'ps'], NOW);
    const after = parseArgs(['ps', '--project=Radio', '--json'], NOW);
    for (const parsed of [before, after]) {
      expect(parsed.global).toEqual({ json: true, project: 'Radio', color: undefined });
      expect(parsed.command).toEqual({ name: 'ps' });
    }
    expect(parseArgs(['--no-color', 'status'], NOW).global.color).toBe(false);
    expect(parseArgs(['--color', 'status'], NOW).global.color).toBe(true);
  });

  test('logs takes one service and its options', () => {
    expect(parseArgs(['logs', 'scheduler'], NOW).command).toEqual({
      name: 'logs',
      service: 'scheduler',
      follow: false,
      tail: 'all',
      since: undefined,
      timestamps: false,
    });
    expect(
      parseArgs(['logs', '-f', '-n', '20', '--since', '10m', '-t', 'api'], NOW).command,
    ).toEqual({
      name: 'logs',
      service: 'api',
      follow: true,
      tail: 20,
      since: NOW / 1000 - 600,
      timestamps: true,
    });
    expect(usageError(['logs']).message).toBe('logs takes one service name');
    expect(usageError(['logs', 'a', 'b']).command).toBe('logs');
    expect(usageError(['logs', 'api', '--tail', '-3']).message).toContain('--tail');
  });

  test('restart takes any number of services, --timeout and --no-wait', () => {
    expect(parseArgs(['restart'], NOW).command).toEqual({
      name: 'restart',
      services: [],
      wait: true,
      timeoutSeconds: 120,
    });
    expect(
      parseArgs(['restart', 'api', 'web', 'api', '--timeout', '30', '--no-wait'], NOW).command,
    ).toEqual({
      name: 'restart',
      services: ['api', 'web'],
      wait: false,
      timeoutSeconds: 30,
    });
    expect(usageError(['restart', '--timeout', '0']).message).toContain('--timeout');
    expect(usageError(['restart', '--timeout', 'soon']).message).toContain('"soon"');
  });

  test('add takes files and its options', () => {
    expect(parseArgs(['add', 'a.mp3', 'b c.flac'], NOW).command).toEqual({
      name: 'add',
      files: ['a.mp3', 'b c.flac'],
      wait: true,
      timeoutSeconds: 60,
      force: false,
      service: 'scheduler',
    });
    expect(
      parseArgs(['add', '--force', '--no-wait', '--service', 'radio', 'x.mp3'], NOW).command,
    ).toMatchObject({
      force: true,
      wait: false,
      service: 'radio',
    });
    expect(usageError(['add']).message).toBe('add takes one or more audio files');
  });

  test('refuses unknown commands, unknown options and options of other commands', () => {
    expect(usageError(['frobnicate']).message).toBe(
      'unknown command "frobnicate" (commands: ps, logs, restart, add, status, help)',
    );
    expect(usageError(['ps', '--bogus']).message).toContain("Unknown option '--bogus'");
    expect(usageError(['ps', '--follow'])).toMatchObject({
      message: 'ps does not take --follow',
      command: 'ps',
    });
    expect(usageError(['status', 'extra']).message).toBe('status takes no arguments');
    expect(usageError(['help', 'nope']).message).toContain('no help on "nope"');
    expect(usageError(['ps', '--project', ' ']).message).toBe('--project needs a name');
  });

  test('a usage error is exit code 2', () => {
    expect(usageError(['nope']).exitCode).toBe(2);
    expect(usageError(['nope']).code).toBe('OPS_USAGE');
  });
});

describe('parseTail and parseSince', () => {
  test('tail is a count or all', () => {
    expect(parseTail('0')).toBe(0);
    expect(parseTail('250')).toBe(250);
    expect(parseTail('all')).toBe('all');
    expect(() => parseTail('1.5')).toThrow(UsageError);
  });

  test('since reads durations, unix seconds and dates', () => {
    expect(parseSince('30s', NOW)).toBe(NOW / 1000 - 30);
    expect(parseSince('1h30m', NOW)).toBe(NOW / 1000 - 5400);
    expect(parseSince('2d', NOW)).toBe(NOW / 1000 - 172_800);
    expect(parseSince('500ms', NOW)).toBeCloseTo(NOW / 1000 - 0.5, 6);
    expect(parseSince('1763719200', NOW)).toBe(1_763_719_200);
    expect(parseSince('1763719200.25', NOW)).toBe(1_763_719_200.25);
    expect(parseSince('2026-11-21T10:00:00Z', NOW)).toBe(Date.parse('2026-11-21T10:00:00Z') / 1000);
    for (const bad of ['yesterday', '10 minutes', '-5m', '']) {
      expect(() => parseSince(bad, NOW)).toThrow(UsageError);
    }
  });
});

describe('usage', () => {
  test('the full text names every command, the environment and the exit codes', () => {
    const text = usage();
    for (const word of [
      'ps',
      'logs <service>',
      'restart [service...]',
      'add <file...>',
      'status',
    ]) {
      expect(text).toContain(`\n  ${word}`);
    }
    expect(text).toContain('DOCKER_HOST');
    expect(text).toContain('COMPOSE_PROJECT_NAME');
    expect(text).toContain('3 Docker not reachable, 4 stack not running, 5 unknown service');
  });

  test("one command's help has its options and the global ones", () => {
    const text = usage('restart');
    expect(text.startsWith('Usage: radioctl [global options] restart [service...]')).toBe(true);
    expect(text).toContain('--no-wait');
    expect(text).not.toContain('--follow');
    expect(text).toContain('--json');
    expect(commandUsage('ps')[0]).toBe('Usage: radioctl [global options] ps');
  });
});
