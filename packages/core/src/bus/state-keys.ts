/**
 * State keys: the latest value of each, validated on the way in and out. This process keeps
 * the values it wrote, to write them again when the transport comes back.
 */
import { checkOutgoing, describeIssues } from './codec.ts';
import { type BusContext, errorMessage } from './context.ts';
import { BusInvalidMessageError, BusUnavailableError } from './errors.ts';
import { isStateKey, type StateKey, type StateValues, stateSchemas } from './messages.ts';
import type { Transport } from './transport.ts';

export class StateKeys {
  readonly #context: BusContext;
  /** The last value this process set per state key (raw JSON), rewritten after a reconnect. */
  readonly #owned = new Map<StateKey, string>();

  constructor(context: BusContext) {
    this.#context = context;
  }

  async set<K extends StateKey>(key: K, value: StateValues[K]): Promise<void> {
    const transport = this.#context.open(`set state "${key}"`);
    if (!isStateKey(key)) throw new BusInvalidMessageError(`unknown state key "${key}"`);
    const checked = checkOutgoing(stateSchemas[key], value, `value for state "${key}"`);
    const raw = JSON.stringify(checked);
    this.#owned.set(key, raw);
    const log = this.#context.log;
    if (!transport.isConnected()) {
      log.debug({ stateKey: key }, 'bus is disconnected: state kept until it is back');
      return;
    }
    try {
      await transport.setKey(this.#context.names.stateKey(key), raw);
    } catch (error) {
      log.warn({ stateKey: key, err: error }, 'could not write state; will retry on reconnect');
    }
  }

  async get<K extends StateKey>(key: K): Promise<StateValues[K] | null> {
    const transport = this.#context.open(`read state "${key}"`);
    if (!isStateKey(key)) throw new BusInvalidMessageError(`unknown state key "${key}"`);
    if (!transport.isConnected()) {
      throw new BusUnavailableError(`cannot read state "${key}": the bus is disconnected`);
    }
    let raw: string | null;
    try {
      raw = await transport.getKey(this.#context.names.stateKey(key));
    } catch (error) {
      throw new BusUnavailableError(`cannot read state "${key}": ${errorMessage(error)}`, {
        cause: error,
      });
    }
    return raw === null ? null : this.#parse(key, raw);
  }

  /** Writes this process's values again, after the transport lost them (a Redis restart). */
  async restore(transport: Transport): Promise<void> {
    const entries = [...this.#owned];
    if (entries.length === 0) return;
    const results = await Promise.allSettled(
      entries.map(([key, raw]) => transport.setKey(this.#context.names.stateKey(key), raw)),
    );
    const failed = results.filter((result) => result.status === 'rejected').length;
    this.#context.log.info(
      { restored: entries.length - failed, failed },
      'state keys written again',
    );
  }

  /** The stored value, or null (and a dropped message) when it is not what the key holds. */
  #parse<K extends StateKey>(key: K, raw: string): StateValues[K] | null {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      this.#context.dropInvalid('state', `state "${key}" is not JSON: ${errorMessage(error)}`, raw);
      return null;
    }
    const parsed = stateSchemas[key].safeParse(json);
    if (!parsed.success) {
      const reason = `invalid state "${key}": ${describeIssues(parsed.error)}`;
      this.#context.dropInvalid('state', reason, raw);
      return null;
    }
    return parsed.data as StateValues[K];
  }
}
