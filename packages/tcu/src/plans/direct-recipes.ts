import { type BufferRef, decoupledFallbackStatusBytes } from '@scan/core/kit';
import { chainedUnitTiles, directChainedScanKernel } from '../kernels/direct-chained-scan.js';
import type { DirectShape } from '../kernels/direct-common.js';
import { directCountApplies, directCountKernel } from '../kernels/direct-count.js';
import { directBlockReduceKernel, directReduceKernel } from '../kernels/direct-reduce.js';
import { directScanKernel } from '../kernels/direct-scan.js';
import { type PassContext, params, TAIL_LEVEL } from './pass-context.js';
import type { TcuDirectEntry } from './select.js';
import { recordStagedReduce, recordStagedScan } from './staged-recipes.js';

// Every binding here is a whole buffer (the caller's input and output, or scratch by name): a
// direct kernel's work is bounded by its parameters (`groups` units from element 0), and the staged
// kernels that take the rest start at a segment given in their parameters, not at a binding offset.
// So a recipe's bindings do not depend on the count, and one bind group serves every count.

/**
 * How the direct kernels take segments of s elements (S: the tile side):
 * - `tile`: s = S, one tile column per segment (Reduction16 / Scan16);
 * - `tiles`: s = t·S² with t dividing S, whole segments of whole tiles per unit (Reduction256 /
 *   Reduction256N, Scan256 / Scan256N);
 * - `long`: s = t·S² with t a multiple of S (reduce) or of the chained scan's unit (scan);
 * - `strided`: any other multiple of S (the strided Reduction16N / Scan16N; a reduction with
 *   segments of at least `reduceCoalescedMinTiles` tiles takes the coalesced Reduction16N);
 * undefined: the staged kernels take the whole call.
 */
type DirectClass = { kind: 'tile' | 'strided' } | { kind: 'tiles' | 'long'; t: number };

function classOf(S: number, s: number, longUnit: number): DirectClass | undefined {
  const SS = S * S;
  if (s === S) return { kind: 'tile' };
  if (s % SS === 0) {
    const t = s / SS;
    if (t <= S && S % t === 0) return { kind: 'tiles', t };
    if (t > S && t % longUnit === 0) return { kind: 'long', t };
  }
  return s % S === 0 ? { kind: 'strided' } : undefined;
}

function directOf(pc: PassContext): { entry: TcuDirectEntry; S: number } | undefined {
  const entry = pc.table.direct;
  return pc.path.direct && entry ? { entry, S: pc.path.S } : undefined;
}

const shape = (pc: PassContext, W: number): DirectShape => ({ S: pc.path.S, SG: pc.path.workgroupSize, syntax: pc.path.syntax, W });

/**
 * Records the direct part of a segmented reduction of f16 values when the shape allows it (see
 * {@link directReduceKernel}) and the staged kernels for what is left; returns false (recording
 * nothing) when the direct kernels do not apply. A unit is S tiles (S² segments of S, S/t
 * segments of t tiles), S² strided segments or S coalesced ones; with segments longer than S tiles each unit of
 * `reduceLongUnitTiles` writes a partial sum and the staged kernels reduce the partials.
 */
export function recordDirectReduce(pc: PassContext, input: BufferRef, output: BufferRef, n: number, s: number): boolean {
  const d = directOf(pc);
  const cls = d && classOf(d.S, s, d.S);
  if (!d || !cls) return false;
  const { S, entry } = d;
  const SS = S * S;
  const W = entry.reduceSubgroups;
  const Wb = entry.reduceBlockSubgroups;
  const fullSegs = Math.floor(n / s);
  const blockLevel = Wb > 0 && fullSegs >= entry.reduceBlockMinSegments && cls.kind === 'long';
  if (blockLevel && cls.t <= entry.reduceBlockMaxTiles && cls.t % (Wb * S) === 0) {
    // Algorithm 4: a workgroup per segment, its subgroups' sums added in shared memory.
    const start = fullSegs * s;
    if (fullSegs === 0) return false;
    const kernel = directBlockReduceKernel({ ...shape(pc, Wb), segTiles: cls.t });
    pc.b.dispatch(kernel, { input, output }, fullSegs, params(pc, start, s, fullSegs, 1, 0, fullSegs));
    if (start < n) recordTail(pc, input, output, n, s, start);
    return true;
  }
  if (cls.kind === 'long') {
    const unitTiles = entry.reduceLongUnitTiles % S === 0 && cls.t % entry.reduceLongUnitTiles === 0 ? entry.reduceLongUnitTiles : S;
    const start = fullSegs * s;
    if (fullSegs === 0) return false;
    const parts = cls.t / unitTiles;
    const units = fullSegs * parts;
    const partials = pc.b.needScratch('directPartials', 4 * units);
    const kernel = directReduceKernel({ ...shape(pc, W), segTiles: cls.t, unitTiles });
    pc.b.dispatch(kernel, { input, output: partials }, Math.ceil(units / W), params(pc, start, s, fullSegs, 1, 0, units));
    recordStagedReduce(pc, partials, 'f32', output, units, parts, 1);
    if (start < n) recordTail(pc, input, output, n, s, start);
    return true;
  }
  // Units of S³ elements (tile, tiles), of S segments (coalesced) or of S² segments (strided).
  const coalesced = cls.kind === 'strided' && entry.reduceCoalescedMinTiles > 0 && s >= entry.reduceCoalescedMinTiles * SS;
  const unitLen = coalesced ? S * s : cls.kind === 'strided' ? SS * s : S * SS;
  const units = Math.floor(n / unitLen);
  const start = units * unitLen;
  if (units === 0) return false;
  const kernel = directReduceKernel({
    ...shape(pc, W),
    segTiles: cls.kind === 'tiles' ? cls.t : 0,
    unitTiles: S,
    strided: cls.kind === 'strided' && !coalesced,
    coalesced,
  });
  pc.b.dispatch(kernel, { input, output }, Math.ceil(units / W), params(pc, start, s, start / s, 1, 0, units));
  if (start < n) recordTail(pc, input, output, n, s, start);
  return true;
}

/**
 * The segments from element `start` (a segment boundary) on — fewer than a unit's worth, or one
 * shorter last segment — through the staged kernels, which start at that segment from their
 * parameters and write each segment's value at its index.
 */
function recordTail(
  pc: PassContext,
  input: BufferRef,
  output: BufferRef,
  n: number,
  s: number,
  start: number,
  kind: 'f16' | 'u8' = 'f16',
): void {
  recordStagedReduce(pc, input, kind, output, n, s, TAIL_LEVEL, start / s);
}

/**
 * Records the direct part of an exact count of u8 flags ({@link directCountKernel}) when the path
 * has it and the shape allows it, and the staged kernels for the rest; returns false (recording
 * nothing) when it does not apply. Segments must be whole K-flag chunks: a divisor of M·N chunks
 * per segment takes units of M·N·K flags, a multiple of M·N one partial count per unit, which the
 * staged kernels add up.
 */
export function recordDirectCount(pc: PassContext, input: BufferRef, output: BufferRef, n: number, s: number): boolean {
  const { path } = pc;
  if (!path.direct || !directCountApplies(path)) return false;
  const { M, N, K } = path.shape;
  const MN = M * N;
  if (s % K !== 0) return false;
  const chunks = s / K;
  const W = pc.table.direct?.reduceSubgroups ?? 2;
  const kernel = directCountKernel({ shape: path.shape, SG: path.workgroupSize, syntax: path.syntax, W, chunks });
  if (MN % chunks === 0) {
    const unitLen = MN * K;
    const units = Math.floor(n / unitLen);
    const start = units * unitLen;
    if (units === 0) return false;
    pc.b.dispatch(kernel, { input, output }, Math.ceil(units / W), params(pc, start, s, start / s, 1, 0, units));
    if (start < n) recordTail(pc, input, output, n, s, start, 'u8');
    return true;
  }
  if (chunks % MN !== 0) return false;
  const fullSegs = Math.floor(n / s);
  const start = fullSegs * s;
  if (fullSegs === 0) return false;
  const parts = chunks / MN;
  const units = fullSegs * parts;
  const partials = pc.b.needScratch('directPartials', 4 * units);
  pc.b.dispatch(kernel, { input, output: partials }, Math.ceil(units / W), params(pc, start, s, fullSegs, 1, 0, units));
  recordStagedReduce(pc, partials, 'u32', output, units, parts, 1);
  if (start < n) recordTail(pc, input, output, n, s, start, 'u8');
  return true;
}

/** Reads of a not-ready predecessor before a chained scan falls back (core's scan uses the same). */
const MAX_SPIN = 64;

/**
 * Records the direct part of a segmented scan of f16 values when the shape allows it and the
 * staged kernels for the rest; returns false (recording nothing) when the direct kernels do not
 * apply. Segments of S, of S·N (strided) or of at most S tiles (dividing S):
 * {@link directScanKernel} over units of whole segments (`scanTileUnit` groups of S segments, or S
 * tiles). Longer segments of whole units of the chained scan: one subgroup per segment (the
 * warp-level Scan256N of {@link directScanKernel}) when there are at least `scanWarpMinSegments`,
 * else {@link directChainedScanKernel} over the full segments, in one pass.
 */
export function recordDirectScan(pc: PassContext, input: BufferRef, output: BufferRef, n: number, s: number, inclusive: boolean): boolean {
  const d = directOf(pc);
  if (!d) return false;
  const { S, entry } = d;
  const SS = S * S;
  const B = Math.min(entry.chainedScanTiles, S);
  const wide = { ...shape(pc, entry.chainedScanSubgroups), tilesPerSubgroup: B };
  const narrow = { ...shape(pc, 1), tilesPerSubgroup: B };
  const t = s / SS;
  const chained = t % chainedUnitTiles(wide) === 0 ? wide : narrow;
  const cls = classOf(S, s, chainedUnitTiles(chained));
  if (!cls) return false;
  let start: number;
  const segments = Math.floor(n / s);
  if (cls.kind === 'long' && entry.scanWarpMinSegments > 0 && segments >= entry.scanWarpMinSegments) {
    // Warp-level Scan256N: a unit is one segment, scanned by one subgroup tile after tile.
    const units = segments;
    start = units * s;
    const W = entry.scanWarpSubgroups;
    const kernel = directScanKernel({ ...shape(pc, W), segTiles: cls.t, unitTiles: cls.t, inclusive });
    pc.b.dispatch(kernel, { input, output }, Math.ceil(units / W), params(pc, start, s, units, 1, 0, units));
  } else if (cls.kind !== 'long') {
    // Units: scanTileUnit groups of S segments (tile, strided), or S tiles of whole segments.
    const unitLen = cls.kind === 'tiles' ? S * SS : entry.scanTileUnit * S * s;
    const units = Math.floor(n / unitLen);
    start = units * unitLen;
    if (units === 0) return false;
    const W = entry.scanSubgroups;
    const kernel = directScanKernel({
      ...shape(pc, W),
      segTiles: cls.kind === 'tiles' ? cls.t : 0,
      unitTiles: cls.kind === 'tiles' ? S : entry.scanTileUnit,
      inclusive,
      strided: cls.kind === 'strided',
    });
    pc.b.dispatch(kernel, { input, output }, Math.ceil(units / W), params(pc, start, s, start / s, 1, 0, units));
  } else {
    const unitTiles = chainedUnitTiles(chained);
    start = Math.floor(n / s) * s;
    const units = start / (unitTiles * SS);
    if (units === 0) return false;
    // The look-back statuses of this encode's units are zeroed first (the clear's size follows the
    // count; the binding is the whole buffer, which the kernel indexes by unit). The buffer is sized
    // for the narrow units (fewer tiles each, so at least as many) whichever this count takes, so
    // that its size only grows with the count: a warm-up at the largest count sizes it for all.
    const statusBytes = decoupledFallbackStatusBytes(units);
    const status = pc.b.needScratch('directStatus', decoupledFallbackStatusBytes(Math.ceil(start / (chainedUnitTiles(narrow) * SS))));
    pc.b.clear({ scratch: 'directStatus', offset: 0, size: statusBytes });
    const kernel = directChainedScanKernel({
      ...chained,
      inclusive,
      maxSpin: MAX_SPIN,
      forceFallback: entry.chainedScanForceFallback ?? false,
    });
    pc.b.dispatch(kernel, { input, output, status }, units, params(pc, start, s, start / s, cls.t / unitTiles, 0, units));
  }
  // The rest (a partial unit, a shorter last segment) from its first segment on.
  if (start < n) recordStagedScan(pc, input, 'f16', output, n, s, inclusive, TAIL_LEVEL, start / s);
  return true;
}
