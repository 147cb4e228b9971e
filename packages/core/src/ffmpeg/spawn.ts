import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { RadioError } from '../errors.ts';
import type { Logger } from '../logging/logger.ts';

export class FfmpegExitError extends RadioError {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderrTail: readonly string[];

  constructor(
    name: string,
    exitCode: number | null,
    signal: NodeJS.Signals | null,
    tail: string[],
  ) {
    const how = signal ? `was killed by ${signal}` : `exited with code ${exitCode}`;
    const last = tail.length > 0 ? `: ${tail.join(' | ')}` : '';
    super('FFMPEG_FAILED', `ffmpeg (${name}) ${how}${last}`);
    this.exitCode = exitCode;
    this.signal = signal;
    this.stderrTail = tail;
  }
}

export interface SpawnFfmpegOptions {
  ffmpegPath: string;
  logger: Logger;
  /** Names the job in logs and errors ("decoder", "encoder /radio.mp3" ...). */
  name: string;
  /** Aborting kills the child: the owner passes its lifetime signal. */
  signal?: AbortSignal;
  stdin?: 'pipe' | 'ignore';
  stdout?: 'pipe' | 'ignore';
  /**
   * Extra pipes the child writes to, at fd 3, 4, … (ffmpeg's `pipe:3` …): one process can
   * produce several outputs.
   */
  extraOutputs?: number;
  /** How many stderr lines to keep for the error of a failed exit. */
  tailLines?: number;
  /** Grace between SIGTERM and SIGKILL when disposing. */
  killAfterMs?: number;
}

export interface FfmpegProcess {
  readonly child: ChildProcess;
  readonly pid: number | undefined;
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  /** The `extraOutputs` pipes, fd 3 first. */
  readonly outputs: readonly Readable[];
  /** Settles when the child exits: resolves on code 0, rejects with FfmpegExitError otherwise. */
  readonly exited: Promise<void>;
  /** Stops the child (SIGTERM, then SIGKILL) and waits for it; idempotent; never rejects. */
  dispose(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * The one way the station starts ffmpeg: stderr goes to the logger line by line (debug, as
 * ffmpeg is chatty), the last lines are kept for the error, and the child dies with its owner.
 */
export function spawnFfmpeg(args: readonly string[], options: SpawnFfmpegOptions): FfmpegProcess {
  const log = options.logger.child({ ffmpeg: options.name });
  const tailLines = options.tailLines ?? 12;
  const tail: string[] = [];
  let disposing = false;

  const extra = Array.from({ length: options.extraOutputs ?? 0 }, () => 'pipe' as const);
  const child = spawn(options.ffmpegPath, ['-hide_banner', '-nostats', ...args], {
    stdio: [options.stdin ?? 'ignore', options.stdout ?? 'pipe', 'pipe', ...extra],
  });
  const outputs = child.stdio.slice(3) as Readable[];
  log.debug({ pid: child.pid, args }, 'ffmpeg started');

  let partial = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    const lines = (partial + text).split(/\r?\n|\r/);
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      tail.push(line);
      if (tail.length > tailLines) tail.shift();
      log.debug({ line }, 'ffmpeg stderr');
    }
  });
  // A reader that went away (EPIPE) is reported by the exit code; it must not crash us.
  child.stdin?.on('error', (error) => log.debug({ err: error }, 'ffmpeg stdin closed'));
  child.stdout?.on('error', (error) => log.debug({ err: error }, 'ffmpeg stdout error'));
  for (const output of outputs) {
    output.on('error', (error) => log.debug({ err: error }, 'ffmpeg output pipe error'));
  }

  const exited = new Promise<void>((resolve, reject) => {
    child.once('error', (error) =>
      reject(
        new RadioError(
          'FFMPEG_SPAWN_FAILED',
          `cannot start ffmpeg (${options.name}): ${error.message}`,
        ),
      ),
    );
    child.once('close', (code, signal) => {
      options.signal?.removeEventListener('abort', onAbort);
      if (partial.trim()) tail.push(partial);
      if (code === 0 || disposing) {
        log.debug({ code, signal }, 'ffmpeg exited');
        resolve();
      } else {
        reject(new FfmpegExitError(options.name, code, signal, tail.slice(-tailLines)));
      }
    });
  });
  // Callers that only dispose never look at `exited`; keep its rejection from going unhandled.
  exited.catch(() => {});

  const dispose = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null && !disposing) {
      disposing = true;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 2000);
      await exited.catch(() => {});
      clearTimeout(timer);
    }
    await exited.catch(() => {});
  };
  const onAbort = (): void => void dispose();
  if (options.signal?.aborted) void dispose();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  return {
    child,
    pid: child.pid,
    stdin: child.stdin,
    stdout: child.stdout,
    outputs,
    exited,
    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}

/** Runs ffmpeg to completion (file conversions, probes); rejects with the stderr tail. */
export async function runFfmpeg(
  args: readonly string[],
  options: Omit<SpawnFfmpegOptions, 'stdin' | 'stdout'>,
): Promise<void> {
  const job = spawnFfmpeg(args, { ...options, stdin: 'ignore', stdout: 'ignore' });
  await job.exited;
}
