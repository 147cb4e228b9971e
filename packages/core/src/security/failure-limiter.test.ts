import { describe, expect, jest, test } from '@jest/globals';
import { FailureLimiter } from './failure-limiter.ts';

describe('FailureLimiter', () => {
  test('refuses a client after its failures until the window ends; success clears it', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const limiter = new FailureLimiter({ maxFailures: 3, windowMs: 60_000 });
      for (let i = 0; i < 3; i++) {
        expect(limiter.blockedFor('a')).toBe(0);
        limiter.fail('a');
      }
      expect(limiter.blockedFor('a')).toBe(60_000);
      expect(limiter.blockedFor('b')).toBe(0);
      jest.advanceTimersByTime(60_000);
      expect(limiter.blockedFor('a')).toBe(0);
      limiter.fail('a');
      limiter.fail('a');
      limiter.succeed('a');
      limiter.fail('a');
      limiter.fail('a');
      expect(limiter.blockedFor('a')).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  test('refuses a rule that could never allow anything', () => {
    expect(() => new FailureLimiter({ maxFailures: 0, windowMs: 1 })).toThrow(RangeError);
  });
});
