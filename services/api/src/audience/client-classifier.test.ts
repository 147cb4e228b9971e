import { describe, expect, test } from '@jest/globals';
import { classifyClient } from './client-classifier.ts';

/* Real user agents, as listeners' clients send them to Icecast servers. */
const CASES: [string, string, string | null][] = [
  // Browsers
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    'browser',
    'Chrome',
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0',
    'browser',
    'Firefox',
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
    'browser',
    'Safari',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
    'browser',
    'Mobile Safari',
  ],
  [
    'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.6045.163 Mobile Safari/537.36',
    'browser',
    'Chrome',
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.61',
    'browser',
    'Edge',
  ],
  // Media players
  ['VLC/3.0.18 LibVLC/3.0.18', 'player', 'VLC'],
  ['mpv 0.35.1', 'player', 'mpv'],
  ['foobar2000/1.6.16', 'player', 'foobar2000'],
  ['WinampMPEG/5.66, Ultravox/2.1', 'player', 'Winamp'],
  [
    'iTunes/12.12.10 (Windows; Microsoft Windows 10 x64) AppleWebKit/7613.2007.1014.14',
    'player',
    'iTunes',
  ],
  ['Lavf/60.16.100', 'player', 'FFmpeg'],
  ['GStreamer souphttpsrc 1.22.0 libsoup/3.2.2', 'player', 'GStreamer'],
  ['Liquidsoap/2.2.4 (Unix; OCaml 4.14.1)', 'player', 'Liquidsoap'],
  ['NSPlayer/12.00.19041.3636 WMFSDK/12.00.19041.3636', 'player', 'Windows Media Player'],
  ['Kodi/20.2 (X11; Linux x86_64) Ubuntu/22.04 App_Bitness/64 Version/20.2', 'player', 'Kodi'],
  ['MPlayer 1.5-12', 'player', 'MPlayer'],
  // Apps and the frameworks apps play through
  ['TuneIn Radio/27.4.1 (Android 13; SM-G991B; Java)', 'app', 'TuneIn'],
  [
    'AppleCoreMedia/1.0.0.21A329 (iPhone; U; CPU OS 17_0 like Mac OS X; en_us)',
    'app',
    'Apple CoreMedia',
  ],
  ['RadioDroid2/0.86', 'app', 'RadioDroid'],
  ['Dalvik/2.1.0 (Linux; U; Android 12; SM-A525F Build/SP1A.210812.016)', 'app', 'Android app'],
  ['ExoPlayerLib/2.18.1', 'app', 'ExoPlayer'],
  ['Sonos/79.1-52294 (ZPS27)', 'app', 'Sonos'],
  ['Roku/DVP-12.5 (12.5.0.4178-88)', 'app', 'Roku'],
  ['AlexaMediaPlayer/2.1.4676.0 (Linux;Android 6.0.1) ExoPlayerLib/1.5.9', 'app', 'Alexa'],
  ['MyRadioApp/3.2 CFNetwork/1474 Darwin/23.0.0', 'app', 'iOS app'],
  // Bots, monitors and scripts
  ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'bot', 'Googlebot'],
  ['curl/8.5.0', 'bot', 'curl'],
  ['Wget/1.21.3', 'bot', 'Wget'],
  ['python-requests/2.31.0', 'bot', 'Python'],
  ['Mozilla/5.0 (compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)', 'bot', 'UptimeRobot'],
  ['Go-http-client/1.1', 'bot', 'Go'],
  // Nothing known
  ['SomethingNew/1.0', 'other', 'SomethingNew'],
];

describe('classifyClient', () => {
  test.each(CASES)('%s', (userAgent, client, name) => {
    expect(classifyClient(userAgent)).toEqual({ client, name });
  });

  test('no user agent is other, without a name', () => {
    expect(classifyClient(null)).toEqual({ client: 'other', name: null });
    expect(classifyClient('  ')).toEqual({ client: 'other', name: null });
  });
});
