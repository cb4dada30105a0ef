import { assertUsable, type ScanContext } from '../context.js';
import { dispatchShape } from '../dispatch.js';
import { checkElementType, type ElementType } from '../element-types.js';
import { distributeKernel } from '../kernels/distribute.js';
import { checkBoolean, checkOptions } from '../validate.js';
import { AUX_WORDS, chunkParamValues, maxChunkElements, splitIntoChunks, stageTailIn, stageTailOut, vecRange } from './chunks.js';
import { RecipeExecutor } from './executor.js';
import { checkCopyUsage, checkEncodeArgs } from './plan-args.js';
import { planOf } from './plan-of.js';
import { type Recipe, RecipeBuilder } from './recipe.js';
import { createScanPlan } from './scan-plan.js';
import type { CountSource, Plan, ScanAlgorithm } from './types.js';

/** Options of {@link createEnumeratePlan}. */
export interface EnumeratePlanOptions {
  /** Count the true flags after each element instead of before it. */
  backward?: boolean;
  /** Scan algorithm used underneath (default `'auto'`). */
  algorithm?: ScanAlgorithm;
  maxCount?: number;
  maxChunkElements?: number;
}

/** Buffers of one enumerate: u32 0/1 `flags` in, u32 counts out. */
export interface EnumerateEncodeArgs extends CountSource {
  flags: GPUBuffer;
  output: GPUBuffer;
}

/**
 * Enumerate at the buffer level: `output[i]` = the number of 1-flags before `i` (backward: after).
 * It is the exclusive add-scan of the flags (paper §2.3.1); flags must be 0 or 1 (not checked on
 * the GPU — the array-level `enumerate` checks them). It holds what its scan plan holds (see
 * `createScanPlan`), takes a GPU count the same way, and creates nothing per encode once warm.
 *
 * @example
 * ```ts
 * const plan = createEnumeratePlan(ctx);
 * plan.encode(encoder, { flags, output, count });
 * ```
 */
export function createEnumeratePlan(ctx: ScanContext, options: EnumeratePlanOptions = {}): Plan<EnumerateEncodeArgs> {
  checkOptions(options, ['backward', 'algorithm', 'maxCount', 'maxChunkElements'], 'options');
  const scan = createScanPlan(ctx, { ...options, type: 'u32', op: 'add', inclusive: false });
  return planOf([scan], {
    what: 'enumerate plan',
    encode(encoder, args) {
      if (args?.countBuffer !== undefined) {
        // A GPU count: the scan plan checks it (and its maxCount).
        checkEncodeArgs('enumerate plan', { ...args, count: 0 }, { flags: 0, output: 0 });
        scan.encode(encoder, { input: args.flags, output: args.output, countBuffer: args.countBuffer, countOffset: args.countOffset ?? 0 });
        return;
      }
      const count = checkEncodeArgs('enumerate plan', args, { flags: 4, output: 4 });
      scan.encode(encoder, { input: args.flags, output: args.output, count });
    },
  });
}

/** Options of {@link createDistributePlan}. */
export interface DistributePlanOptions {
  type?: ElementType;
  /** Copy the last element everywhere instead of the first. */
  backward?: boolean;
  maxChunkElements?: number;
}

/** Buffers of one distribute. */
export interface DistributeEncodeArgs {
  input: GPUBuffer;
  output: GPUBuffer;
  count: number;
}

/**
 * Distribute at the buffer level: every output element is `input[0]` (backward: `input[count-1]`).
 * Memory: a 256-byte aux buffer and a four-slot parameter ring; an encode creates nothing once warm.
 *
 * @example
 * ```ts
 * const plan = createDistributePlan(ctx, { type: 'f32', backward: true });
 * plan.encode(encoder, { input, output, count });
 * ```
 */
export function createDistributePlan(ctx: ScanContext, options: DistributePlanOptions = {}): Plan<DistributeEncodeArgs> {
  assertUsable(ctx);
  checkOptions(options, ['type', 'backward', 'maxChunkElements'], 'options');
  const type = options.type === undefined ? 'u32' : checkElementType(options.type, 'options.type');
  const backward = checkBoolean(options.backward, 'options.backward', false);
  const workgroupSize = Math.min(256, ctx.caps.limits.maxComputeInvocationsPerWorkgroup);
  const chunkElements = maxChunkElements(ctx, options.maxChunkElements);
  const exec = new RecipeExecutor(ctx, 'distribute');
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const kernel = distributeKernel({ type, backward, workgroupSize });
  const build = (count: number): Recipe => {
    const b = new RecipeBuilder();
    const aux = b.needScratch('aux', AUX_WORDS * 4);
    for (const chunk of splitIntoChunks(count, chunkElements, backward)) {
      stageTailIn(b, 'input', chunk, aux);
      const workgroups = Math.ceil(chunk.slots / workgroupSize);
      b.dispatch(
        kernel,
        { src: vecRange('input', chunk), dst: vecRange('output', chunk), aux },
        workgroups,
        chunkParamValues(chunk, workgroups, dispatchShape(workgroups, maxDim).x),
      );
      stageTailOut(b, 'output', chunk, aux);
    }
    return b.build();
  };
  return planOf([exec], {
    what: 'distribute plan',
    encode(encoder, args) {
      const count = checkEncodeArgs('distribute plan', args, { input: 4, output: 4 });
      if (count === 0) return;
      if (count % 4 !== 0) checkCopyUsage('distribute plan', { input: args.input }, { output: args.output });
      exec.encode(encoder, () => build(count), { input: args.input, output: args.output });
    },
    ready: exec.load([build(1)]),
  });
}
