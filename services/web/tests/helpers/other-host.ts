import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { waitFor } from '@radio/core/testing';

/*
 * Another host on this machine's network, for tests that need a peer whose address is not one
 * of the machine's own (the api refuses webhooks to those, as it must). It is a network
 * namespace joined to this one by a veth pair on a private /30: the machine keeps the first
 * address (`hostAddress`), the namespace holds the second (`address`), and a relay in the
 * namespace pipes a port of `address` to a server that listens on `hostAddress`. Needs root
 * and iproute2's `ip`.
 */

const run = promisify(execFile);
const RELAY = fileURLToPath(new URL('./tcp-relay.ts', import.meta.url));

export interface OtherHost {
  /** The machine's end of the link: a server listening here is what the other host reaches. */
  readonly hostAddress: string;
  /** The other host's address: not one of this machine's. */
  readonly address: string;
  /** Makes `address:port` lead to `hostAddress:port` (one relay per call). */
  forward(port: number): Promise<void>;
  /** Stops the relays and removes the link and the namespace. */
  stop(): Promise<void>;
}

/** The command's error text in one line (`ip` writes its reason to stderr). */
function reason(error: unknown): string {
  const stderr = (error as { stderr?: string }).stderr?.trim();
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT') return "iproute2's ip is not installed";
  return (stderr || String(error)).split('\n')[0] ?? '';
}

async function ip(...args: string[]): Promise<void> {
  await run('ip', args);
}

/** 10.213.0.0/16 cut in /30s, the one picked by `n`: [host side, namespace side]. */
function subnet(n: number): [string, string] {
  const index = n % 16_384;
  const third = index >> 6;
  const fourth = (index & 63) << 2;
  return [`10.213.${third}.${fourth + 1}`, `10.213.${third}.${fourth + 2}`];
}

/** A /30 no route of this machine covers yet (the default route aside), from the pid on. */
async function freeSubnet(): Promise<[string, string]> {
  for (let n = process.pid; n < process.pid + 64; n++) {
    const pair = subnet(n);
    const { stdout } = await run('ip', ['-4', 'route', 'show', 'match', pair[1]]);
    const taken = stdout.split('\n').some((line) => line.trim() && !line.startsWith('default'));
    if (!taken) return pair;
  }
  throw new Error('no free /30 in 10.213.0.0/16 near this pid');
}

/** Removes what `startOtherHost` made; each step may find its part already gone. */
function removeSync(ns: string, hostLink: string): void {
  spawnSync('ip', ['link', 'del', hostLink], { stdio: 'ignore' });
  spawnSync('ip', ['netns', 'del', ns], { stdio: 'ignore' });
}

async function stopRelay(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

async function startRelay(
  ns: string,
  address: string,
  port: number,
  target: string,
): Promise<ChildProcess> {
  const child = spawn(
    'ip',
    ['netns', 'exec', ns, process.execPath, RELAY, address, String(port), target, String(port)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  try {
    await waitFor(`the relay in ${ns} listening on ${address}:${port}`, () => {
      if (child.exitCode !== null) throw new Error(`the relay exited: ${output.trim()}`);
      return output.includes('listening');
    });
  } catch (error) {
    await stopRelay(child);
    throw error;
  }
  return child;
}

/**
 * Creates the namespace `radio-hook-<pid>` and its link. Fails in one line when it cannot (not
 * root, no iproute2), having removed whatever it made.
 */
export async function startOtherHost(): Promise<OtherHost> {
  const ns = `radio-hook-${process.pid}`;
  const hostLink = `rhh${process.pid}`;
  const nsLink = `rhn${process.pid}`;
  // A namespace of a killed run whose pid this one reuses.
  removeSync(ns, hostLink);
  const cleanup = () => removeSync(ns, hostLink);
  try {
    await ip('netns', 'add', ns);
  } catch (error) {
    throw new Error(
      `cannot create the network namespace ${ns} (the test needs root and iproute2): ${reason(error)}`,
    );
  }
  process.once('exit', cleanup);
  let hostAddress: string;
  let address: string;
  try {
    [hostAddress, address] = await freeSubnet();
    await ip('link', 'add', hostLink, 'type', 'veth', 'peer', 'name', nsLink, 'netns', ns);
    await ip('addr', 'add', `${hostAddress}/30`, 'dev', hostLink);
    await ip('link', 'set', hostLink, 'up');
    await ip('-n', ns, 'addr', 'add', `${address}/30`, 'dev', nsLink);
    await ip('-n', ns, 'link', 'set', nsLink, 'up');
  } catch (error) {
    cleanup();
    process.off('exit', cleanup);
    throw new Error(`cannot link the network namespace ${ns}: ${reason(error)}`);
  }
  const relays: ChildProcess[] = [];
  return {
    hostAddress,
    address,
    async forward(port) {
      relays.push(await startRelay(ns, address, port, hostAddress));
    },
    async stop() {
      await Promise.all(relays.map(stopRelay));
      cleanup();
      process.off('exit', cleanup);
    },
  };
}
