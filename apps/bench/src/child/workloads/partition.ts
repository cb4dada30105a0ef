import type { ElementType, ScanContext } from '@scan/core';
import type { BenchCase, CompactAlgorithmName } from '../../case-types.js';
import type { CheckOutcome } from '../device-ops.js';
import { encodeFill, runCheck } from '../device-ops.js';
import { BufferPool, encodeKernel, readWords, submitAndWait } from '../gpu.js';
import { checkPartitionWgsl, type PartitionMode } from '../kernels/check-partition.js';
import { MAX_F32_INDEX } from '../kernels/common.js';
import { densityThreshold, type FillMode } from '../kernels/fill.js';
import { flagBytesWgsl } from '../kernels/flag-bytes.js';
import { POISON } from '../workload.js';
import { countOnesBuffer } from './flags.js';

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
  /** Checks the output of the last run (see `checkPartitionWgsl`). */
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
export async function preparePartition(ctx: ScanContext, c: BenchCase, mode: PartitionMode): Promise<PartitionData> {
  const n = c.n;
  if (c.type === 'f32' && n > MAX_F32_INDEX) throw new Error(`f32 ${mode} checks encode indices below 2^30; n = ${n}`);
  const pool = new BufferPool(ctx);
  const data = pool.storage(4 * n, `${mode} data`);
  const flags = pool.storage(4 * n, `${mode} flags`);
  const output = pool.storage(4 * n, `${mode} output`);
  const count = pool.storage(16, `${mode} count`);
  const setup = ctx.device.createCommandEncoder();
  encodeFill(ctx, pool, setup, data, n, iotaMode(c.type), 0);
  encodeFill(ctx, pool, setup, flags, n, 'flags', c.seed, densityThreshold(c.density ?? 0.5));
  encodeFill(ctx, pool, setup, output, n, 'constant', 0, POISON);
  encodeFill(ctx, pool, setup, count, 4, 'constant', 0, POISON);
  await submitAndWait(ctx, setup);
  // u8-flag cases: the same flags, packed four to a word on the GPU; the checks read the u32 ones.
  let planFlags = flags;
  if (c.flagType === 'u8') {
    planFlags = pool.storage(4 * Math.ceil(n / 4), `${mode} flag bytes`);
    const pack = ctx.device.createCommandEncoder();
    encodeKernel(ctx, pack, { key: 'bench/flag-bytes', wgsl: flagBytesWgsl }, [flags, planFlags, pool.params(n)], {
      invocations: Math.ceil(n / 4),
    });
    await submitAndWait(ctx, pack);
  }
  const onesBuffer = await countOnesBuffer(ctx, pool, flags, n);
  const [ones] = await readWords(ctx, onesBuffer, 1);
  const kernel = { key: `bench/check-partition/${mode}/${c.type}`, wgsl: () => checkPartitionWgsl(mode, c.type) };
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
        encodeKernel(ctx, encoder, kernel, [output, flags, count, onesBuffer, errors, pool.params(n)], { invocations: n }),
      ),
  };
}

/**
 * The algorithm of a split or pack case (`'single-pass'` unless the case names another).
 *
 * @example
 * ```ts
 * createPackPlan(ctx, { algorithm: compactAlgorithmOf(c) });
 * ```
 */
export function compactAlgorithmOf(c: BenchCase): CompactAlgorithmName {
  return c.algorithm === 'scan-then-scatter' ? 'scan-then-scatter' : 'single-pass';
}
