/** `3:05`, or `1:02:03` past an hour; an en dash when unknown. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0)
    return '–';
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** A cue point to a tenth of a second: `0:04.2`, `5:12.5`; an en dash when unknown. */
export function formatCuePoint(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0)
    return '–';
  const tenths = Math.round(seconds * 10);
  const whole = Math.floor(tenths / 10);
  return `${formatDuration(whole)}.${tenths % 10}`;
}

/** A level with its unit to a tenth, with a true minus sign: `−14.2 LUFS`; an en dash when unknown. */
export function formatLevel(value: number | null | undefined, unit: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  const text = Math.abs(value).toFixed(1);
  return `${value < 0 && text !== '0.0' ? '−' : ''}${text} ${unit}`;
}

/** `2 h 5 min` for uptimes and library lengths. */
export function formatLongDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 60)
    return `${Math.max(0, Math.round(seconds || 0))} s`;
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  return `${minutes} min`;
}

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** `5 minutes ago` from a timestamp (ms or ISO text). */
export function formatAgo(when: number | string, now = Date.now()): string {
  const time = typeof when === 'number' ? when : Date.parse(when);
  if (Number.isNaN(time)) return '';
  const seconds = Math.round((time - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return relative.format(0, 'second');
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return relative.format(Math.round(seconds / 3600), 'hour');
  return relative.format(Math.round(seconds / 86_400), 'day');
}

export function formatTime(when: number | string, withSeconds = false): string {
  const date = new Date(when);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    ...(withSeconds ? { second: '2-digit' } : {}),
  });
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}

/** "Artist — Title", or the title alone. */
export function trackLine(track: { title: string; artist: string | null }): string {
  return track.artist ? `${track.artist} — ${track.title}` : track.title;
}
