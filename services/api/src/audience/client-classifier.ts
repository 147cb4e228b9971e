import type { ListenerClient } from '@radio/db';
import { UAParser } from 'ua-parser-js';

/** What a user agent is: its family, and the browser, app or player by name when known. */
export interface ClientKind {
  client: ListenerClient;
  name: string | null;
}

/**
 * Clients ua-parser-js does not know (it knows browsers): media players, radio apps, the
 * frameworks apps play through, and bots. The first match wins, so specific ones come before
 * the general ones (iTunes before the WebKit it embeds, bots before everything).
 */
const KNOWN: readonly (readonly [RegExp, ListenerClient, string])[] = [
  [/googlebot/i, 'bot', 'Googlebot'],
  [/bingbot/i, 'bot', 'Bingbot'],
  [/uptimerobot/i, 'bot', 'UptimeRobot'],
  [/pingdom/i, 'bot', 'Pingdom'],
  [/statuscake/i, 'bot', 'StatusCake'],
  [/^curl\//i, 'bot', 'curl'],
  [/^wget\//i, 'bot', 'Wget'],
  [/^python-(requests|urllib)|^python\//i, 'bot', 'Python'],
  [/^go-http-client/i, 'bot', 'Go'],
  [/^apache-httpclient|^java\//i, 'bot', 'Java'],
  [/^(node-fetch|axios|undici|node)\b/i, 'bot', 'Node.js'],
  [/^RadioEdge\//, 'bot', 'Radio edge'],
  [/\b(bot|crawler|spider|slurp)\b|monitor/i, 'bot', 'Other bot'],
  [/VLC|LibVLC/, 'player', 'VLC'],
  [/^mpv\b/i, 'player', 'mpv'],
  [/foobar2000/i, 'player', 'foobar2000'],
  [/winamp/i, 'player', 'Winamp'],
  [/^iTunes\//, 'player', 'iTunes'],
  [/^Music\/\d.*Macintosh/, 'player', 'Apple Music'],
  [/^Lavf\/|ffmpeg|ffplay/i, 'player', 'FFmpeg'],
  [/gstreamer/i, 'player', 'GStreamer'],
  [/liquidsoap/i, 'player', 'Liquidsoap'],
  [/^MPlayer/i, 'player', 'MPlayer'],
  [/^(NSPlayer|Windows-Media-Player)/i, 'player', 'Windows Media Player'],
  [/\b(Kodi|XBMC)\//, 'player', 'Kodi'],
  [/^(Audacious|Clementine|Strawberry|Rhythmbox|Amarok|Quod Libet)/i, 'player', 'Desktop player'],
  [/^(QuickTime|QTS)\b/i, 'player', 'QuickTime'],
  [/^xine/i, 'player', 'xine'],
  [/tunein/i, 'app', 'TuneIn'],
  [/radiodroid/i, 'app', 'RadioDroid'],
  [/radio\.(de|net|fr|at|it|es|pt|pl|dk|se)|radio\.net/i, 'app', 'radio.net'],
  [/mytuner/i, 'app', 'myTuner'],
  [/streema/i, 'app', 'Streema'],
  [/simple ?radio/i, 'app', 'Simple Radio'],
  [/^Alexa|AlexaMediaPlayer|Echo\//i, 'app', 'Alexa'],
  [/^Sonos\//i, 'app', 'Sonos'],
  [/^Roku\//i, 'app', 'Roku'],
  [/AppleCoreMedia/i, 'app', 'Apple CoreMedia'],
  [/ExoPlayer/i, 'app', 'ExoPlayer'],
  [/stagefright/i, 'app', 'Android media player'],
  [/^okhttp\//i, 'app', 'Android app'],
  [/^Dalvik\//i, 'app', 'Android app'],
  [/CFNetwork\/.*Darwin/i, 'app', 'iOS app'],
];

const BROWSER_ENGINES = new Set(['Blink', 'Gecko', 'WebKit', 'EdgeHTML', 'Trident', 'Presto']);

/** The first product token (`Foo/1.2 (…)` → `Foo`), for clients no rule knows. */
function productOf(userAgent: string): string | null {
  const token = /^[A-Za-z][\w.+-]{0,63}/.exec(userAgent.trim());
  return token ? token[0] : null;
}

/**
 * The client family and name of a user agent: the table above first, then ua-parser-js for
 * browsers (a named browser on a browser engine), then mobile systems as apps; the rest is
 * `other`, named by its product token.
 */
export function classifyClient(userAgent: string | null): ClientKind {
  const ua = userAgent?.trim() ?? '';
  if (ua === '') return { client: 'other', name: null };
  for (const [pattern, client, name] of KNOWN) {
    if (pattern.test(ua)) return { client, name };
  }
  const result = new UAParser(ua).getResult();
  if (result.browser.name && BROWSER_ENGINES.has(result.engine.name ?? '')) {
    return { client: 'browser', name: result.browser.name };
  }
  const device = result.device.type;
  if ((device === 'mobile' || device === 'tablet') && result.os.name) {
    return { client: 'app', name: productOf(ua) ?? `${result.os.name} app` };
  }
  return { client: 'other', name: productOf(ua) };
}
