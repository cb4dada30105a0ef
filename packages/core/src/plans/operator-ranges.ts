import type { ScanContext } from '../context.js';
import { ScanError } from '../errors.js';
import { decoupledFallbackStatusBytes } from '../kernels/decoupled-look-back.js';
import { type GpuCount, gpuCountOf } from './gpu-count.js';
import type { BufferRef, RecipeBuilder } from './recipe.js';

/** `NONE` in the operator kernels' carry parameters: no carry in (the identity) or none to write. */
export const NO_RANGE_CARRY = 0xffffffff;

/** One dispatch's range of records and the carry records it reads and writes. */
export interface OperatorRange {
  /** The range's first record. */
  readonly start: number;
  /** Records in the range. */
  readonly count: number;
  /** The carry record read (`NO_RANGE_CARRY`: the identity) and written (`NO_RANGE_CARRY`: none). */
  readonly carryIn: number;
  readonly carryOut: number;
}

/**
 * The ranges of records, in processing order, that the operator kernels scan one dispatch each:
 * at most `rangeRecords` each (what one binding holds), each starting from the carry the previous
 * one wrote; the carries alternate between two records so a range never reads what it writes.
 * Backward, the ranges are taken from the last, as the carry flows toward the array's start.
 *
 * @example
 * ```ts
 * operatorRanges(10, 4, false); // starts 0, 4, 8; carries NONE→0, 0→1, 1→NONE
 * ```
 */
export function operatorRanges(count: number, rangeRecords: number, backward: boolean): OperatorRange[] {
  const ranges: OperatorRange[] = [];
  const total = Math.ceil(count / rangeRecords);
  for (let j = 0; j < total; j++) {
    const index = backward ? total - 1 - j : j;
    const start = index * rangeRecords;
    ranges.push({
      start,
      count: Math.min(rangeRecords, count - start),
      carryIn: j === 0 ? NO_RANGE_CARRY : (j - 1) % 2,
      carryOut: j === total - 1 ? NO_RANGE_CARRY : j % 2,
    });
  }
  return ranges;
}

/**
 * Records of `bytes` each that one storage binding holds, a multiple of 256 records (so every
 * range's offset is a multiple of the binding alignment), or fewer when `requested` (tests).
 *
 * @example
 * ```ts
 * operatorRangeRecords(ctx, 16); // 2^27 / 16 → 8388608 on a device binding 128 MiB
 * ```
 */
export function operatorRangeRecords(ctx: ScanContext, bytes: number, requested?: number): number {
  const align = Math.max(256, ctx.caps.limits.minStorageBufferOffsetAlignment);
  const bindable = Math.floor(ctx.caps.limits.maxStorageBufferBindingSize / bytes / align) * align;
  return Math.max(align, Math.min(bindable, requested ?? bindable));
}

/**
 * Bytes of `count` records of `bytes` each, rounded up to whole 32-bit words (at least one): what
 * buffers, bindings and copies take.
 *
 * @example
 * ```ts
 * recordBytes(3, 2); // 8: three f16 records
 * ```
 */
export function recordBytes(count: number, bytes: number): number {
  return Math.max(4, Math.ceil((count * bytes) / 4) * 4);
}

/**
 * The count the GPU wrote for an operator plan's encode (`args.countBuffer`, see `gpuCountOf`), or
 * `undefined` for a host count. The operator kernels take such a count for one range only: a plan
 * whose `maxCount` needs more than one binding's `rangeRecords` records rejects it (`UNSUPPORTED`,
 * naming the argument), as core's built-in scan does beyond one chunk.
 *
 * @example
 * ```ts
 * const gpu = operatorGpuCount('scan plan', args, maxCount, chunkRecords, op.name);
 * const word = gpu ? gpu.offset / 4 : undefined; // the count's word, for recordCountFixup
 * ```
 */
export function operatorGpuCount(
  what: string,
  args: unknown,
  maxCount: number | undefined,
  rangeRecords: number,
  opName: string,
): GpuCount | undefined {
  const gpu = gpuCountOf(what, args, maxCount);
  if (gpu && (maxCount as number) > rangeRecords) {
    throw new ScanError(
      'UNSUPPORTED',
      `${what}: args.countBuffer: the operator ${opName} takes a count the GPU wrote for maxCount (${maxCount}) within one binding (${rangeRecords} records)`,
      { argument: 'args.countBuffer' },
    );
  }
  return gpu;
}

/**
 * The look-back's status of `tiles` tiles for an operator kernel's dispatch: the scratch `status`,
 * cleared before it (every tile NOT_READY, the tile ticket 0). Returns its ref.
 *
 * @example
 * ```ts
 * b.dispatch(kernel, { ...records.load('src', 'input'), carry, status: operatorStatus(b, tiles) }, tiles, params);
 * ```
 */
export function operatorStatus(b: RecipeBuilder, tiles: number): BufferRef {
  const bytes = decoupledFallbackStatusBytes(tiles);
  const status = b.needScratch('status', bytes);
  b.clear({ scratch: 'status', offset: 0, size: bytes });
  return status;
}
