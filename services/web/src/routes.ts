import type { RouteDef } from './router.ts';

export type RouteName =
  | 'listen'
  | 'signin'
  | 'register'
  | 'library'
  | 'playlists'
  | 'playlist'
  | 'control'
  | 'trash'
  | 'upload'
  | 'dj'
  | 'golive'
  | 'recordings'
  | 'reports'
  | 'schedule'
  | 'timeline'
  | 'requests'
  | 'admin';

/** Every page of the app by name; the first pattern that matches wins. */
export const ROUTES: readonly RouteDef<RouteName>[] = [
  { name: 'listen', pattern: '/' },
  { name: 'signin', pattern: '/signin' },
  { name: 'register', pattern: '/register' },
  { name: 'library', pattern: '/library' },
  { name: 'playlists', pattern: '/playlists' },
  { name: 'playlist', pattern: '/playlists/:id' },
  { name: 'control', pattern: '/control' },
  { name: 'trash', pattern: '/trash' },
  { name: 'upload', pattern: '/upload' },
  { name: 'dj', pattern: '/dj' },
  { name: 'golive', pattern: '/go-live' },
  { name: 'recordings', pattern: '/recordings' },
  { name: 'reports', pattern: '/reports' },
  { name: 'schedule', pattern: '/schedule' },
  { name: 'timeline', pattern: '/schedule/timeline' },
  { name: 'requests', pattern: '/requests' },
  { name: 'admin', pattern: '/admin' },
  { name: 'admin', pattern: '/admin/:tab' },
];
