import { readFileSync } from 'node:fs';

/** The api's version, from its package.json (read once, at start). */
export const API_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
