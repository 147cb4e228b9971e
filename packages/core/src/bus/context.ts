/**
 * What the parts of the bus engine share: the channel names, the logger, the transport once
 * attached, whether the bus is closed, and the count of malformed messages dropped. Each part
 * (events, requests, command handling, state) gets this one object instead of the engine, so
 * none of them imports another.
 */
import type { Logger } from '../logging/logger.ts';
import { type Decoded, excerpt } from './codec.ts';
import { BusClosedError } from './errors.ts';
import type { BusNames, Transport } from './transport.ts';

export type MessageKind = 'event' | 'command' | 'reply' | 'state';

export class BusContext {
  readonly names: BusNames;
  readonly log: Logger;
  #transport: Transport | null = null;
  #closed = false;
  #invalidMessages = 0;

  constructor(names: BusNames, log: Logger) {
    this.names = names;
    this.log = log;
  }

  get transport(): Transport | null {
    return this.#transport;
  }

  set transport(transport: Transport) {
    this.#transport = transport;
  }

  get closed(): boolean {
    return this.#closed;
  }

  markClosed(): void {
    this.#closed = true;
  }

  get invalidMessages(): number {
    return this.#invalidMessages;
  }

  /** The transport, or BusClosedError for an operation on a closed bus. */
  open(operation: string): Transport {
    if (this.#closed || !this.#transport) {
      throw new BusClosedError(`cannot ${operation}: the bus is closed`);
    }
    return this.#transport;
  }

  /** The decoded message, or null when the bus is closed or it is malformed (then dropped). */
  accept<T>(kind: MessageKind, raw: string, decode: (raw: string) => Decoded<T>): T | null {
    if (this.#closed) return null;
    const decoded = decode(raw);
    if (decoded.ok) return decoded.message;
    this.dropInvalid(kind, decoded.reason, raw);
    return null;
  }

  dropInvalid(kind: MessageKind, reason: string, raw: string): void {
    this.#invalidMessages += 1;
    this.log.warn(
      { messageKind: kind, reason, raw: excerpt(raw) },
      'dropped a malformed bus message',
    );
  }
}

export function checkTimeout(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive number of milliseconds, got ${value}`);
  }
  return value;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
