import { useLive } from '../hooks/use-live.ts';

/**
 * Says so when the station plays its fallback (FALLBACK_FILE or the station-ID tone) because
 * there is no music to play, and why: otherwise a listener hears a tone and an operator sees
 * nothing wrong.
 */
export function FallbackBanner() {
  const fallback = useLive((s) => s.fallback);
  if (!fallback) return null;
  return (
    <div
      className="fallback-banner"
      role="status"
      data-testid="fallback-banner"
      data-reason={fallback.reason}
    >
      <strong>No music to play:</strong> {fallback.message}
      <span className="muted small">
        The station plays its fallback until a playable file appears.
      </span>
    </div>
  );
}
