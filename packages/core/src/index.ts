export { AUDIO_EXTENSIONS, isAudioFile } from './audio/extensions.ts';
export * from './audio/frames/index.ts';
export {
  credentialOf,
  DEFAULT_SCRYPT_COST,
  dummyHash,
  hashPassword,
  needsRehash,
  verifyPassword,
} from './auth/passwords.ts';
export * from './bus/index.ts';
export * from './config/index.ts';
export { ConfigError, RadioError } from './errors.ts';
export * from './ffmpeg/index.ts';
export { ChunkedDecoder } from './http/chunked-decoder.ts';
export {
  type ForwardedRequest,
  type ForwardingHeaders,
  isTrustedProxyEntry,
  normalizeAddress,
  TrustedProxies,
  type TrustedProxiesOptions,
} from './http/trusted-proxies.ts';
export { Closers, exitOnSignals, runService, type Service } from './lifecycle.ts';
export {
  componentLogger,
  createLogger,
  fileAndConsoleDestination,
  type Logger,
  type LoggerOptions,
  type ServiceLoggers,
  serviceLoggers,
  silentLogger,
} from './logging/logger.ts';
export { capLine, RotatingFile, type RotatingFileOptions } from './logging/rotating-file.ts';
export * from './media/index.ts';
export * from './metrics/index.ts';
export { localUrl } from './net.ts';
export * from './schedule/index.ts';
export { FailureLimiter, type FailureLimitRule } from './security/failure-limiter.ts';
export { LogThrottle } from './security/log-throttle.ts';
export * from './station/mounts.ts';
export { listenerStreamBase } from './station/public-urls.ts';
