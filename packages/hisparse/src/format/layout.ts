// The bit layout of HiSparse nodes (FORMAT.md is the specification; this file is its executable
// form, shared by the CPU reference and, later, the WGSL generators). Everything is counted in
// 32-bit words of one pool; nodes start at word offsets that are multiples of 4 (16 bytes), so a
// kernel can read any node with vec4<u32> loads and the two low bits of an offset are free for the
// node type (Derler et al., ICS 2017, §3.1).

/**
 * Node types, the values kept in the two low bits of a child pointer (the paper's enumeration,
 * §3.1: dense, COO1, COO2, COO4 as 0, 1, 2, 3). Whether a node is inner or a leaf follows from its
 * level, not from its type: inner nodes hold child pointers where leaves hold f32 values.
 *
 * @example
 * ```ts
 * const pointer = 64 | NODE_TYPE.coo4; // a COO4 node at word 64
 * pointer & 3; // 3 === NODE_TYPE.coo4
 * ```
 */
export const NODE_TYPE = { dense: 0, coo1: 1, coo2: 2, coo4: 3 } as const;

/**
 * One of the {@link NODE_TYPE} values.
 *
 * @example
 * ```ts
 * const type = (pointer & TYPE_MASK) as NodeType;
 * ```
 */
export type NodeType = (typeof NODE_TYPE)[keyof typeof NODE_TYPE];

/**
 * Names of the node types, indexed by their value (for statistics and messages).
 *
 * @example
 * ```ts
 * NODE_TYPE_NAMES[pointer & TYPE_MASK]; // 'coo4' for a COO4 child
 * ```
 */
export const NODE_TYPE_NAMES = ['dense', 'coo1', 'coo2', 'coo4'] as const;

/**
 * Mask of the type bits of a child pointer.
 *
 * @example
 * ```ts
 * const type = pointer & TYPE_MASK;
 * const offset = pointer - type; // a multiple of 4
 * ```
 */
export const TYPE_MASK = 3;

/**
 * The null pointer: word 0 is the pool header, which is never a node, so 0 can mean "no child".
 *
 * @example
 * ```ts
 * if (H.root === NULL_POINTER) console.log('no entries');
 * ```
 */
export const NULL_POINTER = 0;

/**
 * Words of the pool header (`POOL_MAGIC`, `FORMAT_VERSION`, 0, 0): one vec4, so nodes stay aligned.
 *
 * @example
 * ```ts
 * hisparseMemoryBytes(emptyMatrix) === 4 * POOL_HEADER_WORDS; // true
 * ```
 */
export const POOL_HEADER_WORDS = 4;

/**
 * First word of every pool: 'HSP1' in ASCII, little-endian.
 *
 * @example
 * ```ts
 * H.pool.words[0] === POOL_MAGIC; // true
 * ```
 */
export const POOL_MAGIC = 0x31505348;

/**
 * Version of the layout in FORMAT.md; a kernel may check it.
 *
 * @example
 * ```ts
 * H.pool.words[1] === FORMAT_VERSION; // true
 * ```
 */
export const FORMAT_VERSION = 1;

/**
 * Smallest node size d: d ≥ 4 keeps a dense node a whole number of vec4s (d² words).
 *
 * @example
 * ```ts
 * hisparseFromCsr(A, { nodeSize: MIN_NODE_SIZE });
 * ```
 */
export const MIN_NODE_SIZE = 4;

/**
 * Largest node size d: d ≤ 256 keeps a coordinate in one byte.
 *
 * @example
 * ```ts
 * hisparseFromCsr(A, { nodeSize: MAX_NODE_SIZE });
 * ```
 */
export const MAX_NODE_SIZE = 256;

/**
 * The default node size d, chosen by measurement on the lent H100 (BENCHMARKS.md, "HiSparse
 * second pass"): over the SpMV suite, d = 64 gives the smallest pool of 16, 32 and 64 on every
 * matrix, the fastest add on every matrix, and the best geometric mean of the A·x times; d = 16 or
 * 32 is faster on some single matrices (Poisson's and the banded one's Aᵀ·x). The paper's best
 * was 128 on a GTX 1080 (§7); here 128 and 256 shrink the pool little more (0.70 and 0.69 of CSR
 * on Poisson) while the add's slot-grid kernels and the leaves' workgroup tables grow with d.
 *
 * @example
 * ```ts
 * hisparseFromCsr(A); // same as hisparseFromCsr(A, { nodeSize: DEFAULT_NODE_SIZE })
 * ```
 */
export const DEFAULT_NODE_SIZE = 64;

/** `n` rounded up to a multiple of `m` (a power of two). */
function alignUp(n: number, m: number): number {
  return (n + m - 1) & ~(m - 1);
}

/**
 * Entries one thread loads at once from a COOX node: X of COO1, COO2, COO4.
 *
 * @example
 * ```ts
 * entriesPerLoad(NODE_TYPE.coo4); // 4
 * ```
 */
export function entriesPerLoad(type: Exclude<NodeType, 0>): 1 | 2 | 4 {
  return type === NODE_TYPE.coo1 ? 1 : type === NODE_TYPE.coo2 ? 2 : 4;
}

/**
 * Where the parts of a COOX node with `count` entries lie, in words from the node's start.
 *
 * @example
 * ```ts
 * const { coordStart, valueStart, words } = sparseLayout(NODE_TYPE.coo4, 7);
 * ```
 */
export interface SparseLayout {
  /** First word of the packed coordinates (two 16-bit coordinates per word). */
  readonly coordStart: number;
  /** First word of the values (f32 bits in a leaf, child pointers in an inner node). */
  readonly valueStart: number;
  /** Words of the whole node, padding included (a multiple of 4). */
  readonly words: number;
}

/**
 * The layout of a COOX node with `count` entries (FORMAT.md, "COOX nodes"): word 0 holds `count`;
 * coordinates start at word 1 (COO1, COO2) or 2 (COO4, so one thread's four coordinates are an
 * aligned vec2); values start at the next multiple of X words (an aligned vecX load) after
 * ⌈count / X⌉·X coordinates; the node is padded to a multiple of 4 words. Any count ≥ 1 is valid for
 * any X — the builder's choice of X is a separate rule ({@link chooseNodeType}).
 *
 * @example
 * ```ts
 * sparseLayout(NODE_TYPE.coo1, 1); // { coordStart: 1, valueStart: 2, words: 4 }
 * sparseLayout(NODE_TYPE.coo2, 2); // { coordStart: 1, valueStart: 2, words: 4 }
 * sparseLayout(NODE_TYPE.coo4, 5); // { coordStart: 2, valueStart: 8, words: 16 }
 * ```
 */
export function sparseLayout(type: Exclude<NodeType, 0>, count: number): SparseLayout {
  const x = entriesPerLoad(type);
  const slots = Math.ceil(count / x) * x; // entries including the padding of the last load
  const coordStart = x === 4 ? 2 : 1;
  const valueStart = alignUp(coordStart + Math.ceil(slots / 2), x);
  return { coordStart, valueStart, words: alignUp(valueStart + slots, 4) };
}

/**
 * Words of a node of `type` holding `count` entries in a d×d grid: d² for a dense node (whatever
 * it holds), the {@link sparseLayout} size for a COOX node.
 *
 * @example
 * ```ts
 * nodeWords(NODE_TYPE.dense, 3, 4); // 16
 * nodeWords(NODE_TYPE.coo4, 3, 4); // 8
 * ```
 */
export function nodeWords(type: NodeType, count: number, d: number): number {
  return type === NODE_TYPE.dense ? d * d : sparseLayout(type, count).words;
}

/**
 * The node type the builder, add and edits give a node of `count` ≥ 1 entries (inner or leaf):
 * the sparse type by entry count as the paper's evaluation does (§7: COO1 for one entry, COO2 for
 * two, COO4 for three or more), then dense instead when the d² dense words are fewer than the
 * sparse node's words (§3.3: "nodes are stored in dense form, if the memory costs of storing it in
 * sparse format are higher"; on a tie the node stays sparse).
 *
 * @example
 * ```ts
 * chooseNodeType(1, 32); // NODE_TYPE.coo1
 * chooseNodeType(9, 4); // NODE_TYPE.dense (COO4 would take 20 words, dense 16)
 * chooseNodeType(8, 4); // NODE_TYPE.coo4 (16 words either way)
 * ```
 */
export function chooseNodeType(count: number, d: number): NodeType {
  const sparse = count === 1 ? NODE_TYPE.coo1 : count === 2 ? NODE_TYPE.coo2 : NODE_TYPE.coo4;
  return d * d < sparseLayout(sparse, count).words ? NODE_TYPE.dense : sparse;
}

/**
 * Levels of the hierarchy for a stored rows×cols matrix: the smallest L ≥ 1 with d^L ≥ max(rows,
 * cols). The root (level 0) covers a d^L×d^L square, a node at level ℓ a d^(L−ℓ) square, and the
 * nodes of level L − 1 are the leaves.
 *
 * @example
 * ```ts
 * levelsFor(0, 0, 32); // 1
 * levelsFor(1000, 10, 32); // 2 (32² = 1024 ≥ 1000)
 * ```
 */
export function levelsFor(rows: number, cols: number, d: number): number {
  const extent = Math.max(rows, cols);
  let levels = 1;
  for (let span = d; span < extent; span *= d) levels++;
  return levels;
}

/**
 * The packed coordinate of an entry at (row, col) inside its node: row in bits 0–7, column in
 * bits 8–15 of a 16-bit half word. Entry i sits in half word i of the coordinate words (bits
 * 0–15 of word i/2 for even i, 16–31 for odd i), so `unpack4xU8` of one word gives
 * (row, col, row, col) of two entries.
 *
 * @example
 * ```ts
 * packCoord(3, 0); // 0x0003
 * packCoord(1, 2); // 0x0201
 * ```
 */
export function packCoord(row: number, col: number): number {
  return row | (col << 8);
}

/**
 * Bit 31 of word 0 of a COOX node: set, the node is a **region leaf** — an inner-level node that
 * holds the matrix entries of its whole region directly, with 16-bit local coordinates (FORMAT.md,
 * "Region leaves"). Word 0 of an ordinary COOX node is an entry count ≤ d² = 65536, so the bit is
 * never set there. Only COOX nodes carry the flag: word 0 of a dense node is a slot, so readers
 * test the flag only after the pointer's type says COOX.
 *
 * @example
 * ```ts
 * const type = pointer & TYPE_MASK;
 * const region = type !== NODE_TYPE.dense && (pool.words[pointer - type]! & REGION_LEAF_FLAG) !== 0;
 * ```
 */
export const REGION_LEAF_FLAG = 0x8000_0000;

/**
 * Largest side d^(L−ℓ) of a region leaf's region: a local row or column must fit 16 bits of the
 * coordinate word `row | col << 16`.
 *
 * @example
 * ```ts
 * nodeSize ** (levels - level) <= REGION_LEAF_MAX_SIDE; // level may hold region leaves
 * ```
 */
export const REGION_LEAF_MAX_SIDE = 65536;

/**
 * Most entries a region leaf may hold. A GPU kernel is to process one region leaf per workgroup
 * (its rows accumulated in workgroup memory, as a dense leaf's are), so the count is bounded to
 * what one workgroup handles in a few passes (4096 entries: 16 per thread of 256); a larger
 * sparse region stays a subtree, whose nodes spread over many workgroups.
 *
 * @example
 * ```ts
 * count <= REGION_LEAF_MAX_ENTRIES; // may collapse into a region leaf
 * ```
 */
export const REGION_LEAF_MAX_ENTRIES = 4096;

/**
 * The layout of a region leaf of `type` (COO1, COO2, COO4: X = 1, 2, 4) with `count` entries, in
 * words from the node's start: word 0 holds `count | REGION_LEAF_FLAG`; one coordinate word per
 * entry (`row | col << 16`, local to the region) from `coordStart` = X rounded up from 1 (1, 2, 4:
 * a thread's X coordinates are one aligned vecX load), ⌈count / X⌉·X of them; the f32 values
 * from `valueStart`, the next multiple of X, as many; padding (0) to a multiple of 4 words.
 *
 * @example
 * ```ts
 * regionLayout(NODE_TYPE.coo1, 1); // { coordStart: 1, valueStart: 2, words: 4 }
 * regionLayout(NODE_TYPE.coo4, 5); // { coordStart: 4, valueStart: 12, words: 20 }
 * ```
 */
export function regionLayout(type: Exclude<NodeType, 0>, count: number): SparseLayout {
  const x = entriesPerLoad(type);
  const slots = Math.ceil(count / x) * x;
  const coordStart = x;
  const valueStart = alignUp(coordStart + slots, x);
  return { coordStart, valueStart, words: alignUp(valueStart + slots, 4) };
}

/**
 * The type of a region leaf with `count` ≥ 1 entries: the sparse type by count (COO1 for one,
 * COO2 for two, COO4 otherwise), as for any node; a region leaf is never dense.
 *
 * @example
 * ```ts
 * regionLeafType(3); // NODE_TYPE.coo4
 * ```
 */
export function regionLeafType(count: number): Exclude<NodeType, 0> {
  return count === 1 ? NODE_TYPE.coo1 : count === 2 ? NODE_TYPE.coo2 : NODE_TYPE.coo4;
}

/**
 * Words of a region leaf with `count` entries (type by {@link regionLeafType}).
 *
 * @example
 * ```ts
 * regionLeafWords(1); // 4: 16 bytes, as a COO1 leaf
 * regionLeafWords(64); // 132
 * ```
 */
export function regionLeafWords(count: number): number {
  return regionLayout(regionLeafType(count), count).words;
}

/**
 * Whether nodes of `level` may be region leaves: inner levels (ℓ < L − 1) whose region side
 * d^(L−ℓ) is at most {@link REGION_LEAF_MAX_SIDE}.
 *
 * @example
 * ```ts
 * regionLevelAllowed(64, 4, 2); // true: side 64² = 4096
 * regionLevelAllowed(64, 4, 1); // false: side 64³
 * ```
 */
export function regionLevelAllowed(d: number, levels: number, level: number): boolean {
  return level < levels - 1 && d ** (levels - level) <= REGION_LEAF_MAX_SIDE;
}

/**
 * The coordinate word of a region-leaf entry at local (row, col): row in bits 0–15, column in
 * bits 16–31 (as an unsigned 32-bit number).
 *
 * @example
 * ```ts
 * packRegionCoord(3, 1); // 0x0001_0003
 * ```
 */
export function packRegionCoord(row: number, col: number): number {
  return (row | (col << 16)) >>> 0;
}
