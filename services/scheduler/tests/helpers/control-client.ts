import { connect, type Socket } from 'node:net';

/**
 * A control-port client for tests: send raw bytes, read raw bytes until a terminator, the
 * close, or a bounded wait.
 */
export class ControlClient {
  readonly socket: Socket;
  #data = Buffer.alloc(0);
  #closed = false;
  #waiters = new Set<() => void>();

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#data = Buffer.concat([this.#data, chunk]);
      this.#wake();
    });
    socket.on('close', () => {
      this.#closed = true;
      this.#wake();
    });
    socket.on('error', () => {});
  }

  static connect(port: number, host = '127.0.0.1'): Promise<ControlClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host });
      socket.once('connect', () => resolve(new ControlClient(socket)));
      socket.once('error', reject);
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  /** Sends a command line and returns the reply body (the bytes before `\r\nEND\r\n`). */
  async command(line: string, timeoutMs = 10_000): Promise<string> {
    this.write(`${line}\n`);
    const raw = await this.readUntil('\r\nEND\r\n', timeoutMs);
    return raw.slice(0, -'\r\nEND\r\n'.length);
  }

  /** Everything up to and including `terminator`; consumed. */
  async readUntil(terminator: string, timeoutMs = 10_000): Promise<string> {
    const needle = Buffer.from(terminator);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const at = this.#data.indexOf(needle);
      if (at >= 0) {
        const out = this.#data.subarray(0, at + needle.length).toString('utf8');
        this.#data = this.#data.subarray(at + needle.length);
        return out;
      }
      if (this.#closed)
        throw new Error(
          `closed before ${JSON.stringify(terminator)}: ${JSON.stringify(this.#data.toString())}`,
        );
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `timeout waiting for ${JSON.stringify(terminator)}: got ${JSON.stringify(this.#data.toString())}`,
        );
      await this.#wait(left);
    }
  }

  /** Everything received until the server closes (bounded). */
  async readToClose(timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#closed) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`timeout waiting for close: got ${JSON.stringify(this.#data.toString())}`);
      await this.#wait(left);
    }
    const out = this.#data.toString('utf8');
    this.#data = Buffer.alloc(0);
    return out;
  }

  /** What arrived within `ms` (for "no answer" checks). */
  async readFor(ms: number): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    const out = this.#data.toString('utf8');
    this.#data = Buffer.alloc(0);
    return out;
  }

  close(): void {
    this.socket.destroy();
  }

  #wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiters.add(done);
    });
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}
