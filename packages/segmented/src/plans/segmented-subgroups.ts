import type { Operator, ScanContext } from '@scan/core';

/**
 * Whether the single pass of (heads, value) pairs — user-operator segmented scans and reductions,
 * the by-key family — takes subgroups on `ctx`'s device: not yet, on any device.
 *
 * Its subgroup path gave wrong results on NVIDIA (H100 and H200, Dawn on Vulkan): the pair's combine
 * returned from inside a branch, and inlined between shuffles that left the subgroup's invocations
 * unconverged at the next shuffle (found on an H100, 2026-12-07; SwiftShader never showed it). The
 * generators are fixed — every function the pass calls between subgroup operations has one exit,
 * held by `test/one-exit.test.ts` — and the same change applied as a patch to the old build's WGSL
 * was right on the H100 at 2^20 and 2^24. The fixed build itself has not run on an NVIDIA card yet,
 * so the pass stays on the portable block scan (right everywhere, slower) until it has: then this
 * returns `operatorSubgroups(ctx, op)`.
 *
 * @example
 * ```ts
 * const spec = { ...shape, subgroups: segmentedSubgroups(ctx, op) };
 * ```
 */
export function segmentedSubgroups<T>(_ctx: ScanContext, _op: Operator<T>): boolean {
  return false;
}
