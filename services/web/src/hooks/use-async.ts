import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';

export interface AsyncState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Runs the request again (keeps showing the old data meanwhile). */
  reload: () => void;
  /** Replaces the data, e.g. with what a change request answered. */
  setData: (update: T | ((previous: T | undefined) => T)) => void;
}

/**
 * Runs `load` when `deps` change and keeps its result; the previous request is aborted, so a
 * slow answer to an old search never replaces the newer one.
 */
export function useAsync<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: DependencyList,
): AsyncState<T> {
  const [data, setDataState] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [nonce, setNonce] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps decide when to load
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    loadRef.current(controller.signal).then(
      (value) => {
        if (controller.signal.aborted) return;
        setDataState(value);
        setError(null);
        setLoading(false);
      },
      (reason: unknown) => {
        if (controller.signal.aborted) return;
        setError(reason);
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [...deps, nonce]);

  const reload = useCallback(() => setNonce((n) => n + 1), []);
  const setData = useCallback((update: T | ((previous: T | undefined) => T)) => {
    setDataState((previous) =>
      typeof update === 'function' ? (update as (p: T | undefined) => T)(previous) : update,
    );
  }, []);
  return { data, error, loading, reload, setData };
}
