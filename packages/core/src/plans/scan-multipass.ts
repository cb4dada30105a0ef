import type { ScanContext } from '../context.js';
import { dispatchShape } from '../dispatch.js';
import type { ParamValues } from '../kernels/define-kernel.js';
import { type BlellochSpec, blellochBlockSlots, blellochScanKernel, blellochUniformAddKernel } from '../kernels/scan-blelloch.js';
import {
  type ReduceThenScanSpec,
  reduceThenScanReduceKernel,
  reduceThenScanScanKernel,
  reduceThenScanTileSlots,
} from '../kernels/scan-reduce-then-scan.js';
import type { SLOT_PARAMS } from '../kernels/slots.js';
import { type Chunk, chunkParamValues, vecRange } from './chunks.js';
import type { BufferRef, RecipeBuilder } from './recipe.js';
import { type ScanShape, scanOperationOf } from './scan-shape.js';

/** vec4 slots per invocation of reduce-then-scan: tiles of 4096 elements at 256 invocations. */
const RTS_SLOTS_PER_THREAD = 4;

/** The largest power of two ≤ the shape's workgroup size (the trees of both algorithms need one). */
function powerOfTwoWorkgroup(shape: ScanShape): number {
  return 2 ** Math.floor(Math.log2(shape.workgroupSize));
}

/** The scratch buffer both algorithms stage tails and carries in. */
const AUX: BufferRef = { scratch: 'aux' };

/** A recursion level's parameters over a scratch array of `n` elements (see `scratchSlotFunctionsWgsl`). */
function sumsParams(n: number, tiles: number, dispatchX: number, chunk: Chunk): ParamValues<typeof SLOT_PARAMS> {
  return {
    count: n,
    slots: Math.ceil(n / 4),
    full_vecs: 0,
    tiles,
    dispatch_x: dispatchX,
    carry_in: chunk.carryIn,
    carry_out: chunk.carryOut,
    extra: 0,
  };
}

/**
 * Records the paper's multi-block work-efficient scan of one chunk (Sengupta, Harris, Zhang & Owens,
 * "Scan Primitives for GPU Computing", 2007, §2.1; the implementation it cites, [HSO07], is
 * Harris, Sengupta & Owens, GPU Gems 3 ch. 39):
 *
 * 1. **reduce / down-sweep** per block (`2 × workgroupSize` vec4 slots): every block is scanned in
 *    workgroup memory and its total written to the level's block sums;
 * 2. the block sums are scanned **recursively** with the same kernel over scratch arrays, in
 *    place, as many levels as needed — the last level is a single block, seeded with the chunk's
 *    carry-in, which publishes the chunk total as the carry-out;
 * 3. **uniform add**: every block of a level is combined with its scanned block sum, from the
 *    deepest level back to the chunk.
 *
 * A chunk of one block is a single dispatch. The output is written twice when there are several
 * blocks (scan, then uniform add), as in the paper; `'reduce-then-scan'` avoids that. The kernels
 * use workgroup memory only, as the paper does, so the subgroup and portable forms are the same.
 * Scratch: `blelloch.sums.<level>`, one per recursion level, shared by the chunks in turn.
 *
 * @example
 * ```ts
 * // inside a plan's recipe, between the tail staging steps of `chunk`
 * blellochChunk(ctx, builder, shape, chunk);
 * ```
 */
export function blellochChunk(ctx: ScanContext, b: RecipeBuilder, shape: ScanShape, chunk: Chunk): void {
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const k = blellochKernelsOf(shape);
  const blocks = Math.ceil(chunk.slots / k.blockSlots);
  const sums = b.needScratch('blelloch.sums.1', blocks * 4);
  const output = vecRange('output', chunk);
  const params = b.paramsFor(k.scan, chunkParamValues(chunk, blocks, dispatchShape(blocks, maxDim).x));
  b.dispatch(k.scan, { src: vecRange('input', chunk), dst: output, aux: AUX, block_sums: sums }, blocks, params);
  if (blocks === 1) return;
  blellochSums(ctx, b, k, chunk, 1, blocks);
  b.dispatch(k.uniformAdd, { block_prefix: sums, dst: output, aux: AUX }, blocks, params);
}

/** Scans recursion level `level` (scratch `blelloch.sums.<level>`, `n` elements) in place. */
function blellochSums(ctx: ScanContext, b: RecipeBuilder, k: BlellochKernels, chunk: Chunk, level: number, n: number): void {
  const blocks = Math.ceil(Math.ceil(n / 4) / k.blockSlots);
  const data: BufferRef = { scratch: `blelloch.sums.${level}` };
  const next = b.needScratch(`blelloch.sums.${level + 1}`, blocks * 4);
  const params = b.paramsFor(
    k.sumsScan,
    sumsParams(n, blocks, dispatchShape(blocks, ctx.caps.limits.maxComputeWorkgroupsPerDimension).x, chunk),
  );
  b.dispatch(k.sumsScan, { data, block_sums: next, aux: AUX }, blocks, params);
  if (blocks === 1) return;
  blellochSums(ctx, b, k, chunk, level + 1, blocks);
  b.dispatch(k.sumsUniformAdd, { block_prefix: next, data }, blocks, params);
}

/** The Blelloch kernels of a scan shape: the chunk's and the recursion levels'. */
interface BlellochKernels {
  readonly blockSlots: number;
  readonly scan: ReturnType<typeof blellochScanKernel>;
  readonly uniformAdd: ReturnType<typeof blellochUniformAddKernel>;
  readonly sumsScan: ReturnType<typeof blellochScanKernel>;
  readonly sumsUniformAdd: ReturnType<typeof blellochUniformAddKernel>;
}

/** The kernels of each shape, made at its first recipe: an encode makes none. */
const blellochKernels = new WeakMap<ScanShape, BlellochKernels>();

function blellochKernelsOf(shape: ScanShape): BlellochKernels {
  const known = blellochKernels.get(shape);
  if (known) return known;
  const spec: BlellochSpec = {
    ...scanOperationOf(shape),
    workgroupSize: powerOfTwoWorkgroup(shape),
    level: 'chunk',
  };
  const sums: BlellochSpec = { ...spec, level: 'sums' };
  const kernels: BlellochKernels = {
    blockSlots: blellochBlockSlots(spec.workgroupSize),
    scan: blellochScanKernel(spec),
    uniformAdd: blellochUniformAddKernel(spec),
    sumsScan: blellochScanKernel(sums),
    sumsUniformAdd: blellochUniformAddKernel(sums),
  };
  blellochKernels.set(shape, kernels);
  return kernels;
}

/**
 * Records a three-pass reduce-then-scan of one chunk:
 *
 * 1. **reduce**: each tile (`workgroupSize × 4` vec4 slots) is reduced into `partials[tile]`;
 * 2. **scan partials**: one workgroup scans the partials, seeded with the carry-in, when they fit
 *    in one tile; otherwise the partials are scanned by the same three passes, recursively;
 * 3. **scan**: each tile is scanned again, seeded with its scanned partial, and written.
 *
 * The input is read twice and the output written once. A chunk of one tile is a single dispatch.
 * Scratch: `rts.partials.<level>`, one per recursion level, shared by the chunks in turn.
 *
 * @example
 * ```ts
 * // inside a plan's recipe, between the tail staging steps of `chunk`
 * reduceThenScanChunk(ctx, builder, shape, chunk);
 * ```
 */
export function reduceThenScanChunk(ctx: ScanContext, b: RecipeBuilder, shape: ScanShape, chunk: Chunk): void {
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const k = reduceThenScanKernelsOf(shape);
  const input = vecRange('input', chunk);

  const tiles = Math.ceil(chunk.slots / k.tileSlots);
  const partials = b.needScratch('rts.partials.1', tiles * 4);
  const params = b.paramsFor(k.scan, chunkParamValues(chunk, tiles, dispatchShape(tiles, maxDim).x));
  if (tiles > 1) {
    b.dispatch(k.reduce, { src: input, aux: AUX, partials }, tiles, params);
    reduceThenScanSums(ctx, b, k, chunk, 1, tiles);
  }
  b.dispatch(k.scan, { src: input, dst: vecRange('output', chunk), aux: AUX, tile_prefix: partials }, tiles, params);
}

/** Scans recursion level `level` (scratch `rts.partials.<level>`, `n` elements) in place. */
function reduceThenScanSums(ctx: ScanContext, b: RecipeBuilder, k: ReduceThenScanKernels, chunk: Chunk, level: number, n: number): void {
  const tiles = Math.ceil(Math.ceil(n / 4) / k.tileSlots);
  const data: BufferRef = { scratch: `rts.partials.${level}` };
  const next = b.needScratch(`rts.partials.${level + 1}`, tiles * 4);
  const params = b.paramsFor(
    k.sumsScan,
    sumsParams(n, tiles, dispatchShape(tiles, ctx.caps.limits.maxComputeWorkgroupsPerDimension).x, chunk),
  );
  if (tiles > 1) {
    b.dispatch(k.sumsReduce, { data, partials: next }, tiles, params);
    reduceThenScanSums(ctx, b, k, chunk, level + 1, tiles);
  }
  b.dispatch(k.sumsScan, { data, tile_prefix: next, aux: AUX }, tiles, params);
}

/** The reduce-then-scan kernels of a scan shape: the chunk's and the recursion levels'. */
interface ReduceThenScanKernels {
  readonly tileSlots: number;
  readonly reduce: ReturnType<typeof reduceThenScanReduceKernel>;
  readonly scan: ReturnType<typeof reduceThenScanScanKernel>;
  readonly sumsReduce: ReturnType<typeof reduceThenScanReduceKernel>;
  readonly sumsScan: ReturnType<typeof reduceThenScanScanKernel>;
}

/** The kernels of each shape, made at its first recipe: an encode makes none. */
const reduceThenScanKernels = new WeakMap<ScanShape, ReduceThenScanKernels>();

function reduceThenScanKernelsOf(shape: ScanShape): ReduceThenScanKernels {
  const known = reduceThenScanKernels.get(shape);
  if (known) return known;
  const spec: ReduceThenScanSpec = {
    ...scanOperationOf(shape),
    subgroups: shape.subgroups,
    workgroupSize: powerOfTwoWorkgroup(shape),
    slotsPerThread: RTS_SLOTS_PER_THREAD,
    level: 'chunk',
  };
  const sums: ReduceThenScanSpec = { ...spec, level: 'sums' };
  const kernels: ReduceThenScanKernels = {
    tileSlots: reduceThenScanTileSlots(spec),
    reduce: reduceThenScanReduceKernel(spec),
    scan: reduceThenScanScanKernel(spec),
    sumsReduce: reduceThenScanReduceKernel(sums),
    sumsScan: reduceThenScanScanKernel(sums),
  };
  reduceThenScanKernels.set(shape, kernels);
  return kernels;
}
