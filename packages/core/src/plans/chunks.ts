import type { ScanContext } from '../context.js';
import type { ParamValues } from '../kernels/define-kernel.js';
import { AUX_CARRY, AUX_TAIL_IN, AUX_TAIL_OUT, NO_CARRY, type SLOT_PARAMS } from '../kernels/slots.js';
import type { BufferRef, RecipeBuilder } from './recipe.js';

/** One piece of an array that a single dispatch sequence handles. */
export interface Chunk {
  /** Position in processing order (backward scans process the last chunk first). */
  readonly order: number;
  /** First element of the chunk in the buffer. */
  readonly start: number;
  readonly count: number;
  /** Elements a chunk may hold (`chunkElements`): bindings are sized by it, not by the count, so they serve every count. */
  readonly capacity: number;
  /** vec4 slots: ceil(count / 4). */
  readonly slots: number;
  /** Whole vec4s bound from the buffer: floor(count / 4). */
  readonly fullVecs: number;
  /** aux index of the carry read, or NO_CARRY for the first chunk. */
  readonly carryIn: number;
  /** aux index the chunk total is written to. */
  readonly carryOut: number;
}

/**
 * The largest chunk one binding can hold: a multiple of 64 elements (so chunk offsets meet the
 * 256-byte storage offset alignment) no larger than `maxStorageBufferBindingSize`.
 *
 * @example
 * ```ts
 * maxChunkElements(ctx); // 268435392 on a device with 1 GiB bindings
 * ```
 */
export function maxChunkElements(ctx: ScanContext, requested?: number): number {
  const align = Math.max(64, ctx.caps.limits.minStorageBufferOffsetAlignment / 4);
  const bindable = Math.floor(ctx.caps.limits.maxStorageBufferBindingSize / 4 / align) * align;
  const limit = requested === undefined ? bindable : Math.min(bindable, Math.max(align, Math.floor(requested / align) * align));
  return limit;
}

/**
 * Splits `count` elements into chunks of at most `chunkElements`, in processing order, with the
 * carry slots alternating so a chunk never reads the slot it writes.
 *
 * @example
 * ```ts
 * splitIntoChunks(10, 64, false); // one chunk of 10
 * ```
 */
export function splitIntoChunks(count: number, chunkElements: number, backward: boolean): Chunk[] {
  const n = Math.max(1, Math.ceil(count / chunkElements));
  const chunks: Chunk[] = [];
  for (let order = 0; order < n; order++) {
    const physical = backward ? n - 1 - order : order;
    const start = physical * chunkElements;
    const c = Math.min(chunkElements, count - start);
    chunks.push({
      order,
      start,
      count: c,
      capacity: chunkElements,
      slots: Math.ceil(c / 4),
      fullVecs: Math.floor(c / 4),
      carryIn: order === 0 ? NO_CARRY : AUX_CARRY + (order % 2),
      carryOut: AUX_CARRY + ((order + 1) % 2),
    });
  }
  return chunks;
}

/**
 * The binding a kernel's `src`/`dst` gets for a chunk of `role`: whole vec4s from the chunk's start
 * to the end of the buffer, at most the chunk's capacity. The kernels read `params.full_vecs` for
 * the count, so the binding does not depend on it and one bind group serves every count.
 */
export function vecRange(role: string, chunk: Chunk): BufferRef {
  return { role, offset: chunk.start * 4, limit: chunk.capacity * 4, multipleOf: 16 };
}

/**
 * The {@link SLOT_PARAMS} values of a slot kernel for a chunk.
 *
 * @example
 * ```ts
 * b.dispatch(kernel, bindings, tiles, chunkParamValues(chunk, tiles, dispatchShape(tiles, maxDim).x));
 * ```
 */
export function chunkParamValues(chunk: Chunk, tiles: number, dispatchX: number, extra = 0): ParamValues<typeof SLOT_PARAMS> {
  return {
    count: chunk.count,
    slots: chunk.slots,
    full_vecs: chunk.fullVecs,
    tiles,
    dispatch_x: dispatchX,
    carry_in: chunk.carryIn,
    carry_out: chunk.carryOut,
    extra,
  };
}

/** Records the copy of a chunk's partial last vec4 from `role` into aux before its kernels run. */
export function stageTailIn(b: RecipeBuilder, role: string, chunk: Chunk, aux: BufferRef): void {
  const r = chunk.count - 4 * chunk.fullVecs;
  b.copy({ role, offset: (chunk.start + 4 * chunk.fullVecs) * 4, size: r * 4 }, { ...aux, offset: AUX_TAIL_IN * 4 }, r * 4);
}

/** Records the copy of a chunk's partial last vec4 from aux into `role` after its kernels ran. */
export function stageTailOut(b: RecipeBuilder, role: string, chunk: Chunk, aux: BufferRef): void {
  const r = chunk.count - 4 * chunk.fullVecs;
  b.copy({ ...aux, offset: AUX_TAIL_OUT * 4 }, { role, offset: (chunk.start + 4 * chunk.fullVecs) * 4, size: r * 4 }, r * 4);
}

/** Words of the aux scratch buffer every slot-based plan has. */
export const AUX_WORDS = 64;
