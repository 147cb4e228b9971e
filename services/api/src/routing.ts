import type { Logger } from '@radio/core';
import express, { type Request, type Response, type Router } from 'express';
import type { z } from 'zod';
import type { AuthUser } from './dtos/users.dto.ts';
import { type Access, requireAccess } from './middleware/require-role.ts';
import { parseInput } from './middleware/validate.ts';

export type Method = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete' | 'options';

/**
 * What a route is, for both express and the OpenAPI document (openapi.ts): the document is
 * built from these, so it cannot drift from the routes.
 */
export interface RouteDoc<
  A extends Access = Access,
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
> {
  tag: string;
  summary: string;
  description?: string;
  access: A;
  params?: P;
  query?: Q;
  body?: B;
  /** The status of a success; 200 unless given (204 answers have no body). */
  status?: 200 | 201 | 202 | 204;
  /** The JSON body of a success. */
  response?: R;
  /** A success that is not JSON (an image, an event stream). */
  produces?: { contentType: string; description: string };
  /** Error statuses this route answers besides the ones implied by its access and input. */
  errors?: number[];
  /** A request body that is not JSON (an upload's bytes). */
  consumes?: { contentType: string; description: string };
  /** Request and response headers that carry the protocol (tus's Upload-Offset …). */
  headers?: { name: string; in: 'request' | 'response'; description: string; required?: boolean }[];
}

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<A extends Access, P, Q, B> {
  params: Output<P>;
  query: Output<Q>;
  body: Output<B>;
  /** Never null on routes that need a session. */
  user: A extends 'public' ? AuthUser | null : AuthUser;
  req: Request;
  res: Response;
  log: Logger;
}

/**
 * Returns the JSON body (sent with the route's status), or nothing when the handler answered
 * itself or the status is 204.
 */
export type RouteHandler<A extends Access, P, Q, B, R> = (
  input: RouteInput<A, P, Q, B>,
) => Promise<(R extends z.ZodType ? z.input<R> : never) | RawJson | undefined>;

/** A JSON body serialized already (see TrackSnapshot.searchJson); sent as it is. */
export class RawJson {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
}

export interface RegisteredRoute {
  method: Method;
  /** Below the api's base path, in express syntax (`/tracks/:id`). */
  path: string;
  doc: RouteDoc;
}

type Schema = z.ZodType | undefined;

/** Registers a route whose input is path parameters and a JSON body (post, put, patch). */
type BodyRoute = <
  A extends Access,
  P extends Schema = undefined,
  B extends Schema = undefined,
  R extends Schema = undefined,
>(
  path: string,
  doc: RouteDoc<A, P, undefined, B, R>,
  handler: RouteHandler<A, P, undefined, B, R>,
) => void;

/** An express Router that records every route it is given, with its documentation. */
export class ApiRouter {
  readonly router: Router = express.Router();
  readonly routes: RegisteredRoute[] = [];
  readonly post: BodyRoute = (path, doc, handler) => this.#add('post', path, doc, handler);
  readonly put: BodyRoute = (path, doc, handler) => this.#add('put', path, doc, handler);
  readonly patch: BodyRoute = (path, doc, handler) => this.#add('patch', path, doc, handler);

  get<
    A extends Access,
    P extends Schema = undefined,
    Q extends Schema = undefined,
    R extends Schema = undefined,
  >(
    path: string,
    doc: RouteDoc<A, P, Q, undefined, R>,
    handler: RouteHandler<A, P, Q, undefined, R>,
  ): void {
    this.#add('get', path, doc, handler);
  }

  delete<A extends Access, P extends Schema = undefined, R extends Schema = undefined>(
    path: string,
    doc: RouteDoc<A, P, undefined, undefined, R>,
    handler: RouteHandler<A, P, undefined, undefined, R>,
  ): void {
    this.#add('delete', path, doc, handler);
  }

  /**
   * Documents a route that a handler outside this router serves (the tus upload endpoint reads
   * its own body), so the OpenAPI document covers it too.
   */
  document(method: Method, path: string, doc: RouteDoc): void {
    this.routes.push({ method, path, doc });
  }

  #add<A extends Access, P, Q, B, R>(
    method: Exclude<Method, 'head' | 'options'>,
    path: string,
    doc: RouteDoc<A, P & Schema, Q & Schema, B & Schema, R & Schema>,
    handler: RouteHandler<A, P, Q, B, R>,
  ): void {
    this.routes.push({ method, path, doc: doc as RouteDoc });
    const status = doc.status ?? 200;
    // Access first: an anonymous caller learns nothing about the input a route expects.
    this.router[method](path, requireAccess(doc.access), async (req, res) => {
      const input = {
        params: doc.params ? parseInput(doc.params, req.params, 'params') : undefined,
        query: doc.query ? parseInput(doc.query, req.query, 'query') : undefined,
        // No body at all counts as an empty object, so `POST /player/pause` needs no `{}`.
        body: doc.body ? parseInput(doc.body, req.body ?? {}, 'body') : undefined,
        user: req.user,
        req,
        res,
        log: req.log,
      } as RouteInput<A, P, Q, B>;
      const result = await handler(input);
      if (res.headersSent) return;
      if (result === undefined) {
        res.status(status === 200 ? 204 : status).end();
        return;
      }
      if (result instanceof RawJson) {
        res.status(status).type('application/json').send(result.text);
        return;
      }
      res.status(status).json(result);
    });
  }
}
