import type { AlbumDto, ArtistDto, TrackDto } from '../dtos/tracks.dto.ts';
import { compareText, sortKey } from './text.ts';

/* GET /artists and /albums: the playable tracks grouped by their folded artist or album name. */

/** The folded, trimmed artist and album of each track ('' for none), by track index. */
export interface GroupKeys {
  artist: readonly string[];
  album: readonly string[];
}

/** An album with the folded names of its artists, for the `artist` filter. */
export interface AlbumGroup extends AlbumDto {
  artistKeys: Set<string>;
}

export function groupArtists(tracks: readonly TrackDto[], keys: GroupKeys): ArtistDto[] {
  const groups = new Map<string, { name: string; tracks: number; albums: Set<string> }>();
  tracks.forEach((track, i) => {
    const key = keys.artist[i] as string;
    if (track.status !== 'ok' || key === '' || track.artist === null) return;
    let group = groups.get(key);
    if (!group) {
      group = { name: track.artist.trim(), tracks: 0, albums: new Set() };
      groups.set(key, group);
    }
    group.tracks += 1;
    const album = keys.album[i] as string;
    if (album !== '') group.albums.add(album);
  });
  return [...groups.values()]
    .map((group) => ({ name: group.name, tracks: group.tracks, albums: group.albums.size }))
    .sort((a, b) => compareText(sortKey(a.name), sortKey(b.name)));
}

export function groupAlbums(tracks: readonly TrackDto[], keys: GroupKeys): AlbumGroup[] {
  const groups = new Map<string, AlbumGroup & { artistNames: Map<string, string> }>();
  tracks.forEach((track, i) => {
    const key = keys.album[i] as string;
    if (track.status !== 'ok' || key === '' || track.album === null) return;
    let group = groups.get(key);
    if (!group) {
      group = {
        name: track.album.trim(),
        artist: null,
        tracks: 0,
        year: null,
        duration: 0,
        artistKeys: new Set(),
        artistNames: new Map(),
      };
      groups.set(key, group);
    }
    group.tracks += 1;
    group.duration += track.duration ?? 0;
    if (track.year !== null && (group.year === null || track.year < group.year))
      group.year = track.year;
    const artistKey = keys.artist[i] as string;
    if (artistKey !== '' && track.artist !== null) {
      group.artistKeys.add(artistKey);
      if (!group.artistNames.has(artistKey)) group.artistNames.set(artistKey, track.artist.trim());
    }
  });
  return [...groups.values()]
    .map(({ artistNames, ...group }) => ({
      ...group,
      artist: artistNames.size === 1 ? ([...artistNames.values()][0] as string) : null,
      duration: Math.round(group.duration * 1000) / 1000,
    }))
    .sort((a, b) => compareText(sortKey(a.name), sortKey(b.name)));
}
