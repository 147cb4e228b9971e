/**
 * Docker's errors as OpsErrors: a broken connection is OPS_DOCKER_UNREACHABLE with a hint on
 * how to reach the engine, anything else OPS_DOCKER_FAILED with what Docker said.
 */
import { OpsError } from '../errors.ts';
import type { DockerEndpoint } from './endpoint.ts';

/** What dockerode and docker-modem put on the errors they throw. */
interface ErrorWithCode {
  code?: string;
  statusCode?: number;
  json?: { message?: string } | null;
  reason?: string;
  message?: string;
}

const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'EACCES',
  'EPERM',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
]);

const CODE_WORDS: Record<string, string> = {
  ENOENT: 'no socket there',
  ECONNREFUSED: 'connection refused',
  EACCES: 'permission denied',
  ETIMEDOUT: 'no answer',
  ENOTFOUND: 'unknown host',
  EHOSTUNREACH: 'host unreachable',
};

export function isNotFound(error: unknown): boolean {
  return (error as ErrorWithCode)?.statusCode === 404;
}

export function unreachable(endpoint: DockerEndpoint, error: unknown): OpsError {
  const code = (error as ErrorWithCode)?.code;
  const words = code ? CODE_WORDS[code] : undefined;
  const detail =
    code && words ? `${words} (${code})` : (code ?? (error as Error)?.message ?? String(error));
  const how =
    code === 'EACCES'
      ? 'permission denied on the socket: run as root or add your user to the docker group'
      : endpoint.fromEnv
        ? 'check DOCKER_HOST (unset it to use the local socket /var/run/docker.sock)'
        : 'is dockerd running? (systemctl start docker, or dockerd &); set DOCKER_HOST to reach another engine';
  return new OpsError(
    'OPS_DOCKER_UNREACHABLE',
    `Docker is not reachable at ${endpoint.url}${endpoint.fromEnv ? ' (from DOCKER_HOST)' : ''}: ${detail}; ${how}`,
    { cause: error },
  );
}

/** A failed engine call: unreachable if the connection broke, else what Docker said. */
export function dockerFailure(endpoint: DockerEndpoint, what: string, error: unknown): OpsError {
  if (error instanceof OpsError) return error;
  const info = error as ErrorWithCode;
  if (info?.code && CONNECTION_ERRORS.has(info.code)) return unreachable(endpoint, error);
  const said = info?.json?.message ?? info?.reason ?? info?.message ?? String(error);
  return new OpsError('OPS_DOCKER_FAILED', `${what}: ${said}`, { cause: error });
}
