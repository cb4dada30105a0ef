import type { ScanContext } from '@scan/core';

/**
 * Whether the single pass of (heads, value) pairs takes the subgroup block scan on `ctx`'s device:
 * not for now. On NVIDIA (H100 and H200, Dawn on Vulkan, 2026-12-06) its subgroup path gave wrong
 * results — unique, unique-by-key and scan-by-key, and an inclusive segmented scan of a user-defined
 * operator, a few tiles in a thousand, starting at a tile's first record — where SwiftShader's
 * 4-wide subgroups never showed it, while the portable block scan is right on both. Until the cause
 * is found, every plan of this kernel takes the portable path.
 *
 * @example
 * ```ts
 * const spec = { ...shape, subgroups: segmentedSubgroups(ctx) };
 * ```
 */
export function segmentedSubgroups(_ctx: ScanContext): boolean {
  return false;
}
