import { NODE_TYPE, type NodeType, packRegionCoord, REGION_LEAF_FLAG, regionLayout, regionLeafType, TYPE_MASK } from './layout.js';
import type { HiSparsePool } from './pool.js';

// Reading and writing region leaves (FORMAT.md, "Region leaves"): COOX nodes at an inner level
// that hold the entries of their whole region, one 32-bit local coordinate word per entry. Kept
// apart from node-io.ts because their entries are positions in a region, not slots of a d×d grid.

/**
 * The entries of one region leaf, row-major: local rows and columns (within the region) and the
 * f32 bits of the values.
 *
 * @example
 * ```ts
 * const { rows, cols, bits } = readRegionLeaf(H.pool, pointer);
 * ```
 */
export interface RegionEntries {
  readonly rows: number[];
  readonly cols: number[];
  readonly bits: number[];
}

/**
 * True when `pointer` points at a region leaf: a COOX node whose word 0 has
 * `REGION_LEAF_FLAG` set. A dense node is never one (its word 0 is a slot, not a count), so the
 * type is tested first.
 *
 * @example
 * ```ts
 * const entries = isRegionLeaf(H.pool, child) ? readRegionLeaf(H.pool, child) : readNode(H.pool, child, H.nodeSize);
 * ```
 */
export function isRegionLeaf(pool: HiSparsePool, pointer: number): boolean {
  const type = pointer & TYPE_MASK;
  return type !== NODE_TYPE.dense && (pool.words[pointer - type]! & REGION_LEAF_FLAG) !== 0;
}

/**
 * Reads the entries of the region leaf `pointer` points at (see {@link isRegionLeaf}).
 *
 * @example
 * ```ts
 * readRegionLeaf(pool, writeRegionLeaf(pool, [0], [70], [0x3f800000])); // { rows: [0], cols: [70], bits: [0x3f800000] }
 * ```
 */
export function readRegionLeaf(pool: HiSparsePool, pointer: number): RegionEntries {
  const type = (pointer & TYPE_MASK) as Exclude<NodeType, 0>;
  const at = pointer - type;
  const w = pool.words;
  const count = (w[at]! & ~REGION_LEAF_FLAG) >>> 0;
  const { coordStart, valueStart } = regionLayout(type, count);
  const rows: number[] = [];
  const cols: number[] = [];
  const bits: number[] = [];
  for (let i = 0; i < count; i++) {
    const coord = w[at + coordStart + i]!;
    rows.push(coord & 0xffff);
    cols.push(coord >>> 16);
    bits.push(w[at + valueStart + i]!);
  }
  return { rows, cols, bits };
}

/**
 * The entry count of the region leaf `pointer` points at.
 *
 * @example
 * ```ts
 * regionLeafCount(pool, pointer); // e.g. 64
 * ```
 */
export function regionLeafCount(pool: HiSparsePool, pointer: number): number {
  const type = pointer & TYPE_MASK;
  return (pool.words[pointer - type]! & ~REGION_LEAF_FLAG) >>> 0;
}

/**
 * Appends a region leaf holding the entries (local `rows`/`cols` below 65536, sorted row-major,
 * distinct; `bits` the f32 bits of their values) and returns its pointer. The type follows
 * `regionLeafType`; padding words are 0.
 *
 * @example
 * ```ts
 * const p = writeRegionLeaf(pool, [0, 5], [3, 1000], [0x3f800000, 0x40000000]); // a COO2 region leaf
 * ```
 */
export function writeRegionLeaf(pool: HiSparsePool, rows: ArrayLike<number>, cols: ArrayLike<number>, bits: ArrayLike<number>): number {
  const count = rows.length;
  const type = regionLeafType(count);
  const { coordStart, valueStart, words } = regionLayout(type, count);
  const at = pool.alloc(words);
  const w = pool.words;
  w[at] = (count | REGION_LEAF_FLAG) >>> 0;
  for (let i = 0; i < count; i++) {
    w[at + coordStart + i] = packRegionCoord(rows[i]!, cols[i]!);
    w[at + valueStart + i] = bits[i]!;
  }
  return at | type;
}
