import { connect, type Socket } from 'node:net';

/** Why the live input refused (or never answered) a source connection. */
export class HarborRefusedError extends Error {
  /** The live input's HTTP status; 0 when it could not be reached or did not answer. */
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'HarborRefusedError';
    this.status = status;
  }
}

export interface HarborSourceOptions {
  /** LIVE_URL: `http://host:port` of the scheduler's live input. */
  liveUrl: string;
  username: string;
  password: string;
  contentType: string;
  /** Shown as the stream's name (ice-name). */
  name: string;
  /** How long connecting and the answer may take. */
  timeoutMs: number;
}

const MAX_HEAD_BYTES = 16 * 1024;

/**
 * Opens a source connection to the live input as an Icecast source client does (HTTP PUT to
 * /live, basic auth, `Expect: 100-continue` like ffmpeg) and resolves once it accepted, with
 * the socket to write the audio into. The body is sent as it comes, not chunked, as Icecast
 * sources send it.
 */
export function openHarborSource(options: HarborSourceOptions): Promise<Socket> {
  const url = new URL(options.liveUrl);
  const port = Number(url.port) || 80;
  const auth = Buffer.from(`${options.username}:${options.password}`).toString('base64');
  const head = [
    'PUT /live HTTP/1.1',
    `Host: ${url.host}`,
    `Authorization: Basic ${auth}`,
    `Content-Type: ${options.contentType}`,
    `Ice-Name: ${options.name.replace(/[\r\n]/g, ' ')}`,
    'Ice-Public: 0',
    'User-Agent: radio-api go-live',
    'Expect: 100-continue',
    '',
    '',
  ].join('\r\n');

  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port });
    let answer = Buffer.alloc(0);
    const fail = (status: number, message: string) => {
      socket.destroy();
      reject(new HarborRefusedError(status, message));
    };
    socket.setTimeout(options.timeoutMs, () => fail(0, 'the live input did not answer in time'));
    socket.on('error', (error) => fail(0, `the live input is not reachable: ${error.message}`));
    socket.on('close', () => fail(0, 'the live input closed the connection'));
    socket.on('connect', () => socket.write(head));
    const onData = (chunk: Buffer) => {
      answer = Buffer.concat([answer, chunk]);
      const end = answer.indexOf('\r\n\r\n');
      if (end < 0) {
        if (answer.length > MAX_HEAD_BYTES) fail(0, 'the live input sent an oversized answer');
        return;
      }
      const text = answer.subarray(0, end).toString('latin1');
      const status = Number(text.match(/^HTTP\/1\.[01] (\d{3})/)?.[1] ?? 0);
      if (status === 100 || (status >= 200 && status < 300)) {
        socket.off('data', onData);
        socket.removeAllListeners('error');
        socket.removeAllListeners('close');
        socket.removeAllListeners('timeout');
        socket.setTimeout(0);
        socket.setNoDelay(true);
        resolve(socket);
        return;
      }
      const body = answer
        .subarray(end + 4)
        .toString('utf8')
        .trim();
      fail(status, body || text.split('\r\n')[0] || 'refused');
    };
    socket.on('data', onData);
  });
}
