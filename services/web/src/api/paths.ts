import type { paths } from './schema.d.ts';

/*
 * The api's routes as types, read from schema.d.ts (made from the api's OpenAPI document by
 * scripts/generate-api-types.ts): a route, its body, query and answer are the api's own, so a
 * renamed route or field fails the type check of every caller.
 */

/** Where the api's routes are mounted. */
export const API_BASE = '/api/radio';

type Mounted<P> = P extends `${typeof API_BASE}${infer R}` ? R : never;
/** A route as the client names it, below API_BASE: `/tracks/{id}`. */
export type Route = Mounted<keyof paths>;
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

type PathItem<R extends Route> = paths[Extract<`${typeof API_BASE}${R}`, keyof paths>];
type Operation<M extends Method, R extends Route> = NonNullable<PathItem<R>[M]>;

/** The routes that take `M`. */
export type RouteOf<M extends Method> = {
  [R in Route]: [Operation<M, R>] extends [never] ? never : R;
}[Route];

type Success<O> = O extends { responses: infer S }
  ? S[Extract<keyof S, 200 | 201 | 202 | 204>]
  : never;

/** What a route answers when it succeeds: its JSON, or nothing (204). */
export type ResponseOf<M extends Method, R extends RouteOf<M>> =
  Success<Operation<M, R>> extends { content: { 'application/json': infer J } } ? J : undefined;

/** The JSON body a route takes. */
export type BodyOf<M extends Method, R extends RouteOf<M>> =
  Operation<M, R> extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : never;

/** A route's query parameters. */
export type QueryOf<M extends Method, R extends RouteOf<M>> = NonNullable<
  Operation<M, R>['parameters']['query']
>;

/** A route's path parameters (`{id}`), by name. */
export type ParamsOf<M extends Method, R extends RouteOf<M>> = Operation<
  M,
  R
>['parameters'] extends { path: infer P }
  ? { [K in keyof P]: string | number }
  : never;
