// radioctl's entry: argv and the environment in, one command run, an exit code out. Nothing
// else in the package reads process.env or process.argv.
import { readFileSync } from 'node:fs';
import { type Command, commandUsage, parseArgs, usage } from './args.ts';
import { addMusic } from './commands/add-music.ts';
import { logs } from './commands/logs.ts';
import { ps } from './commands/ps.ts';
import { restart } from './commands/restart.ts';
import { status } from './commands/status.ts';
import type { CommandContext } from './context.ts';
import { DockerClient, dockerEndpoint } from './docker/index.ts';
import { EXIT_CODES, OpsError, UsageError } from './errors.ts';
import { type OutputStream, Printer } from './print.ts';
import { resolveProject } from './stack.ts';

export interface MainOptions {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdout: OutputStream;
  stderr: OutputStream;
  /** Aborts followed logs and waits (Ctrl-C). */
  signal?: AbortSignal;
  now?: () => number;
}

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

function wantsColour(
  stream: OutputStream,
  flag: boolean | undefined,
  env: MainOptions['env'],
): boolean {
  if (flag !== undefined) return flag;
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '') return env.FORCE_COLOR !== '0';
  return stream.isTTY === true && env.TERM !== 'dumb';
}

async function run(ctx: CommandContext, command: Command): Promise<number> {
  switch (command.name) {
    case 'ps':
      return ps(ctx);
    case 'logs':
      return logs(ctx, command);
    case 'restart':
      return restart(ctx, command);
    case 'add':
      return addMusic(ctx, command);
    case 'status':
      return status(ctx);
    case 'help':
    case 'version':
      return EXIT_CODES.ok;
  }
}

/** Runs one radioctl command line; never throws, returns the exit code. */
export async function main(options: MainOptions): Promise<number> {
  const now = options.now ?? Date.now;
  const signal = options.signal ?? new AbortController().signal;
  const plain = new Printer({
    stdout: options.stdout,
    stderr: options.stderr,
    json: false,
    colour: { stdout: false, stderr: wantsColour(options.stderr, undefined, options.env) },
  });
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs(options.argv, now());
  } catch (error) {
    if (error instanceof UsageError) {
      plain.error(error.message);
      const help = error.command ? commandUsage(error.command) : [];
      options.stderr.write(
        `${help.length > 0 ? `\n${help.join('\n')}\n` : ''}\nSee radioctl --help for every command and option.\n`,
      );
      return error.exitCode;
    }
    throw error;
  }
  const { global, command } = parsed;
  const printer = new Printer({
    stdout: options.stdout,
    stderr: options.stderr,
    json: global.json,
    colour: {
      stdout: wantsColour(options.stdout, global.color, options.env),
      stderr: wantsColour(options.stderr, global.color, options.env),
    },
  });
  if (command.name === 'help') {
    printer.text(usage(command.topic));
    return EXIT_CODES.ok;
  }
  if (command.name === 'version') {
    printer.text(`radioctl ${version()}`);
    return EXIT_CODES.ok;
  }

  try {
    const project = resolveProject({ flag: global.project, env: options.env, cwd: options.cwd });
    const docker = await DockerClient.connect(dockerEndpoint(options.env));
    const ctx: CommandContext = {
      docker,
      project,
      printer,
      now,
      signal,
      pathVar: options.env.PATH,
      cwd: options.cwd,
    };
    return await run(ctx, command);
  } catch (error) {
    const known = error instanceof OpsError;
    const code = known ? error.code : 'OPS_INTERNAL';
    const message = known ? error.message : ((error as Error)?.stack ?? String(error));
    const exitCode = known ? error.exitCode : EXIT_CODES.failed;
    printer.error(message);
    if (global.json) {
      options.stdout.write(`${JSON.stringify({ error: { code, message, exitCode } }, null, 2)}\n`);
    }
    return exitCode;
  }
}

/** The process around main: Ctrl-C stops a followed log or a wait; a closed pipe ends quietly. */
export async function runCli(): Promise<void> {
  const controller = new AbortController();
  let interrupts = 0;
  const interrupt = (): void => {
    interrupts += 1;
    // A second Ctrl-C does not wait for anything.
    if (interrupts > 1) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  const code = await main({
    argv: process.argv.slice(2),
    env: process.env,
    cwd: process.cwd(),
    stdout: process.stdout,
    stderr: process.stderr,
    signal: controller.signal,
  });
  process.exitCode = code;
  process.off('SIGINT', interrupt);
  process.off('SIGTERM', interrupt);
}
