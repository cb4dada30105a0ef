// @scan/sort's array-level functions on host data (the default radix sort; the paper's split radix
// sort and quicksort run one pass per bit or per level, which SwiftShader takes minutes over at
// these sizes, and share every host transfer with it).
import { expectEqualArrays, randomData, randomSegmentFlags } from '@scan/gpu-testing';
import { headFlagsToOffsets } from '@scan/segmented/cpu';
import { argsort, segmentedSort, sort, topK } from '@scan/sort';
import * as cpu from '@scan/sort/cpu';
import { defineCase, type NodeCase } from '../case.js';

/** Checks the keys and, when there are any, the values of a sort result. */
function expectSorted(got: { keys: ArrayLike<number>; values?: ArrayLike<number> }, want: typeof got, label: string): void {
  expectEqualArrays(got.keys, want.keys, `${label} keys`);
  if (want.values) expectEqualArrays(got.values ?? [], want.values, `${label} values`);
}

/** The 32-bit words of a typed array (64-bit keys compared word for word). */
const wordsOf = (a: ArrayBufferView) => new Uint32Array(a.buffer, a.byteOffset, a.byteLength / 4);

/** 64-bit keys: random low words, high words of few distinct values (equal keys, ties in the high word). */
function wideKeys<T extends BigUint64Array | BigInt64Array>(make: new (n: number) => T, size: number, seed: number): T {
  const keys = new make(size);
  const words = wordsOf(keys);
  const lo = randomData('u32', size, seed, 'small');
  const hi = randomData('u32', size, seed + 1, 'small');
  for (let i = 0; i < size; i++) {
    words[2 * i] = lo[i]!;
    words[2 * i + 1] = hi[i]! * 0x01010101;
  }
  return keys;
}

export const sortCases: readonly NodeCase[] = [
  defineCase('sort.sort:u64', 'u64 keys (few distinct) with u32 values, descending', (size, seed) => {
    const keys = wideKeys(BigUint64Array, size, seed);
    const values = randomData('u32', size, seed + 2);
    return {
      call: (ctx) => sort(ctx, keys, { values, descending: true }),
      check: (got) => {
        const want = cpu.sort(keys, { values, descending: true });
        expectEqualArrays(wordsOf(got.keys), wordsOf(want.keys), 'sort u64 keys');
        expectEqualArrays(got.values ?? [], want.values ?? [], 'sort u64 values');
      },
    };
  }),
  defineCase('sort.argsort:i64', 'i64 keys of few distinct values (stability)', (size, seed) => {
    const keys = wideKeys(BigInt64Array, size, seed);
    return { call: (ctx) => argsort(ctx, keys), check: (got) => expectEqualArrays(got, cpu.argsort(keys), 'argsort i64') };
  }),
  defineCase(
    'sort.sort:u16',
    'u16 keys (two to a word; odd sizes keep the last half) with u32 values, and as f16 bits descending',
    (size, seed) => {
      const keys = Uint16Array.from(randomData('u32', size, seed, 'small'), (x) => (x * 0x0101) & 0xffff);
      const values = randomData('u32', size, seed + 1);
      return {
        call: async (ctx) => ({
          u16: await sort(ctx, keys, { values }),
          f16: await sort(ctx, keys, { keyType: 'f16', descending: true }),
        }),
        check: (got) => {
          const want = cpu.sort(keys, { values });
          expectEqualArrays(got.u16.keys, want.keys, 'sort u16 keys');
          expectEqualArrays(got.u16.values ?? [], want.values ?? [], 'sort u16 values');
          expectEqualArrays(got.f16.keys, cpu.sort(keys, { keyType: 'f16', descending: true }).keys, 'sort f16 keys');
        },
      };
    },
  ),
  defineCase('sort.sort:values16', 'u32 keys with 16-byte values (a Float32Array of 4 per key)', (size, seed) => {
    // The values are the largest array: `size` floats, a quarter as many keys.
    const keys = randomData('u32', Math.ceil(size / 4), seed, 'small');
    const values = randomData('f32', 4 * keys.length, seed + 1);
    return {
      call: (ctx) => sort(ctx, keys, { values }),
      check: (got) => {
        const want = cpu.sort(keys, { values });
        expectEqualArrays(got.keys, want.keys, 'sort keys');
        expectEqualArrays(wordsOf(got.values ?? new Float32Array(0)), wordsOf(want.values ?? new Float32Array(0)), 'sort 16-byte values');
      },
    };
  }),
  defineCase('sort.sort:pairs', 'u32 keys with u32 values, ascending', (size, seed) => {
    const keys = randomData('u32', size, seed);
    const values = randomData('u32', size, seed + 1);
    return { call: (ctx) => sort(ctx, keys, { values }), check: (got) => expectSorted(got, cpu.sort(keys, { values }), 'sort') };
  }),
  defineCase('sort.sort:f32', 'f32 keys with NaN, descending', (size, seed) => {
    const keys = randomData('f32', size, seed, 'nan');
    return {
      call: (ctx) => sort(ctx, keys, { descending: true }),
      check: (got) => {
        const want = cpu.sort(keys, { descending: true });
        expectSorted(got, want, 'sort f32');
      },
    };
  }),
  defineCase('sort.argsort', 'i32 keys of few distinct values (stability)', (size, seed) => {
    const keys = randomData('i32', size, seed, 'small');
    return { call: (ctx) => argsort(ctx, keys), check: (got) => expectEqualArrays(got, cpu.argsort(keys), 'argsort') };
  }),
  defineCase('sort.segmentedSort:i64', 'i64 keys (few distinct) over head flags, segments of mean 4096, descending', (size, seed) => {
    const keys = wideKeys(BigInt64Array, size, seed);
    const heads = randomSegmentFlags(size, 4096, seed + 2);
    return {
      call: (ctx) => segmentedSort(ctx, keys, heads, { descending: true }),
      check: (got) =>
        expectEqualArrays(wordsOf(got.keys), wordsOf(cpu.segmentedSort(keys, heads, { descending: true }).keys), 'segmentedSort i64'),
    };
  }),
  defineCase('sort.segmentedSort', 'u32 keys with f32 values over offsets, segments of mean 4096', (size, seed) => {
    const keys = randomData('u32', size, seed);
    const values = randomData('f32', size, seed + 1);
    const segments = { offsets: headFlagsToOffsets(randomSegmentFlags(size, 4096, seed + 2)) };
    return {
      call: (ctx) => segmentedSort(ctx, keys, segments, { values }),
      check: (got) => expectSorted(got, cpu.segmentedSort(keys, segments, { values }), 'segmentedSort'),
    };
  }),
  defineCase('sort.topK', 'the 100 largest f32 keys with NaN, with i32 values', (size, seed) => {
    const keys = randomData('f32', size, seed, 'nan');
    const values = randomData('i32', size, seed + 1);
    const k = Math.min(size, 100);
    return {
      call: (ctx) => topK(ctx, keys, k, { values }),
      check: (got) => {
        // Among equal keys any may be taken: the keys must match, and indices and values follow them.
        const want = cpu.topK(keys, k, { values });
        expectEqualArrays(got.keys, want.keys, 'topK keys');
        expectEqualArrays(
          Array.from(got.indices, (i) => keys[i]!),
          got.keys,
          'topK indices',
        );
        expectEqualArrays(
          got.values ?? [],
          Array.from(got.indices, (i) => values[i]!),
          'topK values',
        );
      },
    };
  }),
];
