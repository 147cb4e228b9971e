import type { PlaylistKind, PlayOrder, StartMode } from '@radio/db';
import type { Db } from './db.ts';

/** An on-air playlist with its items in order (tracks not yet checked for playability). */
export interface ProgrammePlaylistRow {
  readonly id: number;
  readonly name: string;
  readonly kind: PlaylistKind;
  readonly order: PlayOrder;
  readonly weight: number;
  readonly jingle: boolean;
  readonly interval: number | null;
  /** Epoch ms. */
  readonly playAt: number | null;
  readonly startMode: StartMode;
  readonly cursor: number;
  readonly cycle: number;
  readonly trackIds: readonly number[];
}

export interface ProgrammeScheduleRow {
  readonly id: number;
  readonly playlistId: number | null;
  readonly dj: { readonly id: number; readonly name: string } | null;
  readonly title: string | null;
  readonly days: number;
  readonly startTime: string;
  readonly endTime: string;
  readonly startDate: string | null;
  readonly endDate: string | null;
  readonly priority: number;
  readonly startMode: StartMode;
}

export interface ProgrammeRequestRow {
  readonly id: number;
  readonly userId: number;
  readonly userName: string;
  readonly trackId: number;
  /** Epoch ms. */
  readonly notBefore: number;
  readonly plannedAt: number | null;
}

/** One play of the history, as separation and the rules count it. */
export interface ProgrammeHistoryRow {
  readonly trackId: number | null;
  readonly artist: string | null;
  readonly playlistId: number | null;
  readonly jingle: boolean;
  /** Epoch ms. */
  readonly startedAt: number;
}

/** Everything the planner reads from the database, read at once. */
export interface ProgrammeData {
  readonly playlists: readonly ProgrammePlaylistRow[];
  readonly schedules: readonly ProgrammeScheduleRow[];
  readonly requests: readonly ProgrammeRequestRow[];
  /** Oldest first. */
  readonly history: readonly ProgrammeHistoryRow[];
}

const toMs = (value: string | null): number | null => (value === null ? null : Date.parse(value));

/**
 * Reads what programming is made of: the on-air playlists (with their items), the schedule,
 * the pending listener requests and the recent history; writes where a playlist's order stands.
 * The api owns writing everything else.
 */
export class ProgrammeRepository {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** All of it; `historySince` (epoch ms) bounds the history read (at most `historyLimit` rows). */
  async load(historySince: number, historyLimit = 20_000): Promise<ProgrammeData> {
    const [playlists, schedules, requests, history] = await Promise.all([
      this.playlists(),
      this.schedules(),
      this.pendingRequests(),
      this.history(historySince, historyLimit),
    ]);
    return { playlists, schedules, requests, history };
  }

  async playlists(): Promise<ProgrammePlaylistRow[]> {
    const rows = await this.#db
      .selectFrom('playlists')
      .selectAll()
      .where('on_air', '=', 1)
      .orderBy('id')
      .execute();
    if (rows.length === 0) return [];
    const items = await this.#db
      .selectFrom('playlist_items')
      .select(['playlist_id', 'track_id'])
      .where(
        'playlist_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('playlist_id')
      .orderBy('position')
      .orderBy('id')
      .execute();
    const byPlaylist = new Map<number, number[]>();
    for (const item of items) {
      const list = byPlaylist.get(item.playlist_id) ?? [];
      list.push(item.track_id);
      byPlaylist.set(item.playlist_id, list);
    }
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      kind: row.kind,
      order: row.play_order,
      weight: row.weight,
      jingle: row.jingle !== 0,
      interval: row.interval,
      playAt: toMs(row.play_at),
      startMode: row.start_mode,
      cursor: row.cursor,
      cycle: row.cycle,
      trackIds: byPlaylist.get(row.id) ?? [],
    }));
  }

  /** Every schedule entry; a DJ's slot carries the DJ's on-air name (or login name). */
  async schedules(): Promise<ProgrammeScheduleRow[]> {
    const rows = await this.#db
      .selectFrom('schedules')
      .leftJoin('users', 'users.id', 'schedules.dj_user_id')
      .leftJoin('dj_accounts', 'dj_accounts.user_id', 'schedules.dj_user_id')
      .select([
        'schedules.id',
        'schedules.playlist_id',
        'schedules.dj_user_id',
        'schedules.title',
        'schedules.days',
        'schedules.start_time',
        'schedules.end_time',
        'schedules.start_date',
        'schedules.end_date',
        'schedules.priority',
        'schedules.start_mode',
        'users.username',
        'dj_accounts.display_name',
      ])
      .orderBy('schedules.id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      playlistId: row.playlist_id,
      dj:
        row.dj_user_id === null
          ? null
          : {
              id: row.dj_user_id,
              name: row.display_name || row.username || `DJ ${row.dj_user_id}`,
            },
      title: row.title,
      days: row.days,
      startTime: row.start_time,
      endTime: row.end_time,
      startDate: row.start_date,
      endDate: row.end_date,
      priority: row.priority,
      startMode: row.start_mode,
    }));
  }

  /** Pending listener requests, oldest first, with the requester's name. */
  async pendingRequests(): Promise<ProgrammeRequestRow[]> {
    const rows = await this.#db
      .selectFrom('song_requests')
      .innerJoin('users', 'users.id', 'song_requests.user_id')
      .select([
        'song_requests.id',
        'song_requests.user_id',
        'users.username',
        'song_requests.track_id',
        'song_requests.not_before',
        'song_requests.planned_at',
      ])
      .where('song_requests.status', '=', 'pending')
      .orderBy('song_requests.requested_at')
      .orderBy('song_requests.id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      userId: row.user_id,
      userName: row.username,
      trackId: row.track_id,
      notBefore: Date.parse(row.not_before),
      plannedAt: toMs(row.planned_at),
    }));
  }

  /** Plays since `since` (epoch ms), oldest first; the newest `limit` when there are more. */
  async history(since: number, limit: number): Promise<ProgrammeHistoryRow[]> {
    const rows = await this.#db
      .selectFrom('play_history')
      .select(['track_id', 'artist', 'playlist_id', 'jingle', 'started_at'])
      .where('started_at', '>=', new Date(since).toISOString())
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse().map((row) => ({
      trackId: row.track_id,
      artist: row.artist,
      playlistId: row.playlist_id,
      jingle: row.jingle !== 0,
      startedAt: Date.parse(row.started_at),
    }));
  }

  /** Where a playlist's order stands after a track of it was taken (kept across restarts). */
  async savePosition(playlistId: number, cursor: number, cycle: number): Promise<void> {
    await this.#db
      .updateTable('playlists')
      .set({ cursor, cycle })
      .where('id', '=', playlistId)
      .execute();
  }
}
