// The CPU references of @scan/sort against an oracle written here from the documentation alone:
// `Array.prototype.sort` of the indices with a comparator on the keys as numbers (NaN last and all
// NaNs equal, −0 < +0), ties broken by input index — not through `orderBitsOf`, so a mistake there
// cannot hide in both. Every key type × value type (and none) × direction, over edge contents and
// lengths; stability with (key, index) pairs; bit ranges against an arithmetic extraction of the
// documented order bits; argsort; segmented sort over head flags and offsets (empty segments).
import { createRng, type DataKind, expectEqualArrays, randomData, randomSegmentFlags } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { argsort, type BitRange, SORT_ALGORITHMS, type SortArray, type SortValueType, segmentedSort, sort } from '../src/cpu/index.js';

const KEY_TYPES: readonly SortValueType[] = ['u32', 'i32', 'f32'];
const VALUE_TYPES: readonly (SortValueType | undefined)[] = [undefined, 'u32', 'i32', 'f32'];
const DIRECTIONS = [false, true] as const;
const LENGTHS = [0, 1, 2, 4095, 4097];
const BIG = 2 ** 20 + 1;

const dir = (descending: boolean) => (descending ? 'descending' : 'ascending');

// ——— data ———

/** The 32 bits of each element (a view, no copy): how keys and values are compared, bit for bit. */
function bits(a: SortArray): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, a.length);
}

/** An array of `type` over the given bits. */
function ofBits(type: SortValueType, words: Uint32Array): SortArray {
  const buffer = words.slice().buffer;
  return type === 'u32' ? new Uint32Array(buffer) : type === 'i32' ? new Int32Array(buffer) : new Float32Array(buffer);
}

const F32_SPECIAL_BITS = [
  0x7fc00000, // NaN
  0xffc00000, // −NaN
  0x7fc00001, // NaN with a payload
  0x7f800001, // signalling NaN
  0x80000000, // −0
  0x00000000, // +0
  0x7f800000, // +∞
  0xff800000, // −∞
  0x00000001, // smallest subnormal
  0x80000001, // −smallest subnormal
  0x7f7fffff, // largest finite
  0xff7fffff, // −largest finite
  0x3f800000, // 1
  0xbf800000, // −1
];

type Content = 'random' | 'random bits' | 'equal' | 'sorted' | 'reversed' | 'few distinct' | 'top byte' | 'specials';
const CONTENTS: readonly Content[] = ['random', 'random bits', 'equal', 'sorted', 'reversed', 'few distinct', 'top byte', 'specials'];

/** `n` keys of `type` with the given contents, reproducible from `seed`. */
function keysOf(type: SortValueType, n: number, seed: number, content: Content): SortArray {
  const rng = createRng(seed);
  const words = new Uint32Array(n);
  switch (content) {
    case 'random':
    case 'equal':
    case 'sorted':
    case 'reversed':
      return randomData(type, n, seed, content satisfies DataKind);
    case 'random bits': // every bit pattern: f32 subnormals, infinities and NaNs included
      for (let i = 0; i < n; i++) words[i] = rng.u32();
      break;
    case 'few distinct': {
      const pool = [rng.u32(), rng.u32(), rng.u32()];
      for (let i = 0; i < n; i++) words[i] = pool[rng.int(0, 2)]!;
      break;
    }
    case 'top byte': {
      // Keys equal but for the top byte: a sort that ignores the last digit pass fails here.
      const low = rng.u32() & 0xffffff;
      for (let i = 0; i < n; i++) words[i] = ((rng.u32() & 0xff000000) | low) >>> 0;
      break;
    }
    case 'specials':
      if (type !== 'f32') return randomData(type, n, seed, 'extreme');
      for (let i = 0; i < n; i++) words[i] = F32_SPECIAL_BITS[rng.int(0, F32_SPECIAL_BITS.length - 1)]!;
      break;
  }
  return ofBits(type, words);
}

/** Values of `type` (every bit pattern, NaN payloads included, so moving them must be bit exact). */
function valuesOf(type: SortValueType, n: number, seed: number): SortArray {
  return ofBits(type, randomData('u32', n, seed ^ 0x5eed));
}

// ——— the oracle ———

/**
 * The documented key order on numbers: −∞ < … < −0 < +0 < … < +∞ < NaN, all NaNs equal; integers
 * by value. Written from the documentation, independent of the package's order bits.
 */
function compareKeys(a: number, b: number): number {
  const aNaN = Number.isNaN(a);
  const bNaN = Number.isNaN(b);
  if (aNaN || bNaN) return (aNaN ? 1 : 0) - (bNaN ? 1 : 0);
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === 0) return (Object.is(a, -0) ? 0 : 1) - (Object.is(b, -0) ? 0 : 1);
  return 0;
}

/** The stable permutation of `Array.prototype.sort` with `compare`, ties by input index. */
function oraclePermutation(n: number, compare: (i: number, j: number) => number): Uint32Array {
  const index = Array.from({ length: n }, (_, i) => i);
  index.sort((i, j) => compare(i, j) || i - j);
  return Uint32Array.from(index);
}

/** The oracle permutation of whole keys, descending being the exact reverse of the order. */
function keyPermutation(keys: SortArray, descending: boolean, from = 0, to = keys.length): Uint32Array {
  const local = oraclePermutation(to - from, (i, j) =>
    descending ? compareKeys(keys[from + j]!, keys[from + i]!) : compareKeys(keys[from + i]!, keys[from + j]!),
  );
  return local.map((i) => i + from);
}

function gatherBits(a: SortArray, permutation: Uint32Array): Uint32Array {
  const b = bits(a);
  return permutation.map((i) => b[i]!);
}

/** Runs `sort` and checks keys and values, bit for bit, against `permutation`; inputs untouched. */
function expectSorted(
  keys: SortArray,
  values: SortArray | undefined,
  options: { descending?: boolean; bits?: BitRange },
  permutation: Uint32Array,
  label: string,
): void {
  const keysBefore = bits(keys).slice();
  const valuesBefore = values && bits(values).slice();
  const result = sort(keys, values ? { ...options, values } : options);
  expect(result.keys.constructor, label).toBe(keys.constructor);
  expect(result.keys, label).not.toBe(keys);
  expectEqualArrays(bits(result.keys), gatherBits(keys, permutation), `${label} keys`);
  if (values) {
    expect(result.values?.constructor, label).toBe(values.constructor);
    expectEqualArrays(bits(result.values!), gatherBits(values, permutation), `${label} values`);
  } else {
    expect(result.values, label).toBeUndefined();
  }
  expectEqualArrays(bits(keys), keysBefore, `${label}: keys untouched`);
  if (values) expectEqualArrays(bits(values), valuesBefore!, `${label}: values untouched`);
}

// ——— sort ———

describe('sort: hand-worked examples', () => {
  it('orders f32 keys −∞ < −0 < +0 < +∞ < NaN, NaNs equal and in input order, bits kept', () => {
    const keys = ofBits(
      'f32',
      Uint32Array.from([0x7fc00001, 0x3f800000, 0xffc00002, 0x7f800001, 0x00000000, 0x80000000, 0xff800000, 0x7f800000]),
    );
    const values = Uint32Array.from([0, 1, 2, 3, 4, 5, 6, 7]);
    const up = sort(keys, { values });
    expect([...bits(up.keys)]).toEqual([0xff800000, 0x80000000, 0x00000000, 0x3f800000, 0x7f800000, 0x7fc00001, 0xffc00002, 0x7f800001]);
    expect([...up.values!]).toEqual([6, 5, 4, 1, 7, 0, 2, 3]);
    const down = sort(keys, { values, descending: true });
    expect([...bits(down.keys)]).toEqual([0x7fc00001, 0xffc00002, 0x7f800001, 0x7f800000, 0x3f800000, 0x00000000, 0x80000000, 0xff800000]);
    expect([...down.values!]).toEqual([0, 2, 3, 7, 1, 4, 5, 6]);
  });

  it('orders integers by value, the largest of each type included', () => {
    expect([...sort(Int32Array.from([0, -1, 2147483647, -2147483648, 1])).keys]).toEqual([-2147483648, -1, 0, 1, 2147483647]);
    expect([...sort(Uint32Array.from([0x80000000, 0xffffffff, 0, 1])).keys]).toEqual([0, 1, 0x80000000, 0xffffffff]);
    expect([...sort(Uint32Array.from([0x80000000, 0xffffffff, 0, 1]), { descending: true }).keys]).toEqual([0xffffffff, 0x80000000, 1, 0]);
  });

  it('moves values of another type with their keys, equal keys keeping their order', () => {
    const result = sort(Int32Array.from([3, -1, 3, 0]), { values: Float32Array.from([0.5, 1.5, 2.5, 3.5]), descending: true });
    expect([...result.keys]).toEqual([3, 3, 0, -1]);
    expect([...result.values!]).toEqual([0.5, 2.5, 3.5, 1.5]);
  });

  it('sorts a subarray view (non-zero byteOffset) without touching the rest of its buffer', () => {
    const whole = Float32Array.from([9, 3, 1, 2, 9]);
    const result = sort(whole.subarray(1, 4), { values: Uint32Array.from([7, 8, 9, 10]).subarray(1, 4) });
    expect([...result.keys]).toEqual([1, 2, 3]);
    expect([...result.values!]).toEqual([9, 10, 8]);
    expect([...whole]).toEqual([9, 3, 1, 2, 9]);
  });

  it('gives one result whatever the algorithm (the CPU accepts and ignores it)', () => {
    const keys = keysOf('f32', 1000, 3, 'specials');
    const expected = bits(sort(keys).keys);
    for (const algorithm of SORT_ALGORITHMS) expectEqualArrays(bits(sort(keys, { algorithm }).keys), expected, algorithm);
  });
});

describe('sort against Array.prototype.sort', () => {
  for (const type of KEY_TYPES) {
    for (const content of CONTENTS) {
      for (const descending of DIRECTIONS) {
        it(`${type} ${content} ${dir(descending)}: every value type, n = ${LENGTHS.join(', ')}`, () => {
          for (const n of LENGTHS) {
            const seed = n * 31 + content.length;
            const keys = keysOf(type, n, seed, content);
            const permutation = keyPermutation(keys, descending);
            for (const valueType of VALUE_TYPES) {
              const values = valueType && valuesOf(valueType, n, seed);
              expectSorted(keys, values, { descending }, permutation, `${type} ${content} ${dir(descending)} n=${n} values=${valueType}`);
            }
          }
        });
      }
    }
  }

  for (const type of KEY_TYPES) {
    for (const descending of DIRECTIONS) {
      it(`${type} random bits ${dir(descending)}, n = 2^20 + 1, with values`, () => {
        const keys = keysOf(type, BIG, 11, 'random bits');
        const values = valuesOf(type === 'f32' ? 'u32' : 'f32', BIG, 11);
        expectSorted(keys, values, { descending }, keyPermutation(keys, descending), `${type} n=${BIG}`);
      });
    }
  }

  it('f32 specials (NaN, ±0, ±∞, subnormals), n = 2^20 + 1', () => {
    const keys = keysOf('f32', BIG, 12, 'specials');
    expectSorted(keys, undefined, {}, keyPermutation(keys, false), `f32 specials n=${BIG}`);
  });
});

describe('sort is stable', () => {
  for (const type of KEY_TYPES) {
    for (const descending of DIRECTIONS) {
      for (const content of ['few distinct', 'equal', 'specials'] as const) {
        it(`${type} ${content} ${dir(descending)}: (key, original index) pairs`, () => {
          const n = 5000;
          const keys = keysOf(type, n, 77, content);
          const index = Uint32Array.from({ length: n }, (_, i) => i);
          const result = sort(keys, { values: index, descending });
          const out = result.values as Uint32Array;
          const seen = new Uint8Array(n);
          const keyBits = bits(keys);
          const outBits = bits(result.keys);
          for (let i = 0; i < n; i++) {
            expect(seen[out[i]!], `index ${out[i]} twice`).toBe(0);
            seen[out[i]!] = 1;
            expect(outBits[i], `key at ${i} is the key of its index`).toBe(keyBits[out[i]!]);
            if (i === 0) continue;
            const c = compareKeys(result.keys[i - 1]!, result.keys[i]!) * (descending ? -1 : 1);
            expect(c, `order at ${i}`).toBeLessThanOrEqual(0);
            if (c === 0) expect(out[i - 1]!, `equal keys at ${i - 1}, ${i} keep their input order`).toBeLessThan(out[i]!);
          }
        });
      }
    }
  }
});

// ——— bit ranges ———

/**
 * The documented order bits of a key, as a number in [0, 2^32), by arithmetic on the key's value and
 * bits (not the package's bit tricks): u32 itself; i32 its value + 2^31; f32 NaN → 2^32 − 1,
 * negative (sign bit set) → 2^32 − 1 − bits, else bits + 2^31. Descending: 2^32 − 1 − that.
 */
function orderNumber(type: SortValueType, value: number, word: number, descending: boolean): number {
  let order: number;
  if (type === 'u32') order = value;
  else if (type === 'i32') order = value + 2 ** 31;
  else if (Number.isNaN(value)) order = 2 ** 32 - 1;
  else order = word >= 2 ** 31 ? 2 ** 32 - 1 - word : word + 2 ** 31;
  return descending ? 2 ** 32 - 1 - order : order;
}

function bitRangePermutation(keys: SortArray, type: SortValueType, descending: boolean, [begin, end]: BitRange): Uint32Array {
  const b = bits(keys);
  const extracted = Array.from(keys, (v, i) => Math.floor(orderNumber(type, v, b[i]!, descending) / 2 ** begin) % 2 ** (end - begin));
  return oraclePermutation(keys.length, (i, j) => extracted[i]! - extracted[j]!);
}

describe('sort on a bit range', () => {
  const RANGES: readonly BitRange[] = [
    [0, 16],
    [8, 24],
    [31, 32],
    [0, 1],
    [16, 32],
    [5, 17],
    [0, 32],
  ];

  it('the test’s order numbers agree with its comparator on whole keys (sanity of the oracle)', () => {
    for (const type of KEY_TYPES) {
      for (const descending of DIRECTIONS) {
        const keys = keysOf(type, 3000, 5, type === 'f32' ? 'specials' : 'random bits');
        expectEqualArrays(
          bitRangePermutation(keys, type, descending, [0, 32]),
          keyPermutation(keys, descending),
          `${type} ${dir(descending)}`,
        );
      }
    }
  });

  it('u32 [0, 8) sorts by the low byte, keeping the order of keys equal there', () => {
    const result = sort(Uint32Array.from([0x0301, 0x0100, 0x0201, 0x0400]), { bits: [0, 8] });
    expect([...result.keys]).toEqual([0x0100, 0x0400, 0x0301, 0x0201]);
  });

  it('i32 [31, 32) splits negatives from the rest; f32 [31, 32) likewise, descending puts them last', () => {
    expect([...sort(Int32Array.from([5, -1, 0, -7, 3]), { bits: [31, 32] }).keys]).toEqual([-1, -7, 5, 0, 3]);
    const f = sort(Float32Array.from([5, -1, -0, 0, -7]), { bits: [31, 32], descending: true }).keys;
    expect(Array.from(f, (x) => (Object.is(x, -0) ? '-0' : String(x)))).toEqual(['5', '0', '-1', '-0', '-7']);
  });

  for (const type of KEY_TYPES) {
    for (const descending of DIRECTIONS) {
      it(`${type} ${dir(descending)}: ranges ${RANGES.map(([b, e]) => `[${b},${e})`).join(' ')}`, () => {
        for (const range of RANGES) {
          for (const content of ['random bits', 'few distinct', 'specials'] as const) {
            for (const n of [0, 1, 2, 4097]) {
              const keys = keysOf(type, n, n + range[0] * 64 + range[1], content);
              const values = valuesOf('u32', n, n);
              const permutation = bitRangePermutation(keys, type, descending, range);
              expectSorted(keys, values, { descending, bits: range }, permutation, `${type} ${content} bits [${range}) n=${n}`);
            }
          }
        }
      });
    }
  }
});

// ——— argsort ———

describe('argsort', () => {
  it('hand-worked: NaN last, equal keys in input order', () => {
    expect([...argsort(Float32Array.from([0.5, Number.NaN, -2, 0.5]))]).toEqual([2, 0, 3, 1]);
    expect([...argsort(Float32Array.from([0.5, Number.NaN, -2, 0.5]), { descending: true })]).toEqual([1, 0, 3, 2]);
    expect(argsort(new Int32Array(0))).toEqual(new Uint32Array(0));
  });

  for (const type of KEY_TYPES) {
    for (const descending of DIRECTIONS) {
      it(`${type} ${dir(descending)}: every content, n = ${LENGTHS.join(', ')}`, () => {
        for (const content of CONTENTS) {
          for (const n of LENGTHS) {
            const keys = keysOf(type, n, n + 7, content);
            const before = bits(keys).slice();
            const result = argsort(keys, { descending });
            expect(result).toBeInstanceOf(Uint32Array);
            expectEqualArrays(result, keyPermutation(keys, descending), `${type} ${content} n=${n}`);
            expectEqualArrays(bits(keys), before, 'keys untouched');
          }
        }
      });
    }
  }

  it('f32 random bits, n = 2^20 + 1, agrees with the oracle and with sort', () => {
    const keys = keysOf('f32', BIG, 21, 'random bits');
    const result = argsort(keys, { descending: true });
    expectEqualArrays(result, keyPermutation(keys, true), 'argsort');
    expectEqualArrays(gatherBits(keys, result), bits(sort(keys, { descending: true }).keys), 'argsort vs sort');
  });
});

// ——— segmented sort ———

/** [start, end) of every segment: head flags (element 0 always a head) or offsets (empty ones too). */
function segmentsOf(segments: Uint8Array | Uint32Array | { offsets: Uint32Array }, n: number): [number, number][] {
  if ('offsets' in segments) {
    const o = segments.offsets;
    return Array.from({ length: o.length - 1 }, (_, k) => [o[k]!, o[k + 1]!]);
  }
  const out: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    if (i === 0 || segments[i] === 1) out.push([i, i + 1]);
    else out[out.length - 1]![1] = i + 1;
  }
  return out;
}

/** Offsets of `count` segments of random lengths in [0, maxLength] (many empty), summing to their total. */
function randomOffsets(count: number, maxLength: number, seed: number): Uint32Array {
  const rng = createRng(seed);
  const offsets = new Uint32Array(count + 1);
  for (let k = 1; k <= count; k++) offsets[k] = offsets[k - 1]! + (rng.int(0, 3) === 0 ? 0 : rng.int(0, maxLength));
  return offsets;
}

function expectSegmentedSorted(
  keys: SortArray,
  segments: Uint8Array | Uint32Array | { offsets: Uint32Array },
  values: SortArray | undefined,
  descending: boolean,
  label: string,
): void {
  const keysBefore = bits(keys).slice();
  const permutation = new Uint32Array(keys.length);
  for (const [s, e] of segmentsOf(segments, keys.length)) permutation.set(keyPermutation(keys, descending, s, e), s);
  const result = segmentedSort(keys, segments, values ? { values, descending } : { descending });
  expect(result.keys.constructor, label).toBe(keys.constructor);
  expectEqualArrays(bits(result.keys), gatherBits(keys, permutation), `${label} keys`);
  if (values) expectEqualArrays(bits(result.values!), gatherBits(values, permutation), `${label} values`);
  else expect(result.values, label).toBeUndefined();
  expectEqualArrays(bits(keys), keysBefore, `${label}: keys untouched`);
}

describe('segmentedSort', () => {
  it('hand-worked: head flags and offsets with an empty segment', () => {
    expect([...segmentedSort(Uint32Array.from([3, 1, 2, 9, 7]), Uint8Array.from([1, 0, 0, 1, 0])).keys]).toEqual([1, 2, 3, 7, 9]);
    const r = segmentedSort(
      Int32Array.from([3, 1, 2, 9, 7]),
      { offsets: Uint32Array.from([0, 2, 2, 5]) },
      {
        values: Uint32Array.from([0, 1, 2, 3, 4]),
        descending: true,
      },
    );
    expect([...r.keys]).toEqual([3, 1, 9, 7, 2]);
    expect([...r.values!]).toEqual([0, 1, 3, 4, 2]);
  });

  for (const type of KEY_TYPES) {
    for (const descending of DIRECTIONS) {
      it(`${type} ${dir(descending)}: one segment equals sort (element 0 a head even when its flag is 0)`, () => {
        for (const n of LENGTHS) {
          const keys = keysOf(type, n, n + 3, type === 'f32' ? 'specials' : 'few distinct');
          const values = valuesOf('f32', n, n);
          const whole = sort(keys, { values, descending });
          for (const flags of [new Uint8Array(n), Uint32Array.from({ length: n }, (_, i) => (i === 0 ? 1 : 0))]) {
            const r = segmentedSort(keys, flags, { values, descending });
            expectEqualArrays(bits(r.keys), bits(whole.keys), `n=${n} ${flags.constructor.name}`);
            expectEqualArrays(bits(r.values!), bits(whole.values!), `n=${n} values`);
          }
          expectSegmentedSorted(keys, { offsets: Uint32Array.from(n > 0 ? [0, n] : [0]) }, values, descending, `offsets n=${n}`);
        }
      });

      it(`${type} ${dir(descending)}: every element its own segment leaves the keys in place`, () => {
        for (const n of LENGTHS) {
          const keys = keysOf(type, n, n + 4, 'random bits');
          const r = segmentedSort(keys, new Uint8Array(n).fill(1), { descending });
          expectEqualArrays(bits(r.keys), bits(keys), `n=${n}`);
          expectSegmentedSorted(
            keys,
            { offsets: Uint32Array.from({ length: n + 1 }, (_, i) => i) },
            undefined,
            descending,
            `offsets n=${n}`,
          );
        }
      });

      it(`${type} ${dir(descending)}: random segment lengths, head flags of both types and offsets`, () => {
        for (const n of LENGTHS) {
          for (const mean of [1.5, 4, 64, 1000]) {
            const keys = keysOf(type, n, n + mean, mean < 10 ? 'few distinct' : 'random bits');
            const flags8 = randomSegmentFlags(n, mean, n * 3 + mean);
            const values = valuesOf('i32', n, n + 1);
            const label = `${type} n=${n} mean=${mean}`;
            expectSegmentedSorted(keys, flags8, values, descending, `${label} Uint8Array`);
            expectSegmentedSorted(keys, Uint32Array.from(flags8), undefined, descending, `${label} Uint32Array`);
            const offsets = Uint32Array.from(
              segmentsOf(flags8, n)
                .map(([s]) => s)
                .concat(n > 0 ? [n] : [0]),
            );
            expectSegmentedSorted(keys, { offsets }, values, descending, `${label} offsets`);
          }
        }
      });

      it(`${type} ${dir(descending)}: offsets with empty segments (leading, inner, trailing)`, () => {
        for (const [count, maxLength, seed] of [
          [1, 0, 1],
          [3, 0, 2],
          [50, 10, 3],
          [200, 100, 4],
          [40, 2000, 5],
        ] as const) {
          const inner = randomOffsets(count, maxLength, seed);
          const n = inner[count]!;
          // Empty segments at both ends too: [0, 0, …inner…, n, n].
          const offsets = Uint32Array.from([0, ...inner, n]);
          const keys = keysOf(type, n, seed, 'few distinct');
          expectSegmentedSorted(keys, { offsets }, valuesOf('u32', n, seed), descending, `${type} ${count} segments n=${n}`);
          expectSegmentedSorted(keys, { offsets: inner }, undefined, descending, `${type} ${count} segments n=${n} (inner only)`);
        }
      });
    }
  }

  it('f32 random bits, n = 2^20 + 1, mean segment length 300', () => {
    const keys = keysOf('f32', BIG, 31, 'random bits');
    expectSegmentedSorted(keys, randomSegmentFlags(BIG, 300, 31), valuesOf('u32', BIG, 31), false, `n=${BIG}`);
  });
});
