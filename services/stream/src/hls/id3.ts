/*
 * ID3v2.4 tags for packed-audio HLS segments. Each segment starts with a tag whose PRIV frame
 * `com.apple.streaming.transportStreamTimestamp` gives the 90 kHz time of its first sample (the
 * HLS spec requires it for packed audio); a title change is a tag of its own placed before the
 * first frame the new title belongs to, so players (hls.js, Safari, ffmpeg) raise it then.
 */

const TIMESTAMP_OWNER = 'com.apple.streaming.transportStreamTimestamp';

/** 90 kHz timestamps wrap at 33 bits, as MPEG-TS timestamps do. */
const PTS_WRAP = 2 ** 33;

function syncsafe(size: number): Buffer {
  const out = Buffer.alloc(4);
  out[0] = (size >> 21) & 0x7f;
  out[1] = (size >> 14) & 0x7f;
  out[2] = (size >> 7) & 0x7f;
  out[3] = size & 0x7f;
  return out;
}

function frame(id: string, body: Buffer): Buffer {
  const head = Buffer.alloc(10);
  head.write(id, 0, 'latin1');
  syncsafe(body.length).copy(head, 4);
  return Buffer.concat([head, body]);
}

function tag(frames: Buffer[]): Buffer {
  const body = Buffer.concat(frames);
  const head = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0]);
  return Buffer.concat([head, syncsafe(body.length), body]);
}

function privTimestamp(pts90k: number): Buffer {
  const stamp = Buffer.alloc(8);
  stamp.writeBigUInt64BE(BigInt(Math.floor(pts90k) % PTS_WRAP));
  return frame('PRIV', Buffer.concat([Buffer.from(`${TIMESTAMP_OWNER}\0`, 'latin1'), stamp]));
}

/** A text frame in UTF-8 (encoding byte 3, allowed in ID3v2.4). */
function textFrame(id: 'TIT2', text: string): Buffer {
  return frame(id, Buffer.concat([Buffer.from([3]), Buffer.from(text, 'utf8')]));
}

function txxx(description: string, value: string): Buffer {
  return frame(
    'TXXX',
    Buffer.concat([Buffer.from([3]), Buffer.from(`${description}\0${value}`, 'utf8')]),
  );
}

function titleFrames(title: string): Buffer[] {
  return [textFrame('TIT2', title), txxx('StreamTitle', title)];
}

/** The tag a segment starts with: its timestamp, and the title when one is set. */
export function segmentTag(pts90k: number, title: string | null): Buffer {
  return tag([privTimestamp(pts90k), ...(title === null ? [] : titleFrames(title))]);
}

/** A tag placed inside a segment where the title changes. */
export function titleTag(title: string): Buffer {
  return tag(titleFrames(title));
}
