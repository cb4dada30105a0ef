import { type BufferRef, dispatchShape, type RecipeBuilder } from '@scan/core';
import type { MatrixPath } from '../kernels/matrix.js';
import { type InputKind, tcuPropagateKernel, tcuReduceKernel, tcuScanKernel } from '../kernels/tcu-kernels.js';
import { recordDirectCount, recordDirectReduce, recordDirectScan } from './direct-recipes.js';
import { selectLevel, type TcuSelectionEntry } from './select.js';

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
  /** The device's minStorageBufferOffsetAlignment (sub-range bindings). */
  readonly align: number;
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
 * The parameter block every tcu kernel reads (`PARAMS_STRUCT`), with the dispatch width for `groups` workgroups.
 *
 * @example
 * ```ts
 * pc.b.dispatch(kernel, [input, output, params(pc, n, s, nseg, 1, s, groups)], groups);
 * ```
 */
export const params = (pc: PassContext, n: number, s: number, nseg: number, parts: number, partLen: number, groups: number) =>
  pc.b.paramBlock([n, s, nseg, parts, partLen, dispatchShape(groups, pc.maxDim).x, groups, 0]);

/**
 * Records a segmented reduction of `n` elements in segments of `s` (the last may be shorter) from
 * `input` into `output` (one value per segment). At level 0 the direct kernels take the shapes they
 * cover (direct-recipes.ts: f16 reductions, u8 counts); otherwise the staged kernels, on
 * `pc.staged` when the context has one: warp/block level in one dispatch, grid level as a dispatch
 * into partials and a recursive reduction of the partials (segment size = parts).
 */
export function recordReduce(
  pc: PassContext,
  input: BufferRef,
  kind: InputKind,
  output: BufferRef,
  n: number,
  segmentSize: number,
  level = 0,
): void {
  // A segment longer than the array is the whole array.
  const s = Math.min(segmentSize, n);
  if (level === 0 && kind === 'f16' && recordDirectReduce(pc, input, output, n, s)) return;
  if (level === 0 && kind === 'u8' && recordDirectCount(pc, input, output, n, s)) return;
  if (pc.staged) {
    recordReduce(pc.staged, input, kind, output, n, segmentSize, level);
    return;
  }
  const { path } = pc;
  const S = path.S;
  const nseg = Math.ceil(n / s);
  const sel = selectLevel(S, s, pc.table);
  if (sel.level === 'warp') {
    const q = Math.floor(S / s);
    const groups = Math.ceil(nseg / (q * S * sel.tiles));
    pc.b.dispatch(
      tcuReduceKernel({ path, cls: 'warp', input: kind, tiles: sel.tiles }),
      [input, output, params(pc, n, s, nseg, 1, s, groups)],
      groups,
    );
    return;
  }
  const groups = nseg * sel.parts;
  const kernel = tcuReduceKernel({ path, cls: 'block', input: kind, tiles: 1 });
  if (sel.parts === 1) {
    pc.b.dispatch(kernel, [input, output, params(pc, n, s, nseg, 1, sel.partLen, groups)], groups);
    return;
  }
  const name = `partials${level}`;
  pc.b.needScratch(name, 4 * groups);
  const partials = { scratch: name, offset: 0, size: 4 * groups };
  pc.b.dispatch(kernel, [input, partials, params(pc, n, s, nseg, sel.parts, sel.partLen, groups)], groups);
  recordReduce(pc, partials, path.family === 'f16' ? 'f32' : 'u32', output, groups, sel.parts, level + 1);
}

/**
 * Records a segmented scan (exclusive unless `inclusive`). At level 0 with f16 input the direct
 * kernels take the shapes they cover (direct-recipes.ts); otherwise warp/block level in one dispatch; grid
 * level as scan-then-propagate (block scans writing part totals, an exclusive scan of the totals
 * per segment — recursively — and a propagate kernel adding them).
 */
export function recordScan(
  pc: PassContext,
  input: BufferRef,
  kind: InputKind,
  output: BufferRef,
  n: number,
  segmentSize: number,
  inclusive: boolean,
  level = 0,
): void {
  const s = Math.min(segmentSize, n);
  if (level === 0 && kind === 'f16' && recordDirectScan(pc, input, output, n, s, inclusive)) return;
  const { path } = pc;
  const S = path.S;
  const nseg = Math.ceil(n / s);
  const sel = selectLevel(S, s, pc.table);
  if (sel.level === 'warp') {
    const q = Math.floor(S / s);
    const groups = Math.ceil(nseg / (q * S * sel.tiles));
    pc.b.dispatch(
      tcuScanKernel({ path, cls: 'warp', input: kind, tiles: sel.tiles, inclusive }),
      [input, output, params(pc, n, s, nseg, 1, s, groups)],
      groups,
    );
    return;
  }
  const groups = nseg * sel.parts;
  const kernel = tcuScanKernel({ path, cls: 'block', input: kind, tiles: 1, inclusive });
  if (sel.parts === 1) {
    pc.b.needScratch('unused', 16);
    pc.b.dispatch(
      kernel,
      [input, output, params(pc, n, s, nseg, 1, sel.partLen, groups), { scratch: 'unused', offset: 0, size: 16 }],
      groups,
    );
    return;
  }
  const pname = `partials${level}`;
  const sname = `scanned${level}`;
  pc.b.needScratch(pname, 4 * groups);
  pc.b.needScratch(sname, 4 * groups);
  const partials = { scratch: pname, offset: 0, size: 4 * groups };
  const scanned = { scratch: sname, offset: 0, size: 4 * groups };
  pc.b.dispatch(kernel, [input, output, params(pc, n, s, nseg, sel.parts, sel.partLen, groups), partials], groups);
  recordScan(pc, partials, 'f32', scanned, groups, sel.parts, false, level + 1);
  const propagateGroups = Math.ceil(n / 256);
  pc.b.dispatch(tcuPropagateKernel(), [output, scanned, params(pc, n, s, nseg, sel.parts, sel.partLen, propagateGroups)], propagateGroups);
}
