/**
 * The station's mounts: the one table every part reads (the stream server configures them, the
 * scheduler encodes one output each, the api lists them, embedded mode and the compose test
 * print and probe them). A fourth mount is one more entry here.
 */

export type MountCodec = 'mp3' | 'aac';
export type MountQuality = 'high' | 'low';
/** How the codec's frames are packed on the wire (the frame parser to cut them with). */
export type FrameFormat = 'mp3' | 'adts';

export interface StationMount {
  /** `/radio.mp3` … */
  readonly path: string;
  readonly codec: MountCodec;
  /** Nominal kbit/s: the encoder's target, `icy-br`, stats. */
  readonly bitrate: number;
  /** Icecast's quality label, as `/api/radio/streaming-status` reports it. */
  readonly quality: MountQuality;
  /** `audio/mpeg`, `audio/aac`: what the encoder sends and listeners receive. */
  readonly contentType: string;
  readonly frameFormat: FrameFormat;
  /** For people: "MP3 128k". */
  readonly label: string;
  /** Added to the station name in `ice-name` ("Radio (AAC)"); none for the main mount. */
  readonly nameSuffix?: string;
}

const CODECS: Record<MountCodec, { contentType: string; frameFormat: FrameFormat; name: string }> =
  {
    mp3: { contentType: 'audio/mpeg', frameFormat: 'mp3', name: 'MP3' },
    aac: { contentType: 'audio/aac', frameFormat: 'adts', name: 'AAC' },
  };

function mount(
  path: string,
  codec: MountCodec,
  bitrate: number,
  quality: MountQuality,
  nameSuffix?: string,
): StationMount {
  const { contentType, frameFormat, name } = CODECS[codec];
  return {
    path,
    codec,
    bitrate,
    quality,
    contentType,
    frameFormat,
    label: `${name} ${bitrate}k`,
    ...(nameSuffix ? { nameSuffix } : {}),
  };
}

/** The three mounts DESIGN.md fixes. */
export const STATION_MOUNTS: readonly StationMount[] = [
  mount('/radio.mp3', 'mp3', 128, 'high'),
  mount('/radio.aac', 'aac', 96, 'high', 'AAC'),
  mount('/radio-low.mp3', 'mp3', 64, 'low', 'low'),
];

/** The content type of a codec's stream. */
export function codecContentType(codec: MountCodec): string {
  return CODECS[codec].contentType;
}

/** The frame packing of a codec's stream. */
export function codecFrameFormat(codec: MountCodec): FrameFormat {
  return CODECS[codec].frameFormat;
}
