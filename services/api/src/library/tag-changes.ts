/** The tags the station writes; null clears one, undefined leaves it as it is. */
export interface TagChanges {
  title?: string | null | undefined;
  artist?: string | null | undefined;
  album?: string | null | undefined;
  albumArtist?: string | null | undefined;
  genre?: string | null | undefined;
  year?: number | null | undefined;
  trackNumber?: number | null | undefined;
}

/**
 * ffmpeg's generic tag names; each muxer writes them in its own way: ID3v2.4 frames for MP3
 * (TIT2, TPE1, TALB, TPE2, TCON, TDRC, TRCK), Vorbis comments for FLAC, Ogg and Opus (TITLE …
 * ALBUMARTIST, DATE, TRACKNUMBER), MP4 atoms for M4A (©nam, ©ART, ©alb, aART, ©gen, ©day,
 * trkn). Checked by reading them back with ffprobe and music-metadata (tests/library-tags).
 */
export const TAG_KEYS: Record<keyof TagChanges, string> = {
  title: 'title',
  artist: 'artist',
  album: 'album',
  albumArtist: 'album_artist',
  genre: 'genre',
  year: 'date',
  trackNumber: 'track',
};

export type CoverType = 'image/jpeg' | 'image/png';

/** A cover picture as a client sent it, its type checked against its bytes. */
export interface CoverImage {
  data: Buffer;
  type: CoverType;
}
