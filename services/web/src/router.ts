import { useSyncExternalStore } from 'react';

/*
 * A router of our own, about a hundred lines: path patterns with `:params`, the History API,
 * and a hook. The app has a handful of routes; a library would cost more bytes than it saves.
 */

export interface RouteMatch<N extends string = string> {
  name: N;
  params: Record<string, string>;
}

export interface RouteDef<N extends string = string> {
  name: N;
  /** `/playlists/:id`; a trailing `*` matches the rest of the path. */
  pattern: string;
}

function segments(path: string): string[] {
  return path.split('/').filter((part) => part !== '');
}

/** The params of `path` under `pattern`, or null when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = segments(pattern);
  const have = segments(path);
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i += 1) {
    const part = want[i] as string;
    if (part === '*') {
      params['*'] = have.slice(i).join('/');
      return params;
    }
    const value = have[i];
    if (value === undefined) return null;
    if (part.startsWith(':')) {
      try {
        params[part.slice(1)] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (part !== value) {
      return null;
    }
  }
  return have.length === want.length ? params : null;
}

/** The first route that matches `path`, in the order given. */
export function matchRoute<N extends string>(
  routes: readonly RouteDef<N>[],
  path: string,
): RouteMatch<N> | null {
  for (const route of routes) {
    const params = matchPath(route.pattern, path);
    if (params) return { name: route.name, params };
  }
  return null;
}

/** Fills a pattern's params: `buildPath('/playlists/:id', { id: 3 })` is `/playlists/3`. */
export function buildPath(pattern: string, params: Record<string, string | number> = {}): string {
  const path = segments(pattern)
    .map((part) => {
      if (!part.startsWith(':')) return part;
      const value = params[part.slice(1)];
      if (value === undefined) throw new Error(`buildPath: missing ${part} for ${pattern}`);
      return encodeURIComponent(String(value));
    })
    .join('/');
  return `/${path}`;
}

/** Whether a click on a link should be left to the browser (new tab, download, other site). */
export function isModifiedClick(event: {
  button: number;
  metaKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  defaultPrevented: boolean;
}): boolean {
  return (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.altKey ||
    event.ctrlKey ||
    event.shiftKey
  );
}

export interface Location {
  pathname: string;
  search: string;
}

const listeners = new Set<() => void>();
let current: Location | null = null;

function readLocation(): Location {
  const { pathname, search } = window.location;
  if (!current || current.pathname !== pathname || current.search !== search) {
    current = { pathname, search };
  }
  return current;
}

function notify(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener('popstate', notify);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('popstate', notify);
  };
}

/** Goes to `to` (a path with an optional query) without reloading the page. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const target = new URL(to, window.location.href);
  const here = window.location;
  if (target.pathname === here.pathname && target.search === here.search && !options.replace)
    return;
  if (options.replace) window.history.replaceState(null, '', target);
  else window.history.pushState(null, '', target);
  notify();
  if (!options.replace) window.scrollTo(0, 0);
}

/** The current location; the component renders again when it changes. */
export function useLocation(): Location {
  return useSyncExternalStore(subscribe, readLocation, readLocation);
}

/** Sets (or, with an empty value, removes) query parameters in place: no history entry. */
export function setSearchParams(values: Record<string, string | number | null | undefined>): void {
  const params = new URLSearchParams(window.location.search);
  for (const [key, value] of Object.entries(values)) {
    if (value === null || value === undefined || value === '') params.delete(key);
    else params.set(key, String(value));
  }
  const search = params.toString();
  navigate(`${window.location.pathname}${search ? `?${search}` : ''}`, { replace: true });
}
