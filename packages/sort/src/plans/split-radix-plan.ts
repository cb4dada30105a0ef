import { createSplitPlan, type Plan, type ScanContext, ScanError } from '@scan/core';
import {
  assertUsable,
  checkCopyUsage,
  checkEncodeArgs,
  dispatchShape,
  planOf,
  type Recipe,
  RecipeBuilder,
  RecipeExecutor,
} from '@scan/core/kit';
import { SPLIT_RADIX_WORKGROUP, splitRadixFlagsKernel } from '../kernels/split-radix-flags.js';
import type { SortBuffers, SortShape } from './sort-shape.js';

const WHAT = 'split radix sort';

/** Words of u8 flags (four to a word) for `count` keys. */
const flagWords = (count: number) => Math.ceil(count / 4);

/**
 * The split radix sort of Sengupta et al. 2007 (§4.1, Blelloch's radix sort built on split) at
 * the buffer level: an LSD radix sort with one-bit digits. For every bit b of the order bits in
 * `shape.bits = [begin, end)`, least significant first:
 *
 * 1. **flags** — a kernel writes bit b of each key's order bits as a byte flag
 *    ({@link splitRadixFlagsKernel});
 * 2. **split** — `@scan/core`'s stable split moves the keys whose bit is 0 first and those whose
 *    bit is 1 after, each group in its order (the paper's split: falses left, trues right), into
 *    the other buffer of a ping-pong pair; the values are split with the same flags.
 *
 * A stable split per bit is what makes the LSD order correct: after the pass on bit b the keys are
 * sorted on bits [begin, b], and keys equal on the range keep their input order. The keys move as
 * raw words (they come back bit for bit); only their order bits are looked at.
 *
 * The ping-pong pair is the caller's buffers and the plan's scratch; an odd number of bits leaves
 * the result in the scratch, and a copy brings it back (so the caller's buffers need COPY_DST then,
 * as `createStorageBuffer` buffers have). Memory: keys (and values) once more, ⌈count/4⌉ flag
 * words, the split's look-back status, and parameter rings (one slot per pass recorded into one
 * encoder); scratch grows by doubling for the largest count seen (or is sized once by `maxCount`).
 * The bit and the count are parameters, so once warm an encode with a new count creates nothing.
 * Count 0 and 1 record nothing. The whole array must fit one storage binding (the split scatters
 * anywhere).
 *
 * @example
 * ```ts
 * const plan = createSplitRadixSort(ctx, { keyType: 'f32', valueType: 'u32', descending: false, bits: [0, 32] }, 1 << 20);
 * await plan.ready;
 * plan.encode(encoder, { keys, values, count });
 * device.queue.submit([encoder.finish()]);
 * plan.destroy();
 * ```
 */
export function createSplitRadixSort(ctx: ScanContext, shape: SortShape, maxCount?: number): Plan<SortBuffers> {
  assertUsable(ctx);
  const [begin, end] = shape.bits;
  if (!(Number.isInteger(begin) && Number.isInteger(end) && begin >= 0 && begin < end && end <= 32)) {
    throw new ScanError('INVALID_ARGUMENT', `${WHAT}: shape.bits = [${begin}, ${end}]: expected integers 0 ≤ begin < end ≤ 32`, {
      argument: 'shape.bits',
    });
  }
  const hasValues = shape.valueType !== undefined;
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const kernel = splitRadixFlagsKernel({ keyType: shape.keyType, descending: shape.descending });
  // Elements move as raw words, so one u32 split serves every key and value type.
  const split = createSplitPlan(ctx, { type: 'u32', flags: 'u8', ...(maxCount ? { maxCount } : {}) });
  // Owns the scratch (handed to the split plan) and runs the flag passes.
  const exec = new RecipeExecutor(ctx, WHAT);

  /** The scratch for `count` keys, which the split plan binds too. */
  const scratchRecipe = (count: number): Recipe => {
    const b = new RecipeBuilder();
    b.needScratch('keys', 4 * count);
    if (hasValues) b.needScratch('values', 4 * count);
    b.needScratch('flags', 4 * flagWords(count));
    b.needScratch('falseCount', 4);
    return b.build();
  };
  // Whole buffers: the kernel stops at params.count, and the bit is a parameter too, so every pass
  // of every count has one structure (two sets of bind groups: it reads the caller's keys or the scratch's).
  const bindings = { keys: { role: 'keys', offset: 0 }, flags: { scratch: 'flags' } } as const;
  /** The flag kernel of one bit over the keys bound as role `keys`, into the scratch flags. */
  const flagRecipe = (count: number, bit: number): Recipe => {
    const b = new RecipeBuilder();
    b.needScratch('flags', 4 * flagWords(count));
    const workgroups = Math.ceil(flagWords(count) / SPLIT_RADIX_WORKGROUP);
    b.dispatch(kernel, bindings, workgroups, { count, bit, dispatch_x: dispatchShape(workgroups, maxDim).x });
    return b.build();
  };
  if (maxCount !== undefined && maxCount > 0) exec.reserve(scratchRecipe(maxCount));

  return planOf<SortBuffers>([exec, split], {
    what: WHAT,
    encode(encoder, args) {
      const count = checkEncodeArgs(WHAT, args, hasValues ? { keys: 4, values: 4 } : { keys: 4 });
      if (!hasValues && args.values !== undefined) {
        throw new ScanError(
          'INVALID_ARGUMENT',
          `${WHAT}: args.values is given but the shape sorts keys only (shape.valueType is undefined)`,
          {
            argument: 'args.values',
          },
        );
      }
      if (4 * count > ctx.caps.limits.maxStorageBufferBindingSize) {
        throw new ScanError(
          'TOO_LARGE',
          `${WHAT}: count = ${count} is past one storage binding (${ctx.caps.limits.maxStorageBufferBindingSize} bytes); every split scatters across the whole array`,
          { argument: 'args.count' },
        );
      }
      if (count <= 1) return;
      const passes = end - begin;
      const callers = { keys: args.keys, ...(hasValues ? { values: args.values! } : {}) };
      if (passes % 2 === 1) checkCopyUsage(WHAT, {}, callers);
      exec.reserveFor(() => scratchRecipe(count));
      const flags = exec.scratchBuffer('flags');
      const falseCount = exec.scratchBuffer('falseCount');
      const scratch = { keys: exec.scratchBuffer('keys'), values: hasValues ? exec.scratchBuffer('values') : undefined };
      let from = { keys: args.keys, values: args.values };
      let to = scratch;
      for (let pass = 0; pass < passes; pass++) {
        const bit = begin + pass;
        // Flags: bit b of every key's order bits.
        exec.encode(encoder, () => flagRecipe(count, bit), { keys: from.keys });
        // Split: 0-bits first, then 1-bits, both stable; the values follow the same flags.
        split.encode(encoder, { input: from.keys, flags, output: to.keys, count, falseCount });
        if (from.values && to.values) split.encode(encoder, { input: from.values, flags, output: to.values, count, falseCount });
        [from, to] = [to, from];
      }
      // An odd number of passes ends in the scratch: copy the result home.
      if (passes % 2 === 1) {
        encoder.copyBufferToBuffer(scratch.keys, 0, args.keys, 0, 4 * count);
        if (scratch.values && args.values) encoder.copyBufferToBuffer(scratch.values, 0, args.values, 0, 4 * count);
      }
    },
    ready: exec.load([flagRecipe(1, 0)]),
  });
}
