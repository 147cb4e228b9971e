/**
 * What a live source sends: the container named by its Content-Type, checked against the first
 * bytes (a client may send anything under any header), and the ffmpeg demuxer that reads it.
 */
export type LiveFormat = 'mp3' | 'aac' | 'ogg' | 'webm';

/** The formats the DJ page lists (Content-Type values a client may send). */
export const ACCEPTED_TYPES: Record<string, LiveFormat> = {
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/mpeg3': 'mp3',
  'audio/aac': 'aac',
  'audio/aacp': 'aac',
  'audio/x-aac': 'aac',
  'application/ogg': 'ogg',
  'audio/ogg': 'ogg',
  'audio/opus': 'ogg',
  'audio/flac': 'ogg',
  'audio/x-flac': 'ogg',
  'video/ogg': 'ogg',
  'audio/webm': 'webm',
  'video/webm': 'webm',
};

/** ffmpeg's demuxer for each format: named, so ffmpeg does not wait to probe the stream. */
export const DEMUXER: Record<LiveFormat, string> = {
  mp3: 'mp3',
  aac: 'aac',
  ogg: 'ogg',
  webm: 'matroska',
};

/** The format a Content-Type names; null when it is not audio we take (or absent). */
export function formatOfType(contentType: string | undefined): LiveFormat | null {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return (type && ACCEPTED_TYPES[type]) || null;
}

const OGG = Buffer.from('OggS');
const EBML = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/** An MPEG audio frame header: sync, a real version and layer, a bitrate and a sample rate. */
function mpegFrame(b: Buffer, i: number): boolean {
  const b1 = b[i + 1] as number;
  const b2 = b[i + 2] as number;
  return (
    b[i] === 0xff &&
    (b1 & 0xe0) === 0xe0 &&
    (b1 & 0x18) !== 0x08 &&
    (b1 & 0x06) !== 0 &&
    b2 >> 4 !== 0x0f &&
    (b2 & 0x0c) !== 0x0c
  );
}

function adtsFrame(b: Buffer, i: number): boolean {
  return b[i] === 0xff && ((b[i + 1] as number) & 0xf6) === 0xf0;
}

/**
 * The format the first bytes are in: 'pending' until enough has come to tell, null when they
 * are not audio the harbor takes. MP3 and AAC need a frame header near the start (after an
 * ID3 tag for MP3); Ogg and WebM start with their magic.
 */
export function sniffFormat(head: Buffer): LiveFormat | null | 'pending' {
  if (head.length < 4) return 'pending';
  if (head.subarray(0, 4).equals(OGG)) return 'ogg';
  if (head.subarray(0, 4).equals(EBML)) return 'webm';
  if (head.toString('latin1', 0, 3) === 'ID3') return 'mp3';
  // A stream joined mid-frame (a client that reconnects) has some bytes before the first header.
  const window = Math.min(head.length - 3, 4096);
  for (let i = 0; i < window; i++) {
    if (adtsFrame(head, i)) return 'aac';
    if (mpegFrame(head, i)) return 'mp3';
  }
  return head.length >= 4096 ? null : 'pending';
}

/** The first page of a new Ogg stream: magic, version 0, the BOS flag alone, granule 0. */
function oggStreamStart(chunk: Buffer, at: number): boolean {
  if (chunk[at + 4] !== 0 || chunk[at + 5] !== 2 || chunk.length < at + 14) return false;
  for (let i = at + 6; i < at + 14; i++) if (chunk[i] !== 0) return false;
  return true;
}

/** An EBML header: its magic, then the EBMLVersion element within the next few bytes. */
function ebmlHeader(chunk: Buffer, at: number): boolean {
  const version = chunk.indexOf(EBML_VERSION, at + 4);
  return version >= 0 && version <= at + 13;
}

const EBML_VERSION = Buffer.from([0x42, 0x86]);

function found(
  chunk: Buffer,
  magic: Buffer,
  check: (chunk: Buffer, at: number) => boolean,
): boolean {
  for (let at = chunk.indexOf(magic); at >= 0; at = chunk.indexOf(magic, at + 1)) {
    if (check(chunk, at)) return true;
  }
  return false;
}

/**
 * The container changing under the same connection: a new Ogg stream or a WebM header in an
 * MP3 or AAC stream, or the other one in an Ogg or WebM stream. The whole start of a stream
 * must be there, not only its 4-byte magic, which hours of compressed audio contain by chance.
 * (A new chain of the same container, as Liquidsoap starts for each title in Ogg, is not a
 * change.)
 */
export function foreignContainer(format: LiveFormat, chunk: Buffer): string | null {
  if (format !== 'ogg' && found(chunk, OGG, oggStreamStart)) return 'Ogg pages';
  if (format !== 'webm' && found(chunk, EBML, ebmlHeader)) return 'a WebM header';
  return null;
}
