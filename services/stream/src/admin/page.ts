import { createHash } from 'node:crypto';
import { escapeHtml as e } from '../http-reply.ts';
import type { ListenerSnapshot, MountSnapshot, ServerSnapshot } from '../stats.ts';
import { byPath } from './stats-xml.ts';

export interface AdminPageData {
  /** Every mount, idle configured ones included. */
  snapshot: ServerSnapshot;
  listeners: ReadonlyMap<string, ListenerSnapshot[]>;
  /** The running configuration, secrets masked. */
  config: [string, string][];
  accessLog: string[];
  errorLog: string[];
  /** The result of the action just done (after a redirect). */
  message: string | null;
  now: number;
}

/** Listeners listed per mount; the count says how many more there are. */
const LISTENERS_SHOWN = 200;

function duration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const clock = `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
  return d > 0 ? `${d}d ${clock}` : clock;
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

const STATE_TEXT = { live: 'live', grace: 'source lost: silence', idle: 'no source' } as const;

function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${e(name)}" value="${e(value)}">`;
}

function mountRow(mount: MountSnapshot, all: MountSnapshot[], now: number): string {
  const connected = mount.sourceConnectedAt ?? mount.streamStart;
  const state =
    mount.state === 'grace' && mount.graceEndsAt !== null
      ? `${STATE_TEXT.grace} (${Math.max(0, Math.ceil((mount.graceEndsAt - now) / 1000))} s left)`
      : STATE_TEXT[mount.state];
  const destinations = all.filter(
    (other) =>
      other.path !== mount.path &&
      other.state !== 'idle' &&
      other.contentType === mount.contentType,
  );
  const actions: string[] = [];
  if (mount.state !== 'idle') {
    actions.push(
      `<form method="post" action="/admin/metadata.xsl">${hidden('mount', mount.path)}${hidden('mode', 'updinfo')}<input name="song" aria-label="Title for ${e(mount.path)}" value="${e(mount.title ?? '')}" size="28"> <button>Set title</button></form>`,
    );
    if (destinations.length > 0 && mount.listeners > 0) {
      actions.push(
        `<form method="post" action="/admin/moveclients.xsl">${hidden('mount', mount.path)}<select name="destination" aria-label="Move listeners of ${e(mount.path)} to">${destinations.map((d) => `<option>${e(d.path)}</option>`).join('')}</select> <button>Move listeners</button></form>`,
      );
    }
    if (mount.state === 'live') {
      actions.push(
        `<form method="post" action="/admin/killsource.xsl">${hidden('mount', mount.path)}<button>Kick source</button></form>`,
      );
    }
  }
  return `<tr>
<td class="nowrap"><a href="${e(mount.path)}">${e(mount.path)}</a>${mount.configured ? '' : ' <small>(unconfigured)</small>'}</td>
<td class="state-${mount.state}">${e(state)}</td>
<td>${e(mount.contentType)}${mount.quality ? ` <small>(${e(mount.quality)})</small>` : ''}</td>
<td class="nowrap">${mount.bitrate === null ? '-' : `${mount.bitrate} kbit/s`}</td>
<td data-field="listeners">${mount.listeners}${mount.maxListeners === null ? '' : ` / ${mount.maxListeners}`}</td>
<td>${mount.peak}</td>
<td>${mount.slowListeners}</td>
<td>${connected === null ? '-' : duration(now - connected)}</td>
<td>${mount.title === null ? '<small>none</small>' : e(mount.title)}</td>
<td>${mount.sourceIp ? `${e(mount.sourceIp)}<br><small>${e(mount.userAgent ?? '')}</small>` : '-'}</td>
<td class="actions">${actions.join('')}</td>
</tr>`;
}

function listenerTable(mount: string, listeners: ListenerSnapshot[], now: number): string {
  if (listeners.length === 0) return '';
  const rows = listeners
    .slice(0, LISTENERS_SHOWN)
    .map(
      (l) =>
        `<tr><td>${l.id}</td><td>${e(l.ip)}</td><td>${e(l.userAgent || '-')}</td><td>${duration(now - l.connectedAt)}</td><td>${bytes(l.bytesSent)}</td><td>${l.icy ? 'yes' : 'no'}</td><td><form method="post" action="/admin/killclient.xsl">${hidden('mount', mount)}${hidden('id', String(l.id))}<button>Kick</button></form></td></tr>`,
    )
    .join('\n');
  const more =
    listeners.length > LISTENERS_SHOWN
      ? `<p>and ${listeners.length - LISTENERS_SHOWN} more (all of them: <a href="/admin/listclients?mount=${encodeURIComponent(mount)}">listclients</a>)</p>`
      : '';
  return `<h3>${e(mount)} <small>(${listeners.length})</small></h3>
<table><thead><tr><th>ID</th><th>IP</th><th>User agent</th><th>Connected</th><th>Sent</th><th>ICY</th><th></th></tr></thead>
<tbody>${rows}</tbody></table>${more}`;
}

const STYLE = `body{font:15px/1.4 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#f6f6f8}
main{max-width:1200px;margin:0 auto;padding:1rem 1.5rem 3rem}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ccd;padding-bottom:.2rem}
table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #e3e3ea;vertical-align:top}
th{background:#ecedf3;font-weight:600}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}
form{display:inline-block;margin:0 .4rem .3rem 0}button{cursor:pointer}.state-live{color:#176b2c}.state-grace{color:#a15c00}.state-idle{color:#777}
pre{background:#fff;border:1px solid #e3e3ea;padding:.6rem;overflow-x:auto;font-size:12px;white-space:pre-wrap}
.nowrap{white-space:nowrap}.message{background:#e8f3ff;border:1px solid #9cc4ef;padding:.5rem .8rem}small{color:#666}.actions{min-width:18rem}`;

/*
 * Live refresh without a framework: fetch the page every 3 s and swap in its <main>, unless the
 * user is typing in a form. Without JavaScript the <noscript> meta refresh reloads the page.
 */
const SCRIPT = `(function(){var busy=false;setInterval(function(){if(busy||document.hidden)return;var a=document.activeElement;if(a&&a.closest&&a.closest('form')&&a.tagName!=='BUTTON')return;busy=true;fetch('/admin/',{credentials:'same-origin',cache:'no-store'}).then(function(r){return r.ok?r.text():null}).then(function(html){if(!html)return;var next=new DOMParser().parseFromString(html,'text/html').getElementById('admin');var now=document.getElementById('admin');if(next&&now)now.replaceWith(next);}).catch(function(){}).finally(function(){busy=false;});},3000);})();`;

const sha256 = (text: string): string =>
  `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * Sent with every answer under /admin/. The page may run its own inline style and script and
 * fetch and post to this server, nothing else: a title or user agent that slipped past the
 * escaping could not run a script. No site may frame it (a framed page's buttons could be
 * clicked for the admin), and its address does not leak to the links it shows.
 */
export const ADMIN_SECURITY_HEADERS: readonly string[] = [
  `Content-Security-Policy: default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(SCRIPT)}; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
  'X-Frame-Options: DENY',
  'X-Content-Type-Options: nosniff',
  'Referrer-Policy: same-origin',
];

/** `/admin/`: the whole status and every action, readable and usable without JavaScript. */
export function adminPage(data: AdminPageData): string {
  const { snapshot, now } = data;
  const mounts = [...snapshot.mounts].sort(byPath);
  const c = snapshot.counters;
  const listenerSections = mounts
    .map((mount) => listenerTable(mount.path, data.listeners.get(mount.path) ?? [], now))
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Stream server admin</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<noscript><meta http-equiv="refresh" content="10"></noscript>
<style>${STYLE}</style></head>
<body><main id="admin">
<h1>Stream server</h1>
${data.message ? `<p class="message" role="status">${e(data.message)}</p>` : ''}
<h2>Server</h2>
<dl>
<dt>Server</dt><dd>${e(snapshot.serverId)} on ${e(snapshot.host)}</dd>
<dt>Up for</dt><dd>${duration(now - snapshot.serverStart)} (since ${e(new Date(snapshot.serverStart).toISOString())})</dd>
<dt>Listeners</dt><dd data-field="total-listeners">${snapshot.listeners}</dd>
<dt>Sources</dt><dd>${snapshot.sources}</dd>
<dt>Connections</dt><dd>${c.connections} total, ${c.clients} open, ${c.listenerConnections} listeners and ${c.sourceClientConnections} sources since start</dd>
<dt>Slow listeners dropped</dt><dd>${c.slowListeners}</dd>
<dt>Documents</dt><dd><a href="/admin/stats.xml">stats.xml</a> · <a href="/admin/listmounts">listmounts</a> · <a href="/status-json.xsl">status-json.xsl</a> · <a href="/admin/stats.json">stats.json</a> · <a href="/health">health</a></dd>
</dl>
<h2>Mounts</h2>
<table><thead><tr><th>Mount</th><th>Status</th><th>Format</th><th>Bitrate</th><th>Listeners</th><th>Peak</th><th>Slow</th><th>Connected</th><th>Title</th><th>Source</th><th>Manage</th></tr></thead>
<tbody>${mounts.map((mount) => mountRow(mount, mounts, now)).join('\n')}</tbody></table>
<h2>Listeners</h2>
${listenerSections || '<p>No listeners.</p>'}
<h2>Configuration</h2>
<table><tbody>${data.config.map(([key, value]) => `<tr><th>${e(key)}</th><td>${e(value)}</td></tr>`).join('')}</tbody></table>
<h2>Access log</h2>
<pre>${data.accessLog.map(e).join('\n') || 'empty'}</pre>
<h2>Error log</h2>
<pre>${data.errorLog.map(e).join('\n') || 'empty'}</pre>
</main>
<script>${SCRIPT}</script>
</body></html>
`;
}
