import { describe, expect, it } from '@jest/globals';
import { buildPath, isModifiedClick, matchPath, matchRoute } from './router.ts';
import { ROUTES } from './routes.ts';

describe('matchPath', () => {
  it('matches fixed paths exactly, ignoring a trailing slash', () => {
    expect(matchPath('/library', '/library')).toEqual({});
    expect(matchPath('/library', '/library/')).toEqual({});
    expect(matchPath('/library', '/librar')).toBeNull();
    expect(matchPath('/library', '/library/extra')).toBeNull();
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/', '/x')).toBeNull();
  });

  it('captures and decodes params', () => {
    expect(matchPath('/playlists/:id', '/playlists/42')).toEqual({ id: '42' });
    expect(matchPath('/a/:name', '/a/caf%C3%A9%20bar')).toEqual({ name: 'café bar' });
    expect(matchPath('/playlists/:id', '/playlists')).toBeNull();
  });

  it('refuses a malformed escape instead of throwing', () => {
    expect(matchPath('/a/:name', '/a/%E0%A4%A')).toBeNull();
  });

  it('lets * take the rest of the path', () => {
    expect(matchPath('/files/*', '/files/a/b/c')).toEqual({ '*': 'a/b/c' });
  });
});

describe('matchRoute with the app routes', () => {
  it('finds each page', () => {
    expect(matchRoute(ROUTES, '/')?.name).toBe('listen');
    expect(matchRoute(ROUTES, '/signin')?.name).toBe('signin');
    expect(matchRoute(ROUTES, '/register')?.name).toBe('register');
    expect(matchRoute(ROUTES, '/library')?.name).toBe('library');
    expect(matchRoute(ROUTES, '/playlists')?.name).toBe('playlists');
    expect(matchRoute(ROUTES, '/playlists/7')).toEqual({ name: 'playlist', params: { id: '7' } });
    expect(matchRoute(ROUTES, '/control')?.name).toBe('control');
    expect(matchRoute(ROUTES, '/schedule')?.name).toBe('schedule');
    expect(matchRoute(ROUTES, '/schedule/timeline')?.name).toBe('timeline');
    expect(matchRoute(ROUTES, '/requests')?.name).toBe('requests');
    expect(matchRoute(ROUTES, '/admin')).toEqual({ name: 'admin', params: {} });
    expect(matchRoute(ROUTES, '/admin/system')).toEqual({
      name: 'admin',
      params: { tab: 'system' },
    });
  });

  it('gives null for an unknown path (the not-found page)', () => {
    expect(matchRoute(ROUTES, '/nope')).toBeNull();
    expect(matchRoute(ROUTES, '/playlists/7/extra')).toBeNull();
  });
});

describe('buildPath', () => {
  it('fills and encodes params', () => {
    expect(buildPath('/playlists/:id', { id: 3 })).toBe('/playlists/3');
    expect(buildPath('/a/:name', { name: 'x y/z' })).toBe('/a/x%20y%2Fz');
    expect(buildPath('/')).toBe('/');
  });

  it('throws when a param is missing', () => {
    expect(() => buildPath('/playlists/:id')).toThrow(/missing :id/);
  });
});

describe('isModifiedClick', () => {
  const plain = {
    button: 0,
    metaKey: false,
    altKey: false,
    ctrlKey: false,
    shiftKey: false,
    defaultPrevented: false,
  };
  it('handles a plain left click in the app', () => {
    expect(isModifiedClick(plain)).toBe(false);
  });
  it('leaves new-tab clicks and other buttons to the browser', () => {
    expect(isModifiedClick({ ...plain, ctrlKey: true })).toBe(true);
    expect(isModifiedClick({ ...plain, metaKey: true })).toBe(true);
    expect(isModifiedClick({ ...plain, shiftKey: true })).toBe(true);
    expect(isModifiedClick({ ...plain, button: 1 })).toBe(true);
    expect(isModifiedClick({ ...plain, defaultPrevented: true })).toBe(true);
  });
});
