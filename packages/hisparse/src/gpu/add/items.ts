import type { ParamFields, ParamValues } from '@scan/core/kit';

// The work queue of the joint traversal and its control words. The paper keeps one queue per
// combination of node types and sizes and launches kernels from a GPU controller (§4, §6); WebGPU
// has no dynamic parallelism, so here the host records one kernel per level and the GPU appends
// the next level's pairs to one array with an atomic counter. All levels stay in that array (level
// ℓ + 1 follows level ℓ): the fill sweep walks it again top-down and a child finds its parent's
// output node through the parent's item. Each level's size is computed on the GPU and its kernel
// launched with dispatchWorkgroupsIndirect, so a whole sweep is one submission.

/**
 * The three arrays of queued pairs (one output node each), two u32 per pair in each, indexed by
 * the pair's item index: **pairs** hold A's pointer (0 when only B has the node) and B's pointer
 * (0 when only A has it); **links** the parent's item index ({@link NO_PARENT} for the root) and
 * the node's slot in its parent's d×d grid (bits 0–15) with its rank among the parent's union
 * entries (bits 16–31); **outs** the union count (written by the counting sweep) and the output
 * pointer (written by the fill sweep). Three arrays rather than one of six words because each is
 * bound whole: a matrix with one node per entry (uniform random, tens of millions of leaves) needs
 * over 100 million pairs, past one 2 GiB binding at 24 bytes a pair but not at 8.
 *
 * @example
 * ```ts
 * const pairs = createStorageBuffer(ctx, ITEM_ARRAY_BYTES * capacity, 'hisparse add pairs');
 * ```
 */
export const ITEM_ARRAY_BYTES = 8;

/**
 * Parent index of the root pair: no parent node to link into; the root pointer goes to
 * `CONTROL.root` instead.
 *
 * @example
 * ```ts
 * device.queue.writeBuffer(links, 0, Uint32Array.of(NO_PARENT, 0)); // the root pair's link
 * ```
 */
export const NO_PARENT = 0xffffffff;

/**
 * The control words (one small storage buffer of atomics): the next free item (the items' atomic
 * tail), the words the output pool needs (the paper's "simple allocator using an atomic counter":
 * the counting sweep takes each output node's offset from it, so at the end it is the pool's
 * size; word 2 is spare), the root pointer of C, the overflow bits ({@link OVERFLOW}: more
 * pairs than the item capacity, or a node past C's pool; then the result is refused), and the tails of the small and the large queue. From word `levels`
 * on, one {@link LEVEL_WORDS}-word record per level: the first entry and entry count of its large
 * queue, then (from word 4 of the record) the same of its small queue — written by the GPU
 * (`levelRangeKernel`) as the level above finishes, so the host never waits between levels.
 *
 * @example
 * ```ts
 * const words = new Uint32Array(controlWords(levels)); words[CONTROL.items] = 1;
 * ```
 */
export const CONTROL = { items: 0, total: 1, root: 3, overflow: 4, smallTail: 5, largeTail: 6, levels: 8 } as const;

/**
 * Words of one level's record in the control words: the large queue's range (first, count, two
 * spare words) then the small queue's.
 *
 * @example
 * ```ts
 * const largeFirst = control[CONTROL.levels + LEVEL_WORDS * level];
 * const smallFirst = control[CONTROL.levels + LEVEL_WORDS * level + 4];
 * ```
 */
export const LEVEL_WORDS = 8;

/**
 * Bits of the overflow word (`CONTROL.overflow`): `items` — the pairs queued passed the item
 * capacity (the counting sweep dropped children); `words` — a node reserved past C's pool (the
 * fill sweep left it out). Either makes C incomplete; the caller must refuse it.
 *
 * @example
 * ```ts
 * if (control[CONTROL.overflow] & OVERFLOW.words) console.log('C needs a larger pool');
 * ```
 */
export const OVERFLOW = { items: 1, words: 2 } as const;

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

/**
 * Words of one tally copy of one level: nodes, entries and words per node type (4 × 3), then the
 * COO4 leaves per size class (3, counted at the leaf level only; `COO4_SIZE_CLASSES`).
 */
export const TALLY_WORDS = 15;

/**
 * Where C's census is tallied in the control words (after the level records): first the count of
 * dense-leaf entries that cancelled to +0 (a dense leaf stores no +0, so these are not entries),
 * then per level {@link TALLY_COPIES} copies of nodes[4], entries[4], words[4], coo4Classes[3].
 * The counting sweep adds every output node (its type, union count and words, and a COO4 leaf's
 * size class); the fill sweep counts the cancelled entries. The host sums the copies into the census `HiSparseMatrix` needs, instead of counting
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
 * The parameter block every add kernel declares (one block per level, shared by its kernels):
 * the `level`, the `flags` ({@link FLAG}), both scales `scale_a` and `scale_b`, the item
 * `capacity` and where the census `tally` starts ({@link tallyStart}).
 *
 * @example
 * ```ts
 * const kernel = defineKernel({ name: 'hisparse/add/x', bindings: {}, params: ADD_PARAMS, wgsl: () => '' });
 * ```
 */
export const ADD_PARAMS = {
  level: 'u32',
  flags: 'u32',
  scale_a: 'f32',
  scale_b: 'f32',
  capacity: 'u32',
  tally: 'u32',
} as const satisfies ParamFields;

/**
 * The values of {@link ADD_PARAMS} for one level's kernels.
 *
 * @example
 * ```ts
 * b.paramsFor(levelRangeKernel(), addParams({ level: 0, flags: FLAG.leaf, scaleA: 1, scaleB: 2, capacity: 64, tally: tallyStart(1) }));
 * ```
 */
export function addParams(p: {
  level: number;
  flags: number;
  scaleA: number;
  scaleB: number;
  capacity: number;
  tally: number;
}): ParamValues<typeof ADD_PARAMS> {
  return { level: p.level, flags: p.flags, scale_a: p.scaleA, scale_b: p.scaleB, capacity: p.capacity, tally: p.tally };
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

/**
 * Most workgroups of a large-queue dispatch: the grid strides over the level's pairs (see
 * `largePairLoopWgsl`), so this bounds the workgroups that start only to find the level shorter
 * than its bound. 4096 fills the H100's 132 multiprocessors several times over.
 *
 * @example
 * ```ts
 * const groups = Math.min(levelBound, LARGE_PAIR_GRID);
 * ```
 */
export const LARGE_PAIR_GRID = 4096;

/**
 * Most workgroups of a small-queue dispatch (of {@link SMALL_PAIR_GROUP} threads, one pair each,
 * striding over the level's pairs): 262,144 threads, about what the H100 keeps resident.
 *
 * @example
 * ```ts
 * const groups = Math.min(Math.ceil(levelBound / SMALL_PAIR_GROUP), SMALL_PAIR_GRID);
 * ```
 */
export const SMALL_PAIR_GRID = 4096;
