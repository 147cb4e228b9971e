import { describe, expect, it } from '@jest/globals';
import { ClientShare } from './client-share.ts';

describe('ClientShare', () => {
  it('serves perClient connections of an address, refuses as many more, then drops', () => {
    const share = new ClientShare(2);
    const verdicts = Array.from({ length: 6 }, () => share.open('10.0.0.1'));
    expect(verdicts).toEqual(['serve', 'serve', 'refuse', 'refuse', 'drop', 'drop']);
    expect(share.open('10.0.0.2')).toBe('serve');
  });

  it('gives a slot back when a connection closes, whatever its verdict was', () => {
    const share = new ClientShare(1);
    expect(share.open('a')).toBe('serve');
    expect(share.open('a')).toBe('refuse');
    share.release('a');
    expect(share.open('a')).toBe('refuse');
    share.release('a');
    share.release('a');
    expect(share.open('a')).toBe('serve');
  });
});
