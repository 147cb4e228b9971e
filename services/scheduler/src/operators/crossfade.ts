/**
 * Mixes the end of one track into the start of the next: `outgoing` fades out while
 * `incoming` fades in, linearly, over a crossfade of `total` frames of which `done` have
 * already been mixed. The gains always add up to 1, so the mix never exceeds full scale.
 * Writes `frames` frames into `out` at frame `outOffset`.
 */
export function mixCrossfade(
  out: Int16Array,
  outOffset: number,
  outgoing: Int16Array,
  incoming: Int16Array,
  frames: number,
  done: number,
  total: number,
  channels = 2,
): void {
  let o = outOffset * channels;
  let s = 0;
  for (let frame = 0; frame < frames; frame++) {
    const fadeIn = total > 0 ? (done + frame + 0.5) / total : 1;
    const gainIn = Math.min(fadeIn, 1);
    const gainOut = 1 - gainIn;
    for (let c = 0; c < channels; c++, o++, s++) {
      const mixed = (outgoing[s] as number) * gainOut + (incoming[s] as number) * gainIn;
      out[o] = mixed > 32_767 ? 32_767 : mixed < -32_768 ? -32_768 : Math.round(mixed);
    }
  }
}
