import { type BufferRef, decoupledFallbackStatusBytes, dispatchShape } from '@scan/core';
import { chainedUnitTiles, directChainedScanKernel } from '../kernels/direct-chained-scan.js';
import type { DirectShape } from '../kernels/direct-common.js';
import { directReduceKernel } from '../kernels/direct-reduce.js';
import { directScanKernel } from '../kernels/direct-scan.js';
import { type PassContext, recordReduce, recordScan, TAIL_LEVEL } from './recipes.js';
import type { TcuDirectEntry } from './select.js';

/** A sub-range of a ref, in bytes (the ref's own offset added). */
function slice(ref: BufferRef, offset: number, size: number): BufferRef {
  return { ...ref, offset: ((ref as { offset?: number }).offset ?? 0) + offset, size };
}

const params = (pc: PassContext, words: readonly number[], groups: number) => {
  const [n, s, nseg, parts, partLen] = words;
  return pc.b.paramBlock([n ?? 0, s ?? 0, nseg ?? 0, parts ?? 1, partLen ?? 0, dispatchShape(groups, pc.maxDim).x, groups, 0]);
};

/**
 * Tiles per segment for the direct kernels: 0 when s = S (one tile column), t when s = t·S²,
 * undefined when the segment size suits neither.
 */
function segmentTiles(S: number, s: number): number | undefined {
  if (s === S) return 0;
  return s % (S * S) === 0 ? s / (S * S) : undefined;
}

function directOf(pc: PassContext): { entry: TcuDirectEntry; S: number } | undefined {
  const entry = pc.table.direct;
  return pc.path.direct && entry ? { entry, S: pc.path.S } : undefined;
}

const shape = (pc: PassContext, W: number): DirectShape => ({ S: pc.path.S, SG: pc.path.workgroupSize, syntax: pc.path.syntax, W });

/**
 * Records the direct part of a segmented reduction of f16 values when the shape allows it (see
 * {@link directReduceKernel}) and the staged kernels for what is left; returns false (recording
 * nothing) when the direct kernels do not apply. Units are S tiles; with segments longer than S
 * tiles each unit writes a partial sum and the partials are reduced by the staged kernels.
 */
export function recordDirectReduce(pc: PassContext, input: BufferRef, output: BufferRef, n: number, s: number): boolean {
  const d = directOf(pc);
  const t = d && segmentTiles(d.S, s);
  if (!d || t === undefined || (t > 0 && t < d.S && d.S % t !== 0) || (t > d.S && t % d.S !== 0)) return false;
  const { S, entry } = d;
  const SS = S * S;
  const unitLen = S * SS;
  const W = entry.reduceSubgroups;
  const unitTiles = t > S && entry.reduceLongUnitTiles % S === 0 && t % entry.reduceLongUnitTiles === 0 ? entry.reduceLongUnitTiles : S;
  const kernel = directReduceKernel({ ...shape(pc, W), segTiles: t, unitTiles });
  if (t <= S) {
    const units = Math.floor(n / unitLen);
    const start = units * unitLen;
    const doneSegs = start / s;
    const outAt = 4 * doneSegs;
    if (units === 0 || (2 * start) % pc.align !== 0) return false;
    const groups = Math.ceil(units / W);
    pc.b.dispatch(kernel, [slice(input, 0, 2 * start), slice(output, 0, outAt), params(pc, [start, s, doneSegs], units)], groups);
    if (start < n) recordTail(pc, input, output, n, s, start);
    return true;
  }
  // Segments of several units: partial sums per unit, then the staged kernels reduce the partials.
  const fullSegs = Math.floor(n / s);
  const start = fullSegs * s;
  if (fullSegs === 0 || (2 * start) % pc.align !== 0) return false;
  const parts = t / unitTiles;
  const units = fullSegs * parts;
  const name = 'directPartials';
  pc.b.needScratch(name, 4 * units);
  const partials = { scratch: name, offset: 0, size: 4 * units };
  pc.b.dispatch(kernel, [slice(input, 0, 2 * start), partials, params(pc, [start, s, fullSegs], units)], Math.ceil(units / W));
  recordReduce(pc, partials, 'f32', slice(output, 0, 4 * fullSegs), units, parts, 1);
  if (start < n) recordTail(pc, input, output, n, s, start);
  return true;
}

/**
 * The segments from element `start` on (fewer than a unit's worth, or one shorter last segment)
 * through the staged kernels, written to the output directly when its offset is aligned for a
 * storage binding, else through scratch and a copy.
 */
function recordTail(pc: PassContext, input: BufferRef, output: BufferRef, n: number, s: number, start: number): void {
  const first = start / s;
  const segs = Math.ceil(n / s) - first;
  const tailIn = slice(input, 2 * start, 4 * Math.ceil((n - start) / 2));
  if ((4 * first) % pc.align === 0) {
    recordReduce(pc, tailIn, 'f16', slice(output, 4 * first, 4 * segs), n - start, s, TAIL_LEVEL);
    return;
  }
  const name = 'directTail';
  pc.b.needScratch(name, 4 * segs);
  const tail = { scratch: name, offset: 0, size: 4 * segs };
  recordReduce(pc, tailIn, 'f16', tail, n - start, s, TAIL_LEVEL);
  pc.b.copy(tail, slice(output, 4 * first, 4 * segs), 4 * segs);
}

/** Reads of a not-ready predecessor before a chained scan falls back (core's scan uses the same). */
const MAX_SPIN = 64;

/**
 * Records the direct part of a segmented scan of f16 values when the shape allows it and the
 * staged kernels for the rest; returns false (recording nothing) when the direct kernels do not
 * apply. Segments of at most S tiles (dividing S): {@link directScanKernel} over units of whole
 * segments (`scanTileUnit` tiles for s = S, else S tiles). Longer segments of whole units of S·W
 * tiles (or S tiles with one subgroup per workgroup): {@link directChainedScanKernel} over the
 * full segments, in one pass.
 */
export function recordDirectScan(pc: PassContext, input: BufferRef, output: BufferRef, n: number, s: number, inclusive: boolean): boolean {
  const d = directOf(pc);
  const t = d && segmentTiles(d.S, s);
  if (!d || t === undefined) return false;
  const { S, entry } = d;
  const SS = S * S;
  let start: number;
  if (t <= S) {
    if (t > 0 && S % t !== 0) return false;
    const unitTiles = t === 0 ? entry.scanTileUnit : S;
    const W = entry.scanSubgroups;
    start = Math.floor(n / (unitTiles * SS)) * unitTiles * SS;
    const units = start / (unitTiles * SS);
    if (units === 0 || (2 * start) % pc.align !== 0) return false;
    const kernel = directScanKernel({ ...shape(pc, W), segTiles: t, unitTiles, inclusive });
    pc.b.dispatch(
      kernel,
      [slice(input, 0, 2 * start), slice(output, 0, 4 * start), params(pc, [start, s, start / s], units)],
      Math.ceil(units / W),
    );
  } else {
    const B = Math.min(entry.chainedScanTiles, S);
    const wide = { ...shape(pc, entry.chainedScanSubgroups), tilesPerSubgroup: B };
    const chained = t % chainedUnitTiles(wide) === 0 ? wide : { ...shape(pc, 1), tilesPerSubgroup: B };
    const unitTiles = chainedUnitTiles(chained);
    if (t % unitTiles !== 0) return false;
    start = Math.floor(n / s) * s;
    const units = start / (unitTiles * SS);
    if (units === 0 || (2 * start) % pc.align !== 0) return false;
    const status = 'directStatus';
    pc.b.needScratch(status, decoupledFallbackStatusBytes(units));
    const statusRef = { scratch: status, offset: 0, size: decoupledFallbackStatusBytes(units) };
    pc.b.clear(statusRef);
    const kernel = directChainedScanKernel({ ...chained, inclusive, maxSpin: MAX_SPIN });
    pc.b.dispatch(
      kernel,
      [slice(input, 0, 2 * start), slice(output, 0, 4 * start), params(pc, [start, s, start / s, t / unitTiles], units), statusRef],
      units,
    );
  }
  if (start < n) {
    recordScan(
      pc,
      slice(input, 2 * start, 4 * Math.ceil((n - start) / 2)),
      'f16',
      slice(output, 4 * start, 4 * (n - start)),
      n - start,
      s,
      inclusive,
      TAIL_LEVEL,
    );
  }
  return true;
}
