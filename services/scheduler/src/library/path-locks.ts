/** Jobs on one path run one after another: one file is never indexed twice at once. */
export class PathLocks {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `job` after every earlier job on the same path, whether those failed or not. */
  run<T>(path: string, job: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(path) ?? Promise.resolve();
    const run = previous.then(job, job);
    const tail = run.catch(() => {});
    this.#tails.set(path, tail);
    void tail.then(() => {
      if (this.#tails.get(path) === tail) this.#tails.delete(path);
    });
    return run;
  }

  /** Resolves once every job started so far has settled. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#tails.values()]);
  }
}
