import { join } from 'node:path';
import { AMPLIFY_MAX, AMPLIFY_MIN } from '@radio/core';
import type { PlayoutController } from '../controller.ts';
import { SchedulerError } from '../errors.ts';
import { displayTitle } from '../library/library-track.ts';
import type { QueueEntry } from '../sources/queue-entry.ts';
import type { CommandRegistry } from './registry.ts';

/** `3:07`, or `1:02:03` past an hour; `--:--` when unknown. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '--:--';
  const total = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${secs}` : `${minutes}:${secs}`;
}

/** One `request.queue` line: request id, artist - title, (path), [kind]. */
export function queueLine(entry: QueueEntry): string {
  return `${entry.requestId} ${displayTitle(entry.track)} (${entry.track.path}) [${entry.kind}]`;
}

function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`;
}

function liquidsoapDate(date: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}/${two(date.getMonth() + 1)}/${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/** `key="value"` lines (sent with LF between them, as Liquidsoap prints metadata). */
export function metadataLines(
  entry: QueueEntry,
  root: string,
  onAir: { startedAt: number } | null,
): string[] {
  const { track } = entry;
  const file = join(root, track.path);
  const pairs: [string, string | number | null][] = [
    ['rid', entry.requestId],
    ['status', onAir ? 'playing' : 'ready'],
    ['source', entry.kind],
  ];
  if (onAir) {
    pairs.push(['on_air', liquidsoapDate(new Date(onAir.startedAt))]);
    pairs.push(['on_air_timestamp', (onAir.startedAt / 1000).toFixed(2)]);
  }
  pairs.push(
    ['initial_uri', file],
    ['filename', file],
    ['path', track.path],
    ['track_id', track.id],
    ['title', track.title],
    ['artist', track.artist],
    ['album', track.album],
    ['genre', track.genre],
    ['year', track.year],
    ['tracknumber', track.trackNo],
    ['duration', track.duration === null ? null : track.duration.toFixed(2)],
    ['format', track.format],
  );
  return pairs
    .filter(([, value]) => value !== null)
    .map(([key, value]) => `${key}=${quote(String(value))}`);
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** `name value`, `name = value`, `name=value`, `name= value`, `name =value`. */
export function parseAssignment(args: string): { name: string; value: string } | null {
  const match = /^([^\s=]+)(?:\s*=\s*|\s+)([^\s=].*)$/.exec(args.trim());
  if (!match) return null;
  return { name: match[1] as string, value: (match[2] as string).trim() };
}

/**
 * The station's own control commands: `request.*` on the queue and the player, `var.*` on
 * amplify. Formats are the ones issue 4 fixes; errors are one `ERROR:` line.
 */
export function registerStationCommands(
  registry: CommandRegistry,
  controller: PlayoutController,
  musicRoot: () => string,
): void {
  registry.add(
    'request.push',
    'request.push <uri>',
    'Push a new request in the queue: a path relative to the music folder, an absolute path inside it or a file:// URI. Answers the request id.',
    async (args) => (await controller.push(args)).requestId,
  );
  registry.add(
    'request.queue',
    'request.queue',
    'What plays next, one line each: request id, artist - title, (path), [request|new|playlist|rotation].',
    () => controller.queue().map(queueLine),
  );
  registry.add('request.skip', 'request.skip', 'Skip the current song.', () => {
    controller.skip();
    return 'Done.';
  });
  registry.add(
    'request.on_air',
    'request.on_air',
    'What is playing now: request id, artist - title, elapsed / duration.',
    () => {
      const onAir = controller.onAir();
      if (!onAir) return '';
      const { entry, position, duration } = onAir;
      return `${entry.requestId} ${displayTitle(entry.track)} ${formatDuration(position)} / ${formatDuration(duration)}`;
    },
  );
  registry.add(
    'request.metadata',
    'request.metadata [<rid>]',
    'Display the metadata of the current track, or of the request <rid> (on air or queued).',
    (args) => {
      const rid = args.split(/\s+/, 1)[0] ?? '';
      const onAir = controller.onAir();
      const requestId = rid || onAir?.entry.requestId;
      if (!requestId) throw new SchedulerError('SCHEDULER_NOTHING_ON_AIR', 'nothing is on air');
      const found = controller.findRequest(requestId);
      if (!found) {
        throw new SchedulerError('SCHEDULER_REQUEST_NOT_FOUND', `no such request: ${requestId}`);
      }
      const startedAt = found.onAir && onAir ? { startedAt: onAir.startedAt } : null;
      return { lf: metadataLines(found.entry, musicRoot(), startedAt) };
    },
  );
  registry.add('var.list', 'var.list', 'List the variables.', () => 'amplify : float');
  registry.add('var.get', 'var.get <name>', 'Get the value of a variable.', (args) => {
    const name = args.split(/\s+/, 1)[0] ?? '';
    if (name !== 'amplify') {
      throw new SchedulerError(
        'SCHEDULER_UNKNOWN_VARIABLE',
        name ? `unknown variable ${name} (try var.list)` : 'give a variable name: var.get amplify',
      );
    }
    return controller.getAmplify().toFixed(3);
  });
  registry.add(
    'var.set',
    'var.set <name> = <value>',
    `Set the value of a variable (amplify: ${AMPLIFY_MIN} to ${AMPLIFY_MAX}).`,
    async (args) => {
      const assignment = parseAssignment(args);
      if (!assignment) {
        throw new SchedulerError('SCHEDULER_BAD_VALUE', 'usage: var.set <name> = <value>');
      }
      const { name, value } = assignment;
      if (name !== 'amplify') {
        throw new SchedulerError(
          'SCHEDULER_UNKNOWN_VARIABLE',
          `unknown variable ${name} (try var.list)`,
        );
      }
      if (!NUMBER.test(value)) {
        throw new SchedulerError('SCHEDULER_BAD_VALUE', `amplify must be a number, got ${value}`);
      }
      await controller.setAmplify(Number(value));
      return `Variable ${name} set.`;
    },
  );
}
