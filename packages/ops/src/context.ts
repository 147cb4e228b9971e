import type { DockerClient } from './docker/index.ts';
import type { Printer } from './print.ts';
import type { Project } from './stack.ts';

/** What every command gets from main: the engine, the project, the printer, the clock. */
export interface CommandContext {
  docker: DockerClient;
  project: Project;
  printer: Printer;
  now: () => number;
  /** Aborted on Ctrl-C: long waits and followed logs stop. */
  signal: AbortSignal;
  /** PATH, to find ffprobe. */
  pathVar: string | undefined;
  cwd: string;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
