import { createRng } from '@scan/gpu-testing';
import type { SortArray, SortKeyType } from '../src/types.js';

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

/** The stable order of `keys` by `Array.prototype.sort` (descending reverses the key order, not the ties). */
export function expectedOrder(keys: SortArray, descending = false, bits?: readonly [number, number]): Uint32Array {
  const index = Array.from({ length: keys.length }, (_, i) => i);
  let cmp = (i: number, j: number) => compareKeys(keys[i]!, keys[j]!);
  if (bits) {
    // Bit ranges are tested on u32 keys, whose order bits are their bits.
    const width = bits[1] - bits[0];
    const field = (i: number) => Math.floor((keys[i]! >>> 0) / 2 ** bits[0]) % 2 ** width;
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
export function makeKeys(type: SortKeyType, n: number, content: KeyContent, seed: number): SortArray {
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
