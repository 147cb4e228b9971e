import { type DragEvent, useCallback, useEffect, useRef, useState } from 'react';
import { type RunningUpload, startUpload } from '../api/uploads.ts';
import { formatBytes, plural } from '../format.ts';
import { useTitle } from '../hooks/use-title.ts';
import { fromDrop, fromInput, joinFolder, type PickedFile } from './upload/picked-files.ts';
import { type UploadItem, UploadRow } from './upload/upload-row.tsx';

/** Files sent at once; the others wait their turn (each upload is a stream of its own). */
const PARALLEL = 2;

let nextId = 1;

/**
 * Upload for admins and DJs: drop files or folders (sub-folders kept), or pick them, into an
 * optional target folder; each file shows its progress, then what the station made of it.
 */
export default function UploadPage() {
  useTitle('Upload');
  const [items, setItems] = useState<UploadItem[]>([]);
  const [target, setTarget] = useState('');
  const [dragging, setDragging] = useState(false);
  const running = useRef(new Map<number, RunningUpload>());
  /** Cancelled before their upload had started: cancelled as soon as it has. */
  const cancelled = useRef(new Set<number>());

  const update = useCallback((id: number, change: Partial<UploadItem>) => {
    setItems((list) => list.map((item) => (item.id === id ? { ...item, ...change } : item)));
  }, []);

  const add = (picked: PickedFile[]) => {
    const added = picked.map(({ file, folder }) => ({
      id: nextId++,
      file,
      folder,
      state: 'waiting' as const,
      sent: 0,
      result: null,
      message: null,
    }));
    setItems((list) => [...list, ...added]);
  };

  const begin = useCallback(
    (item: UploadItem) => {
      update(item.id, { state: 'sending', sent: 0, message: null });
      const finish = (change: Partial<UploadItem>) => {
        running.current.delete(item.id);
        update(item.id, change);
      };
      startUpload(item.file, item.folder, {
        onProgress: (sent, total) =>
          update(item.id, sent >= total ? { sent, state: 'checking' } : { sent }),
        onResult: (result) => finish({ state: result.status, result }),
        onRefused: (_status, _code, message) => finish({ state: 'refused', message }),
        onFailed: (message) => finish({ state: 'failed', message }),
      }).then(
        (upload) => {
          if (cancelled.current.delete(item.id)) void upload.cancel();
          else running.current.set(item.id, upload);
        },
        (error: unknown) =>
          finish({ state: 'failed', message: error instanceof Error ? error.message : 'failed' }),
      );
    },
    [update],
  );

  // Starts waiting files while fewer than PARALLEL are being sent or checked.
  useEffect(() => {
    const active = items.filter((item) => item.state === 'sending' || item.state === 'checking');
    const waiting = items.filter((item) => item.state === 'waiting');
    for (const item of waiting.slice(0, Math.max(0, PARALLEL - active.length))) begin(item);
  }, [items, begin]);

  // Leaving the page pauses the uploads: their fingerprints let a later visit resume them.
  useEffect(() => {
    const uploads = running.current;
    return () => {
      for (const upload of uploads.values()) void upload.pause();
      uploads.clear();
    };
  }, []);

  // Closing the tab while files are being sent asks first.
  const sending = items.some((item) => item.state === 'sending' || item.state === 'waiting');
  useEffect(() => {
    if (!sending) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [sending]);

  const cancel = (item: UploadItem) => {
    const upload = running.current.get(item.id);
    running.current.delete(item.id);
    if (upload) void upload.cancel();
    else if (item.state === 'sending') cancelled.current.add(item.id);
    update(item.id, { state: 'cancelled' });
  };

  const onDrop = async (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    add(await fromDrop(event.dataTransfer, target));
  };

  const done = items.filter((item) => item.state === 'added').length;
  const total = items.reduce((sum, item) => sum + item.file.size, 0);
  return (
    <section className="page" aria-labelledby="upload-heading">
      <div className="page-head">
        <h1 id="upload-heading">Upload</h1>
        <p className="muted" aria-live="polite">
          {items.length > 0
            ? `${plural(items.length, 'file')}, ${formatBytes(total)}; ${done} added`
            : ' '}
        </p>
      </div>
      <div className="card stack">
        <label className="field">
          <span>Into folder (optional)</span>
          <input
            type="text"
            value={target}
            placeholder="e.g. Jazz/New arrivals"
            onChange={(event) => setTarget(event.target.value)}
            onBlur={() => setTarget(joinFolder(target))}
            data-testid="upload-folder"
          />
        </label>
        <section
          className={`dropzone${dragging ? ' dragging' : ''}`}
          aria-label="Drop files or folders here"
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="upload-dropzone"
        >
          <p>Drop audio files or whole folders here (sub-folders are kept).</p>
          <div className="button-row">
            <label className="button primary">
              Choose files
              <input
                type="file"
                multiple
                className="visually-hidden"
                accept="audio/*,.mp3,.flac,.ogg,.oga,.opus,.m4a,.mp4,.aac,.wav,.wave"
                data-testid="upload-files"
                onChange={(event) => {
                  if (event.target.files) add(fromInput(event.target.files, target));
                  event.target.value = '';
                }}
              />
            </label>
            <label className="button">
              Choose a folder
              <input
                type="file"
                multiple
                className="visually-hidden"
                ref={(input) => input?.setAttribute('webkitdirectory', '')}
                data-testid="upload-directory"
                onChange={(event) => {
                  if (event.target.files) add(fromInput(event.target.files, target));
                  event.target.value = '';
                }}
              />
            </label>
          </div>
          <p className="muted small">
            MP3, FLAC, Ogg, Opus, M4A or WAV. A file is checked once it is in: not audio, broken or
            already in the library, it is not added. A lost connection resumes where it stopped.
          </p>
        </section>
      </div>
      {items.length > 0 ? (
        <ul className="upload-list" aria-label="Uploads">
          {items.map((item) => (
            <UploadRow
              key={item.id}
              item={item}
              onCancel={cancel}
              onRetry={(again) => {
                cancelled.current.delete(again.id);
                update(again.id, { state: 'waiting', sent: 0 });
              }}
            />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
