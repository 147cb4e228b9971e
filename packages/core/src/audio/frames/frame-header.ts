import type { MountCodec } from '../../station/mounts.ts';

/** What a frame parser reads from one frame header. */
export interface FrameHeader {
  codec: MountCodec;
  /** Bytes of the whole frame, header included. */
  length: number;
  /** PCM samples per channel that the frame decodes to. */
  samples: number;
  sampleRate: number;
  channels: number;
  /** kbit/s for MPEG audio; 0 where the header does not say (ADTS). */
  bitrate: number;
  /**
   * The header fields that stay the same across the frames of one stream (version, layer,
   * sample rate, channels ...). A candidate frame whose signature differs from the last frame's
   * is a false sync inside audio data, or the stream's parameters changed.
   */
  signature: number;
}
