/**
 * A dispatch shape for `workgroups` workgroups that respects the per-dimension limit: 1-D when
 * it fits, else 2-D with `x` as wide as allowed. Kernels linearize `wid.x + wid.y * x` and return
 * early past `workgroups`.
 *
 * @example
 * ```ts
 * dispatchShape(70_000, 65_535); // { x: 65535, y: 2 }
 * ```
 */
export function dispatchShape(workgroups: number, maxPerDimension: number): { x: number; y: number } {
  if (workgroups <= maxPerDimension) return { x: Math.max(1, workgroups), y: 1 };
  const y = Math.ceil(workgroups / maxPerDimension);
  return { x: Math.ceil(workgroups / y), y };
}
