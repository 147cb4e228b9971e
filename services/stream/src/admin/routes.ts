import { isUtf8 } from 'node:buffer';
import { checkAdminAuth, checkSourceAuth } from '../auth.ts';
import { isStreamErrorCode, StreamError } from '../errors.ts';
import { errorReply, loginLimitedReply, type Reply } from '../http-reply.ts';
import { edgeReportReply } from '../relay/edge-route.ts';
import type { AdminActions } from './actions.ts';
import { ADMIN_SECURITY_HEADERS, adminPage } from './page.ts';
import {
  iceResponseXml,
  listClientsXml,
  listMountsXml,
  moveClientsXml,
  statsXml,
} from './stats-xml.ts';

/** A request under /admin/, its query and (for POST forms) body parameters merged. */
export interface AdminRequest {
  method: string;
  /** The command: the path after `/admin/` (`stats.xml`, `metadata`, `killclient.xsl` ...). */
  command: string;
  params: URLSearchParams;
  /** The raw query (and form body), for parameters whose bytes matter (`song` with `charset`). */
  rawQuery: string;
  authorization: string | undefined;
  /** The client's address (trusted proxies accounted for): failed logins count per client. */
  client: string;
  /**
   * `Origin` (else `Referer`), `Sec-Fetch-Site` and the Host asked for (a trusted proxy's
   * X-Forwarded-Host first), to refuse what another site's page makes a browser send.
   */
  origin: string | undefined;
  host: string | undefined;
  fetchSite: string | undefined;
}

/** A command as the handlers see it; `html` is its `.xsl` form (the admin page's forms). */
interface Command {
  req: AdminRequest;
  actions: AdminActions;
  html: boolean;
}

/** A command on one mount, named by `mount=` and known to have a source. */
interface MountCommand extends Command {
  path: string;
}

const XML = 'text/xml; charset=utf-8';

function xml(body: string): Reply {
  return { status: 200, contentType: XML, body, length: true };
}

/** Commands about the whole server. */
const SERVER_COMMANDS = new Map<string, (command: Command) => Reply>([
  ['', stats],
  ['index.html', stats],
  ['stats', stats],
  ['stats.xml', stats],
  ['stats.json', ({ actions }) => statsJson(actions)],
  ['listmounts', listMounts],
  [
    'edge-listeners',
    ({ req, actions }) => edgeReportReply(req.method, req.params.get('report'), actions.edges),
  ],
]);

/** Commands on one mount. */
const MOUNT_COMMANDS = new Map<string, (command: MountCommand) => Reply>([
  ['listclients', listClients],
  ['moveclients', moveClients],
  ['killclient', killClient],
  ['killsource', killSource],
  ['metadata', metadata],
  ['updatemetadata', updateMetadata],
]);

/**
 * Commands that change what the server does (titles, sources, listeners, the edges' counts):
 * refused when another site's page is behind the request, whatever its method, since a link
 * or an image on any page makes the browser send a GET with the admin's credentials.
 */
const STATE_CHANGING = new Set([
  'metadata',
  'killsource',
  'moveclients',
  'killclient',
  'edge-listeners',
]);

/** Whether `command` (the path after /admin/) names a command: for bounded metric labels. */
export function isAdminCommand(command: string): boolean {
  const base = command.endsWith('.xsl') ? command.slice(0, -4) : command;
  return SERVER_COMMANDS.has(base) || MOUNT_COMMANDS.has(base);
}

/**
 * Icecast's admin commands. A command with `.xsl` is the HTML form of it in Icecast; here the
 * HTML is the one admin page, so those do the action and redirect back to it with the result,
 * which makes the page's forms work without JavaScript. Every answer carries the page's
 * security headers.
 */
export function handleAdmin(req: AdminRequest, actions: AdminActions): Reply {
  const reply = answer(req, actions);
  return { ...reply, late: [...(reply.late ?? []), ...ADMIN_SECURITY_HEADERS] };
}

function answer(req: AdminRequest, actions: AdminActions): Reply {
  const command = req.command;
  const base = command.endsWith('.xsl') ? command.slice(0, -4) : command;
  const html = command.endsWith('.xsl') || command === '' || command === 'index.html';
  const refusal = checkLogin(req, base, actions);
  if (refusal !== null) return refusal;
  if ((req.method === 'POST' || STATE_CHANGING.has(base)) && isCrossSite(req)) {
    actions.logs.refusal('admin', 'cross-site admin request refused', req.client, {
      command: base,
    });
    return errorReply('ADMIN_CROSS_SITE');
  }
  try {
    const serverCommand = SERVER_COMMANDS.get(base);
    if (serverCommand) return serverCommand({ req, actions, html });
    const mountCommand = MOUNT_COMMANDS.get(base);
    if (!mountCommand) return errorReply('ADMIN_UNKNOWN_COMMAND');
    const path = req.params.get('mount');
    if (!path) return errorReply('ADMIN_UNKNOWN_REQUEST');
    if (actions.activeMount(path) === null) return errorReply('ADMIN_NO_SUCH_SOURCE');
    return mountCommand({ req, actions, html, path });
  } catch (error) {
    if (error instanceof StreamError && isStreamErrorCode(error.code))
      return errorReply(error.code);
    throw error;
  }
}

/**
 * The credentials, within the failure limit: null when the request may go on. A client with
 * too many failures is refused until its window ends, even with the right password, or
 * guessing could go on and tell a right guess by its answer.
 */
function checkLogin(req: AdminRequest, base: string, actions: AdminActions): Reply | null {
  const { options, logins } = actions;
  const wait = logins.blockedFor(req.client);
  if (wait > 0) {
    actions.logs.refusal('admin', 'too many failed logins: refused', req.client);
    return loginLimitedReply(wait);
  }
  const isAdmin = checkAdminAuth(req.authorization, options.adminUser, options.adminPassword);
  // Title updates also take the source credentials: encoders (Liquidsoap, ffmpeg scripts)
  // send them with what they use to stream.
  const mayUpdateMetadata =
    base === 'metadata' && checkSourceAuth(req.authorization, options.sourcePassword);
  if (isAdmin || mayUpdateMetadata) {
    logins.succeed(req.client);
    return null;
  }
  // A first request without credentials is how a browser asks for the login box.
  if (req.authorization !== undefined) logins.fail(req.client);
  return errorReply('STREAM_AUTH_REQUIRED');
}

function stats({ req, actions, html }: Command): Reply {
  if (html) return page(actions, req.params.get('message'));
  const only = req.params.get('mount');
  const snapshot = actions.snapshot(false);
  if (only !== null && !snapshot.mounts.some((m) => m.path === only && m.state !== 'idle')) {
    return errorReply('ADMIN_NO_SUCH_SOURCE');
  }
  return xml(statsXml(snapshot, only ?? undefined));
}

/** Our own JSON of everything the page shows (for scripts and the page's live refresh). */
function statsJson(actions: AdminActions): Reply {
  const snapshot = actions.snapshot(true);
  const body = JSON.stringify({
    serverId: snapshot.serverId,
    serverStart: new Date(snapshot.serverStart).toISOString(),
    listeners: snapshot.listeners,
    sources: snapshot.sources,
    counters: { ...snapshot.counters },
    mounts: snapshot.mounts,
  });
  return { status: 200, contentType: 'application/json; charset=utf-8', body, length: true };
}

function listMounts({ req, actions, html }: Command): Reply {
  if (req.params.has('mount')) return errorReply('ADMIN_MOUNT_REQUEST_UNKNOWN');
  if (html) return redirect();
  return xml(listMountsXml(actions.snapshot(false).mounts.filter((m) => m.state !== 'idle')));
}

/** The answer to a mount action: back to the page with the message, or Icecast's XML. */
function done({ html }: Command, message: string, ok: boolean): Reply {
  return html ? redirect(message) : xml(iceResponseXml(message, ok));
}

function listClients({ actions, html, path }: MountCommand): Reply {
  if (html) return redirect();
  return xml(listClientsXml(path, actions.listeners(path)));
}

function updateMetadata({ html, path }: MountCommand): Reply {
  if (html) return redirect();
  return xml(`<?xml version="1.0"?>\n<icestats><source mount="${escapeAttr(path)}"/></icestats>\n`);
}

function moveClients(command: MountCommand): Reply {
  const { req, actions, html, path } = command;
  const destination = req.params.get('destination');
  if (!destination) {
    if (html) return redirect();
    const others = actions
      .snapshot(false)
      .mounts.filter((m) => m.state !== 'idle' && m.path !== path);
    return xml(moveClientsXml(path, others));
  }
  if (actions.activeMount(destination) === null) return errorReply('ADMIN_NO_SUCH_DESTINATION');
  if (destination === path) return errorReply('ADMIN_SAME_MOUNT');
  actions.moveClients(path, destination);
  return done(command, `Clients moved from ${path} to ${destination}`, true);
}

function killClient(command: MountCommand): Reply {
  const idText = command.req.params.get('id');
  if (idText === null) return errorReply('ADMIN_MISSING_PARAMETER');
  const id = atoi(idText);
  return command.actions.killClient(command.path, id)
    ? done(command, `Client ${id} removed`, true)
    : done(command, `Client ${id} not found`, false);
}

function killSource(command: MountCommand): Reply {
  command.actions.killSource(command.path);
  return done(command, 'Source Removed', true);
}

function metadata(command: MountCommand): Reply {
  const { req, actions, path } = command;
  const mode = req.params.get('mode');
  if (mode === null) return errorReply('ADMIN_MISSING_PARAMETER');
  if (mode !== 'updinfo') return done(command, 'No such action', false);
  const title = metadataTitle(req);
  if (title !== null) actions.setMetadata(path, title, decodedParam(req, 'url') ?? '');
  return done(command, 'Metadata update successful', true);
}

function page(actions: AdminActions, message: string | null): Reply {
  const snapshot = actions.snapshot(true);
  const listeners = new Map(snapshot.mounts.map((m) => [m.path, actions.listeners(m.path)]));
  const body = adminPage({
    snapshot,
    listeners,
    config: actions.configuration(),
    accessLog: actions.logs.recentAccess(),
    errorLog: actions.logs.recentErrors(),
    message,
    now: Date.now(),
  });
  return { status: 200, contentType: 'text/html; charset=utf-8', body, length: true };
}

function redirect(message?: string): Reply {
  const location = message ? `/admin/?message=${encodeURIComponent(message)}` : '/admin/';
  return {
    status: 303,
    contentType: 'text/plain; charset=utf-8',
    early: [`Location: ${location}`],
    body: message ?? '',
    length: true,
  };
}

/**
 * A request another site's page made the browser send (with the admin's credentials): what
 * Sec-Fetch-Site says (`same-site` too: another host of the domain is another program), or,
 * from browsers without it, an Origin or Referer naming another host. Source clients and
 * scripts send none of these.
 */
function isCrossSite(req: AdminRequest): boolean {
  if (req.fetchSite === 'cross-site' || req.fetchSite === 'same-site') return true;
  if (!req.origin || req.origin === 'null' || !req.host) return req.origin === 'null';
  try {
    return new URL(req.origin).host !== req.host;
  } catch {
    return true;
  }
}

/** C's atoi, as Icecast reads the id: leading digits, 0 otherwise. */
function atoi(text: string): number {
  const match = /^\s*([+-]?\d+)/.exec(text);
  return match ? Number.parseInt(match[1] as string, 10) : 0;
}

function escapeAttr(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/** The bytes of a parameter, percent-decoded (`+` is a space), or null if absent. */
export function rawParam(query: string, name: string): Buffer | null {
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    let decodedKey: string;
    try {
      decodedKey = decodeURIComponent(key.replaceAll('+', ' '));
    } catch {
      continue;
    }
    if (decodedKey !== name) continue;
    const value = eq < 0 ? '' : pair.slice(eq + 1).replaceAll('+', ' ');
    const out: number[] = [];
    for (let i = 0; i < value.length; i++) {
      const ch = value.charCodeAt(i);
      if (ch === 0x25 && /^[0-9a-fA-F]{2}$/.test(value.slice(i + 1, i + 3))) {
        out.push(Number.parseInt(value.slice(i + 1, i + 3), 16));
        i += 2;
      } else if (ch < 0x80) {
        out.push(ch);
      } else {
        out.push(...Buffer.from(value[i] as string, 'utf8'));
      }
    }
    return Buffer.from(out);
  }
  return null;
}

/**
 * A text parameter in the charset the client named (`charset=UTF-8` from Liquidsoap,
 * `ISO-8859-1` from old encoders). Without one, valid UTF-8 is UTF-8 and anything else Latin-1:
 * Icecast takes it as Latin-1 and shows UTF-8 titles garbled.
 */
function decodedParam(req: AdminRequest, name: string): string | null {
  const bytes = rawParam(req.rawQuery, name);
  if (bytes === null) return null;
  const charset = req.params.get('charset')?.trim().toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      // An unknown charset name: fall through to the guess.
    }
  }
  return isUtf8(bytes) ? bytes.toString('utf8') : bytes.toString('latin1');
}

/** `song`, else `artist - title`, else `title`; null when the request sets no title. */
function metadataTitle(req: AdminRequest): string | null {
  const song = decodedParam(req, 'song');
  if (song !== null) return song;
  const title = decodedParam(req, 'title');
  if (title === null) return null;
  const artist = decodedParam(req, 'artist');
  return artist ? `${artist} - ${title}` : title;
}
