/*
 * Files chosen for upload, each with the folder it came from inside what was chosen: a dropped
 * or picked folder keeps its sub-folders, below the target folder the user typed.
 */

export interface PickedFile {
  file: File;
  /** Relative to the music folder: the target folder, then the file's own sub-folders. */
  folder: string;
}

/** Joins folder parts, dropping empty ones and stray slashes. */
export function joinFolder(...parts: string[]): string {
  return parts
    .flatMap((part) => part.split('/'))
    .map((part) => part.trim())
    .filter(Boolean)
    .join('/');
}

/** Hidden files (.DS_Store, ._song.mp3) are the system's, never music: the station ignores them. */
function isHidden(path: string): boolean {
  return path.split('/').some((part) => part.startsWith('.'));
}

/** From an <input type=file> (with webkitdirectory, each file knows its path in the folder). */
export function fromInput(files: FileList, target: string): PickedFile[] {
  return [...files]
    .filter((file) => !isHidden(file.webkitRelativePath || file.name))
    .map((file) => {
      const inside = (file.webkitRelativePath || '').split('/').slice(0, -1).join('/');
      return { file, folder: joinFolder(target, inside) };
    });
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** Every entry of a dropped folder: readEntries answers in batches until an empty one. */
async function childrenOf(entry: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = entry.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

async function walk(entry: FileSystemEntry, folder: string, out: PickedFile[]): Promise<void> {
  if (entry.name.startsWith('.')) return;
  if (entry.isFile) {
    out.push({ file: await fileOf(entry as FileSystemFileEntry), folder });
    return;
  }
  if (entry.isDirectory) {
    const inner = joinFolder(folder, entry.name);
    for (const child of await childrenOf(entry as FileSystemDirectoryEntry)) {
      await walk(child, inner, out);
    }
  }
}

/** From a drop: files, and folders walked with their sub-folders. */
export async function fromDrop(data: DataTransfer, target: string): Promise<PickedFile[]> {
  // The entries must be taken while the drop event runs; they are read afterwards.
  const entries = [...data.items]
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry());
  const picked: PickedFile[] = [];
  if (entries.every((entry) => entry === null)) {
    return fromInput(data.files, target);
  }
  for (const entry of entries) if (entry) await walk(entry, joinFolder(target), picked);
  return picked;
}
