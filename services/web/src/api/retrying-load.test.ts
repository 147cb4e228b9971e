import { describe, expect, it } from '@jest/globals';
import { retryingLoad } from './retrying-load.ts';

/** A load that fails `failures` times, then answers with the try's number. */
function setup(failures: number) {
  let tries = 0;
  const timers: { run: () => void; ms: number; cleared: boolean }[] = [];
  const data: number[] = [];
  const errors: unknown[] = [];
  const load = retryingLoad({
    load: async () => {
      tries += 1;
      if (tries <= failures) throw new Error(`blip ${tries}`);
      return tries;
    },
    onData: (value) => data.push(value),
    onError: (error) => errors.push(error),
    minDelayMs: 100,
    maxDelayMs: 350,
    setTimer: (run, ms) => {
      const timer = { run, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => {
      (timer as { cleared: boolean }).cleared = true;
    },
  });
  /** Runs the newest pending try and waits for its answer. */
  const fire = async () => {
    const timer = timers.at(-1);
    if (!timer || timer.cleared) throw new Error('no try is pending');
    timer.run();
    await load.run();
  };
  return { load, timers, data, errors, fire, tries: () => tries };
}

describe('retryingLoad', () => {
  it('tries again after a failure, waiting longer each time up to the limit, until it answers', async () => {
    const { load, timers, data, errors, fire } = setup(4);
    await load.run();
    expect(errors).toHaveLength(1);
    await fire();
    await fire();
    await fire();
    expect(timers.map((t) => t.ms)).toEqual([100, 200, 350, 350]);
    expect(data).toEqual([]);
    await fire();
    expect(data).toEqual([5]);
    expect(timers).toHaveLength(4);
  });

  it('starts again from the shortest wait after an answer', async () => {
    const { load, timers, fire } = setup(2);
    await load.run();
    await fire();
    await fire();
    await load.run();
    expect(timers.map((t) => t.ms)).toEqual([100, 200]);
  });

  it('shares a load under way and drops the pending try when one answers first', async () => {
    const { load, timers, data, tries } = setup(1);
    await load.run();
    await Promise.all([load.run(), load.run()]);
    expect(tries()).toBe(2);
    expect(data).toEqual([2]);
    expect(timers[0]?.cleared).toBe(true);
  });

  it('schedules nothing once stopped', async () => {
    const { load, timers } = setup(2);
    await load.run();
    load.stop();
    expect(timers[0]?.cleared).toBe(true);
    const pending = load.run();
    load.stop();
    await pending;
    expect(timers).toHaveLength(1);
  });
});
