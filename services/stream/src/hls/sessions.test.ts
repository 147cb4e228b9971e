import { describe, expect, test } from '@jest/globals';
import { HlsSessions } from './sessions.ts';

describe('HlsSessions', () => {
  test('joins fetches by token, ends sessions idle too long, follows a variant switch', () => {
    let changes = 0;
    const sessions = new HlsSessions({ idleMs: 4000, maxSessions: 10, changed: () => changes++ });
    sessions.touch('tokenAAAA', 'radio', 0);
    sessions.touch('tokenAAAA', 'radio', 1000);
    sessions.touch('tokenBBBB', 'radio', 2000);
    expect(sessions.count('radio')).toBe(2);
    sessions.touch('tokenBBBB', 'radio-low', 3000);
    expect([sessions.count('radio'), sessions.count('radio-low')]).toEqual([1, 1]);
    sessions.expire(5001);
    expect([sessions.count('radio'), sessions.count('radio-low')]).toEqual([0, 1]);
    sessions.expire(7001);
    expect(sessions.size).toBe(0);
    expect(changes).toBe(5);
  });

  test('is bounded: beyond the cap, the session idle longest ends', () => {
    const sessions = new HlsSessions({ idleMs: 4000, maxSessions: 3, changed: () => {} });
    for (let i = 0; i < 5; i++) sessions.touch(`token000${i}`, 'radio', i);
    expect(sessions.size).toBe(3);
    expect(sessions.count('radio')).toBe(3);
  });

  test('a session is live until it has been idle for idleMs, swept or not', () => {
    const sessions = new HlsSessions({ idleMs: 4000, maxSessions: 10, changed: () => {} });
    expect(sessions.has('tokenAAAA', 0)).toBe(false);
    sessions.touch('tokenAAAA', 'radio', 0);
    expect(sessions.has('tokenAAAA', 3999)).toBe(true);
    expect(sessions.has('tokenAAAA', 4000)).toBe(false);
  });

  test('tokens: what it hands out is well-formed; anything else is not a token', () => {
    expect(HlsSessions.isToken(HlsSessions.newToken())).toBe(true);
    for (const bad of [null, '', 'short', '../../etc/passwd', 'x'.repeat(33)]) {
      expect(HlsSessions.isToken(bad)).toBe(false);
    }
  });
});
