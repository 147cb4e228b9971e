/*
 * Listeners that come and go, for the sessions rows of `bench:listeners` (a worker process,
 * forked by bench/sessions.ts). It opens `count` listeners at `ramp` a second, then keeps the
 * count while `churn` a second leave (the longest connected) and as many join, each with one
 * of a few player user agents, from many loopback addresses (bench/loopback.ts). Sockets are
 * read into one shared buffer and the audio dropped.
 *
 * argv: port count ramp churn
 * IPC: `ramped` once all are open; `start` and `end` mark the window, and `end` answers with
 * the counts within it; `stop` closes all and exits.
 */
import net from 'node:net';
import { loopbackAddress } from './loopback.ts';

export interface ChurnResult {
  joined: number;
  left: number;
  failed: number;
  /** Listeners the server closed. */
  dropped: number;
  open: number;
}

const [portText = '8000', countText = '2000', rampText = '500', churnText = '50'] =
  process.argv.slice(2);
const port = Number(portText);
const count = Number(countText);
const ramp = Number(rampText);
const churn = Number(churnText);

const AGENTS = [
  'VLC/3.0.18 LibVLC/3.0.18',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  'AppleCoreMedia/1.0.0.21A329 (iPhone; U; CPU OS 17_0 like Mac OS X; en_us)',
  'TuneIn Radio/27.4.1 (Android 13; SM-G991B; Java)',
  'foobar2000/1.6.16',
];
const readBuffer = Buffer.alloc(64 * 1024);
const open = new Set<net.Socket>();
const result: ChurnResult = { joined: 0, left: 0, failed: 0, dropped: 0, open: 0 };
let closing = false;
let atStart: ChurnResult = { ...result };

function join(): void {
  const agent = AGENTS[result.joined % AGENTS.length] as string;
  let answered = false;
  const socket = net.connect({
    host: '127.0.0.1',
    port,
    localAddress: loopbackAddress(0, result.joined),
    onread: {
      buffer: readBuffer,
      callback: (n: number) => {
        if (!answered) {
          answered = true;
          if (!readBuffer.subarray(0, Math.min(n, 16)).toString('latin1').includes(' 200 ')) {
            result.failed += 1;
            socket.destroy();
          }
        }
        return true;
      },
    },
  });
  socket.on('connect', () =>
    socket.write(`GET /radio.mp3 HTTP/1.0\r\nHost: 127.0.0.1\r\nUser-Agent: ${agent}\r\n\r\n`),
  );
  socket.on('error', () => {});
  socket.on('close', () => {
    if (open.delete(socket) && !closing) result.dropped += 1;
  });
  open.add(socket);
  result.joined += 1;
}

function leave(): void {
  const oldest = open.values().next().value;
  if (oldest === undefined) return;
  open.delete(oldest);
  oldest.destroy();
  result.left += 1;
}

async function main(): Promise<void> {
  while (open.size < count) {
    for (let i = 0; i < Math.max(1, ramp / 50) && open.size < count; i++) join();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Ten steps a second: churn/10 leave and as many join at each.
  const perStep = churn / 10;
  let owed = 0;
  setInterval(() => {
    owed += perStep;
    for (; owed >= 1; owed -= 1) {
      leave();
      join();
    }
  }, 100);
  process.send?.({ type: 'ramped' });
}

process.on('message', (message: { type: 'start' | 'end' | 'stop' }) => {
  if (message.type === 'start') {
    atStart = { ...result };
  } else if (message.type === 'end') {
    const within: ChurnResult = {
      joined: result.joined - atStart.joined,
      left: result.left - atStart.left,
      failed: result.failed - atStart.failed,
      dropped: result.dropped - atStart.dropped,
      open: open.size,
    };
    process.send?.({ type: 'result', result: within });
  } else if (message.type === 'stop') {
    closing = true;
    for (const socket of open) socket.destroy();
    setTimeout(() => process.exit(0), 100);
  }
});

void main();
