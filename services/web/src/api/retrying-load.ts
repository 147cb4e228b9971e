export interface RetryingLoadOptions<T> {
  load: () => Promise<T>;
  onData: (data: T) => void;
  /** A load failed (the next try is scheduled unless stopped). */
  onError: (error: unknown) => void;
  /** The wait after the first failure (ms); it doubles with each failure in a row. */
  minDelayMs?: number;
  /** The longest wait between tries (ms). */
  maxDelayMs?: number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export interface RetryingLoad {
  /** Loads now (calls while one is under way share it); a failure schedules the next try. */
  run(): Promise<void>;
  /** Drops the pending try and schedules none until `run` is called again. */
  stop(): void;
}

/**
 * A load that tries again after a failure (a network blip, the api restarting), waiting longer
 * each time up to a limit, until it gets an answer.
 */
export function retryingLoad<T>(options: RetryingLoadOptions<T>): RetryingLoad {
  const minDelay = options.minDelayMs ?? 1000;
  const maxDelay = options.maxDelayMs ?? 15_000;
  const setTimer = options.setTimer ?? ((run: () => void, ms: number) => setTimeout(run, ms));
  const clearTimer =
    options.clearTimer ??
    ((timer: unknown) => clearTimeout(timer as ReturnType<typeof setTimeout>));

  let delay = minDelay;
  let timer: unknown = null;
  let inflight: Promise<void> | null = null;
  let stopped = false;

  const cancelRetry = () => {
    if (timer === null) return;
    clearTimer(timer);
    timer = null;
  };

  const run = (): Promise<void> => {
    stopped = false;
    inflight ??= options
      .load()
      .then(
        (data) => {
          cancelRetry();
          delay = minDelay;
          options.onData(data);
        },
        (error: unknown) => {
          const wait = delay;
          delay = Math.min(maxDelay, delay * 2);
          cancelRetry();
          if (!stopped) {
            timer = setTimer(() => {
              timer = null;
              void run();
            }, wait);
          }
          options.onError(error);
        },
      )
      .finally(() => {
        inflight = null;
      });
    return inflight;
  };

  return {
    run,
    stop() {
      stopped = true;
      cancelRetry();
      delay = minDelay;
    },
  };
}
