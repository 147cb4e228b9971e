/** Artists compare without case or surrounding space; no artist, no artist rule. */
export function artistKey(artist: string | null): string | null {
  const key = artist?.trim().toLowerCase();
  return key ? key : null;
}
