import type { ScanContext } from '../context.js';

/** The decoupled-fallback kernel shape a chunk runs, by its count. */
export interface ScanTier {
  /** Which tier it is (the kernels of the tiers differ by their shape below). */
  readonly name: 'one-workgroup' | 'small' | 'large';
  /** One workgroup walks the tiles (no status, no look-back), or tiles chained by the look-back. */
  readonly oneWorkgroup: boolean;
  readonly workgroupSize: number;
  readonly slotsPerThread: number;
}

/** Tuning of the tiers (internal options of the scan plan; the bench's sweeps and the tests set them). */
export interface ScanTierTuning {
  /** Invocations and vec4 slots per invocation of the chained kernel for large counts. */
  readonly workgroupSize?: number;
  readonly slotsPerThread?: number;
  /** The largest count one workgroup scans alone; 0 turns that path off. */
  readonly oneWorkgroupMax?: number;
  readonly oneWorkgroupSize?: number;
  readonly oneWorkgroupSlots?: number;
  /** The fallback test hook keeps every count on the chained kernel. */
  readonly forceFallback?: boolean;
}

/** Counts up to this take the small chained kernel (measured on the H100: see `scanTiers`). */
const SMALL_MAX = 1 << 20;

/**
 * The decoupled-fallback scan's kernel for each count, from measurements on the H100 (BENCHMARKS.md,
 * "Small sizes"; timestamps with the clocks held up):
 *
 * - up to 4096 elements, **one workgroup** of 256 × 4 vec4s walks the tiles: one dispatch and no
 *   status to clear (10.3–10.9 µs at 2^10–2^12, against 13.2–15.3 chained);
 * - up to 2^20, **small tiles** chained, 256 invocations × 2 vec4s (12.2 µs at 2^16 against 16.5 for
 *   the large tiles: short tiles finish and publish sooner, and more of them fill the GPU);
 * - beyond, the **large tiles** the device allows (1024 × 4 on the H100: 0.92× copy at 2^28).
 *
 * A device with fewer invocations gets the same tiers at its limit. Explicit tuning (`workgroupSize`,
 * `slotsPerThread`) replaces the small and large tiers by what it names.
 *
 * @example
 * ```ts
 * const tierOf = scanTiers(ctx, 1024, {});
 * tierOf(1 << 16); // { name: 'small', oneWorkgroup: false, workgroupSize: 256, slotsPerThread: 2 }
 * ```
 */
export function scanTiers(ctx: ScanContext, largeWorkgroupSize: number, tuning: ScanTierTuning): (count: number) => ScanTier {
  const limit = Math.min(ctx.caps.limits.maxComputeInvocationsPerWorkgroup, ctx.caps.limits.maxComputeWorkgroupSizeX);
  const narrow = Math.min(256, limit);
  const large: ScanTier = {
    name: 'large',
    oneWorkgroup: false,
    workgroupSize: largeWorkgroupSize,
    slotsPerThread: tuning.slotsPerThread ?? 4,
  };
  const tuned = tuning.workgroupSize !== undefined || tuning.slotsPerThread !== undefined;
  const small: ScanTier = tuned
    ? { ...large, name: 'small' }
    : { name: 'small', oneWorkgroup: false, workgroupSize: narrow, slotsPerThread: 2 };
  const one: ScanTier = {
    name: 'one-workgroup',
    oneWorkgroup: true,
    workgroupSize: Math.min(tuning.oneWorkgroupSize ?? narrow, limit),
    slotsPerThread: tuning.oneWorkgroupSlots ?? 4,
  };
  const oneMax = tuning.forceFallback ? 0 : (tuning.oneWorkgroupMax ?? 4 * one.workgroupSize * one.slotsPerThread);
  return (count) => (count <= oneMax ? one : count <= SMALL_MAX ? small : large);
}
