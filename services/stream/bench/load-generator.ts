/*
 * The benchmark's listeners, in a process of their own (started by bench/listeners.ts with
 * fork): raw TCP sockets that send a GET and count body bytes, ramped up at a fixed rate. It
 * reports over IPC when the measuring window starts and ends, and the results at the end.
 *
 * argv: host port path count rampPerSecond settleSeconds measureSeconds
 */
import net from 'node:net';

interface Conn {
  socket: net.Socket;
  startedAt: number;
  firstByteAt: number;
  headDone: boolean;
  head: Buffer | null;
  body: number;
  atWindowStart: number;
  atWindowEnd: number;
  closed: boolean;
  closedInWindow: boolean;
  failed: boolean;
}

export interface LoadResult {
  requested: number;
  connected: number;
  failed: number;
  /** Connections the server closed during the settle or measuring time. */
  dropped: number;
  windowSeconds: number;
  /** Body bytes per second of each listener over the window (open ones). */
  rates: number[];
  firstByteMs: number[];
}

const [
  host = '127.0.0.1',
  portText = '8000',
  path = '/radio.mp3',
  countText = '100',
  rampText = '500',
  settleText = '3',
  measureText = '30',
] = process.argv.slice(2);
const port = Number(portText);
const count = Number(countText);
const rampPerSecond = Number(rampText);
const settleMs = Number(settleText) * 1000;
const measureMs = Number(measureText) * 1000;
const request = Buffer.from(
  `GET ${path} HTTP/1.0\r\nHost: ${host}:${port}\r\nUser-Agent: bench-listener/1.0\r\n\r\n`,
);

const conns: Conn[] = [];
let measuring = false;

function open(): void {
  const conn: Conn = {
    socket: net.connect({ host, port }),
    startedAt: performance.now(),
    firstByteAt: 0,
    headDone: false,
    head: null,
    body: 0,
    atWindowStart: 0,
    atWindowEnd: 0,
    closed: false,
    closedInWindow: false,
    failed: false,
  };
  conns.push(conn);
  const socket = conn.socket;
  socket.setNoDelay(true);
  socket.on('connect', () => socket.write(request));
  socket.on('data', (data: Buffer) => {
    if (conn.headDone) {
      conn.body += data.length;
      return;
    }
    conn.head = conn.head ? Buffer.concat([conn.head, data]) : data;
    const end = conn.head.indexOf('\r\n\r\n');
    if (end < 0) return;
    if (!conn.head.subarray(0, 16).toString('latin1').includes(' 200 ')) {
      conn.failed = true;
      socket.destroy();
      return;
    }
    conn.headDone = true;
    const body = conn.head.length - end - 4;
    conn.head = null;
    if (body > 0) {
      conn.body += body;
      conn.firstByteAt = performance.now();
    }
  });
  socket.on('data', function firstByte(this: net.Socket) {
    if (conn.firstByteAt === 0 && conn.body > 0) conn.firstByteAt = performance.now();
    if (conn.firstByteAt !== 0) this.removeListener('data', firstByte);
  });
  socket.on('error', () => {
    if (!conn.headDone) conn.failed = true;
  });
  socket.on('close', () => {
    conn.closed = true;
    if (measuring) conn.closedInWindow = true;
  });
}

async function main(): Promise<void> {
  const stepMs = 20;
  const perStep = Math.max(1, Math.round((rampPerSecond * stepMs) / 1000));
  while (conns.length < count) {
    for (let i = 0; i < perStep && conns.length < count; i++) open();
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
  process.send?.({ type: 'ramped' });
  measuring = true;
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  for (const conn of conns) conn.atWindowStart = conn.body;
  const windowStart = performance.now();
  process.send?.({ type: 'window-start' });
  await new Promise((resolve) => setTimeout(resolve, measureMs));
  for (const conn of conns) conn.atWindowEnd = conn.body;
  const windowSeconds = (performance.now() - windowStart) / 1000;
  process.send?.({ type: 'window-end' });
  measuring = false;
  const alive = conns.filter((c) => c.headDone && !c.closed);
  const result: LoadResult = {
    requested: count,
    connected: conns.filter((c) => c.headDone).length,
    failed: conns.filter((c) => c.failed).length,
    dropped: conns.filter((c) => c.headDone && c.closedInWindow).length,
    windowSeconds,
    rates: alive.map((c) => (c.atWindowEnd - c.atWindowStart) / windowSeconds),
    firstByteMs: conns.filter((c) => c.firstByteAt > 0).map((c) => c.firstByteAt - c.startedAt),
  };
  process.send?.({ type: 'result', result });
  for (const conn of conns) conn.socket.destroy();
  setTimeout(() => process.exit(0), 200);
}

void main();
