/**
 * Container logs: asking the engine for them, and copying them into a stdout and a stderr sink
 * (a container without a TTY multiplexes both on one connection; demuxStream splits them).
 */
import { Readable } from 'node:stream';
import type Docker from 'dockerode';

/** Receives demultiplexed log bytes. */
export interface ChunkSink {
  write(chunk: Buffer): unknown;
}

export interface LogSinks {
  stdout: ChunkSink;
  stderr: ChunkSink;
}

export interface LogOptions {
  follow: boolean;
  tail: number | 'all';
  since: number | undefined;
  timestamps: boolean;
}

/** Unix seconds as Docker's `since` wants them: `seconds.nanoseconds`. */
function dockerTimestamp(unixSeconds: number): string {
  const seconds = Math.floor(unixSeconds);
  const nanos = Math.round((unixSeconds - seconds) * 1e9);
  return `${seconds}.${String(Math.min(nanos, 999_999_999)).padStart(9, '0')}`;
}

/** The log stream of a container; without `follow` Docker answers one body, made a stream here. */
export async function openLogs(
  target: Docker.Container,
  options: LogOptions,
): Promise<NodeJS.ReadableStream> {
  const query = {
    stdout: true,
    stderr: true,
    tail: options.tail === 'all' ? 'all' : options.tail,
    timestamps: options.timestamps,
    ...(options.since === undefined ? {} : { since: dockerTimestamp(options.since) }),
  };
  if (options.follow) {
    return target.logs({ ...query, follow: true } as Docker.ContainerLogsOptions & {
      follow: true;
    });
  }
  const body: unknown = await target.logs({
    ...query,
    follow: false,
  } as Docker.ContainerLogsOptions & {
    follow?: false;
  });
  return body instanceof Readable
    ? body
    : Readable.from([Buffer.isBuffer(body) ? body : Buffer.from(String(body ?? ''))]);
}

/**
 * Copies `source` into the sinks until it ends, fails, or `signal` aborts (which destroys it).
 * Rejects with the stream's own error.
 */
export async function copyLogs(
  modem: Docker['modem'],
  source: NodeJS.ReadableStream,
  tty: boolean,
  sinks: LogSinks,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (signal?.aborted) {
    (source as Readable).destroy?.();
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      (source as Readable).destroy?.();
      finish();
    };
    const finish = (error?: unknown): void => {
      signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    source.once('end', () => finish());
    source.once('close', () => finish());
    source.once('error', (error) => finish(error));
    if (tty) {
      source.on('data', (chunk: Buffer) => sinks.stdout.write(chunk));
    } else {
      // demuxStream only ever calls write() on its targets.
      modem.demuxStream(
        source,
        sinks.stdout as unknown as NodeJS.WritableStream,
        sinks.stderr as unknown as NodeJS.WritableStream,
      );
    }
  });
}

/** A sink for both streams that keeps whole lines, for the last lines of a container's output. */
export function lineCollector(): { sink: ChunkSink; lines(): string[] } {
  const lines: string[] = [];
  let pending = '';
  return {
    sink: {
      write: (chunk: Buffer) => {
        pending += chunk.toString('utf8');
        const parts = pending.split('\n');
        pending = parts.pop() ?? '';
        lines.push(...parts);
      },
    },
    lines: () => (pending ? [...lines, pending] : lines),
  };
}
