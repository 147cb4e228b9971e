// What uses the station during the soak: listeners that come and go on the three mounts, an
// operator on the control port, and clients of the api (public status, a logged-in session's
// library and player views, the event stream).
import { get, request } from 'node:http';
import { connect } from 'node:net';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MOUNTS = ['/radio.mp3', '/radio.aac', '/radio-low.mp3'];

export interface LoadCounters {
  listenerSessions: number;
  listenerErrors: number;
  controlCommands: number;
  controlErrors: number;
  apiRequests: number;
  apiErrors: number;
}

export function newCounters(): LoadCounters {
  return {
    listenerSessions: 0,
    listenerErrors: 0,
    controlCommands: 0,
    controlErrors: 0,
    apiRequests: 0,
    apiErrors: 0,
  };
}

/** One listener: connects, reads for `ms`, leaves. Resolves when it is gone. */
function listenOnce(url: string, ms: number, counters: LoadCounters): Promise<void> {
  return new Promise((resolve) => {
    const req = get(url, { agent: false }, (res) => {
      if (res.statusCode !== 200) counters.listenerErrors++;
      res.resume();
      res.on('error', () => {});
    });
    const timer = setTimeout(() => req.destroy(), ms);
    req.on('error', () => counters.listenerErrors++);
    req.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
    counters.listenerSessions++;
  });
}

/** `slots` listeners at all times, each staying 1-20 s, on a mount picked in turn. */
export async function churnListeners(
  streamUrl: string,
  slots: number,
  counters: LoadCounters,
  stopped: () => boolean,
): Promise<void> {
  let n = 0;
  const slot = async (i: number) => {
    await sleep((i * 37) % 2000); // arrive spread over two seconds, not in one burst
    while (!stopped()) {
      const mount = MOUNTS[n++ % MOUNTS.length] as string;
      await listenOnce(`${streamUrl}${mount}`, 1000 + ((n * 7919) % 19_000), counters);
    }
  };
  await Promise.all(Array.from({ length: slots }, (_, i) => slot(i)));
}

/** Sends the lines one after another on one connection, each answered up to `END`. */
function controlSession(port: number, lines: readonly string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const answers: string[] = [];
    let text = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(`${lines[0]}\n`));
    socket.setTimeout(5000, () => socket.destroy(new Error('control port timeout')));
    socket.on('data', (chunk) => {
      text += chunk.toString();
      while (text.includes('END\r\n')) {
        const end = text.indexOf('END\r\n');
        answers.push(text.slice(0, end));
        text = text.slice(end + 5);
        if (answers.length === lines.length) socket.end('quit\n');
        else socket.write(`${lines[answers.length]}\n`);
      }
    });
    socket.on('close', () =>
      answers.length === lines.length ? resolve(answers) : reject(new Error('control closed')),
    );
    socket.on('error', reject);
  });
}

/**
 * Every 3 s what an operator's tools ask (help, the queue, what is on air, a variable), and
 * every tenth round a request pushed from the library, so request ids come and go.
 */
export async function useControlPort(
  port: number,
  files: () => readonly string[],
  counters: LoadCounters,
  stopped: () => boolean,
): Promise<void> {
  for (let round = 0; !stopped(); round++) {
    const lines = ['help', 'request.queue', 'request.on_air', 'var.get amplify', 'uptime'];
    const list = files();
    if (round % 10 === 9 && list.length > 0) {
      lines.push(`request.push ${list[(round * 31) % list.length]}`);
    }
    try {
      const answers = await controlSession(port, lines);
      counters.controlCommands += lines.length;
      const onAir = answers[2]?.trim().split(/\s+/)[0];
      if (onAir) {
        await controlSession(port, [`request.metadata ${onAir}`]);
        counters.controlCommands++;
      }
    } catch {
      counters.controlErrors++;
    }
    await sleep(3000);
  }
}

function call(
  base: string,
  path: string,
  init: { method?: string; cookie?: string; body?: unknown } = {},
): Promise<{ status: number; body: string; cookie: string }> {
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        method: init.method ?? 'GET',
        agent: false,
        headers: {
          ...(init.cookie ? { cookie: init.cookie } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        timeout: 10_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text,
            cookie: String(res.headers['set-cookie'] ?? '').split(';')[0] ?? '',
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout: ${path}`)));
    req.on('error', reject);
    req.end(body);
  });
}

export async function apiLogin(base: string, username: string, password: string): Promise<string> {
  const res = await call(base, '/auth/login', { method: 'POST', body: { username, password } });
  if (res.status !== 200 || !res.cookie) throw new Error(`api login failed: ${res.status}`);
  return res.cookie;
}

/** The event stream as the web app holds it, closed after `ms`. */
function eventStream(base: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const req = get(`${base}/events`, { agent: false }, (res) => {
      res.resume();
      res.on('error', () => {});
    });
    const timer = setTimeout(() => req.destroy(), ms);
    req.on('error', () => {});
    req.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Every 2 s a round of the public and the logged-in views; two event streams come and go. */
export async function useApi(
  base: string,
  cookie: string,
  counters: LoadCounters,
  stopped: () => boolean,
): Promise<void> {
  const events = async () => {
    while (!stopped()) await eventStream(base, 15_000);
  };
  const views = async () => {
    for (let round = 0; !stopped(); round++) {
      const paths = [
        '/status',
        '/streaming-status',
        '/player',
        '/player/queue',
        '/player/history?limit=20',
        `/tracks?limit=50&page=${(round % 10) + 1}`,
        `/tracks?q=soak%20${round % 100}`,
        '/artists',
      ];
      for (const path of paths) {
        counters.apiRequests++;
        const res = await call(base, path, { cookie }).catch(() => ({ status: 0 }));
        if (res.status !== 200) counters.apiErrors++;
      }
      await sleep(2000);
    }
  };
  await Promise.all([events(), events(), views()]);
}
