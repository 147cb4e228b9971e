/**
 * The rotation: every playable track once per round in shuffled order, so nothing repeats
 * until everything has played. A new round puts the most recently played tracks last, so a
 * round boundary does not bring back what was just heard.
 */
export class Rotation {
  readonly #random: () => number;
  readonly #recentLimit: number;
  readonly #tracks = new Set<number>();
  #bag: number[] = [];
  readonly #recent: number[] = [];

  constructor(options: { random?: () => number; recentLimit?: number } = {}) {
    this.#random = options.random ?? Math.random;
    this.#recentLimit = options.recentLimit ?? 20;
  }

  get size(): number {
    return this.#tracks.size;
  }

  add(id: number): void {
    if (this.#tracks.has(id)) return;
    this.#tracks.add(id);
    // A track that joins mid-round gets a random place in what is left of it.
    const at = Math.floor(this.#random() * (this.#bag.length + 1));
    this.#bag.splice(at, 0, id);
  }

  remove(id: number): void {
    if (!this.#tracks.delete(id)) return;
    this.#bag = this.#bag.filter((item) => item !== id);
  }

  /** Records a track that went on air by any route: it leaves this round and counts as recent. */
  played(id: number): void {
    this.#bag = this.#bag.filter((item) => item !== id);
    const at = this.#recent.indexOf(id);
    if (at >= 0) this.#recent.splice(at, 1);
    this.#recent.push(id);
    if (this.#recent.length > this.#recentLimit) this.#recent.shift();
  }

  /**
   * Takes the next track of the round, not one of `avoid` when another is left; null when the
   * rotation is empty.
   */
  next(avoid: ReadonlySet<number> = new Set()): number | null {
    if (this.#tracks.size === 0) return null;
    if (this.#bag.length === 0) this.#refill();
    let index = this.#bag.findIndex((id) => !avoid.has(id));
    if (index < 0 && avoid.size > 0) {
      // Everything left in this round is to be avoided: try a fresh round before giving in.
      if (this.#bag.length < this.#tracks.size) {
        this.#refill();
        index = this.#bag.findIndex((id) => !avoid.has(id));
      }
      if (index < 0) index = 0;
    }
    const [id] = this.#bag.splice(index, 1);
    return id ?? null;
  }

  #refill(): void {
    const all = [...this.#tracks];
    for (let i = all.length - 1; i > 0; i--) {
      const j = Math.floor(this.#random() * (i + 1));
      [all[i], all[j]] = [all[j] as number, all[i] as number];
    }
    // Keep at most half the library out of the front, or a small library could not rotate.
    const window = Math.min(this.#recent.length, Math.floor(all.length / 2));
    const recent = new Set(this.#recent.slice(this.#recent.length - window));
    this.#bag = [...all.filter((id) => !recent.has(id)), ...all.filter((id) => recent.has(id))];
  }
}
