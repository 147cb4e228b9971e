import { describe, expect, it } from '@jest/globals';
import { createDb, DatabaseUrlError, parseDatabaseUrl } from '../src/index.ts';

describe('DATABASE_URL', () => {
  it.each([
    ['sqlite:data/radio.db', '/srv/station/data/radio.db'],
    ['sqlite:./radio.db', '/srv/station/radio.db'],
    ['sqlite:/var/lib/radio/radio.db', '/var/lib/radio/radio.db'],
    ['sqlite:///var/lib/radio/radio.db', '/var/lib/radio/radio.db'],
    ['sqlite::memory:', ':memory:'],
    ['  sqlite:radio.db  ', '/srv/station/radio.db'],
  ])('reads %s as a SQLite file', (url, filename) => {
    expect(parseDatabaseUrl(url, '/srv/station')).toEqual({ dialect: 'sqlite', filename });
  });

  it('reads postgres:// and postgresql:// URLs, taking out the schema and hiding the password', () => {
    expect(parseDatabaseUrl('postgres://radio:s3cret@db:5432/radio?schema=station_1')).toEqual({
      dialect: 'postgres',
      connectionString: 'postgres://radio:s3cret@db:5432/radio',
      schema: 'station_1',
      redacted: 'postgres://radio:***@db:5432/radio',
    });
    expect(parseDatabaseUrl('postgresql://db/radio?sslmode=disable')).toEqual({
      dialect: 'postgres',
      connectionString: 'postgresql://db/radio?sslmode=disable',
      schema: null,
      redacted: 'postgresql://db/radio?sslmode=disable',
    });
  });

  it.each([
    ['', 'it is empty'],
    ['radio.db', 'it has no scheme'],
    ['mysql://db/radio', 'the scheme "mysql:" is not supported'],
    ['sqlite:', 'the sqlite: URL has no file name'],
    ['sqlite:data/', 'the sqlite: URL has no file name'],
    ['postgres:db/radio', 'a postgres URL must start with postgres://'],
    ['postgres://', 'the postgres URL has no host'],
    ['postgres://db:port/radio', 'the postgres URL cannot be parsed'],
    ['postgres://db/radio?schema=Radio', 'the schema "Radio" is not a lower-case identifier'],
    ['postgres://db/radio?schema=a;drop', 'is not a lower-case identifier'],
    ['postgres://db/radio?schema=a&schema=b', 'more than one schema'],
  ])('rejects %j clearly', async (url, reason) => {
    const attempt = createDb(url);
    await expect(attempt).rejects.toBeInstanceOf(DatabaseUrlError);
    const err = (await attempt.catch((error: unknown) => error)) as DatabaseUrlError;
    expect(err.code).toBe('DB_URL_INVALID');
    expect(err.variable).toBe('DATABASE_URL');
    expect(err.message).toContain('DATABASE_URL is malformed');
    expect(err.message).toContain(reason);
    expect(err.message).toContain('sqlite:<file path>');
    expect(err.message).toContain('postgres://');
  });

  it('never puts a password into the error message', async () => {
    const err = await createDb('postgres://radio:hunter2@db:port/radio').catch(
      (error: unknown) => error,
    );
    expect(err).toBeInstanceOf(DatabaseUrlError);
    expect((err as Error).message).not.toContain('hunter2');
  });
});
