import { createStorageBuffer, type ScanContext, ScanError } from '@scan/core';
import { withSession } from '@scan/core/kit';

// Appending to a pool buffer that several matrices share. Words below `poolWords` are never
// changed (nodes are immutable), so growing is a copy of the used words into a buffer twice as
// large; every matrix reads the pool through the one object that holds the buffer, so swapping it
// there moves all of them at once.

/**
 * A pool buffer as the matrices sharing it hold it: the buffer may be replaced by a larger one
 * (growth) and `poolWords` grows with every append. Only {@link appendToPool} changes them.
 *
 * @example
 * ```ts
 * const shared: GrowablePool = { pool: parts.pool, poolWords: parts.poolWords };
 * ```
 */
export interface GrowablePool {
  /** The storage buffer (`STORAGE | COPY_SRC | COPY_DST`); replaced when the pool grows. */
  pool: GPUBuffer;
  /** Words written, header included (a multiple of 4); the rest of the buffer is spare capacity. */
  poolWords: number;
}

/** Appends in flight per pool: edits of one pool run one after the other (see {@link serializeOn}). */
const queues = new WeakMap<object, Promise<unknown>>();

/**
 * Runs `body` after every earlier `body` given for the same `key` has settled, so that the edits of
 * one pool neither read a `poolWords` another is about to change nor grow the buffer twice.
 *
 * @example
 * ```ts
 * const at = await serializeOn(shared, () => appendToPool(ctx, shared, words)); // one edit of the pool at a time
 * ```
 */
export function serializeOn<T>(key: object, body: () => Promise<T>): Promise<T> {
  const before = queues.get(key) ?? Promise.resolve();
  const run = before.then(body, body);
  queues.set(
    key,
    run.then(
      () => undefined,
      () => undefined,
    ),
  );
  return run;
}

/**
 * Makes room for `words` more words: when the buffer is too small, a new one of twice the size
 * (at least what is needed, at most what one binding allows) receives the used words by
 * `copyBufferToBuffer`; once the copy is submitted and has passed the error scopes, `shared.pool`
 * becomes the new buffer and the old one is destroyed (work already submitted keeps it alive until
 * it finishes). Call only inside {@link serializeOn} for `shared`.
 *
 * @example
 * ```ts
 * await reservePool(ctx, shared, appended.length);
 * ctx.device.queue.writeBuffer(shared.pool, 4 * shared.poolWords, appended);
 * ```
 */
export async function reservePool(ctx: ScanContext, shared: GrowablePool, words: number): Promise<void> {
  const needed = 4 * (shared.poolWords + words);
  if (needed <= shared.pool.size) return;
  const limit = Math.min(ctx.caps.limits.maxStorageBufferBindingSize, ctx.caps.limits.maxBufferSize);
  if (needed > limit) {
    // The pool keeps every version an edit made (copy-on-write); a fresh build keeps only one.
    throw new ScanError(
      'TOO_LARGE',
      `HiSparseMatrix.insert/remove: the matrix's pool would grow to ${needed} bytes, past what one binding allows (${limit} bytes); rebuild it (HiSparseMatrix.fromCsr(ctx, await A.toCsr())) to drop the versions it keeps`,
      { argument: 'this' },
    );
  }
  const size = Math.min(Math.max(needed, 2 * shared.pool.size), Math.floor(limit / 16) * 16);
  const old = shared.pool;
  let grown: GPUBuffer | undefined;
  try {
    await withSession(ctx, 'hisparse pool growth', async (s) => {
      grown = createStorageBuffer(ctx, size, 'hisparse pool');
      s.encoder.copyBufferToBuffer(old, 0, grown, 0, 4 * shared.poolWords);
      s.submit();
    });
  } catch (e) {
    grown?.destroy();
    throw e;
  }
  shared.pool = grown as GPUBuffer;
  old.destroy();
}

/**
 * Appends `words` (a multiple of 4 of them, built for offset `shared.poolWords`) to the pool,
 * growing it first when needed, and returns the offset they went to. Only the appended words are
 * uploaded (`queue.writeBuffer`). Call only inside {@link serializeOn} for `shared`.
 *
 * @example
 * ```ts
 * const at = await appendToPool(ctx, shared, words); // at === the poolWords the nodes were built for
 * ```
 */
export async function appendToPool(ctx: ScanContext, shared: GrowablePool, words: Uint32Array<ArrayBuffer>): Promise<number> {
  const at = shared.poolWords;
  if (words.length === 0) return at;
  await reservePool(ctx, shared, words.length);
  ctx.device.queue.writeBuffer(shared.pool, 4 * at, words);
  shared.poolWords = at + words.length;
  return at;
}
