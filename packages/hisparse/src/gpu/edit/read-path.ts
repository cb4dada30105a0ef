import { type ScanContext, ScanError } from '@scan/core';
import { withSession } from '@scan/core/kit';
import { nextOnPath } from '../../cpu/edit.js';
import { NODE_TYPE, type NodeType, NULL_POINTER, nodeWords, TYPE_MASK } from '../../format/layout.js';
import { type NodeEntries, readNode } from '../../format/node-io.js';
import { HiSparsePool } from '../../format/pool.js';
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
 * a second read for a sparse node larger than that). Nothing else of the pool is read.
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
    const size = type === NODE_TYPE.dense ? d * d : nodeWords(type, words[0] as number, d);
    if (size > words.length) words = await readWords(ctx, shared, at, Math.min(size, available));
    scratch.words = words;
    const entries = readNode(scratch, type, d);
    path.push({ pointer, entries, words: nodeWords(type, entries.slots.length, d) });
    pointer = nextOnPath(entries, slots[level] as number, level === slots.length - 1);
  }
  return path;
}
