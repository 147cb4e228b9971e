import type { Logger } from '@radio/core';
import express, { type Express, type RequestHandler, type Router } from 'express';
import type { StationOrigins } from './http/station-origins.ts';
import type { ApiMetrics } from './metrics/api-metrics.ts';
import { errorHandler, notFoundHandler } from './middleware/error-handler.ts';
import { jsonBody } from './middleware/json-body.ts';
import { strangersOnKnownHosts } from './middleware/known-host.ts';
import { requestContext } from './middleware/request-id.ts';
import { sameOriginOnly } from './middleware/same-origin.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import type { ApiRouter } from './routing.ts';
import { loadUser } from './sessions/load-user.ts';
import type { UserCache } from './sessions/user-cache.ts';

export const BASE_PATH = '/api/radio';

export interface AppParts {
  logger: Logger;
  /**
   * express's `trust proxy`: whether a hop at this address is a trusted proxy, whose
   * X-Forwarded-For, -Proto and -Host then give `req.ip`, `req.secure` and `req.host`.
   */
  trust: (address: string) => boolean;
  /** Which pages may send changes, and which host names strangers may use. */
  origins: StationOrigins;
  bodyLimit: string | number;
  session: RequestHandler;
  users: UserCache;
  routes: ApiRouter;
  /**
   * Routes whose bodies are not JSON and are streamed by their own handler (the tus uploads),
   * given the session handlers to put in front of each.
   */
  streamed: (auth: readonly RequestHandler[]) => Router;
  /** Times every request; serves GET /metrics (outside /api/radio) to the admin. */
  metrics: ApiMetrics;
}

/**
 * The middleware order: the metrics' timing, request id and logger, security headers, /metrics,
 * then under /api/radio the origin check, the streamed upload routes (with the session), the
 * JSON body, the session and its user, the host check for requests without one, the routes;
 * 404 and the error handler last, so everything that fails ends as
 * `{"error":{"code","message"}}`.
 */
export function buildApp(parts: AppParts): Express {
  const app = express();
  app.disable('x-powered-by');
  // Answers are per user and marked no-store; hashing every body for an ETag buys nothing.
  app.set('etag', false);
  app.set('trust proxy', parts.trust);
  app.set('query parser', 'simple');

  app.use(parts.metrics.timing);
  app.use(requestContext(parts.logger));
  app.use(securityHeaders());

  app.get('/metrics', parts.metrics.serve);

  const api = express.Router();
  api.use(parts.metrics.routerBase);
  api.use(sameOriginOnly(parts.origins));
  // Before the JSON parser, which would refuse their bodies; they need the session as well.
  api.use(parts.streamed([parts.session, loadUser(parts.users)]));
  api.use(jsonBody(parts.bodyLimit));
  api.use(parts.session);
  api.use(loadUser(parts.users));
  api.use(strangersOnKnownHosts(parts.origins));
  api.use(parts.routes.router);
  app.use(BASE_PATH, api);

  app.use(notFoundHandler());
  app.use(errorHandler());
  return app;
}
