/**
 * CPU references the GPU results are checked against (u32 arithmetic wraps modulo 2^32). Written
 * here, independently of both luma.gl and `@scan/core/cpu`.
 */

/**
 * Exclusive (or inclusive) prefix sum.
 *
 * @example
 * ```ts
 * cpuScan(new Uint32Array([1, 2, 3]), false); // [0, 1, 3]
 * ```
 */
export function cpuScan(data: Uint32Array, inclusive: boolean): Uint32Array {
  const out = new Uint32Array(data.length);
  let sum = 0;
  for (let i = 0; i < data.length; i++) {
    if (inclusive) sum = (sum + data[i]!) >>> 0;
    out[i] = sum;
    if (!inclusive) sum = (sum + data[i]!) >>> 0;
  }
  return out;
}

/**
 * Sum of all words.
 *
 * @example
 * ```ts
 * cpuSum(new Uint32Array([0xffffffff, 2])); // 1
 * ```
 */
export function cpuSum(data: Uint32Array): number {
  let sum = 0;
  for (let i = 0; i < data.length; i++) sum = (sum + data[i]!) >>> 0;
  return sum;
}

/**
 * The elements whose flag is not 0, in order.
 *
 * @example
 * ```ts
 * cpuPack(new Uint32Array([5, 6, 7]), new Uint32Array([1, 0, 1])); // [5, 7]
 * ```
 */
export function cpuPack(data: Uint32Array, flags: Uint32Array): Uint32Array {
  const out: number[] = [];
  for (let i = 0; i < data.length; i++) if (flags[i] !== 0) out.push(data[i]!);
  return Uint32Array.from(out);
}

/**
 * Stable ascending sort of key–value pairs (equal keys keep their input order).
 *
 * @example
 * ```ts
 * cpuSortPairs(new Uint32Array([2, 1, 2]), new Uint32Array([0, 1, 2])); // keys [1, 2, 2], values [1, 0, 2]
 * ```
 */
export function cpuSortPairs(keys: Uint32Array, values: Uint32Array): { keys: Uint32Array; values: Uint32Array } {
  const order = Array.from(keys.keys()).sort((a, b) => keys[a]! - keys[b]! || a - b);
  return { keys: Uint32Array.from(order, (i) => keys[i]!), values: Uint32Array.from(order, (i) => values[i]!) };
}
