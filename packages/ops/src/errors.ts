import { RadioError } from '@radio/core';

/**
 * Exit codes of radioctl, one per kind of failure, so scripts can tell "Docker is down" from
 * "the stack is not up" from "you typed a wrong name" without parsing messages.
 */
export const EXIT_CODES = {
  ok: 0,
  failed: 1,
  usage: 2,
  dockerUnreachable: 3,
  stackNotRunning: 4,
  unknownService: 5,
  badFile: 6,
} as const;

export type OpsErrorCode =
  | 'OPS_USAGE'
  | 'OPS_DOCKER_UNREACHABLE'
  | 'OPS_STACK_NOT_RUNNING'
  | 'OPS_UNKNOWN_SERVICE'
  | 'OPS_NOT_AUDIO'
  | 'OPS_FILE_NOT_FOUND'
  | 'OPS_FILE_EXISTS'
  | 'OPS_NO_MUSIC_FOLDER'
  | 'OPS_NOT_HEALTHY'
  | 'OPS_NOT_INDEXED'
  | 'OPS_CONTROL_FAILED'
  | 'OPS_STREAM_STATUS_FAILED'
  | 'OPS_DOCKER_FAILED';

const EXIT_BY_CODE: Record<OpsErrorCode, number> = {
  OPS_USAGE: EXIT_CODES.usage,
  OPS_DOCKER_UNREACHABLE: EXIT_CODES.dockerUnreachable,
  OPS_STACK_NOT_RUNNING: EXIT_CODES.stackNotRunning,
  OPS_UNKNOWN_SERVICE: EXIT_CODES.unknownService,
  OPS_NOT_AUDIO: EXIT_CODES.badFile,
  OPS_FILE_NOT_FOUND: EXIT_CODES.badFile,
  OPS_FILE_EXISTS: EXIT_CODES.badFile,
  OPS_NO_MUSIC_FOLDER: EXIT_CODES.failed,
  OPS_NOT_HEALTHY: EXIT_CODES.failed,
  OPS_NOT_INDEXED: EXIT_CODES.failed,
  OPS_CONTROL_FAILED: EXIT_CODES.failed,
  OPS_STREAM_STATUS_FAILED: EXIT_CODES.failed,
  OPS_DOCKER_FAILED: EXIT_CODES.failed,
};

/** Every failure radioctl reports on purpose: a stable code, a message for people, an exit code. */
export class OpsError extends RadioError {
  override readonly code: OpsErrorCode;
  readonly exitCode: number;

  constructor(code: OpsErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, options);
    this.code = code;
    this.exitCode = EXIT_BY_CODE[code];
  }
}

/** Wrong arguments: the message says what, and the usage text follows it. */
export class UsageError extends OpsError {
  /** The command whose usage to show, when it is known. */
  readonly command: string | undefined;

  constructor(message: string, command?: string) {
    super('OPS_USAGE', message);
    this.command = command;
  }
}
