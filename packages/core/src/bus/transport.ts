/**
 * What the bus engine needs from a transport: publish a string on a channel, receive the
 * strings of the channels it subscribed to, and get/set string keys. Redis and the in-process
 * hub implement it; everything else (validation, request/reply, handlers) lives in the engine.
 */
export interface Transport {
  readonly kind: 'redis' | 'memory';
  /** Messages can be published and received now. */
  isConnected(): boolean;
  /** Calls `listener` on every change of `isConnected()`; returns the function that stops it. */
  onConnectionChange(listener: (connected: boolean) => void): () => void;
  /** The channels and their listener are fixed when the transport is created. */
  publish(channel: string, data: string): Promise<void>;
  getKey(key: string): Promise<string | null>;
  setKey(key: string, value: string): Promise<void>;
  close(): Promise<void>;
}

/** A channel's listener; called with each message in the order the transport received them. */
export type ChannelListener = (data: string) => void;

/** Channel and key names under an optional prefix (tests use one so parallel runs stay apart). */
export interface BusNames {
  events: string;
  commands: string;
  /** Reply channels start with this; the handler side refuses to answer anywhere else. */
  replyPrefix: string;
  stateKey(key: string): string;
}

export function busNames(prefix = ''): BusNames {
  return {
    events: `${prefix}radio:events`,
    commands: `${prefix}radio:commands`,
    replyPrefix: `${prefix}radio:reply:`,
    stateKey: (key) => `${prefix}radio:state:${key}`,
  };
}
