// The device of the root README's first quick start, as users wrote it: `subgroups` requested
// whether or not the adapter lists it. Deno's wgpu accepts the request and reports the feature,
// yet naga rejects `enable subgroups;`; core's subgroup probe must notice, so that every package
// takes its portable kernels instead of failing with GPU_ERROR (issue 46, item 3).
import { createContext, type ScanContext, subgroupsChecked } from '@scan/core';
import type { NodeCase } from './case.js';
import { NODE_CASES } from './cases/index.js';

/** A context on a device asked for `subgroups` unconditionally, and what the device said. */
export interface QuickStartContext {
  readonly ctx: ScanContext;
  /** The device lists `subgroups` (the request was accepted). */
  readonly listed: boolean;
  /** `ctx.caps.features.subgroups` once the probe has settled: whether kernels use subgroups. */
  readonly used: boolean;
}

/**
 * A new device requested as the README's quick start did (`requiredFeatures: ['subgroups']`),
 * wrapped in a context, with the subgroup probe settled. Where `requestDevice` refuses the
 * feature, the device is requested without it (the quick start would have thrown there: nothing
 * of ours to check).
 *
 * @example
 * ```ts
 * const { ctx, listed, used } = await quickStartContext();
 * console.log(`subgroups listed ${listed}, used ${used}`); // listed true, used false under Deno
 * ```
 */
export async function quickStartContext(): Promise<QuickStartContext> {
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) throw new Error('navigator.gpu.requestAdapter() returned null');
  const device = await adapter
    .requestDevice({ label: 'README quick start', requiredFeatures: ['subgroups'] })
    .catch(() => adapter.requestDevice({ label: 'README quick start (no subgroups)' }));
  const ctx = createContext(device, { adapterInfo: adapter.info });
  const used = await subgroupsChecked(ctx);
  return { ctx, listed: device.features.has('subgroups'), used };
}

/**
 * One case of each package that has subgroup kernels (the first of core, segmented, sort and
 * spmv), to run on the quick-start device: each must fall back to its portable kernels.
 *
 * @example
 * ```ts
 * for (const c of quickStartCases()) await runCase(ctx, c, 4097, 4097);
 * ```
 */
export function quickStartCases(): NodeCase[] {
  return ['core.', 'segmented.', 'sort.', 'spmv.'].flatMap((prefix) => NODE_CASES.find((c) => c.name.startsWith(prefix)) ?? []);
}
