import { AMPLIFY_MAX, AMPLIFY_MIN, type Logger } from '@radio/core';
import type { Amplifier } from './operators/amplify.ts';
import type { SettingsRepository } from './repositories/settings-repository.ts';

const KEY = 'amplify';

/** The amplify level: applied to the playout at once and kept in `settings` across restarts. */
export class AmplifySetting {
  readonly #amplifier: Amplifier;
  readonly #settings: SettingsRepository;
  readonly #log: Logger;
  readonly #listeners = new Set<(value: number) => void>();

  constructor(amplifier: Amplifier, settings: SettingsRepository, logger: Logger) {
    this.#amplifier = amplifier;
    this.#settings = settings;
    this.#log = logger;
  }

  get value(): number {
    return this.#amplifier.gain;
  }

  /** Restores the stored level (1 when none, or when the stored one is not usable). */
  async load(): Promise<void> {
    const stored = await this.#settings.get(KEY);
    if (typeof stored === 'number' && stored >= AMPLIFY_MIN && stored <= AMPLIFY_MAX) {
      this.#amplifier.gain = stored;
      this.#log.info({ amplify: stored }, 'amplify restored');
    }
  }

  onChange(listener: (value: number) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Applies first (heard within one clock tick), then stores. */
  async set(value: number): Promise<void> {
    this.#amplifier.gain = value;
    for (const listener of this.#listeners) listener(value);
    await this.#settings.set(KEY, value);
  }
}
