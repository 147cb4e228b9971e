import { type Logger, LogThrottle } from '@radio/core';

/** Why the web server turned a request away: a stable code for logs and alerts. */
export type RefusalCode =
  | 'WEB_BAD_REQUEST'
  | 'WEB_METHOD_NOT_ALLOWED'
  | 'WEB_UPGRADE_REFUSED'
  | 'WEB_METRICS_LOGIN_FAILED'
  | 'WEB_METRICS_RATE_LIMITED';

/**
 * Logs what the web server refused, once per client, code and minute: a scanner sending
 * thousands of bad requests writes a line a minute saying how many it sent, not a line each.
 */
export class RefusalLog {
  readonly #log: Logger;
  readonly #throttle = new LogThrottle();

  constructor(log: Logger) {
    this.#log = log;
  }

  note(
    client: string,
    code: RefusalCode,
    message: string,
    fields: Record<string, unknown> = {},
  ): void {
    const held = this.#throttle.take(`${code} ${client}`);
    if (held === null) return;
    this.#log.warn({ client, code, heldBack: held, ...fields }, message);
  }
}
