import { describe, expect, test } from '@jest/globals';
import { formatOf, type SilenceFrames } from './formats/index.ts';
import { SilencePacer } from './silence.ts';

describe('SilencePacer', () => {
  test('frames due follow the clock, not the number of ticks', () => {
    const format = formatOf('audio/mpeg');
    const frames = format.silence(format.defaultTemplate(128) as Buffer, 128) as SilenceFrames;
    expect(frames).not.toBeNull();
    const pacer = new SilencePacer(frames, 0);
    expect(pacer.take(10)).toBeNull();
    // 1 s of 44.1 kHz in 1152-sample frames is 38 whole frames, whether asked once or often.
    const once = pacer.take(1000);
    expect(once?.length).toBe(
      Buffer.concat(Array.from({ length: 38 }, (_, i) => frames.frameAt(i))).length,
    );
    const again = new SilencePacer(frames, 0);
    let bytes = 0;
    for (let t = 0; t <= 1000; t += 7) bytes += again.take(t)?.length ?? 0;
    bytes += again.take(1000)?.length ?? 0;
    expect(bytes).toBe(once?.length);
    // 60 s at 128 kbit/s: 16,000 bytes a second, to within a frame.
    const minute = new SilencePacer(frames, 0).take(60_000);
    expect(Math.abs((minute?.length ?? 0) - 60 * 16_000)).toBeLessThan(420);
  });
});
