import { describe, expect, it } from '@jest/globals';
import { moveItem, sameOrder } from './reorder.ts';

describe('moveItem', () => {
  const list = ['a', 'b', 'c', 'd'];
  it('moves down and up', () => {
    expect(moveItem(list, 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(list, 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(moveItem(list, 1, 2)).toEqual(['a', 'c', 'b', 'd']);
  });
  it('clamps the target and ignores a bad source', () => {
    expect(moveItem(list, 0, 99)).toEqual(['b', 'c', 'd', 'a']);
    expect(moveItem(list, 2, -5)).toEqual(['c', 'a', 'b', 'd']);
    expect(moveItem(list, 9, 0)).toEqual(list);
  });
  it('never changes its input', () => {
    const input = [...list];
    moveItem(input, 0, 3);
    expect(input).toEqual(list);
  });
});

describe('sameOrder', () => {
  it('compares ids in order', () => {
    expect(sameOrder([{ id: 1 }, { id: 2 }], [{ id: 1 }, { id: 2 }])).toBe(true);
    expect(sameOrder([{ id: 1 }, { id: 2 }], [{ id: 2 }, { id: 1 }])).toBe(false);
    expect(sameOrder([{ id: 1 }], [{ id: 1 }, { id: 2 }])).toBe(false);
  });
});
