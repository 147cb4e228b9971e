import type { WebhookBody, WebhookEventData } from './events.ts';

/*
 * The same event as a Discord webhook message: one line of `content` and an embed. Discord
 * ignores the signature headers; they are sent anyway so a relay in between can check them.
 */

interface DiscordMessage {
  content: string;
  embeds: Array<{ title: string; description?: string; timestamp: string; color: number }>;
  /** Which mentions in the text ping: none (a title may say @everyone or <@id>). */
  allowed_mentions: { parse: [] };
}

const GREEN = 0x2e_cc_71;
const RED = 0xe7_4c_3c;
const BLUE = 0x34_98_db;

type Lines = { [K in keyof WebhookEventData]: (data: WebhookEventData[K]) => [string, number] };

const LINES: Lines = {
  'song.changed': (d) => [`Now playing: ${d.artist ? `${d.artist} – ` : ''}${d.title}`, BLUE],
  'live.connected': (d) => [`${d.dj.name} is live on ${d.mount}`, GREEN],
  'live.disconnected': (d) => [`${d.dj.name} left the air on ${d.mount}`, BLUE],
  'playout.dead_air': (d) => [
    `Dead air: ${Math.round(d.silentSeconds)} s of silence${d.title ? ` in "${d.title}"` : ''}; the track was ${d.action}`,
    RED,
  ],
  'station.offline': (d) => [
    `${d.mount} is off the air (no source for ${Math.round(d.offlineSeconds)} s)`,
    RED,
  ],
  'station.online': (d) => [
    `${d.mount} is back on the air after ${Math.round(d.offlineSeconds)} s`,
    GREEN,
  ],
  'listeners.peak': (d) => [
    d.kind === 'all-time'
      ? `New listener record: ${d.listeners} (was ${d.previous ?? 0})`
      : `Peak of ${d.date}: ${d.listeners} listeners`,
    GREEN,
  ],
  test: (d) => [d.message, BLUE],
};

export function discordMessage(body: WebhookBody): DiscordMessage {
  const line = LINES[body.event] as (data: unknown) => [string, number];
  const [content, color] = line(body.data);
  return {
    content,
    embeds: [
      {
        title: body.event,
        description: `\`\`\`json\n${JSON.stringify(body.data, null, 2).slice(0, 3900)}\n\`\`\``,
        timestamp: body.timestamp,
        color,
      },
    ],
    allowed_mentions: { parse: [] },
  };
}
