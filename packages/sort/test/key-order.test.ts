// The padding key of the radix pass (`lastKeyBits`): its order bits are all ones, so its digit is
// the largest in every pass, for every key type and direction that has such a key.
import { describe, expect, it } from 'vitest';
import { lastKeyBits, orderBitsOf } from '../src/key-order.js';
import type { SortValueType } from '../src/types.js';

describe('lastKeyBits', () => {
  for (const type of ['u32', 'i32', 'f32'] as const satisfies readonly SortValueType[]) {
    for (const descending of [false, true]) {
      if (type === 'f32' && descending) continue;
      it(`${type} ${descending ? 'descending' : 'ascending'}: order bits all ones`, () => {
        const key = lastKeyBits(type, descending);
        expect(key).toBeDefined();
        expect(orderBitsOf(type, descending)(key ?? 0)).toBe(0xffffffff);
      });
    }
  }

  it('f32 descending has none: its largest orders (−∞, and every NaN at the other end) are not all ones', () => {
    expect(lastKeyBits('f32', true)).toBeUndefined();
    const order = orderBitsOf('f32', true);
    // −∞ is last descending; every NaN is first (order 0).
    expect(order(0xff800000)).toBe(0xff800000);
    for (const nan of [0x7fc00000, 0xffc00000, 0x7fffffff, 0xffffffff]) expect(order(nan)).toBe(0);
  });
});
