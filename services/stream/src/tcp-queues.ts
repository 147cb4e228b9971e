import { readFile } from 'node:fs/promises';
import { isIPv4 } from 'node:net';

/*
 * The kernel's send queue of each listener socket, from /proc/net/tcp (Linux). Node only sees
 * its own buffer; the kernel keeps megabytes per socket (the send buffer grows to tcp_wmem's
 * 4 MB while the peer's window is closed), which is why Icecast notices a listener that stopped
 * reading only after about 205 s. The queue (`tx_queue`: written but not acknowledged) tells
 * whether the peer still takes data.
 */

/** Hex of an address as /proc/net/tcp{,6} prints it (32-bit words in host byte order). */
function procAddress(address: string): string | null {
  if (isIPv4(address)) {
    const bytes = address.split('.').map(Number);
    return hexWordLE(bytes);
  }
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) {
    const v4 = (mapped[1] as string).split('.').map(Number);
    return `0000000000000000FFFF0000${hexWordLE(v4)}`;
  }
  const bytes = ipv6Bytes(address);
  if (!bytes) return null;
  let out = '';
  for (let i = 0; i < 16; i += 4) out += hexWordLE(bytes.slice(i, i + 4));
  return out;
}

function hexWordLE(bytes: number[]): string {
  let out = '';
  for (let i = bytes.length - 1; i >= 0; i--) out += (bytes[i] ?? 0).toString(16).padStart(2, '0');
  return out.toUpperCase();
}

function ipv6Bytes(address: string): number[] | null {
  const clean = address.split('%')[0] ?? '';
  const halves = clean.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string): number[] =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const head = parse(halves[0] ?? '');
  const tail = halves.length === 2 ? parse(halves[1] ?? '') : [];
  const groups = [...head, ...new Array(8 - head.length - tail.length).fill(0), ...tail];
  if (groups.length !== 8 || groups.some((g) => !Number.isFinite(g))) return null;
  return groups.flatMap((g) => [(g >> 8) & 0xff, g & 0xff]);
}

const port = (n: number): string => n.toString(16).toUpperCase().padStart(4, '0');

/** The key under which `readSendQueues` reports this connection, or null. */
export function queueKey(
  localPort: number | undefined,
  remoteAddress: string | undefined,
  remotePort: number | undefined,
): string | null {
  if (localPort === undefined || remoteAddress === undefined || remotePort === undefined)
    return null;
  const remote = procAddress(remoteAddress);
  return remote === null ? null : `${port(localPort)} ${remote}:${port(remotePort)}`;
}

export interface SendQueue {
  /** Bytes written but not acknowledged (`tx_queue`). */
  bytes: number;
  /**
   * The kernel is probing a zero window (timer 4): the peer is alive and acknowledges, but
   * its receive buffer is full because its application does not read.
   */
  zeroWindow: boolean;
}

/**
 * Send queues of established sockets whose queue is not empty, by `queueKey`. Null where
 * /proc/net/tcp cannot be read (not Linux): callers fall back to Node's own buffer.
 */
export async function readSendQueues(): Promise<Map<string, SendQueue> | null> {
  const queues = new Map<string, SendQueue>();
  let readAny = false;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = await readFile(file, 'latin1');
    } catch {
      continue;
    }
    readAny = true;
    parseInto(text, queues);
  }
  return readAny ? queues : null;
}

/** Lines: `sl: local:port remote:port st tx_queue:rx_queue tr:when ...`, fixed-width hex fields. */
export function parseInto(text: string, queues: Map<string, SendQueue>): void {
  let start = text.indexOf('\n') + 1;
  while (start > 0 && start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const colon = text.indexOf(': ', start);
    if (colon > 0 && colon < end) {
      const local = colon + 2;
      const localEnd = text.indexOf(' ', local);
      const remote = localEnd + 1;
      const remoteEnd = text.indexOf(' ', remote);
      const state = text.slice(remoteEnd + 1, remoteEnd + 3);
      const tx = text.slice(remoteEnd + 4, remoteEnd + 12);
      // 01 = ESTABLISHED; skip empty queues, which are nearly all of them.
      if (state === '01' && tx !== '00000000') {
        const localPort = text.slice(localEnd - 4, localEnd);
        const timer = text.slice(remoteEnd + 22, remoteEnd + 24);
        queues.set(`${localPort} ${text.slice(remote, remoteEnd)}`, {
          bytes: Number.parseInt(tx, 16),
          zeroWindow: timer === '04',
        });
      }
    }
    start = end + 1;
  }
}
