import { plural } from '../format.ts';

/** What can be done with the tracks ticked in the library: shown while any is. */
export function LibrarySelectionBar({
  count,
  onEditTags,
  onMove,
  onDelete,
  onClear,
}: {
  count: number;
  onEditTags: () => void;
  onMove: () => void;
  onDelete: () => void;
  onClear: () => void;
}) {
  if (count === 0) return null;
  return (
    <div className="selection-bar card" role="toolbar" aria-label="Selected tracks">
      <span aria-live="polite">{plural(count, 'track')} selected</span>
      <button type="button" className="button small" onClick={onEditTags}>
        Edit tags
      </button>
      <button type="button" className="button small" onClick={onMove}>
        Move to folder
      </button>
      <button type="button" className="button small danger" onClick={onDelete}>
        Delete
      </button>
      <button type="button" className="button small ghost" onClick={onClear}>
        Clear selection
      </button>
    </div>
  );
}
