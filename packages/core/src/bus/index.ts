export type {
  Bus,
  BusHealth,
  BusOptionsBase,
  CommandHandler,
  CommandHandlers,
  EventHandler,
  RequestOptions,
} from './bus.ts';
export { DEFAULT_REQUEST_TIMEOUT_MS } from './bus.ts';
export {
  BusClosedError,
  BusError,
  BusHandlerConflictError,
  BusInvalidMessageError,
  BusTimeoutError,
  BusUnavailableError,
  CommandFailedError,
} from './errors.ts';
export {
  createMemoryBus,
  createMemoryHub,
  type MemoryBusOptions,
  type MemoryHub,
} from './memory-bus.ts';
export * from './messages.ts';
export { createRedisBus, type RedisBusOptions } from './redis-bus.ts';
