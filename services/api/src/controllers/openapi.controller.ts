import { z } from 'zod';
import { buildOpenApi, type OpenApiOptions } from '../openapi.ts';
import type { ApiRouter } from '../routing.ts';

/** Registered last, so the document covers every route, itself included. */
export function openApiController(routes: ApiRouter, options: OpenApiOptions): void {
  let document: Record<string, unknown> | null = null;
  routes.get(
    '/openapi.json',
    {
      tag: 'status',
      summary: 'This document (OpenAPI 3.1)',
      access: 'public',
      response: z.record(z.string(), z.unknown()),
    },
    async () => {
      document ??= buildOpenApi(routes.routes, options);
      return document;
    },
  );
}
