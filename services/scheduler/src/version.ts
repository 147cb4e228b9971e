import { readFileSync } from 'node:fs';

/** What `version` answers on the control port and what the source client calls itself. */
export const SCHEDULER_NAME = 'Radio Scheduler';

function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const SCHEDULER_VERSION = readVersion();
export const USER_AGENT = `RadioScheduler/${SCHEDULER_VERSION}`;
