import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@radio/core/testing';

/** The file operators copy: the test runs it with only the lines marked EDIT filled in. */
export const NGINX_CONF = resolve(
  fileURLToPath(new URL('../../../../docker/nginx/radio.conf', import.meta.url)),
);

export interface NginxPlaces {
  /** Where the HTTPS and the plain HTTP servers listen, on loopback. */
  readonly httpsPort: number;
  readonly httpPort: number;
  readonly certPath: string;
  readonly keyPath: string;
  /** `127.0.0.1:port` of the web server and of the stream server. */
  readonly web: string;
  readonly stream: string;
}

/** A line of radio.conf with its value swapped, failing loudly when the file has no such line. */
function swap(text: string, pattern: RegExp, replacement: string): string {
  if (!pattern.test(text)) throw new Error(`radio.conf has no line matching ${pattern}`);
  return text.replace(pattern, replacement);
}

/** radio.conf with the test's ports, certificate and upstreams where an operator would EDIT. */
export function templated(conf: string, places: NginxPlaces): string {
  let text = conf;
  text = swap(text, /listen 80;/, `listen 127.0.0.1:${places.httpPort};`);
  text = swap(text, /listen \[::\]:80;/, `listen [::1]:${places.httpPort};`);
  text = swap(text, /listen 443 /, `listen 127.0.0.1:${places.httpsPort} `);
  text = swap(text, /listen \[::\]:443 /, `listen [::1]:${places.httpsPort} `);
  text = swap(text, /ssl_certificate \S+;/, `ssl_certificate ${places.certPath};`);
  text = swap(text, /ssl_certificate_key \S+;/, `ssl_certificate_key ${places.keyPath};`);
  text = swap(text, /server 127\.0\.0\.1:8080;/, `server ${places.web};`);
  text = swap(text, /server 127\.0\.0\.1:8000;/, `server ${places.stream};`);
  return text;
}

/** The rest of an nginx.conf around radio.conf, with every path inside `dir`. */
function mainConf(dir: string): string {
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  return [
    // Workers of a master started by root would run as nobody, who cannot read `dir`.
    process.getuid?.() === 0 ? 'user root root;' : '',
    'worker_processes 1;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} warn;`,
    'events { worker_connections 512; }',
    'http {',
    `  access_log ${join(dir, 'access.log')};`,
    `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
    `  include ${join(dir, 'radio.conf')};`,
    '}',
  ].join('\n');
}

export interface RunningNginx {
  readonly errorLog: string;
  stop(): Promise<void>;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  // QUIT: a graceful stop; the proxied streams end with it.
  child.kill('SIGQUIT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Debian's nginx in the foreground with radio.conf, ready once the HTTPS port accepts. */
export async function startNginx(dir: string, places: NginxPlaces): Promise<RunningNginx> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'radio.conf'), templated(await readFile(NGINX_CONF, 'utf8'), places));
  await writeFile(join(dir, 'nginx.conf'), mainConf(dir));
  const errorLog = join(dir, 'error.log');
  const args = ['-p', dir, '-e', errorLog, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'];
  const child = spawn('nginx', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  try {
    await waitFor('nginx to listen', async () => {
      if (child.exitCode !== null) {
        const log = await readFile(errorLog, 'utf8').catch(() => '');
        throw new Error(`nginx exited (${child.exitCode}): ${stderr}${log}`);
      }
      return portOpen(places.httpsPort);
    });
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { errorLog, stop: () => stopProcess(child) };
}
