/**
 * Decodes `Transfer-Encoding: chunked` as it arrives, for the source ports that read raw
 * sockets (the stream server's mounts, the scheduler's live input). Icecast 2.4 cannot take a
 * chunked PUT, but a source written with Node's `http.request` (the api's go-live bridge) or
 * `curl -T -` sends one, so we do.
 */
export class ChunkedDecoder {
  #state: 'size' | 'data' | 'data-end' | 'trailer' | 'done' = 'size';
  #line = '';
  #left = 0;

  /** True once the last chunk and the trailer have been read. */
  get done(): boolean {
    return this.#state === 'done';
  }

  /**
   * Feeds encoded bytes; calls `onData` with the payload pieces (subarrays). Returns false on
   * malformed framing (the caller ends the stream).
   */
  push(input: Buffer, onData: (data: Buffer) => void): boolean {
    let i = 0;
    while (i < input.length && this.#state !== 'done') {
      if (this.#state === 'data') {
        const n = Math.min(this.#left, input.length - i);
        onData(input.subarray(i, i + n));
        this.#left -= n;
        i += n;
        if (this.#left === 0) this.#state = 'data-end';
        continue;
      }
      const byte = input[i++] as number;
      if (byte !== 0x0a) {
        if (byte !== 0x0d) this.#line += String.fromCharCode(byte);
        if (this.#line.length > 1024) return false;
        continue;
      }
      const line = this.#line;
      this.#line = '';
      if (this.#state === 'data-end') {
        if (line !== '') return false;
        this.#state = 'size';
      } else if (this.#state === 'size') {
        const size = /^([0-9a-fA-F]{1,8})\s*(;.*)?$/.exec(line);
        if (!size) return false;
        this.#left = Number.parseInt(size[1] as string, 16);
        this.#state = this.#left === 0 ? 'trailer' : 'data';
      } else if (line === '') {
        this.#state = 'done';
      }
    }
    return true;
  }
}
