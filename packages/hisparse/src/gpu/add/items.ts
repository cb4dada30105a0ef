import { f32Bits } from '../../cpu/bits.js';

// The work queue of the joint traversal and its control words. The paper keeps one queue per
// combination of node types and sizes and launches kernels from a GPU controller (§4, §6); WebGPU
// has no dynamic parallelism, so here the host records one kernel per level and the GPU appends
// the next level's pairs to one array with an atomic counter. All levels stay in that array (level
// ℓ + 1 follows level ℓ): the fill sweep walks it again top-down and a child finds its parent's
// output node through the parent's item. Each level's size is computed on the GPU and its kernel
// launched with dispatchWorkgroupsIndirect, so a whole sweep is one submission.

/**
 * Words of one queued pair (one output node), in order: A's pointer (0 when only B has the node),
 * B's pointer (0 when only A has it), the parent's item index ({@link NO_PARENT} for the root),
 * the slot of the node in its parent's d×d grid (bits 0–15) and its rank among the parent's union
 * entries (bits 16–31), the union count (written by the counting sweep), and the output pointer
 * (written by the fill sweep).
 *
 * @example
 * ```ts
 * const items = createStorageBuffer(ctx, 4 * ITEM_WORDS * capacity, 'hisparse add items');
 * ```
 */
export const ITEM_WORDS = 6;

/**
 * Field offsets inside an item (see {@link ITEM_WORDS}).
 *
 * @example
 * ```ts
 * items[ITEM_WORDS * i + ITEM.count]; // the union count of pair i
 * ```
 */
export const ITEM = { a: 0, b: 1, parent: 2, slotRank: 3, count: 4, out: 5 } as const;

/**
 * Parent index of the root pair: no parent node to link into; the root pointer goes to
 * `CONTROL.root` instead.
 *
 * @example
 * ```ts
 * const rootItem = [A.root, B.root, NO_PARENT, 0, 0, 0];
 * ```
 */
export const NO_PARENT = 0xffffffff;

/**
 * The control words (one small storage buffer of atomics): the next free item (the items' atomic
 * tail), the words the output pool needs (summed by the counting sweep), the output pool's
 * allocation counter (the paper's "simple allocator using an atomic counter", a word offset), the
 * root pointer of C, an overflow flag (set if a malformed input needs more items than the bound;
 * then the result is refused), and the tails of the small and the large queue. From word `levels`
 * on, one {@link LEVEL_WORDS}-word record per level: the first entry, entry count and dispatch
 * width of its large queue, then the same of its small queue — written by the GPU
 * (`levelArgsKernel`) as the level above finishes, so the host never waits between levels.
 *
 * @example
 * ```ts
 * const words = new Uint32Array(controlWords(levels)); words[CONTROL.items] = 1;
 * ```
 */
export const CONTROL = { items: 0, total: 1, alloc: 2, root: 3, overflow: 4, smallTail: 5, largeTail: 6, levels: 8 } as const;

/**
 * Words of one level's record in the control words, and of one level's indirect dispatch
 * arguments: the large queue's (x, y, z, pad) then the small queue's, each 16-byte aligned.
 *
 * @example
 * ```ts
 * const largeFirst = control[CONTROL.levels + LEVEL_WORDS * level];
 * const smallFirst = control[CONTROL.levels + LEVEL_WORDS * level + 4];
 * ```
 */
export const LEVEL_WORDS = 8;

/*
 * The two queues of pairs (§6: "we set up queues for each combination of node types and maximum
 * number of elements in either node"; this is the coarsest such binning): the small queue holds
 * pairs of two sparse nodes (or one sparse node and nothing) with at most SMALL_PAIR_ENTRIES
 * entries together, merged by one thread each; the large queue holds the rest (a dense node on
 * either side, or more entries), one workgroup each over the slot grid. The queues hold item
 * indices in one buffer: the small one at [0, capacity), the large one at [capacity, 2·capacity).
 */

/**
 * Most entries (both nodes together) of a pair that one thread merges: such a pair's slot lists
 * fit in registers, and the thread sorts a transposed side by insertion. Most leaves of sparse
 * matrices hold a handful of entries; a whole workgroup per such pair would idle.
 *
 * @example
 * ```ts
 * const small = countA + countB <= SMALL_PAIR_ENTRIES;
 * ```
 */
export const SMALL_PAIR_ENTRIES = 16;

/**
 * Threads per workgroup of the small-pair kernels (one pair each).
 *
 * @example
 * ```ts
 * const groups = Math.ceil(smallPairs / SMALL_PAIR_GROUP);
 * ```
 */
export const SMALL_PAIR_GROUP = 64;

/**
 * Words of the control buffer for a hierarchy of `levels` levels.
 *
 * @example
 * ```ts
 * createStorageBuffer(ctx, 4 * controlWords(3), 'hisparse add control');
 * ```
 */
export function controlWords(levels: number): number {
  return tallyStart(levels) + 1 + TALLY_COPIES * TALLY_WORDS * levels;
}

/**
 * Copies of each level's census tally in the control words: a pair adds its output node to copy
 * (pair index mod 16), so hundreds of thousands of leaf pairs do not all meet on twelve words.
 *
 * @example
 * ```ts
 * const copy = pairIndex % TALLY_COPIES;
 * ```
 */
export const TALLY_COPIES = 16;

/** Words of one tally copy of one level: nodes, entries and words per node type (4 × 3). */
export const TALLY_WORDS = 12;

/**
 * Where C's census is tallied in the control words (after the level records): first the count of
 * dense-leaf entries that cancelled to +0 (a dense leaf stores no +0, so these are not entries),
 * then per level {@link TALLY_COPIES} copies of nodes[4], entries[4], words[4]. The counting sweep
 * adds every output node (its type, union count and words); the fill sweep counts the cancelled
 * entries. The host sums the copies into the census `HiSparseMatrix` needs, instead of counting
 * C's tree again afterwards.
 *
 * @example
 * ```ts
 * const cancelled = control[tallyStart(levels)];
 * ```
 */
export function tallyStart(levels: number): number {
  return CONTROL.levels + LEVEL_WORDS * levels;
}

/**
 * Bits of `params.flags` for one level's kernel: the level is the leaves' (values, not child
 * pointers), B's slots are read swapped (its transposed flag differs from A's), and A's or B's
 * scale is exactly 1 (then leaf bits are copied unchanged, −0 and NaN payloads included, as the CPU
 * reference's `scaledBits` does).
 *
 * @example
 * ```ts
 * const flags = (leaf ? FLAG.leaf : 0) | (swapB ? FLAG.swapB : 0);
 * ```
 */
export const FLAG = { leaf: 1, swapB: 2, aScaleOne: 4, bScaleOne: 8 } as const;

/**
 * The uniform block of one level's kernels (see `pairDeclarationsWgsl`): the level, the flags,
 * both scales as f32 bits, the item capacity, the device's workgroups-per-dimension limit (for
 * the 2-D shape of the next level's indirect dispatch) and where the census tally starts
 * ({@link tallyStart}).
 *
 * @example
 * ```ts
 * b.paramBlock(addParams({ level: 0, flags: FLAG.leaf, scaleA: 1, scaleB: 2, capacity: 64, maxDim: 65535, tally: tallyStart(1) }));
 * ```
 */
export function addParams(p: {
  level: number;
  flags: number;
  scaleA: number;
  scaleB: number;
  capacity: number;
  maxDim: number;
  tally: number;
}): number[] {
  return [p.level, p.flags, f32Bits(p.scaleA), f32Bits(p.scaleB), p.capacity, p.maxDim, p.tally, 0];
}

/**
 * Threads per workgroup of the merge kernels (one leaf pair of two sparse lists each): a leaf of a
 * structured matrix holds tens to hundreds of entries, a binary search each.
 *
 * @example
 * ```ts
 * const wgsl = `@compute @workgroup_size(${MERGE_PAIR_GROUP}) fn main() { ... }`;
 * ```
 */
export const MERGE_PAIR_GROUP = 64;

/**
 * Entries of A's list below which a leaf pair takes the merge path: one bit per entry of A in
 * workgroup memory (the common flags), 512 bytes at 4096. Larger sparse leaves (d ≥ 64 only) keep
 * the tile kernels.
 *
 * @example
 * ```ts
 * const merged = countA < MERGE_MAX_ENTRIES;
 * ```
 */
export const MERGE_MAX_ENTRIES = 4096;
