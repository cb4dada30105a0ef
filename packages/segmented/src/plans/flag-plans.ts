import { createScanPlan, type Plan, type ScanContext, ScanError } from '@scan/core';
import {
  assertUsable,
  checkCount,
  checkEncodeArgs,
  checkOneOf,
  checkOptions,
  dispatchShape,
  planOf,
  type Recipe,
  RecipeBuilder,
  RecipeExecutor,
} from '@scan/core/kit';
import {
  countHeadsKernel,
  FLAG_KERNEL_WORKGROUP,
  type FlagType,
  offsetsToBitsKernel,
  packHeadFlagsKernel,
  scatterOffsetsKernel,
  zeroWordsKernel,
} from '../kernels/flags.js';
import { packedFlagWords } from '../types.js';

// Buffer-level conversions between segment representations. Inputs and outputs are the caller's
// buffers, bound from offset 0; scratch belongs to the plan and is reused across calls.

/** Options of {@link createPackHeadFlagsPlan}. */
export interface PackHeadFlagsPlanOptions {
  /**
   * How the element flags are laid out in `flags`: `'u32'` (default) one flag per u32 word, `'u8'`
   * four flags per word, one per byte (a `Uint8Array` uploaded as it is).
   */
  flagType?: FlagType;
  /**
   * Largest number of elements one dispatch handles (default: what one storage binding holds);
   * longer arrays are packed in chunks. Rounded down to a multiple of 8 × the storage offset
   * alignment (2048 elements on most devices) so chunk offsets stay aligned; tests lower it.
   */
  maxChunkElements?: number;
}

/** Buffers of one pack: `count` element flags in, ⌈count / 32⌉ words of head bits out. */
export interface PackHeadFlagsEncodeArgs {
  /** u32 words of flags: `count` words (`'u32'`) or ⌈count / 4⌉ words holding 4 u8 flags each (`'u8'`). */
  flags: GPUBuffer;
  /** ⌈count / 32⌉ u32 words; bit `i % 32` of word `⌊i / 32⌋` is element i's flag. */
  output: GPUBuffer;
  count: number;
}

/** Options of {@link createHeadFlagsToOffsetsPlan}. */
export interface HeadFlagsToOffsetsPlanOptions {
  /** Largest `count` expected: scratch for it is allocated up front. */
  maxCount?: number;
}

/** Buffers of one head-bits-to-offsets conversion. */
export interface HeadFlagsToOffsetsEncodeArgs {
  /** ⌈count / 32⌉ words of bit-packed head flags (element 0 is a head whatever its bit; bits past count are ignored). */
  headBits: GPUBuffer;
  /** `count + 1` u32 words (the worst case, every element a head); the first `segments + 1` are written. */
  output: GPUBuffer;
  count: number;
  /** Receives the number of segments, a u32 at byte 0. */
  segmentCount: GPUBuffer;
}

/** Buffers of one offsets-to-head-bits conversion. */
export interface OffsetsToHeadFlagsEncodeArgs {
  /** Segment offsets: at least `segments` u32 words are read (the last offset, = count, is not needed). */
  offsets: GPUBuffer;
  /** Number of segments (`offsets` has `segments + 1` entries). */
  segments: number;
  /** ⌈count / 32⌉ words of head bits, every word written. */
  output: GPUBuffer;
  /** Number of elements (the last offset). */
  count: number;
}

/** Elements per chunk of the pack: aligned so both the flags and the bits bindings start on the storage offset alignment. */
function packChunkElements(ctx: ScanContext, flagType: FlagType, requested: number | undefined): number {
  const granule = 8 * Math.max(256, ctx.caps.limits.minStorageBufferOffsetAlignment);
  const bytesPerFlag = flagType === 'u8' ? 1 : 4;
  const bindable = Math.floor(ctx.caps.limits.maxStorageBufferBindingSize / bytesPerFlag / granule) * granule;
  if (requested === undefined) return bindable;
  return Math.min(bindable, Math.max(granule, Math.floor(checkCount(requested, 'options.maxChunkElements') / granule) * granule));
}

/**
 * Packs one-flag-per-element head flags into bits: bit `i % 32` of word `⌊i / 32⌋` is element i's
 * flag, element 0's bit is always set, bits past `count` are 0. Flags are read as u32 words: one
 * flag per word (`flagType: 'u32'`) or four u8 flags per word (`'u8'`), so a `Uint8Array` needs no
 * widening. Any nonzero flag counts as 1 (the array-level functions reject other values first).
 * Arrays past one storage binding are packed in chunks.
 *
 * @example
 * ```ts
 * const plan = createPackHeadFlagsPlan(ctx, { flagType: 'u8' });
 * plan.encode(encoder, { flags, output, count }); // output: ⌈count / 32⌉ words
 * ```
 */
export function createPackHeadFlagsPlan(ctx: ScanContext, options: PackHeadFlagsPlanOptions = {}): Plan<PackHeadFlagsEncodeArgs> {
  assertUsable(ctx);
  const o = checkOptions(options, ['flagType', 'maxChunkElements'], 'options');
  const flagType = checkOneOf<FlagType>(o['flagType'], ['u8', 'u32'], 'options.flagType', 'u32');
  const chunkElements = packChunkElements(ctx, flagType, options.maxChunkElements);
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const exec = new RecipeExecutor(ctx, 'pack head flags');
  const flagBytes = (count: number) => (flagType === 'u8' ? 4 * Math.ceil(count / 4) : 4 * count);
  const build = (count: number): Recipe => {
    const b = new RecipeBuilder();
    for (let start = 0; start < count; start += chunkElements) {
      const n = Math.min(chunkElements, count - start);
      const inWords = flagType === 'u8' ? Math.ceil(n / 4) : n;
      const outWords = packedFlagWords(n);
      const workgroups = Math.ceil(inWords / FLAG_KERNEL_WORKGROUP);
      const params = b.paramBlock([n, inWords, outWords, dispatchShape(workgroups, maxDim).x, start === 0 ? 1 : 0]);
      const flagsRange = { role: 'flags', offset: flagType === 'u8' ? start : 4 * start, size: flagBytes(n) };
      const bitsRange = { role: 'output', offset: start / 8, size: 4 * outWords };
      b.dispatch(packHeadFlagsKernel(flagType), [flagsRange, bitsRange, params], workgroups);
    }
    return b.build();
  };
  return planOf([exec], {
    encode(encoder, args) {
      const count = checkCount((args as { count?: unknown } | null)?.count, 'args.count');
      checkEncodeArgs('pack head flags plan', args, { flags: { bytes: flagBytes(count) }, output: { bytes: 4 * packedFlagWords(count) } });
      if (count === 0) return;
      exec.encode(encoder, `${count}`, () => build(count), { flags: args.flags, output: args.output });
    },
  });
}

/**
 * Segment offsets from bit-packed head flags: `output[k]` = the first element of segment k, then
 * `output[segments] = count`; the number of segments goes to `segmentCount`. Segments are numbered
 * by an exclusive add-scan (core's `createScanPlan`) of the heads per 32-element word, and each head
 * scatters its own index. Element 0 is a head whatever its bit; bits past `count` are ignored. A
 * count of 0 gives `output[0] = 0` and 0 segments. `output` must hold `count + 1` words (the worst
 * case) and fit one storage binding.
 *
 * @example
 * ```ts
 * const plan = createHeadFlagsToOffsetsPlan(ctx);
 * plan.encode(encoder, { headBits, output, count, segmentCount });
 * ```
 */
export function createHeadFlagsToOffsetsPlan(
  ctx: ScanContext,
  options: HeadFlagsToOffsetsPlanOptions = {},
): Plan<HeadFlagsToOffsetsEncodeArgs> {
  assertUsable(ctx);
  const o = checkOptions(options, ['maxCount'], 'options');
  const maxCount = o['maxCount'] === undefined ? 0 : checkCount(o['maxCount'], 'options.maxCount');
  const scan = createScanPlan(ctx, { type: 'u32', op: 'add', inclusive: false, maxCount: packedFlagWords(maxCount) });
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const exec = new RecipeExecutor(ctx, 'head flags to offsets');
  // Two recipes share the executor's scratch ('counts', 'bases'); the scan plan runs between them.
  const buildCount = (count: number): Recipe => {
    const b = new RecipeBuilder();
    const words = packedFlagWords(count);
    b.needScratch('counts', 4 * words);
    b.needScratch('bases', 4 * words);
    const workgroups = Math.ceil(words / FLAG_KERNEL_WORKGROUP);
    const params = b.paramBlock([count, words, dispatchShape(workgroups, maxDim).x]);
    b.dispatch(countHeadsKernel(), [{ role: 'headBits', offset: 0, size: 4 * words }, { scratch: 'counts' }, params], workgroups);
    return b.build();
  };
  const buildScatter = (count: number): Recipe => {
    const b = new RecipeBuilder();
    const words = packedFlagWords(count);
    b.needScratch('counts', 4 * words);
    b.needScratch('bases', 4 * words);
    // At least one workgroup: invocation 0 writes the final offset and the count, even for count 0.
    const workgroups = Math.max(1, Math.ceil(count / FLAG_KERNEL_WORKGROUP));
    const params = b.paramBlock([count, words, dispatchShape(workgroups, maxDim).x]);
    b.dispatch(
      scatterOffsetsKernel(),
      [
        { role: 'headBits', offset: 0, size: 4 * words },
        { scratch: 'bases', offset: 0, size: 4 * words },
        { role: 'output', offset: 0, size: 4 * (count + 1) },
        { role: 'segmentCount', offset: 0, size: 4 },
        params,
      ],
      workgroups,
    );
    return b.build();
  };
  if (maxCount > 0) exec.reserve(buildScatter(maxCount));
  return planOf([exec, scan], {
    encode(encoder, args) {
      const count = checkCount((args as { count?: unknown } | null)?.count, 'args.count');
      checkEncodeArgs('head flags to offsets plan', args, {
        headBits: { bytes: 4 * packedFlagWords(count) },
        output: { bytes: 4 * (count + 1) },
        segmentCount: { bytes: 4 },
      });
      if (4 * (count + 1) > ctx.caps.limits.maxStorageBufferBindingSize) {
        throw new ScanError(
          'TOO_LARGE',
          `head flags to offsets: count = ${count} needs ${4 * (count + 1)} bytes of offsets, past one storage binding (${ctx.caps.limits.maxStorageBufferBindingSize} bytes); the scatter cannot be chunked`,
          { argument: 'args.count' },
        );
      }
      const words = packedFlagWords(count);
      const countKey = `count/${count}`;
      const scatterKey = `scatter/${count}`;
      exec.reserveFor(countKey, () => buildCount(count));
      exec.reserveFor(scatterKey, () => buildScatter(count));
      const roles = { headBits: args.headBits, output: args.output, segmentCount: args.segmentCount };
      if (words > 0) {
        exec.encode(encoder, countKey, () => buildCount(count), { headBits: args.headBits });
        scan.encode(encoder, { input: exec.scratchBuffer('counts'), output: exec.scratchBuffer('bases'), count: words });
      }
      exec.encode(encoder, scatterKey, () => buildScatter(count), roles);
    },
  });
}

/** Options of {@link createOffsetsToHeadFlagsPlan}. */
export interface OffsetsToHeadFlagsPlanOptions {
  /**
   * Largest number of offsets one dispatch reads (default: what one storage binding holds); more
   * are read in chunks. Rounded down to a multiple of the storage offset alignment in words; tests lower it.
   */
  maxChunkOffsets?: number;
}

/**
 * Bit-packed head flags from segment offsets: every word of `output` (⌈count / 32⌉) is written,
 * with the bit of each segment's first element set. Empty segments share their bit with the next
 * segment (head flags cannot express them); offsets equal to `count` set nothing. Element 0's bit
 * is always set. Offsets are not validated on the GPU (the array-level function checks them); one
 * past `count` is ignored.
 *
 * @example
 * ```ts
 * const plan = createOffsetsToHeadFlagsPlan(ctx);
 * plan.encode(encoder, { offsets, segments: rowCount, output, count: nnz });
 * ```
 */
export function createOffsetsToHeadFlagsPlan(
  ctx: ScanContext,
  options: OffsetsToHeadFlagsPlanOptions = {},
): Plan<OffsetsToHeadFlagsEncodeArgs> {
  assertUsable(ctx);
  checkOptions(options, ['maxChunkOffsets'], 'options');
  const granule = Math.max(64, ctx.caps.limits.minStorageBufferOffsetAlignment / 4);
  const bindable = Math.floor(ctx.caps.limits.maxStorageBufferBindingSize / 4 / granule) * granule;
  const chunkOffsets =
    options.maxChunkOffsets === undefined
      ? bindable
      : Math.min(
          bindable,
          Math.max(granule, Math.floor(checkCount(options.maxChunkOffsets, 'options.maxChunkOffsets') / granule) * granule),
        );
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const exec = new RecipeExecutor(ctx, 'offsets to head flags');
  const build = (count: number, segments: number): Recipe => {
    const b = new RecipeBuilder();
    const words = packedFlagWords(count);
    const bits = { role: 'output', offset: 0, size: 4 * words };
    const zeroGroups = Math.ceil(words / FLAG_KERNEL_WORKGROUP);
    b.dispatch(zeroWordsKernel(), [bits, b.paramBlock([words, dispatchShape(zeroGroups, maxDim).x])], zeroGroups);
    // The first chunk runs even with no segments, to set element 0's bit.
    for (let start = 0; start === 0 || start < segments; start += chunkOffsets) {
      const n = Math.min(chunkOffsets, segments - start);
      const workgroups = Math.max(1, Math.ceil(n / FLAG_KERNEL_WORKGROUP));
      const params = b.paramBlock([count, n, dispatchShape(workgroups, maxDim).x, start === 0 ? 1 : 0]);
      b.dispatch(offsetsToBitsKernel(), [{ role: 'offsets', offset: 4 * start, size: 4 * n }, bits, params], workgroups);
    }
    return b.build();
  };
  return planOf([exec], {
    encode(encoder, args) {
      const a = args as { count?: unknown; segments?: unknown } | null;
      const count = checkCount(a?.count, 'args.count');
      const segments = checkCount(a?.segments, 'args.segments');
      checkEncodeArgs('offsets to head flags plan', args, {
        offsets: { bytes: 4 * segments },
        output: { bytes: 4 * packedFlagWords(count) },
      });
      if (count === 0) return;
      exec.encode(encoder, `${count}/${segments}`, () => build(count, segments), { offsets: args.offsets, output: args.output });
    },
  });
}
