// Everything radioctl shows goes through here: tables, JSON, progress lines, streamed logs.
import { StringDecoder } from 'node:string_decoder';
import type { ChunkSink, ContainerInfo, PortBinding } from './docker/index.ts';

export interface OutputStream {
  write(text: string): unknown;
  isTTY?: boolean | undefined;
}

export type Colour = 'red' | 'green' | 'yellow' | 'cyan' | 'dim' | 'bold';

const CODES: Record<Colour, [number, number]> = {
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
  dim: [2, 22],
  bold: [1, 22],
};

export function paint(text: string, colour: Colour, enabled: boolean): string {
  if (!enabled || text === '') return text;
  const [open, close] = CODES[colour];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the escape codes is the point
const ANSI = /\u001b\[[0-9;]*m/g;

function visibleLength(text: string): number {
  return text.replace(ANSI, '').length;
}

/** Left-aligned columns two spaces apart; cells may carry colour codes. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, column) =>
    Math.max(visibleLength(header), ...rows.map((row) => visibleLength(row[column] ?? ''))),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) =>
        column === cells.length - 1
          ? cell
          : cell + ' '.repeat((widths[column] ?? 0) - visibleLength(cell)),
      )
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

/** `4s`, `3m 05s`, `2h 07m`, `5d 3h`. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const d = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number): string => String(n).padStart(2, '0');
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${two(m)}m`;
  if (m > 0) return `${m}m ${two(s)}s`;
  return `${s}s`;
}

/** `127.0.0.1:1234->1234/tcp, 8000/tcp`-style, like docker ps (unpublished ports omitted). */
export function formatPorts(ports: readonly PortBinding[]): string {
  // docker lists 0.0.0.0 and :: for one publication (in either order); both read 0.0.0.0.
  const parts = new Set<string>();
  for (const port of ports) {
    const host = port.hostIp === '' || port.hostIp === '::' ? '0.0.0.0' : port.hostIp;
    parts.add(
      `${host.includes(':') ? `[${host}]` : host}:${port.hostPort}->${port.containerPort}/${port.protocol}`,
    );
  }
  return [...parts].join(', ');
}

export function uptimeSeconds(container: ContainerInfo, nowMs: number): number | null {
  if (container.state !== 'running' || container.startedAt === null) return null;
  return Math.max(0, (nowMs - container.startedAt.getTime()) / 1000);
}

/** A container as --json shows it (ps, status, restart). */
export function containerRecord(container: ContainerInfo, nowMs: number): Record<string, unknown> {
  const uptime = uptimeSeconds(container, nowMs);
  return {
    service: container.service,
    container: container.name,
    id: container.id.slice(0, 12),
    image: container.image,
    state: container.state,
    health: container.health,
    exitCode: container.exitCode,
    startedAt: container.startedAt?.toISOString() ?? null,
    uptimeSeconds: uptime === null ? null : Math.floor(uptime),
    restartCount: container.restartCount,
    ports: container.ports.map((port) => ({
      hostIp: port.hostIp,
      hostPort: port.hostPort,
      containerPort: port.containerPort,
      protocol: port.protocol,
    })),
  };
}

export interface PrinterOptions {
  stdout: OutputStream;
  stderr: OutputStream;
  json: boolean;
  /** Colour on stdout and stderr (each decided from its own terminal, NO_COLOR, --color). */
  colour: { stdout: boolean; stderr: boolean };
}

/** The one place radioctl writes to the terminal. */
export class Printer {
  readonly json: boolean;
  readonly #out: OutputStream;
  readonly #err: OutputStream;
  readonly #colour: { stdout: boolean; stderr: boolean };

  constructor(options: PrinterOptions) {
    this.json = options.json;
    this.#out = options.stdout;
    this.#err = options.stderr;
    this.#colour = options.colour;
  }

  /** A line of the command's result on stdout. */
  line(text = ''): void {
    this.#out.write(`${text}\n`);
  }

  /** Progress as work goes: stdout for people; stderr with --json so stdout stays parseable. */
  progress(text: string): void {
    (this.json ? this.#err : this.#out).write(`${text}\n`);
  }

  warn(text: string): void {
    this.#err.write(`${paint('warning:', 'yellow', this.#colour.stderr)} ${text}\n`);
  }

  error(message: string): void {
    this.#err.write(`${paint('radioctl:', 'red', this.#colour.stderr)} ${message}\n`);
  }

  /** Help text and such, always as text. */
  text(text: string): void {
    this.#out.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  jsonValue(value: unknown): void {
    this.#out.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  colourOut(text: string, colour: Colour): string {
    return paint(text, colour, this.#colour.stdout);
  }

  /** How a state or health reads at a glance: green when fine, yellow on the way, red when not. */
  stateColour(value: string | null): string {
    if (value === null) return '-';
    const colour: Colour | null =
      value === 'healthy' || value === 'running'
        ? 'green'
        : value === 'starting' || value === 'restarting' || value === 'created'
          ? 'yellow'
          : value === 'unhealthy' || value.startsWith('exited') || value === 'dead'
            ? 'red'
            : null;
    return colour ? this.colourOut(value, colour) : value;
  }

  /** The ps table. */
  containers(containers: readonly ContainerInfo[], nowMs: number): void {
    const rows = containers.map((container) => {
      const uptime = uptimeSeconds(container, nowMs);
      const state =
        container.state === 'exited' && container.exitCode !== null
          ? `exited (${container.exitCode})`
          : container.state;
      return [
        container.service,
        container.name,
        this.stateColour(state),
        this.stateColour(container.health),
        uptime === null ? '-' : formatDuration(uptime),
        formatPorts(container.ports) || '-',
      ];
    });
    this.line(table(['SERVICE', 'CONTAINER', 'STATE', 'HEALTH', 'UPTIME', 'PORTS'], rows));
  }

  /**
   * A sink for one container's log stream: whole lines, stdout to stdout and stderr to stderr
   * (red on a terminal), a `name | ` prefix when several containers interleave, or JSON lines.
   * Call the returned flush when the stream ends, for a last line without a newline.
   */
  logSink(
    stream: 'stdout' | 'stderr',
    meta: { service: string; container: string; prefix: boolean; timestamps: boolean },
  ): ChunkSink & { flush(): void } {
    let pending = '';
    // A multi-byte character may be split between two chunks.
    const decoder = new StringDecoder('utf8');
    const emit = (line: string): void => {
      if (this.json) {
        const record: Record<string, string> = {
          service: meta.service,
          container: meta.container,
          stream,
        };
        let text = line;
        if (meta.timestamps) {
          const space = line.indexOf(' ');
          if (space > 0) {
            record.time = line.slice(0, space);
            text = line.slice(space + 1);
          }
        }
        record.line = text;
        this.#out.write(`${JSON.stringify(record)}\n`);
        return;
      }
      const target = stream === 'stdout' ? this.#out : this.#err;
      const colour = stream === 'stdout' ? this.#colour.stdout : this.#colour.stderr;
      const prefix = meta.prefix ? paint(`${meta.container} | `, 'cyan', colour) : '';
      let text = line;
      if (meta.timestamps) {
        const space = line.indexOf(' ');
        if (space > 0) text = `${paint(line.slice(0, space), 'dim', colour)}${line.slice(space)}`;
      }
      target.write(`${prefix}${stream === 'stderr' ? paint(text, 'red', colour) : text}\n`);
    };
    return {
      write: (chunk: Buffer) => {
        pending += decoder.write(chunk);
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) emit(line.endsWith('\r') ? line.slice(0, -1) : line);
        return true;
      },
      flush: () => {
        pending += decoder.end();
        if (pending !== '') emit(pending);
        pending = '';
      },
    };
  }
}
