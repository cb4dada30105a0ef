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
  // Counted first, then filled: a typed array, never a JS array of up to 2^27 numbers on the heap.
  let kept = 0;
  for (let i = 0; i < data.length; i++) if (flags[i] !== 0) kept++;
  const out = new Uint32Array(kept);
  for (let i = 0, j = 0; i < data.length; i++) if (flags[i] !== 0) out[j++] = data[i]!;
  return out;
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
  // An LSD radix sort over typed arrays (two passes of 16-bit digits; each pass is stable), not
  // Array.prototype.sort with a comparator, which at 2^28 keys would need gigabytes of JS heap and
  // minutes: the sizes of the issue (2^24, 2^28) must verify in seconds.
  const n = keys.length;
  let k = keys.slice();
  let v = values.slice();
  let kOut = new Uint32Array(n);
  let vOut = new Uint32Array(n);
  const counts = new Uint32Array(1 << 16);
  for (const shift of [0, 16]) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(k[i]! >>> shift) & 0xffff]!++;
    let start = 0;
    for (let d = 0; d < counts.length; d++) {
      const c = counts[d]!;
      counts[d] = start;
      start += c;
    }
    for (let i = 0; i < n; i++) {
      const at = counts[(k[i]! >>> shift) & 0xffff]!++;
      kOut[at] = k[i]!;
      vOut[at] = v[i]!;
    }
    [k, kOut] = [kOut, k];
    [v, vOut] = [vOut, v];
  }
  return { keys: k, values: v };
}
