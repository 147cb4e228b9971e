import { isAudioFile, type Logger } from '@radio/core';
import { type FSWatcher, watch } from 'chokidar';
import { isHidden, toLibraryPath } from './audio-files.ts';

export type WatchEvent =
  | { readonly kind: 'changed'; readonly path: string }
  | { readonly kind: 'removed'; readonly path: string }
  | { readonly kind: 'folder-removed'; readonly path: string };

export interface WatcherOptions {
  root: string;
  logger: Logger;
  onEvent(event: WatchEvent): void;
  /**
   * How long a file's size must stay the same before it counts as written (a copy in
   * progress is indexed once complete). Kept short: changes must show within 2 s.
   */
  stableMs?: number;
}

/**
 * The music folder watch (chokidar). Emits library paths; the library decides what they mean.
 * Events for files that are not audio, or hidden, never leave this module.
 */
export class LibraryWatcher {
  readonly #options: WatcherOptions;
  #watcher: FSWatcher | null = null;

  constructor(options: WatcherOptions) {
    this.#options = options;
  }

  /** Resolves once the initial crawl is done, so a file added after that is seen. */
  async start(): Promise<void> {
    const { root, logger, onEvent } = this.#options;
    const toPath = (absolute: string): string | null => {
      const path = toLibraryPath(root, absolute);
      return path === null || isHidden(path) ? null : path;
    };
    const watcher = watch(root, {
      ignoreInitial: true,
      persistent: true,
      followSymlinks: true,
      awaitWriteFinish: { stabilityThreshold: this.#options.stableMs ?? 400, pollInterval: 100 },
      ignored: (absolute, stats) => {
        const path = toLibraryPath(root, absolute);
        if (path === null) return false;
        if (isHidden(path)) return true;
        return stats?.isFile() === true && !isAudioFile(path);
      },
    });
    this.#watcher = watcher;
    const file = (kind: 'changed' | 'removed') => (absolute: string) => {
      const path = toPath(absolute);
      if (path !== null && isAudioFile(path)) onEvent({ kind, path });
    };
    watcher.on('add', file('changed'));
    watcher.on('change', file('changed'));
    watcher.on('unlink', file('removed'));
    watcher.on('unlinkDir', (absolute: string) => {
      const path = toPath(absolute);
      if (path !== null) onEvent({ kind: 'folder-removed', path });
    });
    watcher.on('error', (error: unknown) =>
      logger.warn({ err: error }, 'music folder watch error'),
    );
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  async stop(): Promise<void> {
    const watcher = this.#watcher;
    this.#watcher = null;
    await watcher?.close();
  }
}
