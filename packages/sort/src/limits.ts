import { BufferUsage, type ScanContext, ScanError } from '@scan/core';
import { checkArrayLength } from '@scan/core/kit';

/**
 * The most keys one sort takes: the look-back statuses hold a count in 30 bits. (A 32-bit key array
 * that long is 4 GiB, past the bindings of the GPUs measured here.)
 */
export const MAX_SORT_COUNT = 2 ** 30 - 1;

/**
 * Checks that `n` keys fit one storage binding of the device and the sorts' counters; returns `n`.
 * A `TOO_LARGE` {@link ScanError} names `argument` otherwise. `keyWords` 2 (64-bit keys) checks
 * their 8 bytes a key against the binding.
 *
 * @example
 * ```ts
 * checkSortCount(ctx, keys.length, 'keys');
 * checkSortCount(ctx, keys.length, 'keys', 2); // BigUint64Array keys
 * ```
 */
export function checkSortCount(ctx: ScanContext, n: number, argument: string, keyWords: 1 | 2 = 1): number {
  checkArrayLength(ctx, n, argument);
  const binding = ctx.caps.limits.maxStorageBufferBindingSize;
  if (keyWords === 2 && 8 * n > binding) {
    throw new ScanError(
      'TOO_LARGE',
      `${argument} = ${n} 64-bit keys (${8 * n} bytes): more than the device binds at once (maxStorageBufferBindingSize = ${binding} bytes, at most ${Math.floor(binding / 8)} 64-bit keys)`,
      { argument },
    );
  }
  if (n > MAX_SORT_COUNT) {
    throw new ScanError('TOO_LARGE', `${argument} = ${n}: more than the ${MAX_SORT_COUNT} keys a sort counts`, { argument });
  }
  return n;
}

/**
 * Checks that `n` values of `valueWidth` bytes fit one storage binding of the device; a `TOO_LARGE`
 * {@link ScanError} names `argument` otherwise. Returns `n`.
 *
 * @example
 * ```ts
 * checkSortValueBytes(ctx, keys.length, 16, 'options.values');
 * ```
 */
export function checkSortValueBytes(ctx: ScanContext, n: number, valueWidth: number, argument: string): number {
  const binding = ctx.caps.limits.maxStorageBufferBindingSize;
  if (valueWidth * n > binding) {
    throw new ScanError(
      'TOO_LARGE',
      `${argument}: ${n} values of ${valueWidth} bytes (${valueWidth * n} bytes) are more than the device binds at once (maxStorageBufferBindingSize = ${binding} bytes)`,
      { argument },
    );
  }
  return n;
}

/**
 * Checks that buffers a plan copies its result back into have COPY_DST usage (a sort that ends in
 * its scratch copies back); an `INVALID_ARGUMENT` {@link ScanError} names the buffer otherwise.
 *
 * @example
 * ```ts
 * checkCopyTargets('sort plan', { keys });
 * ```
 */
export function checkCopyTargets(what: string, buffers: Readonly<Record<string, GPUBuffer>>): void {
  for (const [name, b] of Object.entries(buffers)) {
    if (typeof b.usage === 'number' && (b.usage & BufferUsage.COPY_DST) === 0) {
      throw new ScanError(
        'INVALID_ARGUMENT',
        `${what}: args.${name} needs GPUBufferUsage.COPY_DST (and STORAGE): the sort ends in scratch and copies its result back`,
        { argument: `args.${name}` },
      );
    }
  }
}
