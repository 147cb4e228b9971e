import { createHash } from 'node:crypto';
import { verifyPassword } from '@radio/core';
import type { Db } from '../repositories/db.ts';

/** A DJ as the live input knows it. */
export interface LiveDj {
  readonly id: number;
  /** The display name (`Live: <name>`). */
  readonly name: string;
  readonly username: string;
  readonly recordShows: boolean;
}

export type SourceLogin =
  | { ok: true; dj: LiveDj }
  | { ok: false; status: 401 | 403; reason: string };

const TOKEN_PREFIX = 'token:';

/**
 * Checks a source client's credentials against `dj_accounts`: the DJ's broadcast user name and
 * password, or (for clients that can only send the user `source`) the password
 * `username:password`; `token:<t>` is a one-time token the api minted for the browser's go-live
 * connection, spent by this login. A disabled account (or user) is told so only once its
 * password was right.
 */
export class DjCredentials {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  async check(user: string, password: string): Promise<SourceLogin> {
    let name = user;
    let secret = password;
    if (user === 'source') {
      const colon = password.indexOf(':');
      if (colon <= 0) {
        return { ok: false, status: 401, reason: 'user source without username:password' };
      }
      name = password.slice(0, colon);
      secret = password.slice(colon + 1);
    }
    const row = await this.#db
      .selectFrom('dj_accounts')
      .innerJoin('users', 'users.id', 'dj_accounts.user_id')
      .select([
        'dj_accounts.user_id',
        'dj_accounts.broadcast_username',
        'dj_accounts.password_hash',
        'dj_accounts.display_name',
        'dj_accounts.enabled',
        'dj_accounts.record_shows',
        'users.disabled',
        'users.role',
      ])
      .where('dj_accounts.broadcast_username', '=', name.toLowerCase())
      .executeTakeFirst();
    if (!row) return { ok: false, status: 401, reason: `no DJ account ${name}` };
    const byToken = secret.startsWith(TOKEN_PREFIX);
    const valid = byToken
      ? await this.#spendToken(row.user_id, secret.slice(TOKEN_PREFIX.length))
      : await verifyPassword(secret, row.password_hash);
    if (!valid) {
      return {
        ok: false,
        status: 401,
        reason: byToken ? 'invalid or spent token' : 'wrong password',
      };
    }
    const dj: LiveDj = {
      id: row.user_id,
      name: row.display_name,
      username: row.broadcast_username,
      recordShows: Number(row.record_shows) === 1,
    };
    if (Number(row.enabled) !== 1 || Number(row.disabled) === 1) {
      return { ok: false, status: 403, reason: `DJ account ${row.broadcast_username} is disabled` };
    }
    if (row.role !== 'dj' && row.role !== 'admin') {
      return {
        ok: false,
        status: 403,
        reason: `user ${row.broadcast_username} no longer has the dj role`,
      };
    }
    return { ok: true, dj };
  }

  /** Marks an unexpired, unused token of this user as used; true when this call did. */
  async #spendToken(userId: number, token: string): Promise<boolean> {
    if (!token) return false;
    const hash = createHash('sha256').update(token).digest('hex');
    const row = await this.#db
      .selectFrom('live_tokens')
      .select(['expires_at', 'used'])
      .where('token_hash', '=', hash)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row || Number(row.used) === 1) return false;
    if (new Date(row.expires_at).getTime() <= Date.now()) return false;
    const result = await this.#db
      .updateTable('live_tokens')
      .set({ used: 1 })
      .where('token_hash', '=', hash)
      .where('used', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
