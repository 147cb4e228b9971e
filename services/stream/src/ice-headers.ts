import { isUtf8 } from 'node:buffer';
import { cleanText } from './title-text.ts';

/** The `ice-*` (or older `icy-*`) headers a source describes its stream with. */
export interface IceHeaders {
  name: string | null;
  description: string | null;
  genre: string | null;
  url: string | null;
  public: boolean | null;
  audioInfo: string | null;
  bitrate: number | null;
}

/**
 * Header text arrives as bytes; UTF-8 when it is valid UTF-8, else Latin-1 as Icecast reads it
 * (whose 0x80–0x9F are control characters: dropped, see cleanText).
 */
function headerText(value: string | undefined): string | null {
  if (value === undefined) return null;
  const bytes = Buffer.from(value, 'latin1');
  return cleanText(isUtf8(bytes) ? bytes.toString('utf8') : value);
}

/** The stream description a source sends with its request (`ice-*` first, then `icy-*`). */
export function readIceHeaders(headers: Map<string, string>): IceHeaders {
  const get = (...names: string[]): string | undefined => {
    for (const name of names) {
      const value = headers.get(name);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  const pub = get('ice-public', 'icy-pub');
  const audioInfo = get('ice-audio-info');
  const bitrateText =
    get('ice-bitrate', 'icy-br') ?? /(?:^|;)\s*(?:ice-)?bitrate=(\d+)/.exec(audioInfo ?? '')?.[1];
  const bitrate = bitrateText === undefined ? Number.NaN : Number.parseInt(bitrateText, 10);
  return {
    name: headerText(get('ice-name', 'icy-name')),
    description: headerText(get('ice-description', 'icy-description')),
    genre: headerText(get('ice-genre', 'icy-genre')),
    url: headerText(get('ice-url', 'icy-url')),
    public: pub === undefined ? null : pub.trim() === '1' || pub.trim().toLowerCase() === 'true',
    audioInfo: audioInfo === undefined ? null : cleanText(audioInfo),
    bitrate: Number.isFinite(bitrate) && bitrate > 0 && bitrate < 100_000 ? bitrate : null,
  };
}
