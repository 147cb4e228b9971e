/*
 * A share of the bench's listeners, in a worker process of its own (forked by
 * bench/load-fleet.ts, which splits the listeners over a few of them so that the load
 * generator is not what limits the server).
 *
 * argv: mode host port count rampPerSecond segmentSeconds worker
 *   stream  raw sockets that GET /radio.mp3 and count the body bytes. Each socket is read about
 *           every 500 ms (as a player's buffer is), into one shared buffer: the worker's cost
 *           per listener stays far below the server's, whatever the server's write pattern.
 *   hls     one kept-alive HTTP/1.1 connection per listener: the master playlist, then once per
 *           segment duration the media playlist (with the session token the master handed
 *           out) and every segment it lists that this listener has not fetched yet; a new
 *           listener starts at the newest segment, as players do.
 *   cdn     as hls, but the media playlists only: the player behind a CDN that serves the
 *           segments from its cache, while each playlist (private, it names the session)
 *           still reaches the stream server and keeps the listener counted.
 * Each connection comes from one of the worker's loopback addresses (bench/loopback.ts).
 * IPC: it sends `ramped` once every listener has been opened; on `start` and `end` it marks
 * the measuring window and answers `end` with the result; on `stop` it closes all and exits.
 */
import net from 'node:net';
import { loopbackAddress } from './loopback.ts';

export interface LoadResult {
  requested: number;
  /** Listeners that got a 200 (stream) or their master playlist (hls). */
  connected: number;
  failed: number;
  /** Connections the server closed after the ramp. */
  dropped: number;
  windowSeconds: number;
  /** Audio bytes per second of each listener still open, over the window. */
  rates: number[];
  /** stream: connect to first audio byte; hls: request to response head, in the window. */
  latencyMs: number[];
  /** hls: requests answered in the window, and those not answered 200. */
  requests: number;
  errors: number;
  /** hls: listeners that missed a segment (it left the playlist before they fetched it). */
  missedListeners: number;
  missedSegments: number;
}

type Message = { type: 'start' | 'end' | 'stop' };

const [
  modeName = 'stream',
  hostName = '127.0.0.1',
  portText = '8000',
  countText = '100',
  rampText = '500',
  segmentText = '2',
  workerText = '0',
] = process.argv.slice(2);
const port = Number(portText);
const count = Number(countText);
const rampPerSecond = Number(rampText);
const segmentMs = Number(segmentText) * 1000;
const worker = Number(workerText);

/** One buffer for every socket's reads: a read is handled before the next one lands. */
const readBuffer = Buffer.alloc(64 * 1024);
/** Latencies kept at most (a uniform sample beyond), so a long window stays cheap to send. */
const MAX_SAMPLES = 20_000;

interface Conn {
  socket: net.Socket;
  startedAt: number;
  head: Buffer | null;
  headDone: boolean;
  firstByteAt: number;
  audio: number;
  atStart: number;
  atEnd: number;
  closed: boolean;
  dropped: boolean;
  failed: boolean;
}

const conns: Conn[] = [];
const hlsConns: HlsConn[] = [];
let ramped = false;
let measuring = false;
let windowStart = 0;
const latencies: number[] = [];
let latencySeen = 0;
let requests = 0;
let errors = 0;

function sample(ms: number): void {
  latencySeen++;
  if (latencies.length < MAX_SAMPLES) latencies.push(ms);
  else {
    const slot = Math.floor(Math.random() * latencySeen);
    if (slot < MAX_SAMPLES) latencies[slot] = ms;
  }
}

function newConn(onRead: (conn: Conn, n: number) => boolean): Conn {
  const conn: Conn = {
    socket: null as unknown as net.Socket,
    startedAt: performance.now(),
    head: null,
    headDone: false,
    firstByteAt: 0,
    audio: 0,
    atStart: 0,
    atEnd: 0,
    closed: false,
    dropped: false,
    failed: false,
  };
  conn.socket = net.connect({
    host: hostName,
    port,
    localAddress: loopbackAddress(worker, conns.length),
    onread: { buffer: readBuffer, callback: (n: number) => onRead(conn, n) },
  });
  conn.socket.setNoDelay(true);
  conn.socket.on('error', () => {
    if (!conn.headDone) conn.failed = true;
  });
  conn.socket.on('close', () => {
    conn.closed = true;
    if (ramped && conn.headDone) conn.dropped = true;
  });
  conns.push(conn);
  return conn;
}

// ---- stream listeners ------------------------------------------------------------------------

const STREAM_REQUEST = `GET /radio.mp3 HTTP/1.0\r\nHost: ${hostName}:${port}\r\nUser-Agent: bench-listener/1.0\r\n\r\n`;
/** Sockets paused after a read, in twenty groups resumed in turn every 25 ms. */
const GROUPS = 20;
const groups: Conn[][] = Array.from({ length: GROUPS }, () => []);

function openStream(): void {
  const conn = newConn(streamRead);
  conn.socket.on('connect', () => conn.socket.write(STREAM_REQUEST));
  (groups[conns.length % GROUPS] as Conn[]).push(conn);
}

/** Returns false to pause the socket until its group's turn. */
function streamRead(conn: Conn, n: number): boolean {
  if (conn.headDone) {
    if (conn.firstByteAt === 0) conn.firstByteAt = performance.now();
    conn.audio += n;
    return false;
  }
  const data = Buffer.from(readBuffer.subarray(0, n));
  conn.head = conn.head ? Buffer.concat([conn.head, data]) : data;
  const end = conn.head.indexOf('\r\n\r\n');
  if (end < 0) return true;
  if (!conn.head.subarray(0, 16).toString('latin1').includes(' 200 ')) {
    conn.failed = true;
    conn.socket.destroy();
    return false;
  }
  conn.headDone = true;
  conn.audio = conn.head.length - end - 4;
  conn.head = null;
  if (conn.audio > 0) conn.firstByteAt = performance.now();
  return true;
}

function startTurns(): void {
  let turn = 0;
  setInterval(() => {
    for (const conn of groups[turn] as Conn[])
      if (conn.headDone && !conn.closed) conn.socket.resume();
    turn = (turn + 1) % GROUPS;
  }, 25).unref();
}

// ---- HLS listeners ---------------------------------------------------------------------------

interface HlsConn {
  conn: Conn;
  media: string | null;
  lastSequence: number;
  missed: number;
  queue: string[];
  /** The response being read: its kind, status, length, bytes so far, body if a playlist. */
  kind: 'master' | 'media' | 'segment';
  sentAt: number;
  status: number;
  length: number;
  got: number;
  body: Buffer[];
  roundAt: number;
}

function openHls(): void {
  const hls: HlsConn = {
    conn: null as unknown as Conn,
    media: null,
    lastSequence: -1,
    missed: 0,
    queue: [],
    kind: 'master',
    sentAt: 0,
    status: 0,
    length: 0,
    got: 0,
    body: [],
    roundAt: 0,
  };
  hls.conn = newConn((_conn, n) => hlsRead(hls, n));
  hlsConns.push(hls);
  hls.conn.socket.on('connect', () => send(hls, 'master', '/hls/radio.m3u8'));
}

function send(hls: HlsConn, kind: HlsConn['kind'], path: string): void {
  if (hls.conn.closed) return;
  hls.kind = kind;
  hls.sentAt = performance.now();
  hls.conn.head = null;
  hls.status = 0;
  hls.got = 0;
  hls.body = [];
  hls.conn.socket.write(
    `GET ${path} HTTP/1.1\r\nHost: ${hostName}:${port}\r\nUser-Agent: bench-hls/1.0\r\n\r\n`,
  );
}

function hlsRead(hls: HlsConn, n: number): boolean {
  const conn = hls.conn;
  let data: Buffer = readBuffer.subarray(0, n);
  if (hls.status === 0) {
    conn.head = conn.head ? Buffer.concat([conn.head, data]) : Buffer.from(data);
    const end = conn.head.indexOf('\r\n\r\n');
    if (end < 0) return true;
    const head = conn.head.subarray(0, end).toString('latin1');
    hls.status = Number(head.slice(9, 12));
    hls.length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (measuring) sample(performance.now() - hls.sentAt);
    data = conn.head.subarray(end + 4);
    conn.head = null;
  }
  hls.got += data.length;
  if (hls.kind === 'segment') conn.audio += data.length;
  else hls.body.push(Buffer.from(data));
  if (hls.got >= hls.length) answered(hls);
  return true;
}

function answered(hls: HlsConn): void {
  if (measuring) requests++;
  if (hls.status !== 200) {
    if (measuring) errors++;
    if (hls.kind === 'master') hls.conn.failed = true;
    else nextRound(hls);
    return;
  }
  if (hls.kind === 'master') {
    hls.conn.headDone = true;
    hls.conn.firstByteAt = performance.now();
    const line = Buffer.concat(hls.body)
      .toString('utf8')
      .split('\n')
      .find((l) => l.includes('live.m3u8'));
    hls.media = `/hls/${line}`;
    // Players join at any moment of the segment cycle.
    hls.roundAt = performance.now() + Math.random() * segmentMs;
    setTimeout(() => round(hls), hls.roundAt - performance.now());
    return;
  }
  if (hls.kind === 'media') {
    const listed = Buffer.concat(hls.body)
      .toString('utf8')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('#'));
    const fresh = listed.filter((l) => sequenceOf(l) > hls.lastSequence);
    if (hls.lastSequence !== -1 && fresh.length > 0) {
      hls.missed += sequenceOf(fresh[0] as string) - hls.lastSequence - 1;
    }
    hls.queue = hls.lastSequence === -1 ? fresh.slice(-1) : fresh;
    if (modeName === 'cdn') {
      hls.lastSequence = Math.max(hls.lastSequence, ...fresh.map(sequenceOf));
      hls.queue = [];
    }
  }
  const next = hls.queue.shift();
  if (next === undefined) {
    nextRound(hls);
    return;
  }
  hls.lastSequence = Math.max(hls.lastSequence, sequenceOf(next));
  const media = hls.media as string;
  send(hls, 'segment', `${media.slice(0, media.indexOf('live.m3u8'))}${next}`);
}

function sequenceOf(uri: string): number {
  return Number(/-(\d+)\.aac/.exec(uri)?.[1] ?? -1);
}

function round(hls: HlsConn): void {
  send(hls, 'media', hls.media as string);
}

function nextRound(hls: HlsConn): void {
  hls.roundAt += segmentMs;
  setTimeout(() => round(hls), Math.max(0, hls.roundAt - performance.now()));
}

// ---- the run ---------------------------------------------------------------------------------

function result(): LoadResult {
  const windowSeconds = (performance.now() - windowStart) / 1000;
  const open = conns.filter((c) => c.headDone && !c.closed);
  const firstBytes = conns.filter((c) => c.firstByteAt > 0).map((c) => c.firstByteAt - c.startedAt);
  return {
    requested: count,
    connected: conns.filter((c) => c.headDone).length,
    failed: conns.filter((c) => c.failed).length,
    dropped: conns.filter((c) => c.dropped).length,
    windowSeconds,
    rates: open.map((c) => (c.atEnd - c.atStart) / windowSeconds),
    latencyMs: modeName === 'stream' ? firstBytes : latencies,
    requests,
    errors,
    missedListeners: hlsConns.filter((h) => h.missed > 0).length,
    missedSegments: hlsConns.reduce((sum, h) => sum + h.missed, 0),
  };
}

process.on('message', (message: Message) => {
  if (message.type === 'start') {
    for (const conn of conns) conn.atStart = conn.audio;
    windowStart = performance.now();
    measuring = true;
  } else if (message.type === 'end') {
    for (const conn of conns) conn.atEnd = conn.audio;
    measuring = false;
    process.send?.({ type: 'result', result: result() });
  } else if (message.type === 'stop') {
    for (const conn of conns) conn.socket.destroy();
    setTimeout(() => process.exit(0), 100);
  }
});

async function main(): Promise<void> {
  const open = modeName === 'stream' ? openStream : openHls;
  if (modeName === 'stream') startTurns();
  const stepMs = 20;
  const perStep = Math.max(1, Math.round((rampPerSecond * stepMs) / 1000));
  while (conns.length < count) {
    for (let i = 0; i < perStep && conns.length < count; i++) open();
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
  ramped = true;
  process.send?.({ type: 'ramped' });
}

void main();
