// The count of every frame: what a culling pass would leave visible, different every frame, so a
// plan that sized anything by the count (or cached per count) would show it.

/** The PCG hash of the bench's fill kernels (kernels/fill.ts), in JavaScript. */
function pcg(x: number): number {
  const v = (Math.imul(x >>> 0, 747796405) + 2891336453) >>> 0;
  const w = Math.imul(((v >>> ((v >>> 28) + 4)) ^ v) >>> 0, 277803737) >>> 0;
  return ((w >>> 22) ^ w) >>> 0;
}

/**
 * `frames` seeded random counts in [⌈n/2⌉, n], each different from the one before (for n ≥ 2).
 *
 * @example
 * ```ts
 * const counts = frameCountsOf(1024, 330, 1); // 330 counts in [512, 1024]
 * ```
 */
export function frameCountsOf(n: number, frames: number, seed: number): number[] {
  const low = Math.ceil(n / 2);
  const span = n - low + 1;
  const counts: number[] = [];
  for (let k = 0; k < frames; k++) {
    let count = low + (pcg((k ^ pcg(seed + 0x6a09e667)) >>> 0) % span);
    // A repeated count would let a plan that caches per count look better than it is.
    if (k > 0 && count === counts[k - 1] && span > 1) count = count === n ? low : count + 1;
    counts.push(count);
  }
  return counts;
}
