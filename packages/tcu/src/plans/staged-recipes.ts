import type { BufferRef } from '@scan/core/kit';
import { type InputKind, tcuPropagateKernel, tcuReduceKernel, tcuScanKernel } from '../kernels/tcu-kernels.js';
import { type PassContext, params } from './pass-context.js';
import { selectLevel } from './select.js';

// Every binding here is a whole buffer (the caller's, or a scratch buffer by name): the kernels
// number segments, elements and partials from the start of the array and take the counts and the
// first segment from their parameters, so a recipe's bindings do not depend on the count.

/**
 * Records a segmented reduction of the segments `first` … ⌈n/s⌉ − 1 of `n` elements (segments of
 * `s`, the last may be shorter) from `input` into `output` (one value per segment, at the
 * segment's index) on the staged kernels, on `pc.staged` when the context has one: warp/block
 * level in one dispatch, grid level as a dispatch into partials and a recursive reduction of the
 * partials (segment size = parts). `level` names the scratch of each recursion; the direct kernels
 * (direct-recipes.ts) hand their partials (level 1) and tails (`TAIL_LEVEL`, from the first segment
 * they left) here.
 *
 * @example
 * ```ts
 * recordStagedReduce(pc, { role: 'input', offset: 0 }, 'f16', { role: 'output', offset: 0 }, n, 256);
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
  first = 0,
): void {
  // A segment longer than the array is the whole array.
  const s = Math.min(segmentSize, n);
  if (pc.staged) {
    recordStagedReduce(pc.staged, input, kind, output, n, segmentSize, level, first);
    return;
  }
  const { path } = pc;
  const S = path.S;
  const nseg = Math.ceil(n / s);
  const segs = nseg - first;
  const sel = selectLevel(S, s, pc.table);
  if (sel.level === 'warp') {
    const q = Math.floor(S / s);
    const groups = Math.ceil(segs / (q * S * sel.tiles));
    pc.b.dispatch(
      tcuReduceKernel({ path, cls: 'warp', input: kind, tiles: sel.tiles }),
      { input, output },
      groups,
      params(pc, n, s, nseg, 1, s, groups, first),
    );
    return;
  }
  const groups = segs * sel.parts;
  const kernel = tcuReduceKernel({ path, cls: 'block', input: kind, tiles: 1 });
  if (sel.parts === 1) {
    pc.b.dispatch(kernel, { input, output }, groups, params(pc, n, s, nseg, 1, sel.partLen, groups, first));
    return;
  }
  // The partials sit at their index in the whole array (segment · parts + part).
  const partials = pc.b.needScratch(`partials${level}`, 4 * nseg * sel.parts);
  pc.b.dispatch(kernel, { input, output: partials }, groups, params(pc, n, s, nseg, sel.parts, sel.partLen, groups, first));
  recordStagedReduce(pc, partials, path.family === 'f16' ? 'f32' : 'u32', output, nseg * sel.parts, sel.parts, level + 1, first);
}

/**
 * Records a segmented scan (exclusive unless `inclusive`) of the segments `first` … ⌈n/s⌉ − 1 on the
 * staged kernels: warp/block level in one dispatch; grid level as scan-then-propagate (block scans
 * writing part totals, an exclusive scan of the totals per segment — recursively — and a propagate
 * kernel adding them).
 *
 * @example
 * ```ts
 * recordStagedScan(pc, { role: 'input', offset: 0 }, 'f16', { role: 'output', offset: 0 }, n, 4096, true);
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
  first = 0,
): void {
  const s = Math.min(segmentSize, n);
  const { path } = pc;
  const S = path.S;
  const nseg = Math.ceil(n / s);
  const segs = nseg - first;
  const sel = selectLevel(S, s, pc.table);
  if (sel.level === 'warp') {
    const q = Math.floor(S / s);
    const groups = Math.ceil(segs / (q * S * sel.tiles));
    pc.b.dispatch(
      tcuScanKernel({ path, cls: 'warp', input: kind, tiles: sel.tiles, inclusive }),
      { input, output },
      groups,
      params(pc, n, s, nseg, 1, s, groups, first),
    );
    return;
  }
  const groups = segs * sel.parts;
  const kernel = tcuScanKernel({ path, cls: 'block', input: kind, tiles: 1, inclusive });
  if (sel.parts === 1) {
    // The kernel declares the partials binding, which one part per segment never writes.
    const unused = pc.b.needScratch('unused', 16);
    pc.b.dispatch(kernel, { input, output, partials: unused }, groups, params(pc, n, s, nseg, 1, sel.partLen, groups, first));
    return;
  }
  // Part totals and their scan, at their index in the whole array (segment · parts + part).
  const partials = pc.b.needScratch(`partials${level}`, 4 * nseg * sel.parts);
  const scanned = pc.b.needScratch(`scanned${level}`, 4 * nseg * sel.parts);
  pc.b.dispatch(kernel, { input, output, partials }, groups, params(pc, n, s, nseg, sel.parts, sel.partLen, groups, first));
  recordStagedScan(pc, partials, 'f32', scanned, nseg * sel.parts, sel.parts, false, level + 1, first);
  const propagateGroups = Math.ceil((n - first * s) / 256);
  pc.b.dispatch(
    tcuPropagateKernel(),
    { output, scanned },
    propagateGroups,
    params(pc, n, s, nseg, sel.parts, sel.partLen, propagateGroups, first),
  );
}
