import { FORMAT_VERSION, POOL_HEADER_WORDS, POOL_MAGIC } from './layout.js';

// One pool per family of matrices that share nodes. Nodes are immutable once written and the pool
// only grows (append-only): copy-on-write edits append their path copies, so every matrix that
// points into the pool keeps seeing exactly the words it was built with, and a GPU mirror of the
// pool is brought up to date by uploading the appended range alone. Unreachable nodes (the old
// paths) stay until `hisparseCompact` copies a matrix into a fresh pool.

/**
 * An append-only pool of 32-bit words holding HiSparse nodes (see FORMAT.md): a 4-word header,
 * then nodes at word offsets that are multiples of 4. `words` and `floats` view the same memory
 * (values are stored as f32 bits); `used` words are written, the rest is spare capacity.
 * Words below `used` are never changed — do not write them.
 *
 * @example
 * ```ts
 * const pool = new HiSparsePool(64);
 * const at = pool.alloc(4); // 4: the first node goes right after the header
 * pool.words[at] = 1;
 * pool.view(); // Uint32Array(8): header and the node
 * ```
 */
export class HiSparsePool {
  /** The words, `used` of them written (the array may be longer: capacity). Replaced when the pool grows. */
  words: Uint32Array<ArrayBuffer>;
  /** The same memory as f32 (for the values of leaves). */
  floats: Float32Array<ArrayBuffer>;
  /** Words written so far, header included: the next node goes here. A multiple of 4. */
  used: number;

  constructor(capacityWords = 1024) {
    const capacity = Math.max(POOL_HEADER_WORDS, Math.ceil(capacityWords / 4) * 4);
    this.words = new Uint32Array(capacity);
    this.floats = new Float32Array(this.words.buffer);
    this.words[0] = POOL_MAGIC;
    this.words[1] = FORMAT_VERSION;
    this.used = POOL_HEADER_WORDS;
  }

  /**
   * Reserves `count` words (rounded up to a multiple of 4, zero-filled) at the end and returns
   * their offset, growing the arrays (doubling) when needed.
   */
  alloc(count: number): number {
    const at = this.used;
    const end = at + Math.ceil(count / 4) * 4;
    if (end > this.words.length) {
      const grown = new Uint32Array(Math.max(end, this.words.length * 2));
      grown.set(this.words.subarray(0, this.used));
      this.words = grown;
      this.floats = new Float32Array(grown.buffer);
    }
    this.used = end;
    return at;
  }

  /** The written words, `[0, used)`, as a view (what a GPU upload copies). */
  view(): Uint32Array<ArrayBuffer> {
    return this.words.subarray(0, this.used);
  }
}
