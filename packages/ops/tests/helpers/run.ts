import { main } from '../../src/main.ts';

export interface Captured {
  write(text: string): boolean;
  isTTY: boolean;
  text: string;
}

export function capture(isTTY = false): Captured {
  const sink: Captured = {
    isTTY,
    text: '',
    write(text: string) {
      sink.text += text;
      return true;
    },
  };
  return sink;
}

export interface RunResult {
  code: number;
  out: string;
  err: string;
}

/** Runs radioctl in this process with its output captured. */
export async function radioctl(
  argv: string[],
  options: {
    env?: Record<string, string | undefined>;
    cwd?: string;
    signal?: AbortSignal;
    tty?: boolean;
    /** Receives the stdout text as it grows (for --follow). */
    stdout?: Captured;
  } = {},
): Promise<RunResult> {
  const stdout = options.stdout ?? capture(options.tty);
  const stderr = capture(options.tty);
  const code = await main({
    argv,
    env: options.env ?? { PATH: process.env.PATH, DOCKER_HOST: process.env.DOCKER_HOST },
    cwd: options.cwd ?? process.cwd(),
    stdout,
    stderr,
    signal: options.signal,
  });
  return { code, out: stdout.text, err: stderr.text };
}
