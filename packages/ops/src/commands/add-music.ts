import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { chmod, copyFile, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, join, posix, resolve } from 'node:path';
import type { AddCommand } from '../args.ts';
import { type AudioCheck, checkAudioFile, findMediaTools } from '../audio.ts';
import { type CommandContext, sleep } from '../context.ts';
import {
  type ControlAddress,
  controlCommand,
  parseMetadata,
  parseQueue,
} from '../control-client.ts';
import type { ContainerInfo } from '../docker/index.ts';
import { OpsError } from '../errors.ts';
import { reachableAddress, Stack, servicePort } from '../stack.ts';

const DEFAULT_MUSIC_DIR = '/music';
const DEFAULT_CONTROL_PORT = 1234;
const POLL_MS = 500;

/** Where added files go: a host folder bind-mounted into the scheduler, or the container itself. */
export type MusicTarget =
  | { kind: 'bind'; hostDir: string; containerDir: string; readOnly: boolean }
  | { kind: 'container'; containerDir: string; volume: string | undefined; readOnly: boolean };

/**
 * The scheduler's music folder (MUSIC_DIR, default /music) as seen from here: the host side of
 * its bind mount when the engine is local and the folder exists here, else the container path
 * (a named volume, or a remote engine), written through Docker's archive API.
 */
export function musicTarget(container: ContainerInfo, localEngine: boolean): MusicTarget {
  const containerDir = posix.normalize(container.env.MUSIC_DIR || DEFAULT_MUSIC_DIR);
  const mount = container.mounts
    .filter(
      (m) =>
        containerDir === m.destination ||
        containerDir.startsWith(`${m.destination.replace(/\/$/, '')}/`),
    )
    .sort((a, b) => b.destination.length - a.destination.length)[0];
  if (mount?.type === 'bind' && localEngine) {
    const hostDir = join(mount.source, posix.relative(mount.destination, containerDir));
    if (existsSync(hostDir))
      return { kind: 'bind', hostDir, containerDir, readOnly: mount.readOnly };
  }
  return {
    kind: 'container',
    containerDir,
    volume: mount?.type === 'volume' ? mount.name : undefined,
    readOnly: mount?.readOnly ?? false,
  };
}

async function sameContent(a: string, b: string): Promise<boolean> {
  const [sa, sb] = await Promise.all([stat(a), stat(b)]);
  if (sa.size !== sb.size) return false;
  const digest = (path: string): Promise<string> =>
    new Promise((done, fail) => {
      const hash = createHash('sha256');
      createReadStream(path)
        .on('data', (chunk) => hash.update(chunk))
        .on('error', fail)
        .on('end', () => done(hash.digest('hex')));
    });
  const [da, db] = await Promise.all([digest(a), digest(b)]);
  return da === db;
}

interface AddedFile {
  check: AudioCheck;
  name: string;
  destination: string;
  copied: boolean;
  alreadyThere: boolean;
  indexed: boolean;
  requestId: string | null;
  title: string | null;
  seconds: number | null;
}

async function copyOnHost(
  ctx: CommandContext,
  file: AddedFile,
  hostDir: string,
  force: boolean,
): Promise<void> {
  const destination = join(hostDir, file.name);
  file.destination = destination;
  if (existsSync(destination)) {
    if (await sameContent(file.check.path, destination)) {
      file.alreadyThere = true;
      return;
    }
    if (!force) {
      throw new OpsError(
        'OPS_FILE_EXISTS',
        `${destination} exists with other content: rename the file, or add --force to replace it`,
      );
    }
  }
  // Copy under a name the library ignores (a dot-file, no audio extension), then rename: the
  // watcher never sees a half-written file.
  const partial = join(hostDir, `.${file.name}.radioctl-part`);
  try {
    await copyFile(file.check.path, partial);
    // The scheduler runs as another user: it must be able to read the file.
    await chmod(partial, 0o644);
    await rename(partial, destination);
  } catch (error) {
    await rm(partial, { force: true });
    throw new OpsError(
      'OPS_DOCKER_FAILED',
      `copying ${file.check.path} to ${destination}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  file.copied = true;
  ctx.printer.progress(`  ${file.name} -> ${destination}`);
}

async function copyIntoContainer(
  ctx: CommandContext,
  file: AddedFile,
  container: ContainerInfo,
  containerDir: string,
  force: boolean,
): Promise<void> {
  const destination = posix.join(containerDir, file.name);
  file.destination = `${container.name}:${destination}`;
  const size = await ctx.docker.fileSize(container, destination);
  if (size !== null && !force) {
    throw new OpsError(
      'OPS_FILE_EXISTS',
      `${container.name}:${destination} exists already: rename the file, or add --force to replace it`,
    );
  }
  await ctx.docker.putFile(container, containerDir, file.name, await readFile(file.check.path));
  file.copied = true;
  ctx.printer.progress(`  ${file.name} -> ${file.destination}`);
}

/**
 * Polls the scheduler's control port until every file shows in `request.queue` (new music is
 * queued as soon as it is indexed) or is on air (`request.metadata`).
 */
async function waitForIndex(
  ctx: CommandContext,
  files: AddedFile[],
  address: ControlAddress,
  timeoutSeconds: number,
): Promise<void> {
  const started = ctx.now();
  const deadline = started + timeoutSeconds * 1000;
  let lastError: string | null = null;
  for (;;) {
    const pending = files.filter((file) => !file.indexed);
    if (pending.length === 0) return;
    try {
      const queue = parseQueue(await controlCommand(address, 'request.queue'));
      let onAir: Record<string, string> = {};
      try {
        onAir = parseMetadata(await controlCommand(address, 'request.metadata'));
      } catch {
        // Nothing on air answers an ERROR line: only the queue counts then.
      }
      lastError = null;
      for (const file of pending) {
        const entry = queue.find((item) => item.path === file.name);
        const playing = onAir.path === file.name;
        if (entry || playing) {
          file.indexed = true;
          file.requestId = entry?.requestId ?? onAir.rid ?? null;
          file.title =
            entry?.title ?? ([onAir.artist, onAir.title].filter(Boolean).join(' - ') || null);
          file.seconds = Number(((ctx.now() - started) / 1000).toFixed(2));
          ctx.printer.progress(
            `  ${file.name} indexed${playing && !entry ? ' and on air' : ''}: request ${file.requestId ?? '?'}, ${file.title ?? 'untitled'} (${file.seconds.toFixed(1)}s)`,
          );
        }
      }
    } catch (error) {
      // The scheduler may be restarting: keep trying until the deadline.
      lastError = (error as Error).message;
    }
    if (files.every((file) => file.indexed)) return;
    if (ctx.now() >= deadline || ctx.signal.aborted) {
      const names = files.filter((file) => !file.indexed).map((file) => file.name);
      throw new OpsError(
        'OPS_NOT_INDEXED',
        `copied, but the scheduler did not list ${names.join(', ')} in request.queue ${ctx.signal.aborted ? 'before the interruption' : `within ${timeoutSeconds}s`}${
          lastError ? ` (${lastError})` : ''
        }; a file it cannot decode is skipped: see radioctl logs scheduler`,
      );
    }
    await sleep(POLL_MS, ctx.signal);
  }
}

/**
 * Checks every file before anything is copied, as the api checks an upload (with ffmpeg here);
 * two files of one name cannot both go in.
 */
async function checkFiles(ctx: CommandContext, paths: readonly string[]): Promise<AudioCheck[]> {
  const tools = findMediaTools(ctx.pathVar);
  const checks: AudioCheck[] = [];
  for (const path of paths) checks.push(await checkAudioFile(resolve(ctx.cwd, path), tools));
  const names = new Set<string>();
  for (const check of checks) {
    const name = basename(check.path);
    if (names.has(name)) {
      throw new OpsError(
        'OPS_FILE_EXISTS',
        `two files are named ${name}: the music folder can hold one`,
      );
    }
    names.add(name);
  }
  ctx.printer.progress(
    `checked ${checks.length} file${checks.length === 1 ? '' : 's'}: ${checks
      .map(
        (check) => `${basename(check.path)} (${check.format}, ${(check.size / 1e6).toFixed(1)} MB)`,
      )
      .join(', ')}${tools ? '' : ' (no ffmpeg/ffprobe here: checked by their first bytes only)'}`,
  );
  return checks;
}

/** The service's container (a running one first) and where its music folder is written. */
function chooseTarget(
  ctx: CommandContext,
  stack: Stack,
  service: string,
): { container: ContainerInfo; target: MusicTarget } {
  const containers = stack.containersOf(service);
  const container =
    containers.find((candidate) => candidate.state === 'running') ??
    (containers[0] as ContainerInfo);
  const target = musicTarget(container, ctx.docker.endpoint.publishedHost === '127.0.0.1');
  if (target.kind === 'container' && target.readOnly) {
    throw new OpsError(
      'OPS_NO_MUSIC_FOLDER',
      `${container.name}:${target.containerDir} is mounted read-only and not from a folder on this host: copy the files into the volume's source instead`,
    );
  }
  if (target.kind === 'bind') {
    ctx.printer.progress(
      `copying into ${target.hostDir} (mounted at ${container.name}:${target.containerDir})`,
    );
  } else {
    if (target.volume === undefined) {
      ctx.printer.warn(
        `${container.name}:${target.containerDir} is not on a volume: the files are lost when the container is recreated`,
      );
    }
    ctx.printer.progress(
      `copying into ${container.name}:${target.containerDir}${target.volume ? ` (volume ${target.volume})` : ''}`,
    );
  }
  return { container, target };
}

async function copyFiles(
  ctx: CommandContext,
  checks: readonly AudioCheck[],
  container: ContainerInfo,
  target: MusicTarget,
  force: boolean,
): Promise<AddedFile[]> {
  const files: AddedFile[] = checks.map((check) => ({
    check,
    name: basename(check.path),
    destination: '',
    copied: false,
    alreadyThere: false,
    indexed: false,
    requestId: null,
    title: null,
    seconds: null,
  }));
  for (const file of files) {
    if (target.kind === 'bind') await copyOnHost(ctx, file, target.hostDir, force);
    else await copyIntoContainer(ctx, file, container, target.containerDir, force);
    if (file.alreadyThere) ctx.printer.progress(`  ${file.name} is already there, unchanged`);
  }
  return files;
}

/** Waits for the copied files on the container's published control port. */
async function awaitIndex(
  ctx: CommandContext,
  command: AddCommand,
  container: ContainerInfo,
  copied: AddedFile[],
): Promise<void> {
  const address = reachableAddress(
    container,
    servicePort(container, 'CONTROL_PORT', DEFAULT_CONTROL_PORT),
    ctx.docker.endpoint.publishedHost,
  );
  if (address === null) {
    throw new OpsError(
      'OPS_NOT_INDEXED',
      `copied, but ${container.name}'s control port is not published (and ${container.state === 'running' ? 'its network is not reachable from here' : 'it is not running'}): cannot tell when it has indexed the files (use --no-wait to skip the check)`,
    );
  }
  ctx.printer.progress(
    `waiting for ${command.service} to index ${copied.length} file${copied.length === 1 ? '' : 's'} (control port ${address.host}:${address.port})`,
  );
  await waitForIndex(ctx, copied, address, command.timeoutSeconds);
}

function folderRecord(target: MusicTarget): Record<string, unknown> {
  return target.kind === 'bind'
    ? { kind: 'bind', host: target.hostDir, container: target.containerDir }
    : {
        kind: target.volume ? 'volume' : 'container',
        volume: target.volume ?? null,
        container: target.containerDir,
      };
}

function printResult(
  ctx: CommandContext,
  command: AddCommand,
  stack: Stack,
  container: ContainerInfo,
  target: MusicTarget,
  files: readonly AddedFile[],
): void {
  if (ctx.printer.json) {
    ctx.printer.jsonValue({
      project: stack.project.name,
      service: command.service,
      container: container.name,
      folder: folderRecord(target),
      files: files.map((file) => ({
        file: file.check.path,
        name: file.name,
        format: file.check.format,
        size: file.check.size,
        destination: file.destination,
        copied: file.copied,
        alreadyThere: file.alreadyThere,
        indexed: file.indexed,
        requestId: file.requestId,
        title: file.title,
        seconds: file.seconds,
      })),
    });
    return;
  }
  const copied = files.filter((file) => file.copied).length;
  const indexed = files.filter((file) => file.indexed).length;
  ctx.printer.line(
    `added ${copied} file${copied === 1 ? '' : 's'}${command.wait ? `, ${indexed} indexed by ${command.service}` : ' (not waiting for the index)'}`,
  );
}

/**
 * `radioctl add <file...>`: checks every file first (nothing is copied if one is refused),
 * copies them into the scheduler's music folder, then waits until the scheduler has them.
 */
export async function addMusic(ctx: CommandContext, command: AddCommand): Promise<number> {
  const checks = await checkFiles(ctx, command.files);
  const stack = await Stack.load(ctx.docker, ctx.project);
  const { container, target } = chooseTarget(ctx, stack, command.service);
  const files = await copyFiles(ctx, checks, container, target, command.force);
  // A file that was already there raises no change for the watcher: nothing new to wait for.
  const toWatch = files.filter((file) => file.copied);
  if (command.wait && toWatch.length > 0) await awaitIndex(ctx, command, container, toWatch);
  printResult(ctx, command, stack, container, target, files);
  return 0;
}
