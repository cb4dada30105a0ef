import { dispatchShape, type ParamValues, type RecipeBuilder } from '@scan/core/kit';
import type { MatrixPath } from '../kernels/matrix.js';
import type { InputKind, TCU_PARAMS } from '../kernels/tcu-kernels.js';
import type { TcuSelectionEntry } from './select.js';

// What the recipe builders of the direct kernels (direct-recipes.ts) and of the staged kernels
// (staged-recipes.ts) share. It sits below both so that the direct builders can hand their tails
// and partials to the staged ones without an import circle.

/** Bytes of `n` elements of an input kind (packed words, whole words). */
export function inputBytes(kind: InputKind, n: number): number {
  if (kind === 'f16') return 4 * Math.ceil(n / 2);
  if (kind === 'u8') return 4 * Math.ceil(n / 4);
  return 4 * n;
}

/** What one pass builder needs. */
export interface PassContext {
  readonly b: RecipeBuilder;
  readonly path: MatrixPath;
  readonly table: TcuSelectionEntry;
  readonly maxDim: number;
  /**
   * Where the staged kernels run instead, when not on `path`: u8 counting with `path: 'auto'`
   * takes the direct kernel on subgroup matrices and everything else on the emulated path, whose
   * staged kernels beat the u8 matrix ones (BENCHMARKS.md).
   */
  readonly staged?: PassContext;
}

/** Level of the staged passes over what the direct kernels leave (tails); past the partial passes' levels. */
export const TAIL_LEVEL = 16;

/**
 * The parameters every tcu kernel reads ({@link TCU_PARAMS}), with the dispatch width for `groups`
 * workgroups. `first` is the first segment the pass handles: the staged kernels number segments,
 * elements and partials from the start of the whole array, so a pass over the segments a direct
 * kernel left (a tail) binds the same whole buffers as every other pass and only this word moves.
 *
 * @example
 * ```ts
 * pc.b.dispatch(kernel, { input, output }, groups, params(pc, n, s, nseg, 1, s, groups));
 * ```
 */
export const params = (
  pc: PassContext,
  n: number,
  s: number,
  nseg: number,
  parts: number,
  partLen: number,
  groups: number,
  first = 0,
): ParamValues<typeof TCU_PARAMS> => ({ n, s, nseg, parts, partLen, nx: dispatchShape(groups, pc.maxDim).x, groups, first });
