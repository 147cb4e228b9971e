import { extname, isAbsolute, relative, sep } from 'node:path';

/** Dot-files and dot-folders (`.DS_Store`, `.sync/`, editors' temp files) are never music. */
export function isHidden(relativePath: string): boolean {
  return relativePath.split('/').some((part) => part.startsWith('.'));
}

/**
 * The path of `absolute` relative to `root` with `/` separators (what the `tracks.path` column
 * holds), or null when it is not inside `root`.
 */
export function toLibraryPath(root: string, absolute: string): string | null {
  const rel = relative(root, absolute);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  return rel.split(sep).join('/');
}

/** A title for a file without tags: its name without the extension, underscores as spaces. */
export function titleFromFileName(path: string): string {
  const name = path.split('/').pop() ?? path;
  const ext = extname(name);
  const base = ext ? name.slice(0, -ext.length) : name;
  const title = base.replace(/_/g, ' ').trim();
  return title || name;
}
