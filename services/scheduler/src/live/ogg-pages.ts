/**
 * Follows the pages of an Ogg live source as they arrive, for what ffmpeg's decode does not
 * tell us: the codec of each chain (a chain in another codec is a codec change, which the
 * harbor refuses), and the title in each chain's comment header (Vorbis comments, OpusTags,
 * FLAC's comment block): Ogg sources send their titles in the stream, not with updinfo.
 */
export type OggCodec = 'vorbis' | 'opus' | 'flac' | 'other';

export interface OggEvents {
  /** The codec of the first chain. */
  onCodec(codec: OggCodec): void;
  onCodecChange(from: OggCodec, to: OggCodec): void;
  onTitle(title: string): void;
}

const MAGIC = Buffer.from('OggS');
/** Bytes that are not Ogg pages tolerated before the stream is called broken (resync). */
const MAX_JUNK = 64 * 1024;

function codecOf(packet: Buffer): OggCodec {
  if (packet.toString('latin1', 1, 7) === 'vorbis' && packet[0] === 1) return 'vorbis';
  if (packet.toString('latin1', 0, 8) === 'OpusHead') return 'opus';
  if (packet.toString('latin1', 0, 5) === '\x7fFLAC') return 'flac';
  return 'other';
}

/** The comment list of a comment header (from its vendor length field), as KEY=value pairs. */
function readComments(data: Buffer, at: number): Map<string, string> {
  const tags = new Map<string, string>();
  let i = at + 4 + data.readUInt32LE(at);
  const count = data.readUInt32LE(i);
  i += 4;
  for (let n = 0; n < count && i + 4 <= data.length; n++) {
    const length = data.readUInt32LE(i);
    const text = data.toString('utf8', i + 4, Math.min(data.length, i + 4 + length));
    i += 4 + length;
    const eq = text.indexOf('=');
    if (eq > 0) tags.set(text.slice(0, eq).toUpperCase(), text.slice(eq + 1));
  }
  return tags;
}

function titleOf(packet: Buffer): string | null {
  let at = -1;
  if (packet[0] === 3 && packet.toString('latin1', 1, 7) === 'vorbis') at = 7;
  else if (packet.toString('latin1', 0, 8) === 'OpusTags') at = 8;
  else if (((packet[0] as number) & 0x7f) === 4) at = 4;
  if (at < 0 || packet.length < at + 8) return null;
  try {
    const tags = readComments(packet, at);
    const title = tags.get('TITLE')?.trim();
    const artist = tags.get('ARTIST')?.trim();
    if (!title) return null;
    return artist ? `${artist} - ${title}` : title;
  } catch {
    return null; // a comment header cut short by the page: no title from it
  }
}

export class OggPages {
  readonly #events: OggEvents;
  #buf: Buffer = Buffer.alloc(0);
  #junk = 0;
  #codec: OggCodec | null = null;
  /** Serial numbers whose comment header is the next packet. */
  readonly #awaitingComments = new Set<number>();

  constructor(events: OggEvents) {
    this.#events = events;
  }

  /** Feeds bytes; returns a reason when the stream is no longer Ogg. */
  push(chunk: Buffer): string | null {
    this.#buf = this.#buf.length === 0 ? chunk : Buffer.concat([this.#buf, chunk]);
    for (;;) {
      if (this.#buf.length < 27) return null;
      if (!this.#buf.subarray(0, 4).equals(MAGIC)) {
        const next = this.#buf.indexOf(MAGIC, 1);
        const skip = next < 0 ? this.#buf.length - 3 : next;
        this.#junk += skip;
        this.#buf = this.#buf.subarray(skip);
        if (this.#junk > MAX_JUNK) return `${this.#junk} bytes that are not Ogg pages`;
        continue;
      }
      const segments = this.#buf[26] as number;
      if (this.#buf.length < 27 + segments) return null;
      let size = 0;
      for (let i = 0; i < segments; i++) size += this.#buf[27 + i] as number;
      const end = 27 + segments + size;
      if (this.#buf.length < end) return null;
      this.#page(this.#buf.subarray(0, end), 27 + segments);
      this.#buf = this.#buf.subarray(end);
      this.#junk = 0;
    }
  }

  #page(page: Buffer, bodyAt: number): void {
    const serial = page.readUInt32LE(14);
    const body = page.subarray(bodyAt);
    if (((page[5] as number) & 0x02) !== 0) {
      const codec = codecOf(body);
      if (this.#codec === null) this.#events.onCodec(codec);
      else if (codec !== this.#codec) this.#events.onCodecChange(this.#codec, codec);
      this.#codec = codec;
      this.#awaitingComments.add(serial);
      return;
    }
    if (!this.#awaitingComments.delete(serial)) return;
    const title = titleOf(body);
    if (title) this.#events.onTitle(title);
  }
}
