/*
 * ICY in-band metadata: every `ICY_METAINT` audio bytes a listener that asked for it
 * (`Icy-MetaData: 1`) gets one length byte N and N*16 bytes of `StreamTitle='...';`, zero
 * padded. Like Icecast, the title is sent in full when it changed since that listener's last
 * block and as a single zero byte otherwise. Blocks are built once per title and shared.
 */

/** Icecast's interval, which players expect from an Icecast server. */
export const ICY_METAINT = 16000;

/** The block for "no change": a zero length byte. */
export const EMPTY_META_BLOCK = Buffer.from([0]);

const MAX_BLOCK_BYTES = 255 * 16;

export interface IcyMeta {
  /** The current title; '' when none was set. */
  readonly title: string;
  readonly url: string;
  /** Length byte + padded text: what goes in the stream. */
  readonly block: Buffer;
}

/** Before any title is set: listeners get zero-length blocks. */
export const NO_META: IcyMeta = { title: '', url: '', block: EMPTY_META_BLOCK };

/**
 * A value as it stands between `Key='` and `';`, unable to end there early. Readers (ffmpeg,
 * VLC, the relay here) end a value at its first `';`, and some look for `StreamUrl='` anywhere
 * in the block: a title holding `';StreamUrl='http://…` would hand them a link to open. So
 * the quote of each `';` and `='` inside it becomes U+2019 (’), which reads the same, and a
 * `;` at its start or `=` at its end (which would meet the quotes around it) is set off with a
 * space. Other quotes are sent as they are, as Icecast sends them.
 */
export function icyValue(text: string): string {
  return text
    .replaceAll("';", '\u2019;')
    .replaceAll("='", '=\u2019')
    .replace(/^;/, ' ;')
    .replace(/=$/, '= ');
}

/**
 * Builds the block for a title. Text is UTF-8 (what VLC, mpv/ffmpeg and browser players
 * expect today; Icecast 2.4 re-encodes to Latin-1 and loses what Latin-1 cannot hold). The
 * title and URL cannot end their value early (see `icyValue`); the text is cut to fit the
 * 4080-byte maximum.
 */
export function icyMeta(title: string, url = ''): IcyMeta {
  let text = `StreamTitle='${icyValue(title)}';${url ? `StreamUrl='${icyValue(url)}';` : ''}`;
  let bytes = Buffer.from(text, 'utf8');
  while (bytes.length > MAX_BLOCK_BYTES) {
    text = `StreamTitle='${icyValue(truncateUtf8(title, MAX_BLOCK_BYTES - 16))}';`;
    bytes = Buffer.from(text, 'utf8');
  }
  const units = Math.ceil(bytes.length / 16);
  const block = Buffer.alloc(1 + units * 16);
  block[0] = units;
  bytes.copy(block, 1);
  return { title, url, block };
}

/** At most `max` bytes of `text` in UTF-8, never cutting a character in two. */
function truncateUtf8(text: string, max: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return text;
  let end = max;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return bytes.toString('utf8', 0, end);
}

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

/**
 * The titles and audio of a stream received with `Icy-MetaData: 1`, as tests and the benchmark
 * read it. Keeps its state across calls.
 */
export class IcyReader {
  readonly titles: string[] = [];
  audioBytes = 0;
  #audio: Buffer[] = [];
  readonly #demuxer: IcyDemuxer;

  constructor(metaint: number) {
    this.#demuxer = new IcyDemuxer(
      metaint,
      (audio) => {
        this.#audio.push(audio);
        this.audioBytes += audio.length;
      },
      (title) => this.titles.push(title),
    );
  }

  /** Feeds received bytes; returns the audio bytes among them (subarrays, in order). */
  push(data: Buffer): Buffer[] {
    this.#audio = [];
    this.#demuxer.push(data);
    return this.#audio;
  }
}
