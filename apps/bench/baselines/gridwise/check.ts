import { rng } from '../luma/data.js';

// The gridwise runner's inputs, bytes model and output check: no gridwise code here, so tests import it.

/** The key types the runner sorts: gridwise's u32 and u64 (`vec2u`, low word first, as a `BigUint64Array`). */
export const GRIDWISE_KEY_TYPES = ['u32', 'u64'] as const;
/** One of {@link GRIDWISE_KEY_TYPES}. */
export type GridwiseKeyType = (typeof GRIDWISE_KEY_TYPES)[number];

/** 32-bit words per key. */
export function wordsPerKey(type: GridwiseKeyType): number {
  return type === 'u64' ? 2 : 1;
}

/**
 * The bytes of the bench's one-sweep model for keys of `type` (`apps/bench/src/metrics.ts`, `sort`,
 * at any key width w bytes): read the keys once for the histograms, then w (8-bit digit) passes that
 * each read and write them: n·w + w·2·n·w — 36·n for u32 (the bench's `sort`), 136·n for u64.
 *
 * @example
 * ```ts
 * sortBytes('u64', 1024); // 139264
 * ```
 */
export function sortBytes(type: GridwiseKeyType, n: number): number {
  const w = 4 * wordsPerKey(type);
  return n * w + w * 2 * n * w;
}

/** What a check of a sorted output found. */
export interface SortCheck {
  readonly ok: boolean;
  readonly detail: string;
  /** Descents (key i+1 < key i) plus 1 when the multiset checksum differs. */
  readonly mismatches: number;
}

/** An order-independent checksum of the keys (a sum of mixed words mod 2^32 and a sum of the raw words), so a sorted output with a key lost or duplicated fails. */
export function keyChecksum(words: Uint32Array, perKey: number): [number, number] {
  let mixed = 0;
  let plain = 0;
  for (let i = 0; i < words.length; i += perKey) {
    const lo = words[i]!;
    const hi = perKey === 2 ? words[i + 1]! : 0;
    let h = Math.imul(lo ^ Math.imul(hi ^ 0x5bd1e995, 0x9e3779b1), 0x85ebca6b);
    h ^= h >>> 13;
    mixed = (mixed + Math.imul(h, 0xc2b2ae35)) >>> 0;
    plain = (plain + lo + hi) >>> 0;
  }
  return [mixed, plain];
}

/**
 * Checks that `out` is `input` sorted ascending: no descents (keys compared as unsigned 32- or
 * 64-bit numbers) and the same checksum (so nothing was lost or duplicated). This is what a
 * `failed` record counts; the whole output is read, no key is skipped.
 *
 * @example
 * ```ts
 * checkSorted(new Uint32Array([3, 1]), new Uint32Array([1, 3]), 'u32').ok; // true
 * ```
 */
export function checkSorted(input: Uint32Array, out: Uint32Array, type: GridwiseKeyType, inputSum?: [number, number]): SortCheck {
  const perKey = wordsPerKey(type);
  if (out.length !== input.length)
    return { ok: false, detail: `read ${out.length} words, expected ${input.length}`, mismatches: input.length };
  let descents = 0;
  let first = -1;
  for (let i = perKey; i < out.length; i += perKey) {
    const hiA = perKey === 2 ? out[i - 1]! : 0;
    const hiB = perKey === 2 ? out[i + 1]! : 0;
    const less = hiB < hiA || (hiB === hiA && out[i]! < out[i - perKey]!);
    if (less) {
      if (first < 0) first = i / perKey;
      descents++;
    }
  }
  const want = inputSum ?? keyChecksum(input, perKey);
  const got = keyChecksum(out, perKey);
  const sumBad = got[0] !== want[0] || got[1] !== want[1] ? 1 : 0;
  const n = input.length / perKey;
  if (descents === 0 && sumBad === 0) return { ok: true, detail: `${n} ${type} keys ascending, checksum equal`, mismatches: 0 };
  return {
    ok: false,
    detail: `${n} ${type} keys: ${descents} descents${first >= 0 ? ` (first at [${first}])` : ''}, checksum ${sumBad ? 'differs' : 'equal'}`,
    mismatches: descents + sumBad,
  };
}

/** Random keys: every bit random (u64: two random words per key). */
export function randomKeys(type: GridwiseKeyType, n: number, seed: number): Uint32Array {
  const next = rng(seed);
  const words = new Uint32Array(n * wordsPerKey(type));
  for (let i = 0; i < words.length; i++) words[i] = next() >>> 0;
  return words;
}
