import type { BitRange, SortKeyType, SortValueType } from '../types.js';

/** 32-bit words of one value: a value width of 4, 8, 12 or 16 bytes. */
export type ValueWords = 1 | 2 | 3 | 4;

/** What a sort is specialized on, after validation and defaults. */
export interface SortShape {
  readonly keyType: SortKeyType;
  /** Type of the values that move with the keys; undefined sorts keys only. */
  readonly valueType: SortValueType | undefined;
  /** 32-bit words of one value (its width / 4: 1 to 4); default 1. Ignored without values. */
  readonly valueWords?: ValueWords;
  readonly descending: boolean;
  /** Order bits `[begin, end)` sorted on; `[0, 32]` (`[0, 64]` for 64-bit keys) for whole keys. */
  readonly bits: BitRange;
}

/**
 * Buffers of one in-place sort as the algorithms take them: `count` keys (and values) at offset 0,
 * sorted where they are.
 */
export interface SortBuffers {
  readonly keys: GPUBuffer;
  readonly values?: GPUBuffer;
  readonly count: number;
}
