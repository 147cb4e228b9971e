import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { silentLogger } from '@radio/core';
import { createDb, type DbHandle, migrateToLatest, type Session } from '@radio/db';
import type { SessionData } from 'express-session';
import { SessionsRepository } from '../repositories/sessions.repository.ts';
import { DbSessionStore } from './db-session-store.ts';
import { storedSessionId } from './stored-id.ts';

const HOUR_MS = 60 * 60 * 1000;

function data(userId: number, expiresInMs = HOUR_MS): SessionData {
  return {
    cookie: { originalMaxAge: HOUR_MS, expires: new Date(Date.now() + expiresInMs) },
    userId,
  } as unknown as SessionData;
}

describe('DbSessionStore', () => {
  let handle: DbHandle;
  let sessions: SessionsRepository;
  const stores: DbSessionStore[] = [];

  beforeEach(async () => {
    handle = await createDb('sqlite::memory:');
    await migrateToLatest(handle.db);
    sessions = new SessionsRepository(handle);
  });

  afterEach(async () => {
    for (const store of stores.splice(0)) store.close();
    await handle.close();
  });

  function open(copyMs = 60_000): DbSessionStore {
    const store = new DbSessionStore(sessions, {
      defaultTtlMs: HOUR_MS,
      purgeIntervalMs: HOUR_MS,
      copyMs,
      logger: silentLogger(),
    });
    stores.push(store);
    return store;
  }
  const get = (store: DbSessionStore, sid: string) =>
    new Promise<SessionData | null | undefined>((resolve, reject) =>
      store.get(sid, (error, value) => (error ? reject(error) : resolve(value))),
    );
  const set = (store: DbSessionStore, sid: string, value: SessionData) =>
    new Promise<void>((resolve, reject) =>
      store.set(sid, value, (error) => (error ? reject(error) : resolve())),
    );
  const destroy = (store: DbSessionStore, sid: string) =>
    new Promise<void>((resolve, reject) =>
      store.destroy(sid, (error) => (error ? reject(error) : resolve())),
    );

  it('answers from its copy of a session it wrote or read, without a query', async () => {
    const store = open();
    await set(store, 'a', data(7));
    const finds = jest.spyOn(sessions, 'find');
    expect(await get(store, 'a')).toMatchObject({ userId: 7 });
    expect(await get(store, 'a')).toMatchObject({ userId: 7 });
    expect(finds).not.toHaveBeenCalled();
  });

  it('gives every request its own object', async () => {
    const store = open();
    await set(store, 'a', data(7));
    const first = (await get(store, 'a')) as SessionData & { userId: number };
    first.userId = 8;
    expect(await get(store, 'a')).toMatchObject({ userId: 7 });
  });

  it('never answers with an expired session, copy or not', async () => {
    const store = open();
    await set(store, 'short', data(7, 30));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await get(store, 'short')).toBeNull();
  });

  it('reads the row again after copyMs', async () => {
    const store = open(0);
    await set(store, 'a', data(7));
    await sessions.delete(storedSessionId('a'));
    expect(await get(store, 'a')).toBeNull();
  });

  it('forgets a destroyed session at once', async () => {
    const store = open();
    await set(store, 'a', data(7));
    expect(await get(store, 'a')).not.toBeNull();
    await destroy(store, 'a');
    expect(await get(store, 'a')).toBeNull();
  });

  it('keeps no copy of a read that a logout overtook', async () => {
    await set(open(), 'a', data(7));
    const store = open();
    // A request's read of the row is under way when the logout deletes it.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const find = sessions.find.bind(sessions);
    jest.spyOn(sessions, 'find').mockImplementationOnce(async (sid: string) => {
      const row: Session | undefined = await find(sid);
      await gate;
      return row;
    });
    const slowRead = get(store, 'a');
    await destroy(store, 'a');
    release();
    expect(await slowRead).toMatchObject({ userId: 7 });
    expect(await get(store, 'a')).toBeNull();
  });
});
