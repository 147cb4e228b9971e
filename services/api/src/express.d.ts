import type { Logger } from '@radio/core';
import type { AuthUser } from './dtos/users.dto.ts';

// What the api's middleware adds to each request (middleware/request-id.ts, sessions/load-user.ts).
declare global {
  namespace Express {
    interface Request {
      /** The request id, also sent back as `X-Request-Id`. */
      id: string;
      /** The per-request child logger (`reqId`). */
      log: Logger;
      /** The logged-in, enabled user; null without a valid session. */
      user: AuthUser | null;
    }
  }
}

declare module 'express-session' {
  interface SessionData {
    userId: number;
    /** A fingerprint of the password hash at login: changing the password ends other sessions. */
    credential: string;
  }
}
