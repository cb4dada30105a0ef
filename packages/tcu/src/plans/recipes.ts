import type { BufferRef } from '@scan/core/kit';
import type { InputKind } from '../kernels/tcu-kernels.js';
import { recordDirectCount, recordDirectReduce, recordDirectScan } from './direct-recipes.js';
import type { PassContext } from './pass-context.js';
import { recordStagedReduce, recordStagedScan } from './staged-recipes.js';

// The two recorders the plans call: the direct kernels (direct-recipes.ts) take the shapes they
// cover, and hand what they leave (tails, partials) to the staged kernels (staged-recipes.ts);
// everything else goes to the staged kernels whole. `input` and `output` are bound whole: the
// counts (and where a pass starts) are parameters, so the recipes' bindings never depend on them.

/**
 * Records a segmented reduction of `n` elements in segments of `segmentSize` (the last may be
 * shorter; a segment longer than the array is the whole array) from `input` into `output`, one value
 * per segment: the direct kernels where they apply (f16 reductions, u8 counts), else the staged ones.
 *
 * @example
 * ```ts
 * recordReduce(pc, { role: 'input', offset: 0 }, 'f16', { role: 'output', offset: 0 }, n, 256);
 * ```
 */
export function recordReduce(pc: PassContext, input: BufferRef, kind: InputKind, output: BufferRef, n: number, segmentSize: number): void {
  const s = Math.min(segmentSize, n);
  if (kind === 'f16' && recordDirectReduce(pc, input, output, n, s)) return;
  if (kind === 'u8' && recordDirectCount(pc, input, output, n, s)) return;
  recordStagedReduce(pc, input, kind, output, n, segmentSize);
}

/**
 * Records a segmented scan (exclusive unless `inclusive`) of `n` elements in segments of
 * `segmentSize`: the direct kernels where they apply (f16 input), else the staged ones.
 *
 * @example
 * ```ts
 * recordScan(pc, { role: 'input', offset: 0 }, 'f16', { role: 'output', offset: 0 }, n, 4096, false);
 * ```
 */
export function recordScan(
  pc: PassContext,
  input: BufferRef,
  kind: InputKind,
  output: BufferRef,
  n: number,
  segmentSize: number,
  inclusive: boolean,
): void {
  const s = Math.min(segmentSize, n);
  if (kind === 'f16' && recordDirectScan(pc, input, output, n, s, inclusive)) return;
  recordStagedScan(pc, input, kind, output, n, segmentSize, inclusive);
}
