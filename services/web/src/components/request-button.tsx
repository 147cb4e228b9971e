import { useState } from 'react';
import { api } from '../api/client.ts';
import { describeError } from '../api/errors.ts';
import type { RequestSettings } from '../api/types.ts';
import { toast } from '../hooks/use-toast.ts';

/**
 * Asks the station to play a track. Off (with the reason on it) when the station takes no
 * requests; a refusal is the api's own message, which names the rule and its figure.
 */
export function RequestButton({
  track,
  settings,
}: {
  track: { id: number; title: string; status: string };
  settings: RequestSettings | undefined;
}) {
  const [busy, setBusy] = useState(false);
  const off = settings?.enabled === false;
  const unplayable = track.status !== 'ok';
  const reason = off
    ? 'Requests are turned off on this station'
    : unplayable
      ? 'This file cannot be played'
      : 'Ask the station to play this track';

  const request = async () => {
    setBusy(true);
    try {
      await api.requestTrack(track.id);
      toast(`Requested ${track.title}. Follow it in My requests.`);
    } catch (error) {
      toast(describeError(error), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <button
      type="button"
      className="button small ghost"
      aria-label={`Request ${track.title}`}
      title={reason}
      disabled={off || unplayable || busy}
      onClick={request}
    >
      Request
    </button>
  );
}
