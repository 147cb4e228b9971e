import { describe, expect, test } from '@jest/globals';
import { type MountSnapshot, ServerCounters, type ServerSnapshot } from '../stats.ts';
import {
  icecastDate,
  icecastIsoDate,
  iceResponseXml,
  listClientsXml,
  statsXml,
} from './stats-xml.ts';
import { statusJson } from './status-json.ts';

const start = Date.UTC(2026, 10, 21, 9, 1, 10);

function mount(path: string, extra: Partial<MountSnapshot> = {}): MountSnapshot {
  return {
    path,
    state: 'live',
    configured: true,
    contentType: 'audio/mpeg',
    listeners: 1,
    peak: 1,
    slowListeners: 0,
    maxListeners: null,
    name: 'Anchor Radio',
    description: 'Anchor reference station',
    genre: 'Test',
    url: 'http://127.0.0.1:8000/',
    public: true,
    quality: 'high',
    audioInfo: 'channels=2;samplerate=44100;bitrate=128',
    bitrate: 128,
    channels: 2,
    sampleRate: 44100,
    title: 'Anchor Lab - Sine 660',
    sourceIp: '127.0.0.1',
    userAgent: 'Liquidsoap/2.1.3 (Unix; OCaml 4.13.1)',
    streamStart: start + 3000,
    sourceConnectedAt: start + 3000,
    graceEndsAt: null,
    totalBytesRead: 1118328,
    totalBytesSent: 80242,
    fallback: null,
    listenUrl: `http://127.0.0.1:8000${path}`,
    ...extra,
  };
}

function server(mounts: MountSnapshot[]): ServerSnapshot {
  const counters = Object.assign(new ServerCounters(), {
    clientConnections: 19,
    clients: 5,
    connections: 24,
    listenerConnections: 4,
    sourceClientConnections: 3,
  });
  return {
    serverId: 'Icecast 2.4.4',
    admin: 'anchor@localhost',
    host: '127.0.0.1',
    location: 'Anchor Lab',
    serverStart: start,
    counters,
    listeners: 2,
    sources: 3,
    mounts,
  };
}

describe('Icecast documents', () => {
  test('dates as Icecast writes them', () => {
    expect(icecastDate(start)).toBe('Sat, 21 Nov 2026 09:01:10 +0000');
    expect(icecastIsoDate(start)).toBe('2026-11-21T09:01:10+0000');
  });

  test('stats.xml?mount= is byte for byte the captured Icecast document', () => {
    // reference/icecast/admin-stats.xml-mount-radio.mp3.body
    const expected =
      '<?xml version="1.0"?>\n<icestats><admin>anchor@localhost</admin><client_connections>19</client_connections><clients>5</clients><connections>24</connections><file_connections>0</file_connections><host>127.0.0.1</host><listener_connections>4</listener_connections><listeners>2</listeners><location>Anchor Lab</location><server_id>Icecast 2.4.4</server_id><server_start>Sat, 21 Nov 2026 09:01:10 +0000</server_start><server_start_iso8601>2026-11-21T09:01:10+0000</server_start_iso8601><source_client_connections>3</source_client_connections><source_relay_connections>0</source_relay_connections><source_total_connections>3</source_total_connections><sources>3</sources><stats>0</stats><stats_connections>0</stats_connections><source mount="/radio.mp3"><audio_info>channels=2;samplerate=44100;bitrate=128</audio_info><bitrate>128</bitrate><channels>2</channels><genre>Test</genre><listener_peak>1</listener_peak><listeners>1</listeners><listenurl>http://127.0.0.1:8000/radio.mp3</listenurl><max_listeners>unlimited</max_listeners><public>1</public><samplerate>44100</samplerate><server_description>Anchor reference station</server_description><server_name>Anchor Radio</server_name><server_type>audio/mpeg</server_type><server_url>http://127.0.0.1:8000/</server_url><slow_listeners>0</slow_listeners><source_ip>127.0.0.1</source_ip><stream_start>Sat, 21 Nov 2026 09:01:13 +0000</stream_start><stream_start_iso8601>2026-11-21T09:01:13+0000</stream_start_iso8601><title>Anchor Lab - Sine 660</title><total_bytes_read>1118328</total_bytes_read><total_bytes_sent>80242</total_bytes_sent><user_agent>Liquidsoap/2.1.3 (Unix; OCaml 4.13.1)</user_agent></source></icestats>\n';
    const snapshot = server([
      mount('/radio.mp3'),
      mount('/radio.aac', { contentType: 'audio/aac' }),
    ]);
    expect(statsXml(snapshot, '/radio.mp3')).toBe(expected);
  });

  test('sources sorted in byte order; idle mounts left out; unknown fields left out', () => {
    const xml = statsXml(
      server([
        mount('/radio.mp3'),
        mount('/radio-low.mp3', { title: null, audioInfo: null }),
        mount('/radio.aac'),
        mount('/off.mp3', { state: 'idle' }),
      ]),
    );
    expect([...xml.matchAll(/<source mount="([^"]+)"/g)].map((m) => m[1])).toEqual([
      '/radio-low.mp3',
      '/radio.aac',
      '/radio.mp3',
    ]);
    const low = /<source mount="\/radio-low.mp3">.*?<\/source>/.exec(xml)?.[0] ?? '';
    expect(low).not.toContain('<title>');
    expect(low).not.toContain('<audio_info>');
  });

  test('status-json.xsl as captured from Icecast', () => {
    // reference/icecast/status-json.xsl-mount.body
    const expected =
      '{"icestats":{"admin":"anchor@localhost","host":"127.0.0.1","location":"Anchor Lab","server_id":"Icecast 2.4.4","server_start":"Sat, 21 Nov 2026 09:01:10 +0000","server_start_iso8601":"2026-11-21T09:01:10+0000","source":{"audio_info":"channels=2;samplerate=44100;bitrate=128","bitrate":128,"channels":2,"genre":"Test","listener_peak":1,"listeners":1,"listenurl":"http://127.0.0.1:8000/radio.mp3","samplerate":44100,"server_description":"Anchor reference station","server_name":"Anchor Radio","server_type":"audio/mpeg","server_url":"http://127.0.0.1:8000/","stream_start":"Sat, 21 Nov 2026 09:01:13 +0000","stream_start_iso8601":"2026-11-21T09:01:13+0000","title":"Anchor Lab - Sine 660","dummy":null}}}';
    expect(statusJson(server([mount('/radio.mp3')]), '/radio.mp3')).toBe(expected);
    expect(JSON.parse(statusJson(server([]))).icestats).not.toHaveProperty('source');
  });

  test('listclients and iceresponse as captured', () => {
    expect(
      listClientsXml(
        '/radio.mp3',
        [
          {
            id: 22,
            mount: '/radio.mp3',
            ip: '127.0.0.1',
            userAgent: 'anchor-listener-mp3/1.0',
            connectedAt: 1000,
            bytesSent: 0,
            icy: false,
          },
        ],
        3500,
      ),
    ).toBe(
      '<?xml version="1.0"?>\n<icestats><source mount="/radio.mp3"><Listeners>1</Listeners><listener><IP>127.0.0.1</IP><UserAgent>anchor-listener-mp3/1.0</UserAgent><Connected>2</Connected><ID>22</ID></listener></source></icestats>\n',
    );
    expect(iceResponseXml('Metadata update successful', true)).toBe(
      '<?xml version="1.0"?>\n<iceresponse><message>Metadata update successful</message><return>1</return></iceresponse>\n',
    );
  });
});
