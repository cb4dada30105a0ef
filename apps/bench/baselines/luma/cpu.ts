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

/**
 * Ascending sort of u32 words (an LSD radix sort, two passes of 16-bit digits over typed arrays, so
 * 2^28 words sort in seconds without a JavaScript array on the heap).
 *
 * @example
 * ```ts
 * cpuSortWords(new Uint32Array([3, 1, 2])); // [1, 2, 3]
 * ```
 */
export function cpuSortWords(words: Uint32Array): Uint32Array {
  let k = words.slice();
  let out = new Uint32Array(words.length);
  const counts = new Uint32Array(1 << 16);
  for (const shift of [0, 16]) {
    counts.fill(0);
    for (let i = 0; i < k.length; i++) counts[(k[i]! >>> shift) & 0xffff]!++;
    let start = 0;
    for (let d = 0; d < counts.length; d++) {
      const c = counts[d]!;
      counts[d] = start;
      start += c;
    }
    for (let i = 0; i < k.length; i++) out[counts[(k[i]! >>> shift) & 0xffff]!++] = k[i]!;
    [k, out] = [out, k];
  }
  return k;
}

/**
 * luma.gl's documented equal-width binning of u32 samples (`GPUHistogram` with a literal domain
 * `[min, max]`, both inclusive): a sample outside the domain is ignored, `max` falls in the last
 * bin, any other `v` in bin ⌊(v − min) · bins / (max − min)⌋ (exact integer arithmetic, as luma's
 * shader computes it). Counts per bin.
 *
 * @example
 * ```ts
 * cpuLumaHistogram(new Uint32Array([0, 0x80000000, 0xffffffff]), 2, 0, 0xffffffff); // [1, 2]
 * ```
 */
export function cpuLumaHistogram(samples: Uint32Array, bins: number, min: number, max: number): Uint32Array {
  const counts = new Uint32Array(bins);
  const width = max - min;
  for (let i = 0; i < samples.length; i++) {
    const v = samples[i]!;
    if (v < min || v > max) continue;
    if (max === min || v === max) {
      counts[bins - 1]!++;
      continue;
    }
    // (v − min) · bins < 2^32 · 2^16 = 2^48: exact in a double; the quotient is floored and then
    // corrected by one where the division rounded across an integer.
    const num = (v - min) * bins;
    let q = Math.floor(num / width);
    if (q * width > num) q--;
    else if ((q + 1) * width <= num) q++;
    counts[q]!++;
  }
  return counts;
}

/**
 * Lower bounds of ascending `queries` in ascending `sorted`: for each query the first position
 * whose key is not below it (`sorted.length` if none), by one merge walk over both.
 *
 * @example
 * ```ts
 * cpuLowerBoundSorted(new Uint32Array([1, 3, 3, 5]), new Uint32Array([0, 3, 4, 9])); // [0, 1, 3, 4]
 * ```
 */
export function cpuLowerBoundSorted(sorted: Uint32Array, queries: Uint32Array): Uint32Array {
  const out = new Uint32Array(queries.length);
  let j = 0;
  for (let i = 0; i < queries.length; i++) {
    const q = queries[i]!;
    if (i > 0 && q < queries[i - 1]!) throw new Error(`cpuLowerBoundSorted: queries decrease at [${i}]`);
    while (j < sorted.length && sorted[j]! < q) j++;
    out[i] = j;
  }
  return out;
}

/**
 * Sum of the values of each dense group key 0…groups−1 (keys ≥ groups ignored), in doubles.
 *
 * @example
 * ```ts
 * cpuGroupSums(new Uint32Array([0, 0, 1]), new Float32Array([1, 2, 3]), 2); // [3, 3]
 * ```
 */
export function cpuGroupSums(keys: Uint32Array, values: Float32Array, groups: number): Float64Array {
  const sums = new Float64Array(groups);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (k < groups) sums[k]! += values[i]!;
  }
  return sums;
}

/**
 * Segmented exclusive prefix sum (wrapping u32 add): the sum restarts at 0 at every element whose
 * flag is not 0, and at element 0.
 *
 * @example
 * ```ts
 * cpuSegmentedScan(new Uint32Array([1, 2, 3, 4]), new Uint32Array([1, 0, 1, 0])); // [0, 1, 0, 3]
 * ```
 */
export function cpuSegmentedScan(data: Uint32Array, flags: Uint32Array): Uint32Array {
  const out = new Uint32Array(data.length);
  let sum = 0;
  for (let i = 0; i < data.length; i++) {
    if (i === 0 || flags[i] !== 0) sum = 0;
    out[i] = sum;
    sum = (sum + data[i]!) >>> 0;
  }
  return out;
}
