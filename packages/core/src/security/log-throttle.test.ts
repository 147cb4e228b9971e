import { describe, expect, jest, test } from '@jest/globals';
import { LogThrottle } from './log-throttle.ts';

describe('LogThrottle', () => {
  test('one line per key and interval, saying how many were held back', () => {
    jest.useFakeTimers({ now: 5_000_000 });
    try {
      const throttle = new LogThrottle(60_000);
      expect(throttle.take('1.2.3.4 login')).toBe(0);
      expect(throttle.take('1.2.3.4 login')).toBeNull();
      expect(throttle.take('1.2.3.4 login')).toBeNull();
      expect(throttle.take('5.6.7.8 login')).toBe(0);
      jest.advanceTimersByTime(60_000);
      expect(throttle.take('1.2.3.4 login')).toBe(2);
      expect(throttle.take('1.2.3.4 login')).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });
});
