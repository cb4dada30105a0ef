// Argument checks of @scan/sort (shared by the GPU functions and the CPU references): every bad
// input is a ScanError with the right code, whose message names the argument and shows the value;
// good inputs normalize to the documented defaults. Bad inputs go through the CPU references, so
// this also checks that they validate exactly as the shared checks do.
import { type ScanContext, ScanError, type ScanErrorCode } from '@scan/core';
import { describe, expect, it } from 'vitest';
import { argsort, segmentedSort, sort } from '../src/cpu/index.js';
import { checkSortCount, MAX_SORT_COUNT } from '../src/limits.js';
import {
  checkBitRange,
  checkSortKeys,
  normalizeArgsortOptions,
  normalizeSegmentedSortArgs,
  normalizeSortOptions,
} from '../src/validate.js';

const u32 = (...v: number[]) => Uint32Array.from(v);
const u8 = (...v: number[]) => Uint8Array.from(v);

function expectScanError(fn: () => unknown, code: ScanErrorCode, argument: string, message: RegExp): void {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, `expected a ScanError matching ${message}`).toBeInstanceOf(ScanError);
  const error = thrown as ScanError;
  expect(error.code).toBe(code);
  expect(error.argument).toBe(argument);
  expect(error.message).toMatch(message);
}

const invalid = (fn: () => unknown, argument: string, message: RegExp) => expectScanError(fn, 'INVALID_ARGUMENT', argument, message);

describe('keys and values', () => {
  it('rejects typed arrays of other element types, naming their type', () => {
    invalid(() => sort(new Float64Array(4) as never), 'keys', /^keys = Float64Array\(4\): 64-bit Float64Array elements are not supported/);
    invalid(() => sort(new Int16Array(3) as never), 'keys', /^keys = Int16Array\(3\): 16-bit Int16Array elements are not supported/);
    invalid(() => argsort(new Uint8Array(2) as never), 'keys', /^keys = Uint8Array\(2\): 8-bit Uint8Array/);
    invalid(() => segmentedSort(new Float64Array(1) as never, u8(1)), 'keys', /^keys = Float64Array\(1\): 64-bit Float64Array/);
    invalid(
      () => sort(new Uint32Array(1), { values: new BigInt64Array(3) }),
      'options.values',
      /^options\.values = BigInt64Array\(3\): byte length 24 does not match/,
    );
    invalid(() => checkSortKeys(new Float64Array(2), 'options.values'), 'options.values', /^options\.values = Float64Array\(2\)/);
  });

  it('rejects plain arrays and non-arrays', () => {
    invalid(
      () => sort([3, 1, 2] as never),
      'keys',
      /^keys = Array\(3\): expected a Uint32Array, Int32Array, Float32Array, BigUint64Array, BigInt64Array, Uint16Array or Float16Array$/,
    );
    invalid(() => argsort(undefined as never), 'keys', /^keys = undefined: expected a Uint32Array/);
    invalid(() => sort(new DataView(new ArrayBuffer(8)) as never), 'keys', /^keys = DataView\(8\): expected a Uint32Array/);
  });

  it('accepts the three key types', () => {
    expect(checkSortKeys(new Uint32Array(1))).toBe('u32');
    expect(checkSortKeys(new Int32Array(1))).toBe('i32');
    expect(checkSortKeys(new Float32Array(1))).toBe('f32');
  });

  it('rejects values of the wrong byte length, saying what was expected', () => {
    invalid(
      () => sort(new Uint32Array(4), { values: new Uint32Array(3) }),
      'options.values',
      /^options\.values = Uint32Array\(3\): byte length 12 does not match the keys length 4 × a value width of 4, 8, 12 or 16 bytes \(expected 16, 32, 48, 64 bytes\)$/,
    );
    invalid(
      () => segmentedSort(new Float32Array(2), u8(1, 0), { values: new Int32Array(5) }),
      'options.values',
      /^options\.values = Int32Array\(5\): byte length 20 does not match the keys length 2/,
    );
  });

  it('takes values of any typed array class, rejects what is not one', () => {
    expect(sort(new Uint32Array([2, 1]), { values: new Float64Array([5, 6]) }).values).toEqual(new Float64Array([6, 5]));
    invalid(
      () => sort(new Uint32Array(2), { values: [1, 2] as never }),
      'options.values',
      /^options\.values = Array\(2\): expected a typed array of n × w bytes/,
    );
  });
});

describe('options', () => {
  it('rejects unknown options (a misspelling would otherwise be ignored)', () => {
    invalid(
      () => sort(new Uint32Array(2), { descend: true } as never),
      'options.descend',
      /^options\.descend = true: unknown option \(allowed: values, descending, algorithm, bits, keyType\)$/,
    );
    invalid(
      () => argsort(new Uint32Array(2), { values: new Uint32Array(2) } as never),
      'options.values',
      /^options\.values = Uint32Array\(2\): unknown option \(allowed: descending, keyType\)$/,
    );
    invalid(
      () => segmentedSort(new Uint32Array(2), u8(1, 0), { bits: [0, 8] } as never),
      'options.bits',
      /^options\.bits = Array\(2\): unknown option \(allowed: values, descending\)$/,
    );
    invalid(() => segmentedSort(new Uint32Array(2), u8(1, 0), { algorithm: 'radix' } as never), 'options.algorithm', /unknown option/);
  });

  it('rejects options that are not an object', () => {
    invalid(() => sort(new Uint32Array(2), 5 as never), 'options', /^options = 5: expected an object of options$/);
    invalid(() => argsort(new Uint32Array(2), [] as never), 'options', /^options = Array\(0\): expected an object/);
  });

  it('rejects a descending that is not a boolean', () => {
    invalid(
      () => sort(new Int32Array(2), { descending: 'yes' as never }),
      'options.descending',
      /^options\.descending = "yes": expected true or false$/,
    );
    invalid(
      () => argsort(new Int32Array(2), { descending: 1 as never }),
      'options.descending',
      /^options\.descending = 1: expected true or false$/,
    );
    invalid(
      () => segmentedSort(new Int32Array(2), u8(1, 0), { descending: null as never }),
      'options.descending',
      /^options\.descending = null/,
    );
  });

  it('rejects an unknown algorithm, listing the known ones', () => {
    invalid(
      () => sort(new Float32Array(2), { algorithm: 'bogo' as never }),
      'options.algorithm',
      /^options\.algorithm = "bogo": expected one of 'radix', 'split-radix', 'quicksort'$/,
    );
  });

  it('fills in the defaults', () => {
    const keys = new Float32Array(3);
    expect(normalizeSortOptions(keys, undefined)).toEqual({
      keyType: 'f32',
      values: undefined,
      valueType: undefined,
      valueWidth: 4,
      descending: false,
      algorithm: 'radix',
      bits: [0, 32],
    });
    const values = new Int32Array(3);
    const o = normalizeSortOptions(new Uint32Array(3), { values, descending: true, algorithm: 'split-radix', bits: [4, 12] });
    expect(o).toEqual({
      keyType: 'u32',
      values,
      valueType: 'i32',
      valueWidth: 4,
      descending: true,
      algorithm: 'split-radix',
      bits: [4, 12],
    });
    expect(o.values).toBe(values);
    expect(normalizeArgsortOptions(new Int32Array(1), {})).toEqual({ keyType: 'i32', descending: false });
  });
});

describe('options.bits', () => {
  const badRanges: [unknown, RegExp][] = [
    [[-1, 8], /^options\.bits = \[-1, 8\]: expected \[begin, end\] with integers 0 ≤ begin < end ≤ 32: out of range$/],
    [[0, 33], /^options\.bits = \[0, 33\]: .*out of range$/],
    [[8, 8], /^options\.bits = \[8, 8\]: .*empty range/],
    [[9, 3], /^options\.bits = \[9, 3\]: .*begin is greater than end$/],
    [[0.5, 8], /^options\.bits = \[0\.5, 8\]: .*must be integers$/],
    [[0, Number.NaN], /^options\.bits = \[0, NaN\]: .*must be integers$/],
    [['0', 8], /^options\.bits = \["0", 8\]: .*must be integers$/],
    [[8], /^options\.bits = \[8\]: .*got 1 element$/],
    [[0, 8, 16], /^options\.bits = \[0, 8, 16\]: .*got 3 elements$/],
    [[], /^options\.bits = \[\]: .*got 0 elements$/],
    [8, /^options\.bits = 8: expected \[begin, end\]/],
    [{ begin: 0, end: 8 }, /^options\.bits = Object: expected \[begin, end\]/],
    [null, /^options\.bits = null: expected \[begin, end\]/],
  ];

  for (const [bits, message] of badRanges) {
    it(`rejects ${JSON.stringify(bits)}`, () => {
      invalid(() => sort(new Uint32Array(4), { bits: bits as never }), 'options.bits', message);
      invalid(() => checkBitRange(bits, 'options.bits'), 'options.bits', message);
    });
  }

  it('accepts every non-empty range inside [0, 32], as a fresh tuple', () => {
    for (let begin = 0; begin < 32; begin++) {
      for (let end = begin + 1; end <= 32; end++) expect(checkBitRange([begin, end])).toEqual([begin, end]);
    }
    const given: [number, number] = [3, 9];
    const checked = normalizeSortOptions(new Uint32Array(1), { bits: given }).bits;
    expect(checked).toEqual([3, 9]);
    expect(checked).not.toBe(given);
  });

  it('with quicksort is UNSUPPORTED (a comparison sort sorts whole keys); the whole range is accepted', () => {
    expectScanError(
      () => sort(new Uint32Array(4), { algorithm: 'quicksort', bits: [0, 16] }),
      'UNSUPPORTED',
      'options.bits',
      /^options\.bits = \[0, 16\]: 'quicksort' compares whole keys; sort on a bit range with 'radix' or 'split-radix'$/,
    );
    expect(normalizeSortOptions(new Uint32Array(4), { algorithm: 'quicksort', bits: [0, 32] }).bits).toEqual([0, 32]);
    // A bad range is reported as such, before the algorithm is considered.
    invalid(() => sort(new Uint32Array(4), { algorithm: 'quicksort', bits: [8, 8] }), 'options.bits', /empty range/);
  });
});

describe('segments of segmentedSort', () => {
  const keys = new Uint32Array(3);

  it('rejects head flags other than 0/1, naming the index', () => {
    invalid(() => segmentedSort(keys, u8(1, 2, 0)), 'headFlags[1]', /^headFlags\[1\] = 2: expected 0 or 1$/);
    invalid(() => segmentedSort(keys, u32(1, 0, 0xffffffff)), 'headFlags[2]', /^headFlags\[2\] = 4294967295: expected 0 or 1$/);
  });

  it('rejects head flags of the wrong length or type', () => {
    invalid(() => segmentedSort(keys, u8(1, 0)), 'headFlags', /^headFlags = Uint8Array\(2\): length 2 does not match the data length 3$/);
    invalid(() => segmentedSort(keys, new Uint8Array(4)), 'headFlags', /^headFlags = Uint8Array\(4\): length 4 does not match/);
    invalid(
      () => segmentedSort(keys, new Int32Array(3) as never),
      'headFlags',
      /^headFlags = Int32Array\(3\): expected a Uint32Array or Uint8Array of 0\/1 flags$/,
    );
    invalid(
      () => segmentedSort(keys, [1, 0, 0] as never),
      'headFlags',
      /^headFlags = Array\(3\): expected head flags \(Uint8Array or Uint32Array\) or \{ offsets: Uint32Array \}$/,
    );
    invalid(() => segmentedSort(keys, undefined as never), 'headFlags', /^headFlags = undefined: expected head flags/);
  });

  it('rejects offsets that are not monotone, do not start at 0 or do not end at the length', () => {
    const five = new Uint32Array(5);
    invalid(
      () => segmentedSort(five, { offsets: u32(0, 3, 2, 5) }),
      'headFlags.offsets[2]',
      /^headFlags\.offsets\[2\] = 2: less than headFlags\.offsets\[1\] = 3 \(offsets must be non-decreasing\)$/,
    );
    invalid(
      () => segmentedSort(five, { offsets: u32(0, 2) }),
      'headFlags.offsets[1]',
      /^headFlags\.offsets\[1\] = 2: the last offset must be the data length 5$/,
    );
    invalid(
      () => segmentedSort(five, { offsets: u32(0, 2, 6) }),
      'headFlags.offsets[2]',
      /^headFlags\.offsets\[2\] = 6: the last offset must be the data length 5$/,
    );
    invalid(
      () => segmentedSort(five, { offsets: u32(1, 5) }),
      'headFlags.offsets[0]',
      /^headFlags\.offsets\[0\] = 1: the first offset must be 0$/,
    );
    invalid(
      () => segmentedSort(five, { offsets: new Uint32Array(0) }),
      'headFlags.offsets',
      /^headFlags\.offsets = Uint32Array\(0\): expected at least one entry/,
    );
    invalid(
      () => segmentedSort(five, { offsets: Int32Array.from([0, 5]) as never }),
      'headFlags.offsets',
      /^headFlags\.offsets = Int32Array\(2\): expected a Uint32Array/,
    );
  });

  it('normalizes both forms to per-element head flags', () => {
    const fromOffsets = normalizeSegmentedSortArgs(new Float32Array(6), { offsets: u32(0, 0, 2, 2, 6, 6) }, { descending: true });
    expect(fromOffsets.segments.kind).toBe('offsets');
    expect(fromOffsets.segments.segmentCount).toBe(5);
    expect([...fromOffsets.headFlags]).toEqual([1, 0, 1, 0, 0, 0]);
    expect(fromOffsets).toMatchObject({ keyType: 'f32', values: undefined, valueType: undefined, descending: true });

    const flags = u8(0, 0, 1);
    const values = new Float32Array(3);
    const fromFlags = normalizeSegmentedSortArgs(new Int32Array(3), flags, { values });
    expect(fromFlags.headFlags).toBe(flags); // element 0 is a head whatever its flag says: no copy needed
    expect(fromFlags.segments).toEqual({ kind: 'headFlags', headFlags: flags, segmentCount: 2 });
    expect(fromFlags).toMatchObject({ keyType: 'i32', values, valueType: 'f32', descending: false });

    const empty = normalizeSegmentedSortArgs(new Uint32Array(0), { offsets: u32(0, 0) }, undefined);
    expect(empty.headFlags.length).toBe(0);
    expect(empty.segments.segmentCount).toBe(1);
  });
});

describe('checkSortCount', () => {
  // Only the device's limits are read: a stand-in context with 1 KiB bindings in 4 KiB buffers.
  const ctxWith = (binding: number, buffer: number) =>
    ({ caps: { limits: { maxStorageBufferBindingSize: binding, maxBufferSize: buffer } } }) as unknown as ScanContext;

  it('accepts sizes up to the binding limit and rejects the next one as TOO_LARGE', () => {
    const ctx = ctxWith(1024, 4096);
    expect(checkSortCount(ctx, 0, 'keys')).toBe(0);
    expect(checkSortCount(ctx, 256, 'keys')).toBe(256);
    expectScanError(
      () => checkSortCount(ctx, 257, 'keys'),
      'TOO_LARGE',
      'keys',
      /^keys = 257 elements \(1028 bytes\): more than the device binds at once \(maxStorageBufferBindingSize = 1024 bytes, at most 256 32-bit elements\)$/,
    );
    expectScanError(
      () => checkSortCount(ctxWith(2 ** 31 - 4, 2 ** 32), 2 ** 29, 'options.maxCount'),
      'TOO_LARGE',
      'options.maxCount',
      /^options\.maxCount = 536870912 elements/,
    );
  });

  it('rejects counts past what the look-back statuses count, even where the device binds them', () => {
    const ctx = ctxWith(2 ** 33, 2 ** 33);
    expect(checkSortCount(ctx, MAX_SORT_COUNT, 'keys')).toBe(MAX_SORT_COUNT);
    expectScanError(
      () => checkSortCount(ctx, MAX_SORT_COUNT + 1, 'keys'),
      'TOO_LARGE',
      'keys',
      /^keys = 1073741824: more than the 1073741823 keys a sort counts$/,
    );
  });
});
