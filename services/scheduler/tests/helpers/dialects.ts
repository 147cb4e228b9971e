import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '@radio/db';

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A database for one test file, and how to remove it afterwards. */
export interface Target {
  url: string;
  cleanup(): Promise<void>;
}

/** SQLite in a temporary folder and a PostgreSQL schema of its own, for `describe.each`. */
export function testDialects(prefix: string): { name: string; setup: () => Promise<Target> }[] {
  return [
    {
      name: 'sqlite',
      async setup() {
        const dir = await mkdtemp(join(tmpdir(), `${prefix}-`));
        return {
          url: `sqlite:${join(dir, 'radio.db')}`,
          cleanup: () => rm(dir, { recursive: true, force: true }),
        };
      },
    },
    {
      name: 'postgres',
      async setup() {
        const schema = `${prefix.replace(/\W/g, '_')}_${randomBytes(6).toString('hex')}`;
        return {
          url: `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}schema=${schema}`,
          async cleanup() {
            const admin = await createDb(POSTGRES_URL);
            try {
              await admin.db.schema.dropSchema(schema).ifExists().cascade().execute();
            } finally {
              await admin.close();
            }
          },
        };
      },
    },
  ];
}
