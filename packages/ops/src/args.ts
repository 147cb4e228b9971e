import { parseArgs as parseNodeArgs } from 'node:util';
import { UsageError } from './errors.ts';

export interface GlobalOptions {
  json: boolean;
  /** --project; undefined: from COMPOSE_PROJECT_NAME or the folder. */
  project: string | undefined;
  /** --color / --no-color; undefined: colour on a terminal only. */
  color: boolean | undefined;
}

export interface LogsCommand {
  name: 'logs';
  service: string;
  follow: boolean;
  /** Lines from the end; 'all' for every line. */
  tail: number | 'all';
  /** Unix seconds; only lines at or after it. */
  since: number | undefined;
  timestamps: boolean;
}

export interface RestartCommand {
  name: 'restart';
  /** Empty: every service of the stack. */
  services: string[];
  wait: boolean;
  timeoutSeconds: number;
}

export interface AddCommand {
  name: 'add';
  files: string[];
  wait: boolean;
  timeoutSeconds: number;
  force: boolean;
  /** The service whose music folder receives the files. */
  service: string;
}

export type Command =
  | { name: 'help'; topic: string | undefined }
  | { name: 'version' }
  | { name: 'ps' }
  | LogsCommand
  | RestartCommand
  | AddCommand
  | { name: 'status' };

export interface ParsedArgs {
  global: GlobalOptions;
  command: Command;
}

export const COMMANDS = ['ps', 'logs', 'restart', 'add', 'status', 'help'] as const;

export const DEFAULT_RESTART_TIMEOUT_SECONDS = 120;
export const DEFAULT_ADD_TIMEOUT_SECONDS = 60;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
  json: { type: 'boolean' },
  project: { type: 'string', short: 'p' },
  color: { type: 'boolean' },
  follow: { type: 'boolean', short: 'f' },
  tail: { type: 'string', short: 'n' },
  since: { type: 'string' },
  timestamps: { type: 'boolean', short: 't' },
  timeout: { type: 'string' },
  wait: { type: 'boolean' },
  force: { type: 'boolean' },
  service: { type: 'string' },
} as const;

type OptionName = keyof typeof OPTIONS;

const GLOBAL_OPTIONS: readonly OptionName[] = ['help', 'version', 'json', 'project', 'color'];

/** Options each command takes besides the global ones. */
const COMMAND_OPTIONS: Record<(typeof COMMANDS)[number], readonly OptionName[]> = {
  ps: [],
  logs: ['follow', 'tail', 'since', 'timestamps'],
  restart: ['timeout', 'wait'],
  add: ['timeout', 'wait', 'force', 'service'],
  status: [],
  help: [],
};

function isCommand(name: string): name is (typeof COMMANDS)[number] {
  return (COMMANDS as readonly string[]).includes(name);
}

/** `--tail` value: a count of lines, or `all`. */
export function parseTail(text: string): number | 'all' {
  if (text === 'all') return 'all';
  if (!/^\d+$/.test(text)) {
    throw new UsageError(`--tail takes a number of lines or "all", not "${text}"`, 'logs');
  }
  return Number(text);
}

const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * `--since` value as unix seconds: a duration ago (`90s`, `10m`, `1h30m`, `2d`), unix seconds
 * (`1763719200`, `1763719200.5`), or a date the Date parser reads (`2026-11-21T10:00:00Z`).
 */
export function parseSince(text: string, nowMs: number): number {
  const trimmed = text.trim();
  if (/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(trimmed)) {
    let seconds = 0;
    for (const match of trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) {
      seconds += Number(match[1]) * (UNIT_SECONDS[match[2] as string] ?? 0);
    }
    return nowMs / 1000 - seconds;
  }
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  // Only strings that look like a date: Date.parse also accepts odd things such as "1".
  const ms = /^\d{4}-\d{2}-\d{2}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new UsageError(
      `--since takes a duration (30s, 10m, 2h, 1d), unix seconds or a date (2026-11-21T10:00:00Z), not "${text}"`,
      'logs',
    );
  }
  return ms / 1000;
}

function parseTimeout(text: string | undefined, fallback: number, command: string): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || value <= 0) {
    throw new UsageError(`--timeout takes a number of seconds above 0, not "${text}"`, command);
  }
  return value;
}

/** Turns argv (without node and the script) into a command, or throws a UsageError. */
export function parseArgs(argv: readonly string[], nowMs: number = Date.now()): ParsedArgs {
  let parsed: ReturnType<typeof parseNodeArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseNodeArgs({
      args: [...argv],
      options: OPTIONS,
      allowPositionals: true,
      allowNegative: true,
      strict: true,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Node's text explains `--` at length; the first sentence is what a person needs.
    throw new UsageError(message.split('. ')[0]?.replace(/\.$/, '') ?? message);
  }
  const { values, positionals } = parsed;
  const global: GlobalOptions = {
    json: values.json === true,
    project: values.project,
    color: values.color,
  };
  if (global.project !== undefined && global.project.trim() === '') {
    throw new UsageError('--project needs a name');
  }

  const [name, ...rest] = positionals;
  if (values.version === true) return { global, command: { name: 'version' } };
  if (name === undefined) return { global, command: { name: 'help', topic: undefined } };
  if (!isCommand(name)) {
    throw new UsageError(`unknown command "${name}" (commands: ${COMMANDS.join(', ')})`);
  }
  if (values.help === true) return { global, command: { name: 'help', topic: name } };

  const allowed = new Set<OptionName>([...GLOBAL_OPTIONS, ...COMMAND_OPTIONS[name]]);
  for (const option of Object.keys(values) as OptionName[]) {
    if (!allowed.has(option)) {
      throw new UsageError(`${name} does not take --${option}`, name);
    }
  }

  switch (name) {
    case 'help':
      if (rest.length > 1) throw new UsageError('help takes at most one command name', 'help');
      if (rest[0] !== undefined && !isCommand(rest[0])) {
        throw new UsageError(`no help on "${rest[0]}": commands are ${COMMANDS.join(', ')}`);
      }
      return { global, command: { name: 'help', topic: rest[0] } };
    case 'ps':
    case 'status':
      if (rest.length > 0) throw new UsageError(`${name} takes no arguments`, name);
      return { global, command: { name } };
    case 'logs': {
      if (rest.length !== 1) throw new UsageError('logs takes one service name', 'logs');
      return {
        global,
        command: {
          name: 'logs',
          service: rest[0] as string,
          follow: values.follow === true,
          tail: values.tail === undefined ? 'all' : parseTail(values.tail),
          since: values.since === undefined ? undefined : parseSince(values.since, nowMs),
          timestamps: values.timestamps === true,
        },
      };
    }
    case 'restart':
      return {
        global,
        command: {
          name: 'restart',
          services: [...new Set(rest)],
          wait: values.wait !== false,
          timeoutSeconds: parseTimeout(values.timeout, DEFAULT_RESTART_TIMEOUT_SECONDS, 'restart'),
        },
      };
    case 'add':
      if (rest.length === 0) throw new UsageError('add takes one or more audio files', 'add');
      if (values.service !== undefined && values.service.trim() === '') {
        throw new UsageError('--service needs a name', 'add');
      }
      return {
        global,
        command: {
          name: 'add',
          files: rest,
          wait: values.wait !== false,
          timeoutSeconds: parseTimeout(values.timeout, DEFAULT_ADD_TIMEOUT_SECONDS, 'add'),
          force: values.force === true,
          service: values.service ?? 'scheduler',
        },
      };
  }
}

const USAGE = `radioctl: run the radio station's Docker Compose stack

Usage: radioctl [global options] <command> [options]

Commands:
  ps                      the stack's containers: service, container, state, health, uptime, ports
  logs <service>          a service's logs, stdout and stderr apart (stderr in red on a terminal)
    -f, --follow          keep printing new lines until Ctrl-C
    -n, --tail N          only the last N lines (default: all)
    --since T             only lines since T: a time ago (30s, 10m, 2h, 1d), a date
                          (2026-11-21T10:00:00Z) or unix seconds
    -t, --timestamps      show each line's time
  restart [service...]    restart services (all when none is named) in dependency order,
                          each one healthy before the next
    --timeout S           how long to wait for each service's health (default ${DEFAULT_RESTART_TIMEOUT_SECONDS})
    --no-wait             do not wait for health
  add <file...>           check each file is audio, copy it into the music folder the scheduler
                          watches, and wait until the scheduler has indexed it
    --timeout S           how long to wait for the indexing (default ${DEFAULT_ADD_TIMEOUT_SECONDS})
    --no-wait             copy only
    --force               replace a different file of the same name
    --service NAME        the service whose music folder to use (default scheduler)
  status                  containers, the first admin's setup code while there is none, now
                          playing, listeners per mount, queue length
  help [command]          this text, or one command's

Global options:
  -p, --project NAME      the compose project (default: COMPOSE_PROJECT_NAME, else the name of the
                          folder holding docker-compose.yml, looked up from the current folder)
  --json                  machine-readable output on stdout
  --no-color              never colour (also NO_COLOR=1); --color colours even into a pipe
  -h, --help              this text
  -V, --version           radioctl's version

Environment:
  DOCKER_HOST             the Docker engine (default unix:///var/run/docker.sock)
  COMPOSE_PROJECT_NAME    the compose project, as for docker compose

Exit codes:
  0 done, 1 failed (not healthy or not indexed in time, Docker refused), 2 wrong usage,
  3 Docker not reachable, 4 stack not running, 5 unknown service, 6 bad file (missing,
  not audio, already there)
`;

/** The full usage, or the part about one command. */
export function usage(topic?: string): string {
  if (topic === undefined || !isCommand(topic) || topic === 'help') return USAGE;
  const lines = USAGE.split('\n');
  const globalStart = lines.indexOf('Global options:');
  return [...commandUsage(topic), '', ...lines.slice(globalStart)].join('\n');
}

/** One command's usage line and options, for an error about its arguments. */
export function commandUsage(topic: string): string[] {
  const lines = USAGE.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`  ${topic} `) || line === `  ${topic}`);
  if (start < 0) return [];
  let end = start + 1;
  while (end < lines.length && /^ {3,}/.test(lines[end] as string)) end++;
  return [
    `Usage: radioctl [global options] ${(lines[start] as string).trim().split(/\s{2,}/)[0]}`,
    '',
    ...lines.slice(start, end),
  ];
}
