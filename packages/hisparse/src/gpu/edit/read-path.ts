import { type ScanContext, ScanError } from '@scan/core';
import { withSession } from '@scan/core/kit';
import { nextOnPath } from '../../cpu/edit.js';
import { NODE_TYPE, type NodeType, NULL_POINTER, nodeWords, REGION_LEAF_FLAG, regionLayout, TYPE_MASK } from '../../format/layout.js';
import { type NodeEntries, readNode } from '../../format/node-io.js';
import { HiSparsePool } from '../../format/pool.js';
import { type RegionEntries, readRegionLeaf } from '../../format/region-io.js';
import type { GrowablePool } from './pool-append.js';

/**
 * One node read back from a GPU pool: its pointer, entries, and the words it takes (what the
 * census counts of it).
 *
 * @example
 * ```ts
 * const path = await readPathOnGpu(ctx, shared, root, slots, d);
 * path[0]!.entries.slots; // the root's slots
 * ```
 */
export interface PathNode {
  readonly pointer: number;
  readonly entries: NodeEntries;
  readonly words: number;
  /**
   * The node is a region leaf (FORMAT.md, "Region leaves"): its entries, local to its region
   * (`entries` is then empty). It ends the path: a region leaf has no children.
   */
  readonly region?: RegionEntries;
}

/** Reads `count` words from word `at` of the pool (one submission, one mapping). */
async function readWords(ctx: ScanContext, shared: GrowablePool, at: number, count: number): Promise<Uint32Array<ArrayBuffer>> {
  const bytes = await withSession(ctx, 'hisparse edit read', async (s) => {
    const read = s.readback(shared.pool, 4 * count, 4 * at);
    s.submit();
    return read();
  });
  return new Uint32Array(bytes as ArrayBuffer);
}

/**
 * Reads the nodes on the path from `root` towards the position whose per-level slots are `slots`,
 * as far as nodes exist: one small read-back per level (the node's words only — d² words at most,
 * a second read for a sparse node larger than that). Nothing else of the pool is read. A region
 * leaf met at an inner level is read whole (at most `REGION_LEAF_MAX_ENTRIES` entries) and ends
 * the path.
 *
 * @example
 * ```ts
 * const path = await readPathOnGpu(ctx, shared, root, pathSlots(r, c, d, levels), d);
 * ```
 */
export async function readPathOnGpu(
  ctx: ScanContext,
  shared: GrowablePool,
  root: number,
  slots: readonly number[],
  d: number,
): Promise<PathNode[]> {
  const path: PathNode[] = [];
  const scratch = new HiSparsePool(4);
  for (let pointer = root, level = 0; pointer !== NULL_POINTER; level++) {
    const type = (pointer & TYPE_MASK) as NodeType;
    const at = pointer - type;
    const available = shared.poolWords - at;
    if (available <= 0 || level >= slots.length) {
      throw new ScanError(
        'INVALID_ARGUMENT',
        `HiSparseMatrix.insert/remove: the matrix's pool is not valid: pointer ${pointer} at level ${level} is outside it (${shared.poolWords} words)`,
        { argument: 'this' },
      );
    }
    let words = await readWords(ctx, shared, at, Math.min(d * d, available));
    // Word 0 of a COOX node at an inner level may carry the region flag; a leaf's never does.
    const region = type !== NODE_TYPE.dense && level < slots.length - 1 && ((words[0] as number) & REGION_LEAF_FLAG) !== 0;
    const count = ((words[0] as number) & ~REGION_LEAF_FLAG) >>> 0;
    const sparseType = type as Exclude<NodeType, 0>;
    const size = type === NODE_TYPE.dense ? d * d : region ? regionLayout(sparseType, count).words : nodeWords(type, count, d);
    if (size > words.length) words = await readWords(ctx, shared, at, Math.min(size, available));
    scratch.words = words;
    if (region) {
      path.push({ pointer, entries: { type, slots: [], words: [] }, words: size, region: readRegionLeaf(scratch, type) });
      break;
    }
    const entries = readNode(scratch, type, d);
    path.push({ pointer, entries, words: nodeWords(type, entries.slots.length, d) });
    pointer = nextOnPath(entries, slots[level] as number, level === slots.length - 1);
  }
  return path;
}
