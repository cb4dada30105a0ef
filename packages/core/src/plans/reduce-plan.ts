import { assertUsable, type ScanContext } from '../context.js';
import { dispatchShape } from '../dispatch.js';
import { checkElementType, checkOp } from '../element-types.js';
import { type ReduceSpec, reduceCombineKernel, reducePartialsKernel } from '../kernels/reduce.js';
import { checkOptions } from '../validate.js';
import { AUX_WORDS, chunkLayoutKey, chunkParams, maxChunkElements, splitIntoChunks, stageTailIn, vecRange } from './chunks.js';
import { RecipeExecutor } from './executor.js';
import { checkCopyUsage, checkEncodeArgs } from './plan-args.js';
import { planOf } from './plan-of.js';
import { type Recipe, RecipeBuilder } from './recipe.js';
import type { Plan } from './types.js';

/** Options of {@link createReducePlan}. */
export interface ReducePlanOptions {
  /** Element type (default `'u32'`). */
  type?: 'u32' | 'i32' | 'f32';
  /** Operator (default `'add'`). */
  op?: 'add' | 'min' | 'max' | 'mul' | 'and' | 'or' | 'xor';
  /** Largest count expected: scratch for it is allocated up front. */
  maxCount?: number;
  /** Largest number of elements one dispatch reads (tests lower it to exercise chunking). */
  maxChunkElements?: number;
}

/** Buffers of one reduction: the result is written as element 0 of `output`. */
export interface ReduceEncodeArgs {
  input: GPUBuffer;
  output: GPUBuffer;
  count: number;
}

/** A reduction recorded into the caller's encoder. */
export type ReducePlan = Plan<ReduceEncodeArgs>;

/** Most workgroups of the partials phase: enough to fill a large GPU, few enough for one combine. */
const MAX_PARTIALS = 2048;

/**
 * Creates a reusable reduction (buffer level): `output[0] = input[0] ⊕ … ⊕ input[count-1]`, the
 * identity when `count` is 0. Two dispatches: grid-stride partials, then one workgroup combines.
 *
 * @example
 * ```ts
 * const plan = createReducePlan(ctx, { type: 'f32', op: 'max' });
 * plan.encode(encoder, { input, output, count });
 * ```
 */
export function createReducePlan(ctx: ScanContext, options: ReducePlanOptions = {}): ReducePlan {
  assertUsable(ctx);
  checkOptions(options, ['type', 'op', 'maxCount', 'maxChunkElements'], 'options');
  const type = options.type === undefined ? 'u32' : checkElementType(options.type, 'options.type');
  const spec: ReduceSpec = {
    type,
    op: checkOp(options.op, type),
    subgroups: ctx.caps.features.subgroups,
    workgroupSize: Math.min(256, ctx.caps.limits.maxComputeInvocationsPerWorkgroup),
    slotsPerThread: 4,
  };
  const chunkElements = maxChunkElements(ctx, options.maxChunkElements);
  const exec = new RecipeExecutor(ctx, 'reduce');
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;

  const build = (count: number): Recipe => {
    const b = new RecipeBuilder();
    const aux = b.needScratch('aux', AUX_WORDS * 4);
    const partials = b.needScratch('partials', MAX_PARTIALS * 4);
    let carry = 0;
    for (const chunk of splitIntoChunks(count, chunkElements, false)) {
      stageTailIn(b, 'input', chunk, aux);
      const workgroups = Math.min(MAX_PARTIALS, Math.ceil(chunk.slots / (spec.workgroupSize * spec.slotsPerThread)));
      const params = b.paramBlock(chunkParams(chunk, workgroups, dispatchShape(workgroups, maxDim).x));
      b.dispatch(reducePartialsKernel(spec), [vecRange('input', chunk), undefined, aux, params, partials], workgroups);
      b.dispatch(reduceCombineKernel(spec), [undefined, undefined, aux, params, partials], 1);
      carry = chunk.carryOut;
    }
    b.copy({ scratch: 'aux', offset: carry * 4 }, { role: 'output', offset: 0, size: 4 }, 4);
    return b.build();
  };
  if (options.maxCount !== undefined && options.maxCount > 0) exec.reserve(build(options.maxCount));

  return planOf([exec], {
    encode(encoder, args) {
      const count = checkEncodeArgs('reduce plan', args, { input: 4, output: { bytes: 4 } });
      checkCopyUsage('reduce plan', count % 4 !== 0 ? { input: args.input } : {}, { output: args.output });
      exec.encode(encoder, chunkLayoutKey(count, chunkElements), () => build(count), { input: args.input, output: args.output });
    },
    ready: exec.load([build(1)]),
  });
}
