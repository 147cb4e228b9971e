/**
 * Events: publishing them (dropped, and counted, while the transport is down) and handing each
 * received one to the subscribers that want its type.
 */
import { randomUUID } from 'node:crypto';
import type { EventHandler } from './bus.ts';
import { checkOutgoing, decodeEvent } from './codec.ts';
import type { BusContext } from './context.ts';
import { BusInvalidMessageError } from './errors.ts';
import {
  type EventPayloads,
  type EventType,
  eventPayloadSchemas,
  isEventType,
} from './messages.ts';

interface EventSubscription {
  handler: EventHandler;
  types: ReadonlySet<EventType> | null;
}

export class EventFanout {
  readonly #context: BusContext;
  readonly #subscriptions = new Set<EventSubscription>();
  #dropped = 0;
  #dropStreak = 0;

  constructor(context: BusContext) {
    this.#context = context;
  }

  /** Events not published because the transport was down. */
  get dropped(): number {
    return this.#dropped;
  }

  async publish<T extends EventType>(type: T, payload: EventPayloads[T]): Promise<void> {
    const transport = this.#context.open(`publish "${type}"`);
    if (!isEventType(type)) throw new BusInvalidMessageError(`unknown event type "${type}"`);
    const checked = checkOutgoing(
      eventPayloadSchemas[type],
      payload,
      `payload for event "${type}"`,
    );
    const raw = JSON.stringify({ type, id: randomUUID(), ts: Date.now(), payload: checked });
    if (!transport.isConnected()) {
      this.#drop(type, null);
      return;
    }
    try {
      await transport.publish(this.#context.names.events, raw);
    } catch (error) {
      this.#drop(type, error);
      return;
    }
    this.endDropStreak();
  }

  subscribe(handler: EventHandler, types: readonly EventType[] | undefined): () => void {
    this.#context.open('subscribe to events');
    if (types !== undefined) {
      for (const type of types) {
        if (!isEventType(type)) throw new TypeError(`unknown event type "${type}"`);
      }
    }
    const subscription: EventSubscription = { handler, types: types ? new Set(types) : null };
    this.#subscriptions.add(subscription);
    return () => {
      this.#subscriptions.delete(subscription);
    };
  }

  receive(raw: string): void {
    const event = this.#context.accept('event', raw, decodeEvent);
    if (!event) return;
    for (const subscription of [...this.#subscriptions]) {
      // A handler may unsubscribe another one while this event is being delivered.
      if (!this.#subscriptions.has(subscription)) continue;
      if (subscription.types && !subscription.types.has(event.type)) continue;
      try {
        const done = subscription.handler(event);
        if (done instanceof Promise) {
          done.catch((error: unknown) => this.#handlerFailed(event.type, event.id, error));
        }
      } catch (error) {
        this.#handlerFailed(event.type, event.id, error);
      }
    }
  }

  /** Publishing works again: says how many events were lost since it stopped. */
  endDropStreak(): void {
    if (this.#dropStreak === 0) return;
    this.#context.log.info({ dropped: this.#dropStreak }, 'publishing events again');
    this.#dropStreak = 0;
  }

  clear(): void {
    this.#subscriptions.clear();
  }

  #handlerFailed(type: EventType, id: string, error: unknown): void {
    this.#context.log.error({ err: error, eventType: type, eventId: id }, 'event handler failed');
  }

  #drop(type: EventType, error: unknown): void {
    this.#dropped += 1;
    this.#dropStreak += 1;
    if (this.#dropStreak === 1) {
      this.#context.log.warn(
        { eventType: type, err: error ?? undefined },
        'bus unreachable: dropping events until it is back',
      );
    }
  }
}
