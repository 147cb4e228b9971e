import { type CSSProperties, useState } from 'react';
import { api } from '../api/client.ts';
import { MusicIcon } from './icons.tsx';

function hue(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i += 1) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return Math.abs(hash) % 360;
}

export interface CoverArtProps {
  trackId: number | null | undefined;
  /** Only request the image when the track has one: a 404 per row would be noise. */
  hasCover: boolean;
  /** Seeds the colour of the placeholder. */
  seed: string;
  size?: 'small' | 'medium' | 'large';
  /** The image's text alternative; empty when the title is written beside it. */
  alt?: string;
}

/** A track's cover, or a coloured placeholder when it has none. */
export function CoverArt({ trackId, hasCover, seed, size = 'small', alt = '' }: CoverArtProps) {
  const [failed, setFailed] = useState<number | null>(null);
  const showImage = hasCover && trackId && failed !== trackId;
  const h = hue(seed || 'radio');
  const style = { '--cover-hue': String(h) } as CSSProperties;
  if (showImage) {
    return (
      <div className={`cover cover-${size}`} style={style}>
        <img
          src={api.coverUrl(trackId)}
          alt={alt}
          loading="lazy"
          decoding="async"
          onError={() => setFailed(trackId)}
        />
      </div>
    );
  }
  if (alt) {
    return (
      <div className={`cover cover-${size}`} style={style} role="img" aria-label={alt}>
        <MusicIcon size={size === 'large' ? 64 : size === 'medium' ? 32 : 18} />
      </div>
    );
  }
  return (
    <div className={`cover cover-${size}`} style={style}>
      <MusicIcon size={size === 'large' ? 64 : size === 'medium' ? 32 : 18} />
    </div>
  );
}
