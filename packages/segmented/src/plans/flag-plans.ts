import { createScanPlan, type FlagType, type Plan, type ScanContext, ScanError } from '@scan/core';
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
 * Memory: no scratch, only a 4-slot parameter ring (a 256-byte block per chunk in each slot: 1 KiB
 * below one chunk); an encode with a new count creates nothing once warm. `await plan.ready`
 * compiles the kernel before the first frame.
 *
 * @example
 * ```ts
 * const plan = createPackHeadFlagsPlan(ctx, { flagType: 'u8' });
 * await plan.ready;
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
  const bytesPerFlag = flagType === 'u8' ? 1 : 4;
  const flagBytes = (count: number) => (flagType === 'u8' ? 4 * Math.ceil(count / 4) : 4 * count);
  const kernel = packHeadFlagsKernel(flagType);
  const build = (count: number): Recipe => {
    const b = new RecipeBuilder();
    for (let start = 0; start < count; start += chunkElements) {
      const n = Math.min(chunkElements, count - start);
      const inWords = flagType === 'u8' ? Math.ceil(n / 4) : n;
      const outWords = packedFlagWords(n);
      const workgroups = Math.ceil(inWords / FLAG_KERNEL_WORKGROUP);
      // A chunk's ranges start at fixed offsets and hold a chunk's capacity at most, whatever the
      // count: the kernel stops at params.in_words / out_words, so the bind groups serve every count.
      const flagsRange = { role: 'flags', offset: bytesPerFlag * start, limit: bytesPerFlag * chunkElements, multipleOf: 4 };
      const bitsRange = { role: 'output', offset: start / 8, limit: chunkElements / 8, multipleOf: 4 };
      b.dispatch(kernel, { flags: flagsRange, bits: bitsRange }, workgroups, {
        count: n,
        in_words: inWords,
        out_words: outWords,
        dispatch_x: dispatchShape(workgroups, maxDim).x,
        force_first: start === 0 ? 1 : 0,
      });
    }
    return b.build();
  };
  return planOf([exec], {
    what: 'pack head flags plan',
    encode(encoder, args) {
      const count = checkCount((args as { count?: unknown } | null)?.count, 'args.count');
      checkEncodeArgs('pack head flags plan', args, { flags: { bytes: flagBytes(count) }, output: { bytes: 4 * packedFlagWords(count) } });
      if (count === 0) return;
      exec.encode(encoder, () => build(count), { flags: args.flags, output: args.output });
    },
    ready: exec.load([build(1)]),
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
 * Memory: two scratch buffers of one word per 32 elements (the heads per word and their scan),
 * core's scan plan over them (its own small scratch), and two 4-slot parameter rings. Scratch grows
 * by doubling when a count needs more, or is sized once by `maxCount`; once warm, an encode with a
 * new count creates no buffer, bind group or pipeline. `await plan.ready` compiles every kernel first.
 *
 * @example
 * ```ts
 * const plan = createHeadFlagsToOffsetsPlan(ctx);
 * await plan.ready;
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
  const countHeads = countHeadsKernel();
  const scatterOffsets = scatterOffsetsKernel();
  const headBits = { role: 'headBits', offset: 0 };
  // Two recipes share the executor's scratch ('counts', 'bases'); the scan plan runs between them.
  // Every binding is a whole buffer (the kernels stop at params.words / params.count), so each
  // recipe has one structure whatever the count.
  const buildCount = (count: number): Recipe => {
    const b = new RecipeBuilder();
    const words = packedFlagWords(count);
    b.needScratch('counts', 4 * words);
    b.needScratch('bases', 4 * words);
    const workgroups = Math.ceil(words / FLAG_KERNEL_WORKGROUP);
    b.dispatch(countHeads, { bits: headBits, counts: { scratch: 'counts' } }, workgroups, {
      count,
      words,
      dispatch_x: dispatchShape(workgroups, maxDim).x,
    });
    return b.build();
  };
  const buildScatter = (count: number): Recipe => {
    const b = new RecipeBuilder();
    const words = packedFlagWords(count);
    b.needScratch('counts', 4 * words);
    b.needScratch('bases', 4 * words);
    // At least one workgroup: invocation 0 writes the final offset and the count, even for count 0.
    const workgroups = Math.max(1, Math.ceil(count / FLAG_KERNEL_WORKGROUP));
    b.dispatch(
      scatterOffsets,
      {
        bits: headBits,
        bases: { scratch: 'bases' },
        offsets: { role: 'output', offset: 0 },
        segment_count: { role: 'segmentCount', offset: 0, size: 4 },
      },
      workgroups,
      { count, words, dispatch_x: dispatchShape(workgroups, maxDim).x },
    );
    return b.build();
  };
  if (maxCount > 0) exec.reserve(buildScatter(maxCount));
  return planOf([exec, scan], {
    what: 'head flags to offsets plan',
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
      const counting = buildCount(count);
      const scatter = buildScatter(count);
      // Allocate the scratch before the scan binds it.
      exec.reserveFor(() => scatter);
      if (words > 0) {
        exec.encode(encoder, () => counting, { headBits: args.headBits });
        scan.encode(encoder, { input: exec.scratchBuffer('counts'), output: exec.scratchBuffer('bases'), count: words });
      }
      exec.encode(encoder, () => scatter, { headBits: args.headBits, output: args.output, segmentCount: args.segmentCount });
    },
    ready: exec.load([buildCount(1), buildScatter(1)]),
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
 * Memory: no scratch, only a 4-slot parameter ring (a 256-byte block per dispatch in each slot,
 * rounded up to a power of two: 2 KiB below one chunk of offsets); an encode with a new count or
 * number of segments creates nothing once warm. `await plan.ready` compiles the kernels before the
 * first frame.
 *
 * @example
 * ```ts
 * const plan = createOffsetsToHeadFlagsPlan(ctx);
 * await plan.ready;
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
  // Whole buffers, and offset chunks at fixed starts holding a chunk's capacity at most: the kernels
  // stop at params.words / params.segments, so the bindings serve every count.
  const bits = { role: 'output', offset: 0 };
  const zeroWords = zeroWordsKernel();
  const offsetsToBits = offsetsToBitsKernel();
  const offsetChunks = (segments: number) => Math.max(1, Math.ceil(segments / chunkOffsets));
  const build = (count: number, segments: number): Recipe => {
    const b = new RecipeBuilder();
    const words = packedFlagWords(count);
    const zeroGroups = Math.ceil(words / FLAG_KERNEL_WORKGROUP);
    b.dispatch(zeroWords, { data: bits }, zeroGroups, { words, dispatch_x: dispatchShape(zeroGroups, maxDim).x });
    // The first chunk runs even with no segments, to set element 0's bit.
    for (let chunk = 0; chunk < offsetChunks(segments); chunk++) {
      const start = chunk * chunkOffsets;
      const n = Math.max(0, Math.min(chunkOffsets, segments - start));
      const workgroups = Math.max(1, Math.ceil(n / FLAG_KERNEL_WORKGROUP));
      const offsets = { role: 'offsets', offset: 4 * start, limit: 4 * chunkOffsets, multipleOf: 4 };
      b.dispatch(offsetsToBits, { offsets, bits }, workgroups, {
        count,
        segments: n,
        dispatch_x: dispatchShape(workgroups, maxDim).x,
        force_first: start === 0 ? 1 : 0,
      });
    }
    return b.build();
  };
  return planOf([exec], {
    what: 'offsets to head flags plan',
    encode(encoder, args) {
      const a = args as { count?: unknown; segments?: unknown } | null;
      const count = checkCount(a?.count, 'args.count');
      const segments = checkCount(a?.segments, 'args.segments');
      checkEncodeArgs('offsets to head flags plan', args, {
        offsets: { bytes: 4 * segments },
        output: { bytes: 4 * packedFlagWords(count) },
      });
      if (count === 0) return;
      exec.encode(encoder, () => build(count, segments), { offsets: args.offsets, output: args.output });
    },
    ready: exec.load([build(1, 1)]),
  });
}
