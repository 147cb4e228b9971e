import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

const ICECAST_BINARY = '/usr/bin/icecast2';

/** A relay in the Icecast configuration: `remote` on the server at `port` becomes `local`. */
export interface IcecastRelay {
  port: number;
  remote: string;
  local: string;
}

export interface IcecastOptions {
  sourcePassword: string;
  adminUser: string;
  adminPassword: string;
  /** Mounts Icecast pulls from another server (`<relay>`, always on, with ICY titles). */
  relays?: readonly IcecastRelay[];
}

async function userIds(name: string): Promise<{ uid: number; gid: number } | null> {
  const passwd = await readFile('/etc/passwd', 'utf8').catch(() => '');
  const line = passwd.split('\n').find((l) => l.startsWith(`${name}:`));
  if (!line) return null;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function groupName(gid: number): Promise<string | undefined> {
  const groups = await readFile('/etc/group', 'utf8').catch(() => '');
  return groups
    .split('\n')
    .map((line) => line.split(':'))
    .find((parts) => Number(parts[2]) === gid)?.[0];
}

function relayXml(relays: readonly IcecastRelay[]): string {
  return relays
    .map(
      (relay) =>
        `<relay><server>127.0.0.1</server><port>${relay.port}</port><mount>${relay.remote}</mount><local-mount>${relay.local}</local-mount><on-demand>0</on-demand><relay-shoutcast-metadata>1</relay-shoutcast-metadata></relay>`,
    )
    .join('\n  ');
}

/**
 * The real Icecast 2.4 from the Debian package, on a free loopback port, for tests and the
 * benchmarks. It refuses to run as root, so the config drops to the `icecast2` user. `start`
 * resolves null when this machine cannot run it (no binary, no user, not root).
 */
export class RealIcecast {
  readonly port: number;
  readonly url: string;
  readonly #dir: string;
  readonly #config: string;
  #child: ChildProcess | null = null;

  private constructor(port: number, dir: string, config: string) {
    this.port = port;
    this.url = `http://127.0.0.1:${port}`;
    this.#dir = dir;
    this.#config = config;
  }

  static async start(options: IcecastOptions): Promise<RealIcecast | null> {
    const ids = await userIds('icecast2');
    const binary = await readFile(ICECAST_BINARY).then(
      () => true,
      () => false,
    );
    if (!ids || !binary || process.getuid?.() !== 0) return null;
    const dir = await mkdtemp(join(tmpdir(), 'icecast-'));
    await chmod(dir, 0o755);
    const logs = join(dir, 'log');
    await mkdir(logs);
    await chown(logs, ids.uid, ids.gid);
    const port = await freePort();
    const config = join(dir, 'icecast.xml');
    await writeFile(
      config,
      `<icecast>
  <location>Test</location><admin>test@localhost</admin>
  <limits><clients>100</clients><sources>10</sources><queue-size>524288</queue-size>
    <client-timeout>30</client-timeout><header-timeout>15</header-timeout>
    <source-timeout>10</source-timeout><burst-on-connect>1</burst-on-connect>
    <burst-size>65535</burst-size></limits>
  <authentication>
    <source-password>${options.sourcePassword}</source-password>
    <relay-password>${options.sourcePassword}</relay-password>
    <admin-user>${options.adminUser}</admin-user>
    <admin-password>${options.adminPassword}</admin-password>
  </authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>${port}</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <fileserve>1</fileserve>
  ${relayXml(options.relays ?? [])}
  <paths><basedir>/usr/share/icecast2</basedir><logdir>${logs}</logdir>
    <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>3</loglevel></logging>
  <security><chroot>0</chroot><changeowner><user>icecast2</user><group>${(await groupName(ids.gid)) ?? 'icecast'}</group></changeowner></security>
</icecast>
`,
    );
    const icecast = new RealIcecast(port, dir, config);
    await icecast.#launch();
    return icecast;
  }

  async #launch(): Promise<void> {
    const child = spawn(ICECAST_BINARY, ['-c', this.#config], { stdio: 'ignore' });
    this.#child = child;
    const deadline = Date.now() + 10_000;
    for (;;) {
      const up = await fetch(`${this.url}/status-json.xsl`).then(
        (res) => res.ok,
        () => false,
      );
      if (up) return;
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`icecast2 did not start (exit ${child.exitCode})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Stops Icecast (SIGTERM, then SIGKILL) and waits for it. */
  async kill(): Promise<void> {
    const child = this.#child;
    this.#child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  /** Stops and starts it again on the same port. */
  async restart(downMs = 300): Promise<void> {
    await this.kill();
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.#launch();
  }

  async stop(): Promise<void> {
    await this.kill();
    await rm(this.#dir, { recursive: true, force: true });
  }
}
