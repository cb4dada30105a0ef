import { BufferUsage } from '../buffers.js';
import { invalidArgument, ScanError } from '../errors.js';
import { countFixupKernel, tailOutKernel } from '../kernels/gpu-count.js';
import { checkCount } from '../validate.js';
import type { BufferRef, RecipeBuilder } from './recipe.js';

/** A count the GPU holds: the u32 at byte `offset` of `buffer`. */
export interface GpuCount {
  readonly buffer: GPUBuffer;
  readonly offset: number;
}

/**
 * Where an encode's count comes from: `args.count` (a number), or `args.countBuffer` (and
 * `args.countOffset`, default 0) — a u32 the GPU wrote, which needs the plan's `maxCount` (the plan
 * records its work for that many elements and handles min(GPU count, maxCount)). Throws a
 * `ScanError` naming the argument when both or neither are given, when `maxCount` is missing, or
 * when the offset is not a multiple of 4 inside the buffer. The buffer itself is checked with the
 * other buffers (`checkEncodeArgs`).
 *
 * @example
 * ```ts
 * const gpu = gpuCountOf('scan plan', args, maxCount); // undefined for a host count
 * ```
 */
export function gpuCountOf(what: string, args: unknown, maxCount: number | undefined): GpuCount | undefined {
  const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  if (a.countBuffer === undefined) return undefined;
  if (a.count !== undefined) {
    throw new ScanError('INVALID_ARGUMENT', `${what}: args.count and args.countBuffer are both given; give one`, {
      argument: 'args.count',
    });
  }
  if (maxCount === undefined) {
    throw new ScanError('INVALID_ARGUMENT', `${what}: args.countBuffer needs the plan option maxCount (the most elements it may hold)`, {
      argument: 'args.countBuffer',
    });
  }
  const buffer = a.countBuffer as GPUBuffer;
  const offset = a.countOffset === undefined ? 0 : checkCount(a.countOffset, 'args.countOffset');
  const size = typeof buffer?.size === 'number' ? buffer.size : 0;
  if (offset % 4 !== 0 || offset + 4 > size) {
    invalidArgument('args.countOffset', offset, `expected a multiple of 4 inside args.countBuffer (${size} bytes)`);
  }
  return { buffer, offset };
}

/** What {@link recordCountFixup} needs: how the kernels' tiles follow from the count, and the constant words. */
export interface CountFixup {
  /** The count's word in the caller's buffer (bound whole, as role `gpuCount`). */
  readonly word: number;
  /** The plan's maxCount: the count is clamped to it. */
  readonly capacity: number;
  /** Elements per tile (or per workgroup) of the kernels, and their most tiles. */
  readonly tileElements: number;
  readonly maxTiles: number;
  /** `Params` words 4–7 (dispatch_x, carry_in, carry_out, extra), which do not depend on the count. */
  readonly constants: readonly [number, number, number, number];
  /** Stage the input's partial last vec4 into aux (slot kernels). */
  readonly tail?: { readonly input: BufferRef; readonly aux: BufferRef };
  /** A count output to zero when the count is 0 (no tile runs to write it then). */
  readonly zeroOut?: BufferRef;
}

/** The caller's count buffer, bound whole (the count's word is a parameter). */
const GPU_COUNT: BufferRef = { role: 'gpuCount', offset: 0 };

/**
 * Records the count fixup (see `countFixupKernel`) and returns the ref the plan's kernels bind as
 * their `Params` instead of a parameter block: a 32-byte scratch uniform the GPU fills from the
 * count. One such buffer serves any number of encodes into one encoder, since each encode's fixup
 * runs right before the kernels that read it.
 *
 * @example
 * ```ts
 * const params = recordCountFixup(b, { word, capacity: maxCount, tileElements: 4096, maxTiles: tiles, constants: [x, NO_CARRY, 9, 0] });
 * b.dispatch(kernel, { src: input, dst: output, aux, status }, tiles, params);
 * ```
 */
export function recordCountFixup(b: RecipeBuilder, fixup: CountFixup): BufferRef {
  const counted: BufferRef = { scratch: 'counted', offset: 0, size: 32 };
  b.needScratch('counted', 32, BufferUsage.UNIFORM);
  const [dispatchX, carryIn, carryOut, extra] = fixup.constants;
  b.dispatch(
    countFixupKernel({ tail: fixup.tail !== undefined, zeroOut: fixup.zeroOut !== undefined }),
    { count_src: GPU_COUNT, counted, src_words: fixup.tail?.input, aux: fixup.tail?.aux, count_out: fixup.zeroOut },
    1,
    {
      count_word: fixup.word,
      cap: fixup.capacity,
      tile_elements: fixup.tileElements,
      max_tiles: fixup.maxTiles,
      dispatch_x: dispatchX,
      carry_in: carryIn,
      carry_out: carryOut,
      extra,
    },
  );
  return counted;
}

/**
 * Records the copy of the partial last vec4 from aux into `output` after slot kernels ran on a
 * count the GPU wrote (see `tailOutKernel`).
 *
 * @example
 * ```ts
 * recordTailOut(b, params, aux, { role: 'output', offset: 0 });
 * ```
 */
export function recordTailOut(b: RecipeBuilder, params: BufferRef, aux: BufferRef, output: BufferRef): void {
  b.dispatch(tailOutKernel({}), { aux, dst_words: output }, 1, params);
}
