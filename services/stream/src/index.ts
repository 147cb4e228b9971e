export { StreamConfigError, StreamError, type StreamErrorCode } from './errors.ts';
export {
  DEFAULT_MOUNTS,
  type MountOptions,
  type StreamServerOptions,
  streamOptionsFromConfig,
} from './options.ts';
export { createStreamServer, type StreamServer, type StreamServerDeps } from './server.ts';
export type { ListenerSnapshot, MountSnapshot, MountState, ServerSnapshot } from './stats.ts';
