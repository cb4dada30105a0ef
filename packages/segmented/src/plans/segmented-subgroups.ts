import type { ScanContext } from '@scan/core';

/**
 * Whether the single pass of (heads, value) pairs takes the subgroup block scan on `ctx`'s device:
 * wherever the device has subgroups. (From 2edc3e7 to this change it never did: on NVIDIA, H100
 * and H200 through Dawn on Vulkan, the subgroup path gave wrong unique, unique-by-key, scan-by-key
 * and user-operator segmented scans. The cause, found on an H100 on 2026-12-07: the pair's combine
 * returned early from inside a branch, and inlined between shuffles that left the subgroup's
 * invocations unconverged at the next shuffle; every function the pass calls between subgroup
 * operations now has one exit.) Kept as the one switch for this kernel's subgroup path.
 *
 * @example
 * ```ts
 * const spec = { ...shape, subgroups: segmentedSubgroups(ctx) };
 * ```
 */
export function segmentedSubgroups(ctx: ScanContext): boolean {
  return ctx.caps.features.subgroups;
}
