import { assertUsable, type ScanContext } from '../context.js';
import { dispatchShape } from '../dispatch.js';
import { checkElementType, type ElementType } from '../element-types.js';
import { ScanError } from '../errors.js';
import { scatterKernel } from '../kernels/scatter.js';
import { checkOptions } from '../validate.js';
import { RecipeExecutor } from './executor.js';
import { checkCopyUsage, checkEncodeArgs } from './plan-args.js';
import { type Recipe, RecipeBuilder } from './recipe.js';
import { createScanPlan } from './scan-plan.js';
import type { Plan, ScanAlgorithm } from './types.js';

/** Options of {@link createSplitPlan} and {@link createPackPlan}. */
export interface ScatterPlanOptions {
  /** Element type of the data (flags are always u32 0/1). Default `'u32'`. */
  type?: ElementType;
  /** Scan algorithm of the enumerate step (default `'auto'`). */
  algorithm?: ScanAlgorithm;
  maxCount?: number;
}

/** Buffers of one split: `falseCount` receives the u32 number of 0-flags at byte 0. */
export interface SplitEncodeArgs {
  input: GPUBuffer;
  flags: GPUBuffer;
  output: GPUBuffer;
  count: number;
  falseCount: GPUBuffer;
}

/** Buffers of one pack: `packedCount` receives the u32 number of kept elements at byte 0. */
export interface PackEncodeArgs {
  input: GPUBuffer;
  flags: GPUBuffer;
  output: GPUBuffer;
  count: number;
  packedCount: GPUBuffer;
}

function createScatterPlan(ctx: ScanContext, mode: 'split' | 'pack', options: ScatterPlanOptions) {
  assertUsable(ctx);
  checkOptions(options, ['type', 'algorithm', 'maxCount'], 'options');
  const type = options.type === undefined ? 'u32' : checkElementType(options.type, 'options.type');
  // Split enumerates the falses (scan of 1 − flag); pack enumerates the trues.
  const enumerate = createScanPlan(ctx, {
    type: 'u32',
    op: 'add',
    algorithm: options.algorithm ?? 'auto',
    mapInput: mode === 'split' ? 'not' : 'none',
  } as Parameters<typeof createScanPlan>[1]);
  const workgroupSize = Math.min(256, ctx.caps.limits.maxComputeInvocationsPerWorkgroup);
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const exec = new RecipeExecutor(ctx, mode);
  const build = (count: number): Recipe => {
    const b = new RecipeBuilder();
    const addr = b.needScratch('addr', 4 * count);
    const workgroups = Math.ceil(count / workgroupSize);
    const params = b.paramBlock([count, dispatchShape(workgroups, maxDim).x]);
    const whole = (role: string) => ({ role, offset: 0, size: 4 * count });
    b.dispatch(
      scatterKernel(mode, workgroupSize),
      [whole('input'), whole('flags'), addr, whole('output'), { role: 'count', offset: 0, size: 4 }, params],
      workgroups,
    );
    return b.build();
  };
  if (options.maxCount !== undefined && options.maxCount > 0) exec.reserve(build(options.maxCount));
  const countName = mode === 'split' ? 'falseCount' : 'packedCount';
  return {
    type,
    encode(encoder: GPUCommandEncoder, args: SplitEncodeArgs | PackEncodeArgs) {
      const count = checkEncodeArgs(`${mode} plan`, args, { input: 4, flags: 4, output: 4, [countName]: { bytes: 4 } });
      const countBuffer = (args as unknown as Record<string, GPUBuffer>)[countName] as GPUBuffer;
      if (4 * count > ctx.caps.limits.maxStorageBufferBindingSize) {
        throw new ScanError(
          'TOO_LARGE',
          `${mode}: count = ${count} is past one storage binding (${ctx.caps.limits.maxStorageBufferBindingSize} bytes); the scatter cannot be chunked`,
          {
            argument: 'args.count',
          },
        );
      }
      if (count % 4 !== 0) checkCopyUsage(`${mode} plan`, { flags: args.flags }, {});
      if (count === 0) {
        checkCopyUsage(`${mode} plan`, {}, { [countName]: countBuffer });
        encoder.clearBuffer(countBuffer, 0, 4);
        return;
      }
      const recipe = () => build(count);
      exec.reserveFor(`${count}`, recipe);
      enumerate.encode(encoder, { input: args.flags, output: exec.scratchBuffer('addr'), count });
      exec.encode(encoder, `${count}`, recipe, { input: args.input, flags: args.flags, output: args.output, count: countBuffer });
    },
    destroy() {
      enumerate.destroy();
      exec.destroy();
    },
    get scratchBytes() {
      return exec.scratchBytes + enumerate.scratchBytes;
    },
    get allocations() {
      return exec.allocations + enumerate.allocations;
    },
  };
}

/**
 * Split at the buffer level (stable): the elements whose flag is 0 first, in order, then those whose
 * flag is 1, in order — one enumerate and derived addresses, as in the paper (§2.3.3). The whole
 * array must fit one storage binding.
 *
 * @example
 * ```ts
 * const plan = createSplitPlan(ctx, { type: 'f32' });
 * plan.encode(encoder, { input, flags, output, count, falseCount });
 * ```
 */
export function createSplitPlan(ctx: ScanContext, options: ScatterPlanOptions = {}): Plan<SplitEncodeArgs> {
  return createScatterPlan(ctx, 'split', options);
}

/**
 * Pack (stream compaction) at the buffer level: the elements whose flag is 1, in order, at the
 * start of `output`; their number at byte 0 of `packedCount`. Output past that is left untouched.
 *
 * @example
 * ```ts
 * const plan = createPackPlan(ctx, { type: 'u32' });
 * plan.encode(encoder, { input, flags, output, count, packedCount });
 * ```
 */
export function createPackPlan(ctx: ScanContext, options: ScatterPlanOptions = {}): Plan<PackEncodeArgs> {
  return createScatterPlan(ctx, 'pack', options);
}
