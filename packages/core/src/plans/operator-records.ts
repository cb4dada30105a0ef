import { wordsTail } from '../kernels/blocks/tile-words.js';
import type { Operator } from '../operators/operator-type.js';
import { recordTailOut } from './gpu-count.js';
import type { BufferRef, RecipeBuilder } from './recipe.js';

/**
 * How a plan binds and finishes an operator kernel's records (see `operatorTileSource`) for
 * one dispatch over `count` records of a role from record `start`, at most `limit` records
 * (recipe `b`): `load(name, role)` binds `name` as whole vec4s with its `NAME_words` view beside
 * it; `store(name, role)` binds `name` as whole vec4s with `NAME_tail` in the scratch `tail`;
 * `finish(role)` copies the stored words past the last whole vec4 out of `tail` into the role, and
 * `finishCounted(role, params)` does the same for a count the GPU wrote (a tail-out kernel; `params`
 * the count fixup's `tailOutParams` block). f16 records: the one binding, whole words, and nothing
 * to finish.
 *
 * @example
 * ```ts
 * const records = operatorRecords(b, op, range, chunkRecords);
 * b.dispatch(kernel, { ...records.load('src', 'input'), ...records.store('dst', 'output'), carry, status }, tiles, params);
 * records.finish('output');
 * ```
 */
export function operatorRecords(
  b: RecipeBuilder,
  op: Pick<Operator<unknown>, 'bytes' | 'words'>,
  range: { readonly start: number; readonly count: number },
  limit: number,
): {
  load(name: string, role: string): Record<string, BufferRef>;
  store(name: string, role: string): Record<string, BufferRef>;
  finish(role: string): void;
  finishCounted(role: string, params: BufferRef): void;
} {
  const offset = range.start * op.bytes;
  const at = (role: string, multipleOf: number): BufferRef => ({ role, offset, limit: limit * op.bytes, multipleOf });
  if (op.bytes % 4 !== 0) {
    const one = (name: string, role: string) => ({ [name]: at(role, 4) });
    return { load: one, store: one, finish: () => {}, finishCounted: () => {} };
  }
  const { tailWord, tailWords } = wordsTail(range.count, op.words);
  const tail = (): BufferRef => b.needScratch('tail', 16);
  return {
    load: (name, role) => ({ [name]: at(role, 16), [`${name}_words`]: at(role, 4) }),
    store: (name, role) => ({ [name]: at(role, 16), [`${name}_tail`]: tail() }),
    finish: (role) => {
      if (tailWords > 0) b.copy(tail(), { role, offset: offset + 4 * tailWord }, 4 * tailWords);
    },
    finishCounted: (role, params) => recordTailOut(b, params, tail(), { role, offset }, { words: op.words, from: 0 }),
  };
}
