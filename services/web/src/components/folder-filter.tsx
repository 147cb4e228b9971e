import { useId } from 'react';
import { api } from '../api/client.ts';
import { useAsync } from '../hooks/use-async.ts';

/**
 * The library's folders as an indented tree in a select: picking one shows its tracks and
 * those of the folders under it.
 */
export function FolderFilter({
  value,
  version,
  onChange,
}: {
  value: string;
  /** Changes when the library changes, so the counts follow. */
  version: number;
  onChange: (folder: string) => void;
}) {
  const id = useId();
  const folders = useAsync((signal) => api.folders(signal), [version]);
  const list = folders.data?.folders.filter((folder) => folder.path !== '') ?? [];
  return (
    <div className="field compact">
      <label htmlFor={id}>Folder</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">All folders</option>
        {list.map((folder) => {
          const depth = folder.path.split('/').length - 1;
          const name = folder.path.split('/').at(-1);
          return (
            <option key={folder.path} value={folder.path}>
              {`${'\u00a0\u00a0'.repeat(depth)}${name} (${folder.total})`}
            </option>
          );
        })}
        {value && !list.some((folder) => folder.path === value) ? (
          <option value={value}>{value}</option>
        ) : null}
      </select>
    </div>
  );
}
