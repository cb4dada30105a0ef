import type { ElementType, ScanContext } from '@scan/core';
import type { Case, CaseSelection, CaseShape, PlanTuning } from '../../case-types.js';
import type { CheckOutcome } from '../../child/device-ops.js';
import { encodeFill, runCheck } from '../../child/device-ops.js';
import { BufferPool, encodeKernel, readWords, submitAndWait } from '../../child/gpu.js';
import { checkPartitionKernel, type PartitionMode } from '../../child/kernels/check-partition.js';
import { MAX_F32_INDEX } from '../../child/kernels/common.js';
import { densityThreshold, type FillMode } from '../../child/kernels/fill.js';
import { flagBytesKernel } from '../../child/kernels/flag-bytes.js';
import { POISON } from '../../child/workload.js';
import { countOnesBuffer } from './flags.js';

// What split and pack (and the frame cases' pack) share: their case fields and configurations,
// and their inputs and check on the GPU.

/** Split and pack algorithms the bench runs side by side (the names of `createPackPlan`'s `algorithm`). */
export const COMPACT_ALGORITHM_NAMES = ['single-pass', 'scan-then-scatter'] as const;
export type CompactAlgorithmName = (typeof COMPACT_ALGORITHM_NAMES)[number];

/** The fields of a split or pack case. */
export type CompactFields = {
  /** The plan's algorithm. */
  readonly algorithm: CompactAlgorithmName;
  /** How the plan reads the flags: a u32 or a byte each. */
  readonly flagType: 'u32' | 'u8';
  /** Fraction of 1-flags (`--density`). */
  readonly density: number;
  /** Internal plan options of a sweep (`--tuning`); absent in ordinary runs. */
  readonly tuning?: PlanTuning;
};

/**
 * The configurations of split or pack: the one-pass kernels with u32 and with u8 flags, beside the
 * paper's scan-then-scatter on u32 flags, at the selection's density (and `--tuning`, when given).
 *
 * @example
 * ```ts
 * compactShapes('split', selection).map((s) => `${s.algorithm} ${s.flagType}`); // ['single-pass u32', 'single-pass u8', 'scan-then-scatter u32']
 * ```
 */
export function compactShapes<P extends PartitionMode>(
  primitive: P,
  selection: Pick<CaseSelection, 'density' | 'tuning'>,
): CaseShape<Case<P, CompactFields>>[] {
  const extra = { density: selection.density, ...(selection.tuning ? { tuning: selection.tuning } : {}) };
  return [
    { primitive, algorithm: 'single-pass', type: 'u32', flagType: 'u32', ...extra },
    { primitive, algorithm: 'single-pass', type: 'u32', flagType: 'u8', ...extra },
    { primitive, algorithm: 'scan-then-scatter', type: 'u32', flagType: 'u32', ...extra },
  ];
}

/** What the inputs of a split or pack depend on. */
export type PartitionInputs = { readonly n: number; readonly seed: number; readonly type: ElementType } & Pick<
  CompactFields,
  'flagType' | 'density'
>;

/** Buffers shared by split and pack: index-encoded data, random flags, output, and the count word. */
export interface PartitionData {
  readonly pool: BufferPool;
  readonly data: GPUBuffer;
  readonly flags: GPUBuffer;
  readonly output: GPUBuffer;
  /** Where the plan writes `falseCount` / `packedCount` (word 0). */
  readonly count: GPUBuffer;
  /** The flags as the plan reads them: `flags` itself, or one byte per flag for u8-flag cases. */
  readonly planFlags: GPUBuffer;
  /** Word 0: the 1-flags, counted by the bench. */
  readonly onesBuffer: GPUBuffer;
  readonly ones: number;
  /** Checks the output of the last run (see `checkPartitionKernel`). */
  verify(): Promise<CheckOutcome>;
}

function iotaMode(type: ElementType): FillMode {
  return type === 'f32' ? 'iota-f32' : type === 'i32' ? 'iota-i32' : 'iota-u32';
}

/**
 * Generates the inputs of a split or pack case on the GPU: `data[i]` encodes i (so each output
 * names its source), flags have `--density` ones; the output is poisoned.
 *
 * @example
 * ```ts
 * const d = await preparePartition(ctx, c, 'split');
 * ```
 */
export async function preparePartition(ctx: ScanContext, c: PartitionInputs, mode: PartitionMode): Promise<PartitionData> {
  const n = c.n;
  if (c.type === 'f32' && n > MAX_F32_INDEX) throw new Error(`f32 ${mode} checks encode indices below 2^30; n = ${n}`);
  const pool = new BufferPool(ctx);
  const data = pool.storage(4 * n, `${mode} data`);
  const flags = pool.storage(4 * n, `${mode} flags`);
  const output = pool.storage(4 * n, `${mode} output`);
  const count = pool.storage(16, `${mode} count`);
  const setup = ctx.device.createCommandEncoder();
  encodeFill(ctx, pool, setup, data, n, iotaMode(c.type), 0);
  encodeFill(ctx, pool, setup, flags, n, 'flags', c.seed, densityThreshold(c.density));
  encodeFill(ctx, pool, setup, output, n, 'constant', 0, POISON);
  encodeFill(ctx, pool, setup, count, 4, 'constant', 0, POISON);
  await submitAndWait(ctx, setup);
  // u8-flag cases: the same flags, packed four to a word on the GPU; the checks read the u32 ones.
  let planFlags = flags;
  if (c.flagType === 'u8') {
    planFlags = pool.storage(4 * Math.ceil(n / 4), `${mode} flag bytes`);
    const pack = ctx.device.createCommandEncoder();
    const params = pool.params(flagBytesKernel, { n });
    encodeKernel(ctx, pack, flagBytesKernel, { flags, bytes: planFlags, params }, { invocations: Math.ceil(n / 4) });
    await submitAndWait(ctx, pack);
  }
  const onesBuffer = await countOnesBuffer(ctx, pool, flags, n);
  const [ones] = await readWords(ctx, onesBuffer, 1);
  const kernel = checkPartitionKernel({ mode, type: c.type });
  return {
    pool,
    data,
    flags,
    planFlags,
    output,
    count,
    onesBuffer,
    ones: ones!,
    verify: () =>
      runCheck(ctx, pool, (encoder, errors) =>
        encodeKernel(
          ctx,
          encoder,
          kernel,
          { out: output, flags, reported: count, ones: onesBuffer, err: errors, params: pool.params(kernel, { n }) },
          { invocations: n },
        ),
      ),
  };
}
