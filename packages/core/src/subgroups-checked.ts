import type { ScanContext } from './context.js';
import { subgroupProbe } from './subgroup-probe.js';

/**
 * Resolves once `ctx.caps.features.subgroups` is final: at once where the device does not list
 * `subgroups` (or the context was told `subgroups: false`), else when the device's probe has
 * settled. Every array-level function waits for it before it makes its plans. Await it before
 * creating plans yourself where an implementation may list `subgroups` without compiling it
 * (Deno's wgpu): a plan made earlier keeps the subgroup kernels, which fail there. Resolves to
 * `ctx.caps.features.subgroups`.
 *
 * @example
 * ```ts
 * const ctx = createContext(device);
 * await subgroupsChecked(ctx);
 * const plan = createScanPlan(ctx, { type: 'u32' }); // portable kernels if the probe failed
 * ```
 */
export async function subgroupsChecked(ctx: ScanContext): Promise<boolean> {
  const probe = subgroupProbe(ctx.device);
  if (probe) await probe;
  return ctx.caps.features.subgroups;
}
