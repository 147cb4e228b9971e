/**
 * Mixes the end of one track into the start of the next: over a crossfade of `total` frames, of
 * which `done` have already been mixed, `outgoing` fades out linearly across the whole overlap
 * while `incoming` fades in linearly over its first `fadeIn` frames (at most `total`) and then
 * plays at full level. Float samples are not clamped: the limiter after the mix handles a sum
 * above full scale. Writes `frames` frames into `out` at frame `outOffset`.
 */
export function mixCrossfade(
  out: Float32Array,
  outOffset: number,
  outgoing: Float32Array,
  incoming: Float32Array,
  frames: number,
  fade: { done: number; total: number; fadeIn?: number },
  channels = 2,
): void {
  const { done, total } = fade;
  const fadeIn = Math.min(fade.fadeIn ?? total, total);
  let o = outOffset * channels;
  let s = 0;
  for (let frame = 0; frame < frames; frame++) {
    const at = done + frame + 0.5;
    const gainIn = fadeIn > 0 ? Math.min(at / fadeIn, 1) : 1;
    const gainOut = total > 0 ? Math.max(1 - at / total, 0) : 0;
    for (let c = 0; c < channels; c++, o++, s++) {
      out[o] = (outgoing[s] as number) * gainOut + (incoming[s] as number) * gainIn;
    }
  }
}
