import { connect } from 'node:net';
import { OpsError } from './errors.ts';

export interface ControlAddress {
  host: string;
  port: number;
}

/**
 * Sends one command to the scheduler's control port (Liquidsoap's telnet protocol: the answer,
 * then a line `END`) and returns the answer without the END line. `quit` follows the command
 * so the server closes the connection once it has answered.
 */
export function controlCommand(
  address: ControlAddress,
  command: string,
  timeoutMs = 3_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const where = `${address.host}:${address.port}`;
    const socket = connect({ host: address.host, port: address.port });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (error: Error | null, answer?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answer ?? '');
    };
    const timer = setTimeout(
      () =>
        finish(
          new OpsError(
            'OPS_CONTROL_FAILED',
            `control port ${where}: no answer to "${command}" in ${timeoutMs} ms`,
          ),
        ),
      timeoutMs,
    );
    const tryAnswer = (final: boolean): void => {
      const lines = Buffer.concat(chunks).toString('utf8').split(/\r?\n/);
      const end = lines.indexOf('END');
      if (end < 0) {
        if (final) {
          finish(
            new OpsError(
              'OPS_CONTROL_FAILED',
              `control port ${where}: the connection closed before END`,
            ),
          );
        }
        return;
      }
      const body = lines.slice(0, end);
      if (body[0]?.startsWith('ERROR:')) {
        finish(new OpsError('OPS_CONTROL_FAILED', `control port ${where}: ${body[0]}`));
        return;
      }
      finish(null, body.join('\n'));
    };
    socket.on('connect', () => socket.write(`${command}\nquit\n`));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      tryAnswer(false);
    });
    socket.on('end', () => tryAnswer(true));
    socket.on('close', () => tryAnswer(true));
    socket.on('error', (error) =>
      finish(
        new OpsError('OPS_CONTROL_FAILED', `control port ${where}: ${error.message}`, {
          cause: error,
        }),
      ),
    );
  });
}

export interface QueueEntry {
  requestId: string;
  title: string;
  /** Relative to the music folder. */
  path: string;
  kind: string;
}

/**
 * `request.queue` lines: `<rid> <artist - title> (<path>) [<kind>]`. The path is the balanced
 * parenthesised group before the kind, so both titles and paths may hold parentheses.
 */
export function parseQueue(answer: string): QueueEntry[] {
  const entries: QueueEntry[] = [];
  for (const raw of answer.split('\n')) {
    const match = /^(\S+) (.*\)) \[([^\]]+)\]$/.exec(raw.trim());
    if (!match) continue;
    const body = match[2] as string;
    let depth = 0;
    let open = -1;
    for (let i = body.length - 1; i >= 0; i--) {
      if (body[i] === ')') depth++;
      else if (body[i] === '(' && --depth === 0) {
        open = i;
        break;
      }
    }
    if (open < 0) continue;
    entries.push({
      requestId: match[1] as string,
      title: body.slice(0, open).trimEnd(),
      path: body.slice(open + 1, -1),
      kind: match[3] as string,
    });
  }
  return entries;
}

export interface OnAir {
  requestId: string;
  title: string;
  position: string;
  duration: string;
}

/** `request.on_air`: `<rid> <artist - title> <elapsed> / <duration>`, or empty. */
export function parseOnAir(answer: string): OnAir | null {
  const match = /^(\S+) (.*) (\S+) \/ (\S+)$/.exec(answer.trim());
  if (!match) return null;
  return {
    requestId: match[1] as string,
    title: match[2] as string,
    position: match[3] as string,
    duration: match[4] as string,
  };
}

/** `request.metadata`: `key="value"` lines (with \" and \\ escapes). */
export function parseMetadata(answer: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of answer.split('\n')) {
    const match = /^([^=\s]+)="(.*)"$/.exec(line.trim());
    if (match) {
      values[match[1] as string] = (match[2] as string).replace(/\\(.)/g, (_, char: string) =>
        char === 'n' ? '\n' : char,
      );
    }
  }
  return values;
}

export interface PlayoutStatus {
  state: string | null;
  /** What the mounts carry: `track`, `fallback` or `silence`. */
  onAir: string | null;
  /** Why the fallback is on air; null when it is not. */
  fallback: string | null;
  deadAirSkips: number | null;
}

/**
 * `playout.status`: `key: value` lines (state, on_air, fallback, dead_air_skips). Unknown
 * lines are ignored and missing ones are null, so an older or newer scheduler still parses.
 */
export function parsePlayoutStatus(answer: string): PlayoutStatus {
  const values = new Map<string, string>();
  for (const line of answer.split('\n')) {
    const match = /^\s*([a-z_]+):\s?(.*)$/.exec(line);
    if (match) values.set(match[1] as string, (match[2] as string).trim());
  }
  const fallback = values.get('fallback');
  const skips = Number.parseInt(values.get('dead_air_skips') ?? '', 10);
  return {
    state: values.get('state') || null,
    onAir: values.get('on_air') || null,
    fallback: fallback && fallback !== 'none' ? fallback : null,
    deadAirSkips: Number.isNaN(skips) ? null : skips,
  };
}

/** The live input as `live.status` tells it: each source as the scheduler describes it. */
export interface LiveStatus {
  /** The DJ on air (name, since, format, bytes in, title); null while the AutoDJ is. */
  onAir: string | null;
  waiting: string[];
  silent: boolean | null;
  recording: boolean | null;
}

/**
 * `live.status`: `on_air: …`, one `waiting: …` per waiting DJ (`none` when nobody), `silent:` and
 * `recording:` lines. Unknown lines are ignored, as with playout.status.
 */
export function parseLiveStatus(answer: string): LiveStatus {
  const status: LiveStatus = { onAir: null, waiting: [], silent: null, recording: null };
  const flag = (value: string) => (value === 'true' ? true : value === 'false' ? false : null);
  for (const line of answer.split('\n')) {
    const match = /^\s*([a-z_]+):\s?(.*)$/.exec(line);
    if (!match) continue;
    const value = (match[2] as string).trim();
    if (match[1] === 'on_air') status.onAir = /^none\b/.test(value) || value === '' ? null : value;
    else if (match[1] === 'waiting' && value !== 'none' && value !== '') status.waiting.push(value);
    else if (match[1] === 'silent') status.silent = flag(value);
    else if (match[1] === 'recording') status.recording = flag(value);
  }
  return status;
}
