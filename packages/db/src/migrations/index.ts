import type { Migration } from 'kysely/migration';
import * as users from './2026-11-21-01-users.ts';
import * as tracks from './2026-11-21-02-tracks.ts';
import * as playlists from './2026-11-21-03-playlists.ts';
import * as playHistory from './2026-11-21-04-play-history.ts';
import * as sessions from './2026-11-21-05-sessions.ts';
import * as settings from './2026-11-21-06-settings.ts';
import * as trackAnalysis from './2026-11-24-01-track-analysis.ts';
import * as libraryManagement from './2026-11-25-01-library-management.ts';
import * as webhooks from './2026-11-25-02-webhooks.ts';
import * as live from './2026-11-25-03-live.ts';
import * as programming from './2026-11-26-01-programming.ts';
import * as listenerSessions from './2026-11-26-02-listener-sessions.ts';
import * as listenerSums from './2026-11-26-03-listener-sums.ts';
import * as trackIsrc from './2026-11-26-04-track-isrc.ts';
import * as playListeners from './2026-11-28-01-play-listeners.ts';
import * as trackUploader from './2026-12-01-01-track-uploader.ts';

/**
 * Every migration, by name. Listed by hand rather than read from the folder so that a
 * bundle, a container image or a test runner can never miss or add one. Names sort in the
 * order they must run; a new migration gets a later date prefix and one line here.
 */
export const migrations: Readonly<Record<string, Migration>> = {
  '2026-11-21-01-users': users,
  '2026-11-21-02-tracks': tracks,
  '2026-11-21-03-playlists': playlists,
  '2026-11-21-04-play-history': playHistory,
  '2026-11-21-05-sessions': sessions,
  '2026-11-21-06-settings': settings,
  '2026-11-24-01-track-analysis': trackAnalysis,
  '2026-11-25-01-library-management': libraryManagement,
  '2026-11-25-02-webhooks': webhooks,
  '2026-11-25-03-live': live,
  '2026-11-26-01-programming': programming,
  '2026-11-26-02-listener-sessions': listenerSessions,
  '2026-11-26-03-listener-sums': listenerSums,
  '2026-11-26-04-track-isrc': trackIsrc,
  '2026-11-28-01-play-listeners': playListeners,
  '2026-12-01-01-track-uploader': trackUploader,
};
