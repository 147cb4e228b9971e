import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { type Bus, createMemoryBus, createMemoryHub, type EventMessage } from '@radio/core';
import { captureLogger, waitFor } from '@radio/core/testing';
import { createDb, type DbHandle, migrateToLatest, type User } from '@radio/db';
import { UsersRepository } from '../repositories/users.repository.ts';
import { UserCache, type UserCacheOptions } from './user-cache.ts';

describe('UserCache', () => {
  let handle: DbHandle;
  let users: UsersRepository;
  let bus: Bus;
  let peer: Bus;
  let cache: UserCache | null = null;
  const { logger, lines } = captureLogger();

  beforeEach(async () => {
    handle = await createDb('sqlite::memory:');
    await migrateToLatest(handle.db);
    users = new UsersRepository(handle);
    const hub = createMemoryHub();
    bus = createMemoryBus({ logger, hub });
    peer = createMemoryBus({ logger, hub });
  });

  afterEach(async () => {
    cache?.close();
    cache = null;
    await bus.close();
    await peer.close();
    await handle.close();
    lines.length = 0;
  });

  const start = (options: Partial<UserCacheOptions> = {}) => {
    cache = new UserCache(users, bus, logger, { ttlMs: 60_000, maxEntries: 100, ...options });
    return cache;
  };
  const add = (username: string) => users.create({ username, password_hash: 'h', role: 'dj' });
  const announced = () => {
    const heard: number[] = [];
    peer.onEvent(
      (event: EventMessage<'user.changed'>) => void heard.push(event.payload.userId),
      ['user.changed'],
    );
    return heard;
  };

  it('reads a user once while it is fresh, even for a burst of requests', async () => {
    const user = await add('dj');
    const reads = jest.spyOn(users, 'findById');
    const c = start();
    const got = await Promise.all(Array.from({ length: 20 }, () => c.get(user.id)));
    expect(got.every((row) => row?.username === 'dj')).toBe(true);
    expect(await c.get(user.id)).toMatchObject({ id: user.id });
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('reads again once ttlMs has passed', async () => {
    const user = await add('dj');
    const c = start({ ttlMs: 0 });
    await c.get(user.id);
    await handle.db.updateTable('users').set({ role: 'admin' }).execute();
    expect((await c.get(user.id))?.role).toBe('admin');
  });

  it('drops a user at once when the repository writes it, and tells the other processes', async () => {
    const heard = announced();
    const user = await add('dj');
    const c = start();
    expect((await c.get(user.id))?.disabled).toBe(0);
    await users.update(user.id, { disabled: 1 });
    expect((await c.get(user.id))?.disabled).toBe(1);
    await users.delete(user.id);
    expect(await c.get(user.id)).toBeUndefined();
    await waitFor('two announcements', () => heard.length === 2);
    expect(heard).toEqual([user.id, user.id]);
  });

  it('drops a user when another process announces a change', async () => {
    const user = await add('dj');
    const c = start();
    await c.get(user.id);
    // Written behind this cache's back, as another api process would.
    await handle.db.updateTable('users').set({ disabled: 1 }).execute();
    expect((await c.get(user.id))?.disabled).toBe(0);
    await peer.publish('user.changed', { userId: user.id });
    await waitFor('the announced change', async () => (await c.get(user.id))?.disabled === 1);
  });

  it('announces a change in a transaction after its commit, and none after a rollback', async () => {
    const heard = announced();
    const user = await add('dj');
    const c = start();
    await c.get(user.id);
    await expect(
      users.withAdminLock(async (trx) => {
        await users.update(user.id, { role: 'listener' }, trx);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(heard).toEqual([]);
    expect((await c.get(user.id))?.role).toBe('dj');

    let heardBeforeCommit: number[] = [];
    await users.withAdminLock(async (trx) => {
      await users.update(user.id, { role: 'listener' }, trx);
      heardBeforeCommit = [...heard];
    });
    expect(heardBeforeCommit).toEqual([]);
    await waitFor('the announcement', () => heard.length === 1);
    expect(heard).toEqual([user.id]);
    expect((await c.get(user.id))?.role).toBe('listener');
  });

  it('keeps neither an unknown id nor a failed read', async () => {
    const c = start();
    expect(await c.get(12345)).toBeUndefined();
    const user = await add('late');
    const reads = jest.spyOn(users, 'findById');
    reads.mockRejectedValueOnce(new Error('database away'));
    await expect(c.get(user.id)).rejects.toThrow('database away');
    expect((await c.get(user.id))?.username).toBe('late');
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('keeps at most maxEntries users, dropping the oldest', async () => {
    const created: User[] = [];
    for (const name of ['a', 'b', 'c']) created.push(await add(name));
    const [a, b, c] = created as [User, User, User];
    const reads = jest.spyOn(users, 'findById');
    const cached = start({ maxEntries: 2 });
    await cached.get(a.id);
    await cached.get(b.id);
    await cached.get(c.id);
    await cached.get(b.id);
    await cached.get(c.id);
    expect(reads).toHaveBeenCalledTimes(3);
    await cached.get(a.id);
    expect(reads).toHaveBeenCalledTimes(4);
  });

  it('logs, and keeps working, when the bus cannot carry the announcement', async () => {
    const user = await add('dj');
    const c = start();
    await c.get(user.id);
    await bus.close();
    await users.update(user.id, { role: 'admin' });
    expect((await c.get(user.id))?.role).toBe('admin');
    await waitFor('the warning', () =>
      lines.some((line) => line.level === 'warn' && line.userId === user.id),
    );
  });
});
