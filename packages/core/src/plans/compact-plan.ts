import type { ScanContext } from '../context.js';
import { dispatchShape } from '../dispatch.js';
import type { ElementType } from '../element-types.js';
import { AUX_FLAG_TAIL, type CompactSpec, compactKernel, type FlagSource, flagCountKernel } from '../kernels/compact.js';
import { decoupledFallbackStatusBytes } from '../kernels/look-back.js';
import { AUX_WORDS, chunkParams, splitIntoChunks, stageTailIn, vecRange } from './chunks.js';
import { type Recipe, RecipeBuilder } from './recipe.js';

/** Tuning of the one-pass kernels; internal (tests and the bench's sweeps), not part of the contract. */
export interface CompactTuning {
  workgroupSize?: number;
  slotsPerThread?: number;
  staging?: boolean;
  maxSpin?: number;
  forceFallback?: boolean;
}

/** Everything a one-pass split or pack is specialized on, after defaults. */
export type CompactShape = Omit<CompactSpec, 'forceFallback'> & { readonly forceFallback: boolean };

/**
 * The shape of a one-pass split or pack on this device. Measured on the H100 (BENCHMARKS.md, issue
 * 16 sweep): pack stores each kept element straight from registers, 256 invocations × 8 vec4 slots
 * (8192 elements a tile; staging in workgroup memory was slower at every shape); split writes every
 * element to one of two runs, where staging pays: 256 × 2 slots (2048 elements, 8 KiB staged).
 *
 * @example
 * ```ts
 * const shape = compactShape(ctx, 'pack', { kind: 'u8' }, 'u32', {});
 * ```
 */
export function compactShape(
  ctx: ScanContext,
  mode: 'split' | 'pack',
  flags: FlagSource,
  type: ElementType,
  t: CompactTuning,
): CompactShape {
  const workgroupSize = t.workgroupSize ?? Math.min(256, ctx.caps.limits.maxComputeInvocationsPerWorkgroup);
  return {
    mode,
    flags,
    type,
    subgroups: ctx.caps.features.subgroups,
    workgroupSize,
    slotsPerThread: t.slotsPerThread ?? (mode === 'pack' ? 8 : 2),
    staging: t.staging ?? mode === 'split',
    maxSpin: t.maxSpin ?? 64,
    forceFallback: t.forceFallback ?? false,
  };
}

/** Elements of one tile of `shape`. */
export const compactTileElements = (shape: CompactShape) => 4 * shape.workgroupSize * shape.slotsPerThread;

/**
 * The recipe of a one-pass split or pack of `count` elements (count > 0) from role `input` (and
 * `flags`) into `output`, the kept or false count into role `count` at byte 0:
 * clear the look-back status (and split's true count), stage the partial last vec4s, split's count
 * pass, then the one-pass kernel. `predicateBits` is the predicate constant's bit pattern.
 *
 * @example
 * ```ts
 * exec.encode(encoder, key, () => compactRecipe(ctx, shape, n, 0), { input, flags, output, count });
 * ```
 */
export function compactRecipe(ctx: ScanContext, shape: CompactShape, count: number, predicateBits: number): Recipe {
  const b = new RecipeBuilder();
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const chunk = splitIntoChunks(count, count, false)[0]!;
  const tiles = Math.ceil(count / compactTileElements(shape));
  const aux = b.needScratch('aux', AUX_WORDS * 4);
  const status = b.needScratch('status', decoupledFallbackStatusBytes(tiles));
  b.clear(status);
  const kind = shape.flags.kind;
  // The partial last vec4 of the data (and of u32 flags) goes through aux: WebGPU binds whole vec4s only.
  if (count % 4 !== 0) {
    stageTailIn(b, 'input', chunk, aux);
    if (kind === 'u32') {
      const r = count % 4;
      b.copy({ role: 'flags', offset: 16 * chunk.fullVecs, size: 4 * r }, { scratch: 'aux', offset: 4 * AUX_FLAG_TAIL }, 4 * r);
    }
  }
  const flags =
    kind === 'u32' ? vecRange('flags', chunk) : kind === 'u8' ? { role: 'flags', offset: 0, size: 4 * Math.ceil(count / 4) } : undefined;
  const input = vecRange('input', chunk);
  let trues: ReturnType<RecipeBuilder['needScratch']> | undefined;
  if (shape.mode === 'split') {
    trues = b.needScratch('trues', 16);
    b.clear(trues);
    const countParams = b.paramBlock(chunkParams(chunk, tiles, dispatchShape(tiles, maxDim).x, predicateBits));
    // The count pass reads the data only for a predicate, and aux only for a tail (data or u32 flags).
    const countBindings = [kind === 'predicate' ? input : undefined, undefined, kind === 'u8' ? undefined : aux, countParams];
    b.dispatch(flagCountKernel(shape), [...countBindings, undefined, flags, undefined, trues], tiles);
  }
  const params = b.paramBlock(chunkParams(chunk, tiles, dispatchShape(tiles, maxDim).x, predicateBits));
  b.dispatch(
    compactKernel(shape),
    [input, { role: 'output', offset: 0, size: 4 * count }, aux, params, status, flags, { role: 'count', offset: 0, size: 4 }, trues],
    tiles,
  );
  return b.build();
}
