import type { ScanContext } from '@scan/core';
import { packedFlagWords } from '@scan/segmented';
import { packHeadFlags, unpackHeadFlags } from '@scan/segmented/cpu';
import { encodeFill } from '../../child/device-ops.js';
import { BufferPool, encodeKernel, readWords, submitAndWait } from '../../child/gpu.js';
import { headBitsKernel, headCountKernel, headThreshold } from '../../child/kernels/head-bits.js';
import { countDifferences } from '../../child/workload.js';

/** Inputs of a segmented case, generated on the GPU. */
export interface SegmentedData {
  readonly pool: BufferPool;
  /** Elements. */
  readonly n: number;
  /** n random u32. */
  readonly input: GPUBuffer;
  /** ⌈n/32⌉ words of bit-packed head flags. */
  readonly headBits: GPUBuffer;
  /** Heads in `headBits`, counted on the GPU (element 0 included). */
  readonly segments: number;
}

/** What the inputs of a segmented case depend on. */
export type SegmentInputs = { readonly n: number; readonly seed: number; readonly segmentMean: number };

/** Offset between the data's seed and the head flags' seed, so the two hash streams differ. */
const HEAD_SEED_OFFSET = 0x9e3779b9;

/**
 * Allocates and generates the inputs of a segmented case on the GPU: random u32 data, head bits
 * where each element is a head with probability 1/`c.segmentMean` (element 0 always), and the
 * number of segments (a 4-byte read-back).
 *
 * @example
 * ```ts
 * const d = await prepareSegments(ctx, c, 'segmented-scan');
 * ```
 */
export async function prepareSegments(ctx: ScanContext, c: SegmentInputs, label: string): Promise<SegmentedData> {
  const n = c.n;
  const words = packedFlagWords(n);
  const pool = new BufferPool(ctx);
  const input = pool.storage(4 * n, `${label} input`);
  const headBits = pool.storage(4 * words, `${label} head bits`);
  const total = pool.storage(4, `${label} segment count`);
  const encoder = ctx.device.createCommandEncoder();
  encodeFill(ctx, pool, encoder, input, n, 'random', c.seed);
  const headParams = pool.params(headBitsKernel, { n, seed: c.seed + HEAD_SEED_OFFSET, threshold: headThreshold(c.segmentMean) });
  encodeKernel(ctx, encoder, headBitsKernel, { bits: headBits, params: headParams }, { invocations: words });
  encoder.clearBuffer(total);
  const countParams = pool.params(headCountKernel, { n });
  encodeKernel(ctx, encoder, headCountKernel, { bits: headBits, total, params: countParams }, { invocations: words });
  await submitAndWait(ctx, encoder);
  const [segments] = await readWords(ctx, total, 1);
  return { pool, n, input, headBits, segments: segments! };
}

/**
 * Reads the head bits back as one 0/1 flag per element (small sizes only), and counts the words
 * that break the layout the plans expect (element 0's bit set, bits past n clear) by packing the
 * flags again with the CPU reference's `packHeadFlags`.
 *
 * @example
 * ```ts
 * const { flags, layoutErrors } = await readHeadFlags(ctx, d.headBits, n);
 * ```
 */
export async function readHeadFlags(
  ctx: ScanContext,
  headBits: GPUBuffer,
  n: number,
): Promise<{ flags: Uint8Array; layoutErrors: number }> {
  const words = await readWords(ctx, headBits, packedFlagWords(n));
  const flags = unpackHeadFlags(words, n);
  return { flags, layoutErrors: countDifferences(packHeadFlags(flags), words) };
}
