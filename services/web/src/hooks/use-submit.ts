import { useState } from 'react';
import { describeError } from '../api/errors.ts';

/**
 * What a form that sends something shows: `busy` while `run`'s work goes on, and the error in
 * words when it fails. `setError` says what is wrong before anything is sent.
 */
export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (work: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (reason) {
      setError(describeError(reason));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}
