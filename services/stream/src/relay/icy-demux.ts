/**
 * Splits a stream received with `Icy-MetaData: 1` into audio and titles, in stream order:
 * every `metaint` audio bytes come one length byte N and N*16 bytes of `StreamTitle='...';`.
 * The relay needs the order (not just the titles) so a title lands on the edge's mount at the
 * same point in the audio as on the origin.
 */
export class IcyDemuxer {
  readonly #metaint: number;
  readonly #onAudio: (audio: Buffer) => void;
  readonly #onTitle: (title: string, url: string) => void;
  #audioLeft: number;
  /** Metadata bytes still to read; -1 while reading audio or the length byte. */
  #metaLeft = -1;
  #meta: Buffer[] = [];

  constructor(
    metaint: number,
    onAudio: (audio: Buffer) => void,
    onTitle: (title: string, url: string) => void,
  ) {
    this.#metaint = metaint;
    this.#audioLeft = metaint;
    this.#onAudio = onAudio;
    this.#onTitle = onTitle;
  }

  push(data: Buffer): void {
    let offset = 0;
    while (offset < data.length) {
      if (this.#metaLeft < 0 && this.#audioLeft > 0) {
        const n = Math.min(this.#audioLeft, data.length - offset);
        this.#onAudio(data.subarray(offset, offset + n));
        this.#audioLeft -= n;
        offset += n;
      } else if (this.#metaLeft < 0) {
        this.#metaLeft = (data[offset] as number) * 16;
        offset += 1;
        if (this.#metaLeft === 0) this.#endBlock();
      } else {
        const n = Math.min(this.#metaLeft, data.length - offset);
        this.#meta.push(data.subarray(offset, offset + n));
        this.#metaLeft -= n;
        offset += n;
        if (this.#metaLeft === 0) this.#endBlock();
      }
    }
  }

  #endBlock(): void {
    if (this.#meta.length > 0) {
      const text = Buffer.concat(this.#meta).toString('utf8').replace(/\0+$/, '');
      const title = /StreamTitle='(.*?)';/s.exec(text);
      const url = /StreamUrl='(.*?)';/s.exec(text);
      if (title) this.#onTitle(title[1] as string, url?.[1] ?? '');
    }
    this.#meta = [];
    this.#metaLeft = -1;
    this.#audioLeft = this.#metaint;
  }
}
