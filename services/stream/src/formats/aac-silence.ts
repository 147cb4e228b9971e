import { ADTS_HEADER_SIZE, parseAdtsHeader } from '@radio/core';

/* Silent AAC-LC frames in ADTS framing, for a mount whose source has gone. */

/** Writes bits most significant first; what AAC syntax elements need. */
class BitWriter {
  readonly #bytes: number[] = [];
  #bit = 0;

  get bitLength(): number {
    return this.#bytes.length * 8 - (this.#bit === 0 ? 0 : 8 - this.#bit);
  }

  write(value: number, bits: number): void {
    for (let i = bits - 1; i >= 0; i--) {
      if (this.#bit === 0) this.#bytes.push(0);
      const last = this.#bytes.length - 1;
      this.#bytes[last] = (this.#bytes[last] as number) | (((value >> i) & 1) << (7 - this.#bit));
      this.#bit = (this.#bit + 1) & 7;
    }
  }

  toBuffer(): Buffer {
    return Buffer.from(this.#bytes);
  }
}

const ID_SCE = 0;
const ID_CPE = 1;
const ID_FIL = 6;
const ID_END = 7;

/** One channel with no spectral data: a long window with max_sfb = 0 decodes to zeros. */
function writeSilentChannel(w: BitWriter): void {
  w.write(0, 8); // global_gain
  w.write(0, 1); // ics_reserved_bit
  w.write(0, 2); // window_sequence: ONLY_LONG
  w.write(0, 1); // window_shape
  w.write(0, 6); // max_sfb = 0: no sections, no scale factors, no spectral data
  w.write(0, 1); // predictor_data_present
  w.write(0, 1); // pulse_data_present
  w.write(0, 1); // tns_data_present
  w.write(0, 1); // gain_control_data_present
}

/**
 * An ADTS frame of AAC-LC silence with the template frame's header (sample rate, channels,
 * profile), padded with fill elements to `targetLength` bytes so the byte rate matches the
 * stream's bitrate. Mono and stereo only (channel configurations 1 and 2); null otherwise.
 */
export function silentAdtsFrame(template: Buffer, targetLength: number): Buffer | null {
  const header = parseAdtsHeader(template, 0);
  if (!header || (header.channels !== 1 && header.channels !== 2)) return null;
  const w = new BitWriter();
  if (header.channels === 2) {
    w.write(ID_CPE, 3);
    w.write(0, 4); // element_instance_tag
    w.write(0, 1); // common_window
    writeSilentChannel(w);
    writeSilentChannel(w);
  } else {
    w.write(ID_SCE, 3);
    w.write(0, 4);
    writeSilentChannel(w);
  }
  const payloadBits = Math.max(0, targetLength - ADTS_HEADER_SIZE) * 8;
  for (;;) {
    const left = payloadBits - w.bitLength - 3; // room for the END element
    if (left < 7) break;
    if (left >= 15 + 8 * 15) {
      // count = 15 + esc_count - 1 bytes of EXT_FILL payload (at most 269 per element)
      const count = Math.min(269, Math.floor((left - 15) / 8));
      w.write(ID_FIL, 3);
      w.write(15, 4);
      w.write(count - 14, 8);
      writeFill(w, count);
    } else {
      const count = Math.min(14, Math.floor((left - 7) / 8));
      w.write(ID_FIL, 3);
      w.write(count, 4);
      writeFill(w, count);
      break;
    }
  }
  w.write(ID_END, 3);
  const payload = w.toBuffer();
  const length = ADTS_HEADER_SIZE + payload.length;
  const frame = Buffer.alloc(length);
  frame[0] = 0xff;
  frame[1] = (template[1] as number) | 1; // protection_absent: no CRC
  frame[2] = template[2] as number;
  frame[3] = ((template[3] as number) & 0xc0) | ((length >> 11) & 3);
  frame[4] = (length >> 3) & 0xff;
  frame[5] = ((length & 7) << 5) | 0x1f; // buffer fullness 0x7FF: VBR
  frame[6] = 0xfc; // one raw data block
  payload.copy(frame, ADTS_HEADER_SIZE);
  return frame;
}

/** An extension payload of type EXT_FILL: a zero nibble, then fill bytes 0xA5. */
function writeFill(w: BitWriter, count: number): void {
  if (count === 0) return;
  w.write(0, 4); // extension_type EXT_FILL
  w.write(0, 4); // fill_nibble
  for (let i = 1; i < count; i++) w.write(0xa5, 8);
}
