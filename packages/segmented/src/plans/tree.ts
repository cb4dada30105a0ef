import { type ScanContext, ScanError, type ScanOp } from '@scan/core';
import {
  AUX_WORDS,
  type BufferRef,
  type Chunk,
  chunkParamValues,
  dispatchShape,
  NO_CARRY,
  opFitsType,
  type ParamValues,
  type Recipe,
  RecipeBuilder,
  type SLOT_PARAMS,
  splitIntoChunks,
  stageTailIn,
  stageTailOut,
  vecRange,
} from '@scan/core/kit';
import {
  type SegmentedTreeSpec,
  segmentedTreeBlockSlots,
  segmentedTreeKernel,
  segmentedTreeOrWords,
  segmentedTreeWorkgroupBytes,
} from '../kernels/segmented-tree.js';

/** Everything a segmented scan recipe is specialized on. */
export interface SegmentedShape {
  type: 'u32' | 'i32' | 'f32';
  op: ScanOp;
  inclusive: boolean;
  backward: boolean;
  /** Whether the device's `subgroups` may be used (the tree algorithm works in workgroup memory only, as the paper's, and ignores it). */
  subgroups: boolean;
  /** Invocations per workgroup; the tree uses the largest power of two ≤ this that fits the device. */
  workgroupSize: number;
}

/** Prefix of the scratch buffers of the tree algorithm. */
const SCRATCH = 'segmented-tree';

/** The largest power of two ≤ `requested` whose trees fit the device's workgroup memory and size limits. */
function treeWorkgroupSize(ctx: ScanContext, requested: number): number {
  const { limits } = ctx.caps;
  if (!Number.isInteger(requested) || requested < 1) {
    throw new ScanError('INVALID_ARGUMENT', `segmented tree: shape.workgroupSize = ${requested}: expected a positive integer`, {
      argument: 'shape.workgroupSize',
    });
  }
  let wg = 2 ** Math.floor(Math.log2(Math.min(requested, limits.maxComputeInvocationsPerWorkgroup, limits.maxComputeWorkgroupSizeX)));
  while (wg > 1 && segmentedTreeWorkgroupBytes(wg) > limits.maxComputeWorkgroupStorageSize) wg >>= 1;
  return wg;
}

/**
 * The largest count the tree takes: the whole array is one storage binding.
 *
 * @example
 * ```ts
 * treeMaxCount(ctx); // 268435456 with 1 GiB bindings
 * ```
 */
export function treeMaxCount(ctx: ScanContext): number {
  return Math.floor(ctx.caps.limits.maxStorageBufferBindingSize / 4);
}

/** Params of a recursion level over a scratch array of `n` block values (see `scratchSlotFunctionsWgsl`). */
function levelParams(n: number, blocks: number, dispatchX: number): ParamValues<typeof SLOT_PARAMS> {
  return {
    count: n,
    slots: Math.ceil(n / 4),
    full_vecs: 0,
    tiles: blocks,
    dispatch_x: dispatchX,
    carry_in: NO_CARRY,
    carry_out: NO_CARRY,
    extra: 0,
  };
}

/**
 * The recipe of the paper's segmented scan (Sengupta, Harris, Zhang & Owens, "Scan Primitives for
 * GPU Computing", 2007, §2.2) over `count` elements: the segmented **reduce** (up-sweep with the
 * partial-OR tree, Algorithm 3) and **down-sweep** (Algorithm 4) per block, and for more than one
 * block the **multi-block** scheme of Algorithm 5:
 *
 * 1. `reduce` on every block; the partial-sum and partial-OR trees are saved to scratch;
 * 2. a second-level segmented scan of three values per block — the partial-sum root, the
 *    partial-OR root and the original flag of the block's first element — recursively, as many
 *    levels as needed (the last is a single block);
 * 3. `down-sweep` on every block: the trees are reloaded, the root takes the block's second-level
 *    result, and the down-sweep writes the output.
 *
 * Roles: `'input'` (`count` elements, read through the vec4 slot view, its partial last vec4 staged
 * in `aux`), `'headBits'` (`⌈count / 32⌉` words of bit-packed head flags, element 0 always a head)
 * and `'output'` (`count` elements). `backward` scans each segment from its last element to its
 * first (the flags shift by one, as in the paper). The whole array is one binding, so
 * `4 · count` must not exceed `maxStorageBufferBindingSize` (else `TOO_LARGE`). Scratch:
 * `aux`, and per level `segmented-tree.{sums,flags}.<level>` (second-level inputs, scanned in
 * place) and `segmented-tree.{x,f}.<level>` (saved trees: one value per vec4, one bit per vec4).
 * Every binding is count-independent (whole buffers, the counts in params), so recipes of counts
 * with the same number of levels share a structure (their derived structure key).
 *
 * @example
 * ```ts
 * const shape: SegmentedShape = { type: 'u32', op: 'add', inclusive: false, backward: false, subgroups: false, workgroupSize: 256 };
 * const exec = new RecipeExecutor(ctx, 'segmented tree');
 * exec.encode(encoder, () => treeSegmentedScanRecipe(ctx, shape, count), { input, headBits, output });
 * ```
 */
export function treeSegmentedScanRecipe(ctx: ScanContext, shape: SegmentedShape, count: number): Recipe {
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new ScanError('INVALID_ARGUMENT', `segmented tree: count = ${count}: expected a non-negative integer`, { argument: 'count' });
  }
  if (!opFitsType(shape.op, shape.type)) {
    throw new ScanError('INVALID_ARGUMENT', `segmented tree: op = "${shape.op}" does not apply to ${shape.type} data`, {
      argument: 'op',
    });
  }
  const maxBinding = ctx.caps.limits.maxStorageBufferBindingSize;
  if (count * 4 > maxBinding) {
    throw new ScanError(
      'TOO_LARGE',
      `segmented tree: count = ${count} needs ${count * 4} bytes in one binding, past maxStorageBufferBindingSize ${maxBinding} (at most ${Math.floor(maxBinding / 4)} elements)`,
      { argument: 'count' },
    );
  }
  const b = new RecipeBuilder();
  if (count === 0) return b.build();

  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const wg = treeWorkgroupSize(ctx, shape.workgroupSize);
  const blockSlots = segmentedTreeBlockSlots(wg);
  const orWords = segmentedTreeOrWords(wg);
  const aux = b.needScratch('aux', AUX_WORDS * 4);
  // One chunk of the whole array; its capacity (what the data bindings may hold) is a binding's,
  // not the count, so the bindings — and the executor's bind groups — serve every count.
  const chunk: Chunk = { ...(splitIntoChunks(count, count, shape.backward)[0] as Chunk), capacity: Math.floor(maxBinding / 4) };
  const spec = (level: SegmentedTreeSpec['level'], mode: SegmentedTreeSpec['mode']): SegmentedTreeSpec => ({
    type: shape.type,
    op: shape.op,
    inclusive: shape.inclusive,
    backward: shape.backward,
    workgroupSize: wg,
    level,
    mode,
  });
  const trees = (level: number, blocks: number): { x: BufferRef; f: BufferRef; sums: BufferRef; flags: BufferRef } => ({
    x: b.needScratch(`${SCRATCH}.x.${level}`, blocks * blockSlots * 4),
    f: b.needScratch(`${SCRATCH}.f.${level}`, blocks * orWords * 4),
    sums: b.needScratch(`${SCRATCH}.sums.${level + 1}`, blocks * 4),
    flags: b.needScratch(`${SCRATCH}.flags.${level + 1}`, blocks * 4),
  });

  // A recursion level: the second-level segmented scan of `n` block values, in place.
  const scanLevel = (level: number, n: number): void => {
    const blocks = Math.ceil(Math.ceil(n / 4) / blockSlots);
    const data: BufferRef = { scratch: `${SCRATCH}.sums.${level}` };
    const levelFlags: BufferRef = { scratch: `${SCRATCH}.flags.${level}` };
    const values = levelParams(n, blocks, dispatchShape(blocks, maxDim).x);
    if (blocks === 1) {
      b.dispatch(segmentedTreeKernel(spec('sums', 'block')), { data, level_flags: levelFlags }, 1, values);
      return;
    }
    const t = trees(level, blocks);
    const reduce = segmentedTreeKernel(spec('sums', 'reduce'));
    const params = b.paramsFor(reduce, values);
    b.dispatch(
      reduce,
      { data, level_flags: levelFlags, tree_sums: t.x, tree_ors: t.f, block_sums: t.sums, block_flags: t.flags },
      blocks,
      params,
    );
    scanLevel(level + 1, blocks);
    b.dispatch(
      segmentedTreeKernel(spec('sums', 'down-sweep')),
      { data, level_flags: levelFlags, tree_sums: t.x, tree_ors: t.f, block_prefix: t.sums },
      blocks,
      params,
    );
  };

  stageTailIn(b, 'input', chunk, aux);
  const blocks = Math.ceil(chunk.slots / blockSlots);
  const values = chunkParamValues(chunk, blocks, dispatchShape(blocks, maxDim).x);
  const input = vecRange('input', chunk);
  const output = vecRange('output', chunk);
  // The caller's whole buffer: the kernel bounds its reads by params.count.
  const headBits: BufferRef = { role: 'headBits', offset: 0 };
  if (blocks === 1) {
    b.dispatch(segmentedTreeKernel(spec('chunk', 'block')), { src: input, dst: output, aux, head_bits: headBits }, 1, values);
  } else {
    const t = trees(0, blocks);
    const reduce = segmentedTreeKernel(spec('chunk', 'reduce'));
    const params = b.paramsFor(reduce, values);
    b.dispatch(
      reduce,
      { src: input, aux, head_bits: headBits, tree_sums: t.x, tree_ors: t.f, block_sums: t.sums, block_flags: t.flags },
      blocks,
      params,
    );
    scanLevel(1, blocks);
    b.dispatch(
      segmentedTreeKernel(spec('chunk', 'down-sweep')),
      { src: input, dst: output, aux, head_bits: headBits, tree_sums: t.x, tree_ors: t.f, block_prefix: t.sums },
      blocks,
      params,
    );
  }
  stageTailOut(b, 'output', chunk, aux);
  return b.build();
}
