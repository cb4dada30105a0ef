import { assertUsable, type ScanContext } from '../context.js';
import { invalidArgument } from '../errors.js';
import { dispatchArgsKernel } from '../kernels/dispatch-args.js';
import { checkCount, checkOptions } from '../validate.js';
import { RecipeExecutor } from './executor.js';
import { checkEncodeArgs } from './plan-args.js';
import { planOf } from './plan-of.js';
import { RecipeBuilder } from './recipe.js';
import type { Plan } from './types.js';

/** Options of {@link createDispatchArgsPlan}. */
export interface DispatchArgsPlanOptions {
  /** Elements each workgroup of the following pass handles (its workgroup size × items per invocation). */
  elementsPerWorkgroup: number;
}

/** Buffers of one {@link createDispatchArgsPlan} encode. */
export interface DispatchArgsEncodeArgs {
  /** A GPU buffer holding a u32 count at byte `countOffset` (default 0): a pack's `packedCount`, a split's `falseCount`. */
  countBuffer: GPUBuffer;
  countOffset?: number;
  /** Receives x, y, z (3 u32) for `dispatchWorkgroupsIndirect`; needs `STORAGE` and `INDIRECT`. */
  args: GPUBuffer;
}

/**
 * Turns a count that stays on the GPU into `dispatchWorkgroupsIndirect` arguments, so a pass after
 * a pack sizes itself from the kept count without a read-back: x·y ≥ ⌈count / elementsPerWorkgroup⌉
 * workgroups with x and y ≤ the device's per-dimension limit. The following kernel takes its
 * workgroup index as `wid.x + wid.y * num_workgroups.x` and skips elements at or past the count.
 *
 * @example
 * ```ts
 * const pack = createPackPlan(ctx, { flags: 'u8' });
 * const sizing = createDispatchArgsPlan(ctx, { elementsPerWorkgroup: 256 });
 * pack.encode(encoder, { input, flags, output, count: n, packedCount });
 * sizing.encode(encoder, { countBuffer: packedCount, args: indirect });
 * pass.dispatchWorkgroupsIndirect(indirect, 0); // in a compute pass recorded after these
 * ```
 */
export function createDispatchArgsPlan(ctx: ScanContext, options: DispatchArgsPlanOptions): Plan<DispatchArgsEncodeArgs> {
  assertUsable(ctx);
  const o = checkOptions(options, ['elementsPerWorkgroup'], 'options');
  const perGroup = o.elementsPerWorkgroup;
  if (typeof perGroup !== 'number' || !Number.isInteger(perGroup) || perGroup < 1 || perGroup > 2 ** 32 - 1) {
    invalidArgument('options.elementsPerWorkgroup', perGroup, 'expected an integer in [1, 2^32 − 1]');
  }
  const exec = new RecipeExecutor(ctx, 'dispatch args');
  const BINDINGS = { count: { role: 'count', offset: 0 }, args: { role: 'args', offset: 0, size: 12 } } as const;
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  // The whole count buffer is bound and the count's word index is a parameter, so a new offset is
  // a new parameter, not a new bind group.
  const build = (offset: number) => {
    const b = new RecipeBuilder();
    b.dispatch(dispatchArgsKernel({}), BINDINGS, 1, { per_group: perGroup, max_dim: maxDim, word: offset / 4 });
    return b.build();
  };
  return planOf([exec], {
    what: 'dispatch args plan',
    encode(encoder, args) {
      checkEncodeArgs('dispatch args plan', { ...args, count: 1 }, { countBuffer: { bytes: 4 }, args: { bytes: 12 } });
      const offset = checkCount(args.countOffset ?? 0, 'args.countOffset');
      if (offset % 4 !== 0 || offset + 4 > args.countBuffer.size) {
        invalidArgument(
          'args.countOffset',
          offset,
          `expected a multiple of 4 with 4 bytes after it in args.countBuffer (${args.countBuffer.size} bytes)`,
        );
      }
      exec.encode(encoder, () => build(offset), { count: args.countBuffer, args: args.args });
    },
    ready: exec.load([build(0)]),
  });
}
