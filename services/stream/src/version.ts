import { readFileSync } from 'node:fs';

/** The stream server's version, from its package.json (read once, at start). */
export const STREAM_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

/**
 * The `Server` header and `server_id`: this server by its own name and version, so a scanner
 * does not take it for Icecast 2.4.4 and report that program's flaws against it; the word
 * Icecast stays, for the clients and directories that look for it, without a version number
 * that would be read as Icecast's.
 */
export const SERVER_ID = `Radio/${STREAM_VERSION} (Icecast compatible)`;
