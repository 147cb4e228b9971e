import type { Database, DbHandle, SongRequest, SongRequestStatus } from '@radio/db';
import { nowIso } from '@radio/db';
import { type Kysely, sql } from 'kysely';

/** A listener request with its track and requester. */
export interface RequestRow extends SongRequest {
  title: string;
  artist: string | null;
  album: string | null;
  duration: number | null;
  username: string;
}

const SETTINGS_KEY = 'requests';

/** Listener requests, what their rules read from the history, and the request settings. */
export class RequestsRepository {
  readonly #handle: DbHandle;

  constructor(handle: DbHandle) {
    this.#handle = handle;
  }

  get #db(): Kysely<Database> {
    return this.#handle.db;
  }

  #select() {
    return this.#db
      .selectFrom('song_requests as r')
      .innerJoin('tracks as t', 't.id', 'r.track_id')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .selectAll('r')
      .select(['t.title', 't.artist', 't.album', 't.duration', 'u.username']);
  }

  async findById(id: number): Promise<RequestRow | undefined> {
    return this.#select().where('r.id', '=', id).executeTakeFirst();
  }

  /** A user's latest requests, newest first. */
  async listForUser(userId: number, limit: number): Promise<RequestRow[]> {
    return this.#select()
      .where('r.user_id', '=', userId)
      .orderBy('r.requested_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Pending ones oldest first (the order they play in), the rest newest first. */
  async list(status: SongRequestStatus | undefined, limit: number): Promise<RequestRow[]> {
    let query = this.#select();
    if (status !== undefined) query = query.where('r.status', '=', status);
    const direction = status === 'pending' ? 'asc' : 'desc';
    return query
      .orderBy('r.requested_at', direction)
      .orderBy('r.id', direction)
      .limit(limit)
      .execute();
  }

  async countPending(userId: number): Promise<number> {
    const row = await this.#db
      .selectFrom('song_requests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** When the user made each request since `since` (ISO), oldest first; removed ones count. */
  async requestTimesSince(userId: number, since: string): Promise<string[]> {
    const rows = await this.#db
      .selectFrom('song_requests')
      .select('requested_at')
      .where('user_id', '=', userId)
      .where('requested_at', '>=', since)
      .orderBy('requested_at')
      .execute();
    return rows.map((row) => row.requested_at);
  }

  /** The latest request of the track that is pending or was made since `since` (not removed). */
  async blockingRequest(trackId: number, since: string): Promise<SongRequest | undefined> {
    return this.#db
      .selectFrom('song_requests')
      .selectAll()
      .where('track_id', '=', trackId)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'pending'),
          eb.and([eb('status', '!=', 'removed'), eb('requested_at', '>=', since)]),
        ]),
      )
      .orderBy('requested_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** When the track last started on air (jingles aside), or null. */
  async lastTrackPlay(trackId: number): Promise<string | null> {
    const row = await this.#db
      .selectFrom('play_history')
      .select((eb) => eb.fn.max('started_at').as('at'))
      .where('track_id', '=', trackId)
      .where('jingle', '=', 0)
      .executeTakeFirst();
    return row?.at ?? null;
  }

  /** When the artist (any spelling of its case) last started on air, jingles aside, or null. */
  async lastArtistPlay(artist: string): Promise<string | null> {
    const row = await this.#db
      .selectFrom('play_history')
      .select((eb) => eb.fn.max('started_at').as('at'))
      .where(sql<string>`lower(artist)`, '=', artist.toLowerCase())
      .where('jingle', '=', 0)
      .executeTakeFirst();
    return row?.at ?? null;
  }

  async create(values: {
    userId: number;
    trackId: number;
    requestedAt: string;
    notBefore: string;
  }): Promise<number> {
    const row = await this.#db
      .insertInto('song_requests')
      .values({
        user_id: values.userId,
        track_id: values.trackId,
        not_before: values.notBefore,
        requested_at: values.requestedAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** The pending requests of a track, oldest first. */
  async pendingIdsForTrack(trackId: number): Promise<number[]> {
    const rows = await this.#db
      .selectFrom('song_requests')
      .select('id')
      .where('track_id', '=', trackId)
      .where('status', '=', 'pending')
      .orderBy('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /** Marks a pending request removed; false when it is not pending (any more). */
  async remove(id: number, reason: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('song_requests')
      .set({ status: 'removed', reason, planned_at: null })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The stored settings JSON, or null before an admin saved any. */
  async settings(): Promise<unknown> {
    const row = await this.#db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', SETTINGS_KEY)
      .executeTakeFirst();
    return row ? JSON.parse(row.value) : null;
  }

  async saveSettings(settings: object): Promise<void> {
    const value = JSON.stringify(settings);
    await this.#db
      .insertInto('settings')
      .values({ key: SETTINGS_KEY, value })
      .onConflict((conflict) => conflict.column('key').doUpdateSet({ value, updated_at: nowIso() }))
      .execute();
  }
}
