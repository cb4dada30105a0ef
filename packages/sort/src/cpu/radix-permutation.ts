// The engine of the CPU references: a stable LSD radix sort of 32-bit unsigned "order values",
// returning the permutation rather than moving keys, so keys and values of any type are gathered
// afterwards through 32-bit views (bit for bit: NaN payloads survive, which a Float32Array
// assignment would not promise). Comparator sorts are ~10× slower at 2^21 keys.

/** Digits are at most this wide: 2^11 counters stay in L1, and 32 bits take 3 passes. */
const MAX_DIGIT_BITS = 11;

/**
 * The stable permutation that sorts `order` (values below 2^width) ascending: `result[i]` is the
 * index of the i-th smallest, equal values in index order. `order` is left as it was.
 *
 * @example
 * ```ts
 * radixPermutation(new Uint32Array([3, 1, 3, 0]), 2); // Uint32Array [3, 1, 0, 2]
 * ```
 */
export function radixPermutation(order: Uint32Array, width: number): Uint32Array {
  const n = order.length;
  const identity = new Uint32Array(n);
  for (let i = 0; i < n; i++) identity[i] = i;
  if (n < 2 || width <= 0) return identity;
  // Balanced digits (32 bits: 11 + 11 + 10, 16 bits: 8 + 8) keep every pass equally cheap.
  const passes = Math.ceil(width / MAX_DIGIT_BITS);
  const digitBits = Math.ceil(width / passes);
  const radix = 1 << digitBits;
  const mask = radix - 1;
  // All histograms in one read of the order values.
  const counts = new Uint32Array(passes * radix);
  for (let i = 0; i < n; i++) {
    const v = order[i]!;
    for (let p = 0; p < passes; p++) counts[p * radix + ((v >>> (p * digitBits)) & mask)]!++;
  }
  let keys = order;
  let index = identity;
  // Scratch ping-ponged between passes: `spare` is the buffer not holding `keys`, allocated on
  // first use; the caller's `order` is read, never scattered into.
  let spare: Uint32Array | undefined;
  let indexOut = new Uint32Array(n);
  const offsets = new Uint32Array(radix);
  for (let p = 0; p < passes; p++) {
    const shift = p * digitBits;
    const base = p * radix;
    // A digit that every value shares moves nothing: skip the pass (common for narrow data).
    if (counts[base + ((keys[0]! >>> shift) & mask)] === n) continue;
    let sum = 0;
    for (let d = 0; d < radix; d++) {
      offsets[d] = sum;
      sum += counts[base + d]!;
    }
    const keysOut = spare ?? new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const v = keys[i]!;
      const at = offsets[(v >>> shift) & mask]!++;
      keysOut[at] = v;
      indexOut[at] = index[i]!;
    }
    spare = keys === order ? undefined : keys;
    keys = keysOut;
    const done = indexOut;
    indexOut = index; // `identity` included: ours, and not needed once a pass has run
    index = done;
  }
  return index;
}
