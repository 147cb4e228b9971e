import { randomUUID } from 'node:crypto';
import type { Logger } from '@radio/core';
import type { RequestHandler } from 'express';

// A proxy's id is kept when it looks like one, so a request can be followed across services;
// anything else (too long, odd characters) is replaced rather than written into our logs.
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Gives every request an id (`X-Request-Id`) and a child logger, and logs it when done. */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    req.id = incoming !== undefined && ACCEPTED_ID.test(incoming) ? incoming : randomUUID();
    req.log = logger.child({ reqId: req.id });
    req.user = null;
    res.setHeader('X-Request-Id', req.id);
    const started = performance.now();
    res.on('finish', () => {
      // Prometheus scrapes /metrics every 15 s: a debug line, not one at info each time.
      const level = req.originalUrl === '/metrics' ? 'debug' : 'info';
      req.log[level](
        {
          method: req.method,
          url: req.originalUrl,
          status: res.statusCode,
          ms: Math.round((performance.now() - started) * 100) / 100,
          userId: req.user?.id,
        },
        'request',
      );
    });
    next();
  };
}
