import { type DragEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { api } from '../../api/client.ts';
import { describeError } from '../../api/errors.ts';
import type { PlaylistItem } from '../../api/types.ts';
import { CoverArt } from '../../components/cover-art.tsx';
import { DownIcon, GripIcon, TrashIcon, UpIcon } from '../../components/icons.tsx';
import { Empty } from '../../components/status.tsx';
import { formatDuration } from '../../format.ts';
import { toast } from '../../hooks/use-toast.ts';
import { moveItem, sameOrder } from '../../reorder.ts';
import type { PlaylistPartProps } from './part-props.ts';

/**
 * The items, in order. Three ways to reorder: drag a row; the up and down buttons; or focus
 * a row's handle, press Space to pick it up, arrows to move it and Space again to drop it.
 */
export function Items({ playlist, canEdit, onChange }: PlaylistPartProps) {
  const [items, setItems] = useState<PlaylistItem[]>(playlist.items);
  const [dragging, setDragging] = useState<number | null>(null);
  const [grabbed, setGrabbed] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const before = useRef<PlaylistItem[]>(playlist.items);
  const handles = useRef(new Map<number, HTMLButtonElement>());

  useEffect(() => {
    setItems(playlist.items);
    before.current = playlist.items;
  }, [playlist.items]);

  const persist = async (next: PlaylistItem[]) => {
    if (sameOrder(next, before.current)) return;
    const previous = before.current;
    before.current = next;
    try {
      onChange(
        await api.reorderPlaylist(
          playlist.id,
          next.map((item) => item.id),
        ),
      );
    } catch (reason) {
      before.current = previous;
      setItems(previous);
      toast(describeError(reason), 'error');
    }
  };

  const focusHandle = (itemId: number) => {
    requestAnimationFrame(() => handles.current.get(itemId)?.focus());
  };

  const moveBy = (index: number, delta: number, save: boolean) => {
    const target = index + delta;
    if (target < 0 || target >= items.length) return;
    const item = items[index] as PlaylistItem;
    const next = moveItem(items, index, target);
    setItems(next);
    setAnnouncement(`${item.track.title} moved to position ${target + 1} of ${next.length}.`);
    focusHandle(item.id);
    if (save) void persist(next);
  };

  const remove = async (item: PlaylistItem) => {
    try {
      await api.removeFromPlaylist(playlist.id, item.id);
      onChange(await api.playlist(playlist.id));
      toast(`Removed "${item.track.title}".`);
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
  };

  const onHandleKey = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const item = items[index] as PlaylistItem;
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      if (grabbed === item.id) {
        setGrabbed(null);
        setAnnouncement(`${item.track.title} dropped at position ${index + 1}.`);
        void persist(items);
      } else {
        setGrabbed(item.id);
        setAnnouncement(
          `${item.track.title} picked up. Use the arrow keys to move it, Space to drop it, Escape to cancel.`,
        );
      }
    } else if (event.key === 'Escape' && grabbed !== null) {
      event.preventDefault();
      setGrabbed(null);
      setItems(before.current);
      setAnnouncement('Move cancelled.');
      focusHandle(item.id);
    } else if (
      (event.key === 'ArrowUp' || event.key === 'ArrowDown') &&
      (grabbed === item.id || event.altKey)
    ) {
      event.preventDefault();
      moveBy(index, event.key === 'ArrowUp' ? -1 : 1, grabbed !== item.id);
    }
  };

  const onDragStart = (event: DragEvent<HTMLLIElement>, item: PlaylistItem) => {
    setDragging(item.id);
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', String(item.id));
  };

  const onDragOver = (event: DragEvent<HTMLLIElement>, index: number) => {
    if (dragging === null) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    const from = items.findIndex((item) => item.id === dragging);
    if (from !== -1 && from !== index) setItems(moveItem(items, from, index));
  };

  const onDragEnd = () => {
    if (dragging === null) return;
    setDragging(null);
    void persist(items);
  };

  if (items.length === 0) {
    return (
      <Empty>This playlist is empty.{canEdit ? ' Search for tracks to add below.' : ''}</Empty>
    );
  }

  return (
    <>
      <p className="visually-hidden" aria-live="assertive">
        {announcement}
      </p>
      <ol className="playlist-items" aria-label="Tracks in this playlist">
        {items.map((item, index) => (
          <li
            key={item.id}
            className={`playlist-item ${dragging === item.id ? 'dragging' : ''} ${grabbed === item.id ? 'grabbed' : ''}`}
            draggable={canEdit}
            onDragStart={(event) => onDragStart(event, item)}
            onDragOver={(event) => onDragOver(event, index)}
            onDrop={(event) => {
              event.preventDefault();
              onDragEnd();
            }}
            onDragEnd={onDragEnd}
            data-testid="playlist-item"
          >
            {canEdit ? (
              <button
                type="button"
                className="icon-button grip"
                aria-label={`Reorder ${item.track.title}, position ${index + 1} of ${items.length}`}
                aria-pressed={grabbed === item.id}
                aria-describedby="reorder-help"
                ref={(element) => {
                  if (element) handles.current.set(item.id, element);
                  else handles.current.delete(item.id);
                }}
                onKeyDown={(event) => onHandleKey(event, index)}
                onBlur={() => {
                  if (grabbed === item.id) {
                    setGrabbed(null);
                    void persist(items);
                  }
                }}
              >
                <GripIcon />
              </button>
            ) : null}
            <span className="item-pos">{index + 1}</span>
            <CoverArt
              trackId={item.track.id}
              hasCover={item.track.hasCover}
              seed={`${item.track.artist ?? ''}${item.track.album ?? item.track.title}`}
            />
            <span className="item-text">
              <span className="cell-title">{item.track.title}</span>
              <span className="muted small">{item.track.artist ?? 'Unknown artist'}</span>
            </span>
            <span className="item-time num">{formatDuration(item.track.duration)}</span>
            {canEdit ? (
              <span className="row-actions">
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Move ${item.track.title} up`}
                  disabled={index === 0}
                  onClick={() => moveBy(index, -1, true)}
                >
                  <UpIcon />
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Move ${item.track.title} down`}
                  disabled={index === items.length - 1}
                  onClick={() => moveBy(index, 1, true)}
                >
                  <DownIcon />
                </button>
                <button
                  type="button"
                  className="icon-button danger"
                  aria-label={`Remove ${item.track.title}`}
                  onClick={() => remove(item)}
                >
                  <TrashIcon />
                </button>
              </span>
            ) : null}
          </li>
        ))}
      </ol>
      {canEdit ? (
        <p id="reorder-help" className="muted small">
          Drag rows to reorder, or focus a handle and press Space, then the arrow keys.
        </p>
      ) : null}
    </>
  );
}
