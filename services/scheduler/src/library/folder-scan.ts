import { randomUUID } from 'node:crypto';
import type { LibraryScan, Logger } from '@radio/core';
import type { FileIndex, IndexOutcome } from './file-index.ts';
import { listAudioFiles } from './scanner.ts';

const SCAN_CONCURRENCY = 4;
const SCAN_PROGRESS_MS = 250;

/** A scan: its state (updated as it runs) and its end. */
export interface ScanRun {
  readonly state: LibraryScan;
  readonly done: Promise<LibraryScan>;
}

export interface FolderScanDeps {
  /** MUSIC_DIR, absolute. */
  root: string;
  logger: Logger;
  index: FileIndex;
  /** Indexes one file (under its path lock). */
  indexFile: (path: string) => Promise<IndexOutcome>;
  /** True once the library stops: the scan takes no further file. */
  stopped: () => boolean;
  /** Tells the scan's progress (at most every 250 ms, and at its start and end). */
  progress: (state: LibraryScan) => void;
  /** Tells what the scan changed, before its last progress. */
  flush: () => void;
}

/** Scans the whole folder: every file is indexed, and every known file gone is marked missing. */
export function startScan(deps: FolderScanDeps): ScanRun {
  const state: LibraryScan = {
    scanId: randomUUID(),
    state: 'running',
    done: 0,
    total: 0,
    indexed: 0,
    invalid: 0,
    missing: 0,
    startedAt: Date.now(),
    finishedAt: null,
    error: null,
  };
  return { state, done: scanFolder(state, deps) };
}

async function scanFolder(state: LibraryScan, deps: FolderScanDeps): Promise<LibraryScan> {
  const log = deps.logger.child({ scanId: state.scanId });
  const probesBefore = deps.index.probeCount;
  let lastProgress = 0;
  const progress = (force: boolean): void => {
    const now = Date.now();
    if (!force && now - lastProgress < SCAN_PROGRESS_MS) return;
    lastProgress = now;
    deps.progress(state);
  };
  try {
    log.info({ root: deps.root }, 'library scan started');
    const files = await listAudioFiles(deps.root, log);
    state.total = files.length;
    progress(true);
    const gone = await markGone(files, deps);
    const stillMissing = (): number =>
      gone.filter((path) => deps.index.statusOf(path) === 'missing').length;
    state.missing = stillMissing();
    await indexFiles(files, state, deps, () => progress(false), log);
    state.missing = stillMissing(); // a file found again under a new name is not missing
    state.state = 'done';
    state.finishedAt = Date.now();
    log.info(
      {
        total: state.total,
        indexed: state.indexed,
        invalid: state.invalid,
        missing: state.missing,
        probed: deps.index.probeCount - probesBefore,
      },
      'library scan done',
    );
  } catch (error) {
    state.state = 'failed';
    state.finishedAt = Date.now();
    state.error = error instanceof Error ? error.message : String(error);
    log.error({ err: error }, 'library scan failed');
  }
  deps.flush();
  progress(true);
  return { ...state };
}

/**
 * Known files not in `files`, indexed first: a file that moved is then found as missing when
 * its new path is indexed, and keeps its id. Returns the paths marked missing.
 */
async function markGone(files: readonly string[], deps: FolderScanDeps): Promise<string[]> {
  const seen = new Set(files);
  const gone: string[] = [];
  for (const path of deps.index.presentPaths()) {
    if (!seen.has(path) && (await deps.indexFile(path)) === 'removed') gone.push(path);
  }
  return gone;
}

/** Indexes `files`, a few at once, counting each in `state`. */
async function indexFiles(
  files: readonly string[],
  state: LibraryScan,
  deps: FolderScanDeps,
  progress: () => void,
  log: Logger,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length && !deps.stopped()) {
      const path = files[next++] as string;
      try {
        const outcome = await deps.indexFile(path);
        if (outcome === 'invalid') state.invalid += 1;
        else if (outcome !== 'removed' && outcome !== 'ignored') {
          const status = deps.index.statusOf(path);
          if (status === 'ok') state.indexed += 1;
          else if (status === 'invalid') state.invalid += 1;
        }
      } catch (error) {
        log.error({ err: error, path }, 'indexing a file failed');
        state.invalid += 1;
      }
      state.done += 1;
      progress();
    }
  };
  await Promise.all(Array.from({ length: SCAN_CONCURRENCY }, worker));
}
