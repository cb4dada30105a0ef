import type { Operator } from '../operators/operator-type.js';
import type { TileElements } from './blocks/tile-io.js';
import type { TileWords } from './blocks/tile-words.js';
import { valueWords } from './value-words.js';

/**
 * Where an operator kernel's tile of records comes from: a run of whole 32-bit words per record
 * (every type but f16) is read and written a vec4 of words at a time ({@link TileWords}); an f16
 * record, half a word, element by element. Blocked tiles either way.
 *
 * @example
 * ```ts
 * const source = operatorTileSource(affine, { load: 'src', store: 'dst' }); // { kind: 'words', … }
 * ```
 */
export function operatorTileSource<T>(op: Operator<T>, names: { load?: string; store?: string; count?: string }): TileWords | TileElements {
  const fields = typeof op.type === 'object' ? Object.entries(op.type).map(([name, type]) => ({ name, type })) : undefined;
  const words = valueWords(op.wgslType, fields);
  if (words.words === undefined) return { kind: 'elements', ...names };
  return { kind: 'words', words, ...names };
}

/**
 * Records per invocation for an operator kernel's blocked tiles: about `budget` 32-bit words of
 * records per invocation, rounded so a run is whole vec4s of words (`K × words` a multiple of 4);
 * f16 records (half a word) take `budget / 2`, at least 1.
 *
 * @example
 * ```ts
 * operatorItemsPerThread(2, 16); // 8: an argmax record of two words
 * operatorItemsPerThread(3, 16); // 4: 12 words, three vec4s
 * ```
 */
export function operatorItemsPerThread(words: number, budget: number): number {
  if (words < 1) return Math.max(1, Math.floor(budget / 2));
  // The fewest records whose words fill whole vec4s: 4 / gcd(words, 4).
  const step = words % 4 === 0 ? 1 : words % 2 === 0 ? 2 : 4;
  return Math.max(step, Math.floor(budget / words / step) * step);
}
