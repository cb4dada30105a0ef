import { checkCount } from '@scan/core/kit';
import { FLAG_BITS_PER_WORD, type HeadFlags, packedFlagWords } from '../types.js';
import { checkHeadFlags, flagLength, invalidSegmentArgument } from '../validate.js';

/**
 * Bit-packs head flags, the layout the GPU plans read: bit `i % 32` of word `⌊i / 32⌋` is the flag
 * of element i; ⌈n / 32⌉ words. Element 0's bit is always set (element 0 always starts a
 * segment), and bits past the end are 0.
 *
 * @example
 * ```ts
 * packHeadFlags(new Uint8Array([0, 0, 1, 0, 1])); // Uint32Array [0b10101] = [21]
 * packHeadFlags(new Uint8Array(40)); // Uint32Array [1, 0]
 * ```
 */
export function packHeadFlags(headFlags: HeadFlags): Uint32Array {
  checkHeadFlags(headFlags, flagLength(headFlags));
  const n = headFlags.length;
  const words = new Uint32Array(packedFlagWords(n));
  for (let i = 0; i < n; i++) {
    if (i === 0 || headFlags[i] === 1) words[(i / FLAG_BITS_PER_WORD) | 0]! |= 1 << (i % FLAG_BITS_PER_WORD);
  }
  return words;
}

/**
 * Unpacks `length` bit-packed flags (the layout of {@link packHeadFlags}) into a `Uint8Array` of
 * 0/1. Bits are taken as they are — element 0 is not forced — and bits past `length` are ignored.
 *
 * @example
 * ```ts
 * unpackHeadFlags(new Uint32Array([21]), 5); // Uint8Array [1, 0, 1, 0, 1]
 * unpackHeadFlags(new Uint32Array([1]), 40); // throws: words = Uint32Array(1): 1 words hold 32 flags, not 40
 * ```
 */
export function unpackHeadFlags(words: Uint32Array, length: number): Uint8Array {
  checkCount(length, 'length');
  if (!(words instanceof Uint32Array)) invalidSegmentArgument('words', words, 'expected a Uint32Array of bit-packed flags');
  if (words.length < packedFlagWords(length)) {
    invalidSegmentArgument('words', words, `${words.length} words hold ${FLAG_BITS_PER_WORD * words.length} flags, not ${length}`);
  }
  const flags = new Uint8Array(length);
  for (let i = 0; i < length; i++) flags[i] = (words[(i / FLAG_BITS_PER_WORD) | 0]! >>> (i % FLAG_BITS_PER_WORD)) & 1;
  return flags;
}
