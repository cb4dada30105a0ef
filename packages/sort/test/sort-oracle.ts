import { createRng, randomData } from '@scan/gpu-testing';
import type { SortArray, SortValueType } from '../src/types.js';

// The tests' own oracle, written apart from the package's order bits: keys compared as numbers,
// NaNs equal to each other and after everything, −0 before +0; ties by input index (stability).

/** −1, 0 or 1: the documented ascending key order of two numbers. */
export function compareKeys(a: number, b: number): number {
  const an = Number.isNaN(a);
  const bn = Number.isNaN(b);
  if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  if (a !== b) return a < b ? -1 : 1;
  if (a === 0 && b === 0) return Object.is(a, -0) === Object.is(b, -0) ? 0 : Object.is(a, -0) ? -1 : 1;
  return 0;
}

/**
 * The u32 whose order is the key order of the word `w` of a `type` key, written out here for the
 * bit-range oracle: u32 as is, i32 with the sign bit flipped, f32 sign-magnitude made monotone
 * (negatives complemented, positives with the top bit set) and every NaN after +∞, as one word.
 */
export function orderWord(type: SortValueType, w: number): number {
  if (type === 'u32') return w >>> 0;
  if (type === 'i32') return (w ^ 0x80000000) >>> 0;
  if ((w & 0x7fffffff) > 0x7f800000) return 0xffffffff;
  return (w & 0x80000000 ? ~w : w | 0x80000000) >>> 0;
}

/** The key type of a typed array of keys. */
export function keyTypeOf(keys: SortArray): SortValueType {
  return keys instanceof Float32Array ? 'f32' : keys instanceof Int32Array ? 'i32' : 'u32';
}

/**
 * The stable order of `keys` by `Array.prototype.sort` (descending reverses the key order, not the
 * ties). With a bit range other than [0, 32), keys are ordered by the field [begin, end) of their
 * order word instead.
 */
export function expectedOrder(keys: SortArray, descending = false, bits?: readonly [number, number]): Uint32Array {
  const index = Array.from({ length: keys.length }, (_, i) => i);
  let cmp = (i: number, j: number) => compareKeys(keys[i]!, keys[j]!);
  if (bits && (bits[0] !== 0 || bits[1] !== 32)) {
    const type = keyTypeOf(keys);
    const words = bitsOf(keys);
    const width = bits[1] - bits[0];
    const field = (i: number) => Math.floor(orderWord(type, words[i]!) / 2 ** bits[0]) % 2 ** width;
    cmp = (i, j) => field(i) - field(j);
  }
  index.sort((i, j) => (descending ? cmp(j, i) : cmp(i, j)) || i - j);
  return Uint32Array.from(index);
}

/** `source` gathered by `order`, as a new array of the same type. */
export function gather<A extends SortArray>(source: A, order: Uint32Array): A {
  const out = new (source.constructor as new (n: number) => A)(order.length);
  const from = new Uint32Array(source.buffer, source.byteOffset, source.length);
  const to = new Uint32Array(out.buffer);
  for (let i = 0; i < order.length; i++) to[i] = from[order[i]!]!;
  return out;
}

/** Contents a sort must handle. */
export const KEY_CONTENTS = ['random', 'equal', 'sorted', 'reversed', 'few', 'top-byte', 'specials'] as const;
export type KeyContent = (typeof KEY_CONTENTS)[number];

/** `n` keys of `type` with the given contents, reproducible from `seed`. */
export function makeKeys(type: SortValueType, n: number, content: KeyContent, seed: number): SortArray {
  const rng = createRng(seed);
  const bits = new Uint32Array(n);
  const value = (): number => {
    if (type === 'f32') {
      const f = new Float32Array(1);
      f[0] = (rng.float() - 0.5) * 2 ** rng.int(-20, 20);
      return new Uint32Array(f.buffer)[0]!;
    }
    return rng.u32();
  };
  const specials = [0x7fc00000, 0xffc00001, 0x7f800000, 0xff800000, 0x00000000, 0x80000000, 0x7f7fffff, 0x00000001, 0x80000001];
  for (let i = 0; i < n; i++) {
    if (content === 'equal') bits[i] = type === 'f32' ? 0x3fc00000 : 0x12345678;
    else if (content === 'few') bits[i] = [0x40000000, 0xc0000000, 0x3f800000, 0x00000007][rng.int(0, 3)]!;
    else if (content === 'top-byte') bits[i] = (rng.int(0, 255) << 24) | 0x00abcdef;
    else if (content === 'specials') bits[i] = rng.int(0, 2) === 0 ? specials[rng.int(0, specials.length - 1)]! : value();
    else bits[i] = value();
  }
  const keys = type === 'u32' ? new Uint32Array(bits.buffer) : type === 'i32' ? new Int32Array(bits.buffer) : new Float32Array(bits.buffer);
  if (content === 'sorted' || content === 'reversed') {
    const order = expectedOrder(keys, content === 'reversed');
    return gather(keys, order);
  }
  return keys;
}

/** Bits of a typed array as u32, for bit-exact comparisons (NaN payloads, −0). */
export function bitsOf(a: SortArray): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, a.length);
}

/** `words` viewed as keys of `type` (the same buffer). */
export function arrayOf(type: SortValueType, words: Uint32Array): SortArray {
  return type === 'u32' ? words : type === 'i32' ? new Int32Array(words.buffer) : new Float32Array(words.buffer);
}

/** f32 specials: NaNs with payloads (quiet and signalling, both signs), ±0, ±∞, ±largest, denormals. */
export const F32_SPECIALS: readonly number[] = [
  0x7fc00000, 0x7fc00001, 0xffc12345, 0x7f800001, 0x80000000, 0x00000000, 0x7f800000, 0xff800000, 0x7f7fffff, 0xff7fffff, 0x00000001,
  0x80000001,
];
/** Integer specials (as words): 0, 1, the extremes of i32 and u32 and their neighbours. */
export const INT_SPECIALS: readonly number[] = [0, 1, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 0xfffffffe];

/**
 * `n` keys of `type`, reproducible from `seed`, for the paper's sorts: random, equal, sorted and
 * reversed from `randomData`; few distinct, top byte only, and half specials (`F32_SPECIALS` or
 * `INT_SPECIALS`) half random words.
 */
export function makeEdgeKeys(type: SortValueType, n: number, content: KeyContent, seed: number): SortArray {
  if (content === 'random' || content === 'equal' || content === 'sorted' || content === 'reversed') {
    return randomData(type, n, seed, content);
  }
  const rng = createRng(seed);
  const words = new Uint32Array(n);
  const specials = type === 'f32' ? F32_SPECIALS : INT_SPECIALS;
  for (let i = 0; i < n; i++) {
    if (content === 'few') words[i] = [0x40000000, 0xc0000000, 0x3f800000, 7][rng.int(0, 3)]!;
    else if (content === 'top-byte') words[i] = ((rng.int(0, 255) << 24) | 0x00abcdef) >>> 0;
    else words[i] = rng.int(0, 1) ? specials[rng.int(0, specials.length - 1)]! : rng.u32();
  }
  return arrayOf(type, words);
}

/** `n` values of `type` as raw words: about a quarter NaNs with payloads, which must arrive bit for bit. */
export function makeValues(type: SortValueType, n: number, seed: number): SortArray {
  const rng = createRng(seed);
  const words = Uint32Array.from({ length: n }, () => (rng.int(0, 3) === 0 ? 0x7fc00000 + rng.int(0, 99) : rng.u32()));
  return arrayOf(type, words);
}
