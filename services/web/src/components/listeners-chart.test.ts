import { describe, expect, it } from '@jest/globals';
import { niceScale, stepPath } from './chart-frame.tsx';
import { seriesOf } from './listeners-chart.tsx';

describe('listeners chart maths', () => {
  it('makes one series per mount, 0 where a sample lacks it', () => {
    const series = seriesOf([
      { t: 1, total: 2, mounts: { '/radio.mp3': 2 } },
      { t: 2, total: 3, mounts: { '/radio.mp3': 1, '/radio.aac': 2 } },
    ]);
    expect(series).toEqual([
      {
        mount: '/radio.aac',
        points: [
          [1, 0],
          [2, 2],
        ],
      },
      {
        mount: '/radio.mp3',
        points: [
          [1, 2],
          [2, 1],
        ],
      },
    ]);
  });

  it('picks round scales', () => {
    expect(niceScale(0)).toEqual({ top: 1, step: 1 });
    expect(niceScale(4.2)).toEqual({ top: 5, step: 1 });
    expect(niceScale(7)).toEqual({ top: 10, step: 2 });
    expect(niceScale(42)).toEqual({ top: 50, step: 10 });
    expect(niceScale(180)).toEqual({ top: 200, step: 40 });
  });

  it('draws steps up to the end time', () => {
    const d = stepPath(
      [
        [0, 1],
        [10, 3],
      ],
      20,
      (t) => t,
      (v) => 100 - v,
    );
    expect(d).toBe('M0.0,99.0H10.0V97.0H20.0');
    expect(
      stepPath(
        [],
        20,
        (t) => t,
        (v) => v,
      ),
    ).toBe('');
  });
});
