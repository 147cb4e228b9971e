import { readdir, readFile } from 'node:fs/promises';

/**
 * The pid of a child of this process (a jest worker, say) whose command line has the argument
 * `arg`, read from /proc; undefined when there is none. Tests use it to kill one ffmpeg.
 */
export async function childPidWithArg(arg: string): Promise<number | undefined> {
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid !== process.pid) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.split('\0').includes(arg)) return Number(name);
  }
  return undefined;
}
