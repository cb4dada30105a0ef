import type { ScanContext } from '../context.js';
import { dispatchShape } from '../dispatch.js';
import { type BlellochSpec, blellochBlockSlots, blellochScanKernel, blellochUniformAddKernel } from '../kernels/scan-blelloch.js';
import {
  type ReduceThenScanSpec,
  reduceThenScanReduceKernel,
  reduceThenScanScanKernel,
  reduceThenScanTileSlots,
} from '../kernels/scan-reduce-then-scan.js';
import { type Chunk, chunkParams, vecRange } from './chunks.js';
import type { BufferRef, RecipeBuilder } from './recipe.js';
import type { ScanShape } from './scan-shape.js';

/** vec4 slots per invocation of reduce-then-scan: tiles of 4096 elements at 256 invocations. */
const RTS_SLOTS_PER_THREAD = 4;

/** The largest power of two ≤ the shape's workgroup size (the trees of both algorithms need one). */
function powerOfTwoWorkgroup(shape: ScanShape): number {
  return 2 ** Math.floor(Math.log2(shape.workgroupSize));
}

/** A recursion level's `Params` over a scratch array of `n` elements (see `scratchSlotWgsl`). */
function sumsParams(n: number, tiles: number, dispatchX: number, chunk: Chunk): number[] {
  return [n, Math.ceil(n / 4), 0, tiles, dispatchX, chunk.carryIn, chunk.carryOut, 0];
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
  const spec: BlellochSpec = {
    type: shape.type,
    op: shape.op,
    inclusive: shape.inclusive,
    backward: shape.backward,
    mapInput: shape.mapInput,
    workgroupSize: powerOfTwoWorkgroup(shape),
    level: 'chunk',
  };
  const blockSlots = blellochBlockSlots(spec.workgroupSize);
  const aux: BufferRef = { scratch: 'aux' };

  const blocks = Math.ceil(chunk.slots / blockSlots);
  const sums = b.needScratch('blelloch.sums.1', blocks * 4);
  const params = b.paramBlock(chunkParams(chunk, blocks, dispatchShape(blocks, maxDim).x));
  b.dispatch(blellochScanKernel(spec), [vecRange('input', chunk), vecRange('output', chunk), aux, params, sums], blocks);
  if (blocks === 1) return;
  blellochSums(ctx, b, { ...spec, level: 'sums' }, chunk, 1, blocks);
  b.dispatch(blellochUniformAddKernel(spec), [sums, vecRange('output', chunk), aux, params], blocks);
}

/** Scans recursion level `level` (scratch `blelloch.sums.<level>`, `n` elements) in place. */
function blellochSums(ctx: ScanContext, b: RecipeBuilder, spec: BlellochSpec, chunk: Chunk, level: number, n: number): void {
  const blocks = Math.ceil(Math.ceil(n / 4) / blellochBlockSlots(spec.workgroupSize));
  const data: BufferRef = { scratch: `blelloch.sums.${level}` };
  const next = b.needScratch(`blelloch.sums.${level + 1}`, blocks * 4);
  const params = b.paramBlock(sumsParams(n, blocks, dispatchShape(blocks, ctx.caps.limits.maxComputeWorkgroupsPerDimension).x, chunk));
  b.dispatch(blellochScanKernel(spec), [data, next, { scratch: 'aux' }, params], blocks);
  if (blocks === 1) return;
  blellochSums(ctx, b, spec, chunk, level + 1, blocks);
  b.dispatch(blellochUniformAddKernel(spec), [next, data, params], blocks);
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
  const spec: ReduceThenScanSpec = {
    type: shape.type,
    op: shape.op,
    inclusive: shape.inclusive,
    backward: shape.backward,
    mapInput: shape.mapInput,
    subgroups: shape.subgroups,
    workgroupSize: powerOfTwoWorkgroup(shape),
    slotsPerThread: RTS_SLOTS_PER_THREAD,
    level: 'chunk',
  };
  const aux: BufferRef = { scratch: 'aux' };
  const input = vecRange('input', chunk);

  const tiles = Math.ceil(chunk.slots / reduceThenScanTileSlots(spec));
  const partials = b.needScratch('rts.partials.1', tiles * 4);
  const params = b.paramBlock(chunkParams(chunk, tiles, dispatchShape(tiles, maxDim).x));
  if (tiles > 1) {
    b.dispatch(reduceThenScanReduceKernel(spec), [input, partials, aux, params], tiles);
    reduceThenScanSums(ctx, b, { ...spec, level: 'sums' }, chunk, 1, tiles);
  }
  b.dispatch(reduceThenScanScanKernel(spec), [input, vecRange('output', chunk), aux, params, partials], tiles);
}

/** Scans recursion level `level` (scratch `rts.partials.<level>`, `n` elements) in place. */
function reduceThenScanSums(ctx: ScanContext, b: RecipeBuilder, spec: ReduceThenScanSpec, chunk: Chunk, level: number, n: number): void {
  const tiles = Math.ceil(Math.ceil(n / 4) / reduceThenScanTileSlots(spec));
  const data: BufferRef = { scratch: `rts.partials.${level}` };
  const next = b.needScratch(`rts.partials.${level + 1}`, tiles * 4);
  const params = b.paramBlock(sumsParams(n, tiles, dispatchShape(tiles, ctx.caps.limits.maxComputeWorkgroupsPerDimension).x, chunk));
  if (tiles > 1) {
    b.dispatch(reduceThenScanReduceKernel(spec), [data, next, params], tiles);
    reduceThenScanSums(ctx, b, spec, chunk, level + 1, tiles);
  }
  b.dispatch(reduceThenScanScanKernel(spec), [data, next, { scratch: 'aux' }, params], tiles);
}
