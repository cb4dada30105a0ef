import type { Verification } from './workload.js';

/** The word written into outputs before a verified run; a primitive that leaves one unwritten fails. */
export const POISON = 0xdeadbeef;

/**
 * A seeded 32-bit generator (mulberry32): the same seed gives the same inputs on every machine.
 *
 * @example
 * ```ts
 * const next = rng(1);
 * next(); // a u32
 * ```
 */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/**
 * `n` random u32 words; with `mask` each is and-ed with it (few distinct values, many duplicates).
 *
 * @example
 * ```ts
 * randomWords(1024, 7, 0xff); // keys 0…255
 * ```
 */
export function randomWords(n: number, seed: number, mask = 0xffffffff): Uint32Array {
  const next = rng(seed);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = (next() & mask) >>> 0;
  return out;
}

/**
 * The positions 0…n-1 as u32 words, filled by a loop: `Uint32Array.from(keys, (_, i) => i)` first
 * collects its source into a JavaScript array, which at 2^28 elements exceeds V8's array length
 * ("invalid array length", the luma run of 2026-12-05 at 2^28 pairs).
 *
 * @example
 * ```ts
 * iota(4); // Uint32Array [0, 1, 2, 3]
 * ```
 */
export function iota(n: number): Uint32Array {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/**
 * `n` flags, each 1 with probability `density` and 0 otherwise.
 *
 * @example
 * ```ts
 * randomFlags(1024, 3, 0.5);
 * ```
 */
export function randomFlags(n: number, seed: number, density: number): Uint32Array {
  const next = rng(seed);
  const limit = density * 2 ** 32;
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = next() < limit ? 1 : 0;
  return out;
}

/** Writes `words` at the start of `buffer`. */
export function writeWords(device: GPUDevice, buffer: GPUBuffer, words: Uint32Array): void {
  device.queue.writeBuffer(buffer, 0, words.buffer, words.byteOffset, words.byteLength);
}

/** Fills the first `n` words of `buffer` with {@link POISON}. */
export function poisonWords(device: GPUDevice, buffer: GPUBuffer, n: number): void {
  writeWords(device, buffer, new Uint32Array(n).fill(POISON));
}

/**
 * Reads the first `n` words of `buffer` back to the host (after the queue's earlier work).
 *
 * @example
 * ```ts
 * const out = await readWords(device, buffer, n);
 * ```
 */
export async function readWords(device: GPUDevice, buffer: GPUBuffer, n: number): Promise<Uint32Array> {
  const size = Math.max(4, 4 * n);
  const staging = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, label: 'luma-baseline read-back' });
  try {
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(buffer, 0, staging, 0, size);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    return new Uint32Array(staging.getMappedRange().slice(0, 4 * n));
  } finally {
    staging.destroy();
  }
}

/**
 * Compares `actual` with `expected` word by word; the detail names the first difference.
 *
 * @example
 * ```ts
 * compareWords('output', got, want); // { ok: true, detail: 'output: 1024 words equal' }
 * ```
 */
export function compareWords(what: string, actual: Uint32Array, expected: Uint32Array): Verification {
  if (actual.length !== expected.length)
    return {
      ok: false,
      detail: `${what}: ${actual.length} words read, ${expected.length} expected`,
      mismatches: Math.abs(actual.length - expected.length),
    };
  let bad = 0;
  let first = -1;
  for (let i = 0; i < expected.length; i++) {
    if (actual[i] !== expected[i]) {
      if (first < 0) first = i;
      bad++;
    }
  }
  if (bad === 0) return { ok: true, detail: `${what}: ${expected.length} words equal` };
  return {
    ok: false,
    detail: `${what}: ${bad} of ${expected.length} words differ, first at [${first}]: got ${actual[first]}, expected ${expected[first]}`,
    mismatches: bad,
  };
}
