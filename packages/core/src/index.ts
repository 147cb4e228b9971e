export * from './config/index.ts';
export { ConfigError, RadioError } from './errors.ts';
export * from './ffmpeg/index.ts';
export {
  componentLogger,
  createLogger,
  type Logger,
  type LoggerOptions,
  silentLogger,
} from './logger.ts';
