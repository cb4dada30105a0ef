import type { BufferRef } from '@scan/core/kit';
import { type InputKind, tcuPropagateKernel, tcuReduceKernel, tcuScanKernel } from '../kernels/tcu-kernels.js';
import { type PassContext, params } from './pass-context.js';
import { selectLevel } from './select.js';

/**
 * Records a segmented reduction of `n` elements in segments of `s` (the last may be shorter) from
 * `input` into `output` (one value per segment) on the staged kernels, on `pc.staged` when the
 * context has one: warp/block level in one dispatch, grid level as a dispatch into partials and a
 * recursive reduction of the partials (segment size = parts). `level` names the scratch of each
 * recursion; the direct kernels (direct-recipes.ts) hand their partials and tails here at levels
 * above 0.
 *
 * @example
 * ```ts
 * recordStagedReduce(pc, input, 'f16', output, n, 256);
 * ```
 */
export function recordStagedReduce(
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
  if (pc.staged) {
    recordStagedReduce(pc.staged, input, kind, output, n, segmentSize, level);
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
  recordStagedReduce(pc, partials, path.family === 'f16' ? 'f32' : 'u32', output, groups, sel.parts, level + 1);
}

/**
 * Records a segmented scan (exclusive unless `inclusive`) on the staged kernels: warp/block level in
 * one dispatch; grid level as scan-then-propagate (block scans writing part totals, an exclusive
 * scan of the totals per segment — recursively — and a propagate kernel adding them).
 *
 * @example
 * ```ts
 * recordStagedScan(pc, input, 'f16', output, n, 4096, true);
 * ```
 */
export function recordStagedScan(
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
  recordStagedScan(pc, partials, 'f32', scanned, groups, sel.parts, false, level + 1);
  const propagateGroups = Math.ceil(n / 256);
  pc.b.dispatch(tcuPropagateKernel(), [output, scanned, params(pc, n, s, nseg, sel.parts, sel.partLen, propagateGroups)], propagateGroups);
}
