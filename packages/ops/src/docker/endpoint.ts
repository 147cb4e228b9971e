/** Where the Docker engine is, read from DOCKER_HOST (and the TLS variables) like the docker CLI. */
import { readFileSync } from 'node:fs';
import type Docker from 'dockerode';
import { OpsError } from '../errors.ts';

export interface DockerEnv {
  DOCKER_HOST?: string | undefined;
  DOCKER_TLS_VERIFY?: string | undefined;
  DOCKER_CERT_PATH?: string | undefined;
}

/** Where the engine is and how to reach it, with a description for error messages. */
export interface DockerEndpoint {
  /** `unix:///var/run/docker.sock`, `tcp://host:2375`... */
  url: string;
  /** True when DOCKER_HOST chose it. */
  fromEnv: boolean;
  /** The host name published ports are reached on (127.0.0.1 for a local socket). */
  publishedHost: string;
  options: Docker.DockerOptions;
}

const DEFAULT_SOCKET = '/var/run/docker.sock';

// Every option is set, even to undefined: docker-modem merges its own reading of
// process.env.DOCKER_HOST under ours, and that must never win over what we were given.
const BLANK_OPTIONS = {
  socketPath: undefined,
  host: undefined,
  port: undefined,
  protocol: undefined,
} as const;

function localSocket(socketPath: string, fromEnv: boolean): DockerEndpoint {
  return {
    url: `unix://${socketPath}`,
    fromEnv,
    publishedHost: '127.0.0.1',
    options: { ...BLANK_OPTIONS, socketPath },
  };
}

/** DOCKER_HOST as a URL of a protocol Docker speaks over the network. */
function networkUrl(raw: string): URL {
  let url: URL | null;
  try {
    url = new URL(raw.includes('://') ? raw : `tcp://${raw}`);
  } catch {
    url = null;
  }
  if (!url || !['tcp:', 'http:', 'https:', 'ssh:'].includes(url.protocol) || url.hostname === '') {
    throw new OpsError(
      'OPS_DOCKER_UNREACHABLE',
      `DOCKER_HOST=${raw} is not an address Docker understands (unix:///path/to/docker.sock, tcp://host:2375, ssh://user@host)`,
    );
  }
  return url;
}

function sshOptions(url: URL, host: string): Docker.DockerOptions {
  return {
    ...BLANK_OPTIONS,
    protocol: 'ssh',
    host,
    port: url.port || 22,
    username: url.username || undefined,
  };
}

function httpOptions(env: DockerEnv, url: URL, host: string): Docker.DockerOptions {
  const tls = env.DOCKER_TLS_VERIFY === '1' || url.protocol === 'https:' || url.port === '2376';
  const options: Docker.DockerOptions = {
    ...BLANK_OPTIONS,
    protocol: tls ? 'https' : 'http',
    host,
    port: url.port || (tls ? 2376 : 2375),
  };
  if (tls && env.DOCKER_CERT_PATH) {
    try {
      options.ca = readFileSync(`${env.DOCKER_CERT_PATH}/ca.pem`);
      options.cert = readFileSync(`${env.DOCKER_CERT_PATH}/cert.pem`);
      options.key = readFileSync(`${env.DOCKER_CERT_PATH}/key.pem`);
    } catch (error) {
      throw new OpsError(
        'OPS_DOCKER_UNREACHABLE',
        `DOCKER_CERT_PATH=${env.DOCKER_CERT_PATH}: cannot read ca.pem, cert.pem and key.pem (${(error as Error).message})`,
      );
    }
  }
  return options;
}

/** Reads DOCKER_HOST (and the TLS variables) the way the docker CLI does. */
export function dockerEndpoint(env: DockerEnv): DockerEndpoint {
  const raw = env.DOCKER_HOST?.trim();
  if (!raw) return localSocket(DEFAULT_SOCKET, false);
  if (raw.startsWith('unix://')) {
    return localSocket(raw.slice('unix://'.length) || DEFAULT_SOCKET, true);
  }
  const url = networkUrl(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const options = url.protocol === 'ssh:' ? sshOptions(url, host) : httpOptions(env, url, host);
  return { url: raw, fromEnv: true, publishedHost: host, options };
}
