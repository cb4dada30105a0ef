import type { ScanContext } from '@scan/core';
import { type EditChange, editRegionEntries, pathSlots, rewritePath } from '../../cpu/edit.js';
import { subtreeFromEntries } from '../../cpu/region.js';
import { type SkeletonNode, skeletonLevels, skeletonNodeWords, writeSkeleton } from '../../cpu/tree.js';
import {
  chooseNodeType,
  NODE_TYPE,
  type NodeType,
  NULL_POINTER,
  nodeWords,
  POOL_HEADER_WORDS,
  regionLeafType,
  TYPE_MASK,
} from '../../format/layout.js';
import { writeNode } from '../../format/node-io.js';
import { HiSparsePool } from '../../format/pool.js';
import type { Census } from '../census.js';
import { sizeClassOf } from '../kernels/size-classes.js';
import { appendToPool, type GrowablePool, serializeOn } from './pool-append.js';
import { readPathOnGpu } from './read-path.js';

export { appendToPool, type GrowablePool, reservePool, serializeOn } from './pool-append.js';
export { type PathNode, readPathOnGpu } from './read-path.js';

// Copy-on-write edits of a pool on the GPU, the CPU reference's (`../../cpu/edit.ts`) with the
// reads and the append moved: the root-to-leaf path is read back node by node (at most L small
// reads), the new path is built on the host by the same `rewritePath` — so node types and layout
// are the reference's — at the offsets the pool's end will give it, and only those words are
// uploaded. The census of the result is the old one minus the replaced path plus the new nodes:
// the rest of the tree is shared, so nothing else changes and no traversal is needed.

/**
 * What the tree of one matrix is, in the terms an edit needs: its pool (shared, growable), node
 * size, levels, root and census.
 *
 * @example
 * ```ts
 * const edited = await editOnGpu(ctx, { shared: tree, nodeSize: 32, levels: 2, root, census }, r, c, null);
 * ```
 */
export interface EditTarget {
  readonly shared: GrowablePool;
  readonly nodeSize: number;
  readonly levels: number;
  readonly root: number;
  readonly census: Census;
}

/**
 * One node as the census counts it: its level, type, entries and words.
 *
 * @example
 * ```ts
 * const leaf: CountedNode = { level: 1, type: NODE_TYPE.coo1, entries: 1, words: 4 };
 * ```
 */
export interface CountedNode {
  readonly level: number;
  readonly type: NodeType;
  readonly entries: number;
  readonly words: number;
  /** A region leaf: counted in `nodes` and in the census's `regions`, not in `entries`/`words`. */
  readonly region?: boolean;
}

/**
 * The census after an edit: `removed` nodes (the old path) taken out, `added` ones (the new path)
 * put in, COO4 leaves in their size classes and region leaves in `regions` too (absent again when
 * none is left); every other node is shared and stays counted.
 *
 * @example
 * ```ts
 * const next = censusAfter(census, [{ level: 0, type: 1, entries: 1, words: 4 }], []);
 * ```
 */
export function censusAfter(census: Census, removed: readonly CountedNode[], added: readonly CountedNode[]): Census {
  const copy = (table: readonly (readonly number[])[]) => table.map((row) => [...row]);
  const nodes = copy(census.nodes);
  const entries = copy(census.entries);
  const words = copy(census.words);
  const coo4Classes = [...census.coo4Classes];
  const regionLeaves = [...(census.regions?.leaves ?? [0, 0, 0, 0])];
  const regionEntries = [...(census.regions?.entries ?? [0, 0, 0, 0])];
  let regionWords = census.regions?.words ?? 0;
  const leafLevel = census.nodes.length - 1;
  const apply = (list: readonly CountedNode[], sign: number) => {
    for (const n of list) {
      if (n.region) {
        (nodes[n.level] as number[])[n.type] = ((nodes[n.level] as number[])[n.type] as number) + sign;
        regionLeaves[n.type] = (regionLeaves[n.type] as number) + sign;
        regionEntries[n.type] = (regionEntries[n.type] as number) + sign * n.entries;
        regionWords += sign * n.words;
        continue;
      }
      if (n.level === leafLevel && n.type === NODE_TYPE.coo4) {
        const k = sizeClassOf(n.entries);
        coo4Classes[k] = (coo4Classes[k] as number) + sign;
      }
      (nodes[n.level] as number[])[n.type] = ((nodes[n.level] as number[])[n.type] as number) + sign;
      (entries[n.level] as number[])[n.type] = ((entries[n.level] as number[])[n.type] as number) + sign * n.entries;
      (words[n.level] as number[])[n.type] = ((words[n.level] as number[])[n.type] as number) + sign * n.words;
    }
  };
  apply(removed, -1);
  apply(added, 1);
  const regions = regionWords > 0 ? { regions: { leaves: regionLeaves, entries: regionEntries, words: regionWords } } : {};
  return { nodes, entries, words, coo4Classes, ...regions };
}

/**
 * The entries the census counts of a node of `type` with `slots`, given its `words` when they may
 * hold +0: a dense leaf's +0 words are no entries (FORMAT.md); every other node counts its slots
 * (an inner node's words are pointers, never 0).
 */
function countedEntries(type: NodeType, slots: readonly number[], words?: readonly number[]): number {
  return type === NODE_TYPE.dense && words ? words.filter((word) => word !== 0).length : slots.length;
}

/**
 * The nodes of a skeleton subtree whose root is at `level`, as the census counts them (region
 * leaves flagged): what an edit through a region leaf adds.
 *
 * @example
 * ```ts
 * countSkeleton({ slots: [0], bits: [0x3f800000] }, 1, 4); // [{ level: 1, type: 1, entries: 1, words: 4 }]
 * ```
 */
export function countSkeleton(skeleton: SkeletonNode, level: number, d: number): CountedNode[] {
  return skeletonLevels(skeleton).flatMap((nodes, depth) =>
    nodes.map((node): CountedNode => {
      const words = skeletonNodeWords(node, d);
      if (node.region)
        return {
          level: level + depth,
          type: regionLeafType(node.region.rows.length),
          entries: node.region.rows.length,
          words,
          region: true,
        };
      const type = chooseNodeType(node.slots.length, d);
      return { level: level + depth, type, entries: countedEntries(type, node.slots, node.bits), words };
    }),
  );
}

/**
 * Edits the stored position (r, c) — already swapped for a transposed view — of the tree `target`
 * describes: `change` stores value bits or (null) removes the entry. Reads the path back, builds
 * the new path on the host exactly as `hisparseInsert`/`hisparseRemove` would, appends it to the
 * shared pool (growing the buffer when needed) and returns the new root with its census. Where the
 * path meets a region leaf, the leaf is read back whole and its region rebuilt with the change by
 * the build's rule (`subtreeFromEntries`), as `hisparseInsert` does, before the path above it. Edits
 * of one pool run one at a time. The old root and everything it reaches are untouched.
 *
 * @example
 * ```ts
 * const { root, census } = await editOnGpu(ctx, target, 3, 5, { bits: 0x3f800000 }); // 1.0 at stored (3, 5)
 * ```
 */
export async function editOnGpu(
  ctx: ScanContext,
  target: EditTarget,
  r: number,
  c: number,
  change: EditChange,
): Promise<{ root: number; census: Census }> {
  const { shared, nodeSize: d, levels, root } = target;
  const slots = pathSlots(r, c, d, levels);
  return serializeOn(shared, async () => {
    const path = await readPathOnGpu(ctx, shared, root, slots, d);
    // The new nodes are written into a scratch pool at the offsets the pool's end will give them.
    const base = shared.poolWords;
    const scratch = new HiSparsePool(64);
    const added: CountedNode[] = [];
    // The old path as the census counts it, before a region's entries are edited in place.
    const removed = path.map((n, level): CountedNode => {
      const type = (n.pointer & TYPE_MASK) as NodeType;
      if (n.region) return { level, type, entries: n.region.rows.length, words: n.words, region: true };
      return { level, type, entries: n.entries.slots.length, words: n.words };
    });
    const append = async (newRoot: number) => {
      const at = await appendToPool(ctx, shared, scratch.words.slice(POOL_HEADER_WORDS, scratch.used));
      if (at !== base) throw new Error(`hisparse edit: the pool's end moved during the edit (${base} → ${at})`);
      return { root: newRoot, census: censusAfter(target.census, removed, added) };
    };
    const write = (type: NodeType, s: number[], w: number[], level: number): number => {
      const pointer = writeNode(scratch, type, s, w, d);
      added.push({ level, type, entries: countedEntries(type, s, w), words: nodeWords(type, s.length, d) });
      return pointer - POOL_HEADER_WORDS + base;
    };
    const entries = path.map((n) => n.entries);
    const region = path[path.length - 1]?.region;
    if (region !== undefined) {
      // The path meets a region leaf: its entries with the change are rebuilt by the build's rule
      // (as the CPU's edit does), written first, and the path above points at them.
      const level = path.length - 1;
      if (!editRegionEntries(region, r, c, level, d, levels, change)) return { root, census: target.census };
      const skeleton = subtreeFromEntries(region, level, d, levels);
      const rebuilt = skeleton === null ? NULL_POINTER : writeSkeleton(scratch, skeleton, d, base - POOL_HEADER_WORDS);
      if (skeleton !== null) added.push(...countSkeleton(skeleton, level, d));
      const above: EditChange = rebuilt === NULL_POINTER ? null : { bits: rebuilt };
      const newRoot = level === 0 ? rebuilt : rewritePath(entries.slice(0, level), root, slots, d, level, above, write);
      return append(newRoot);
    }
    const newRoot = rewritePath(entries, root, slots, d, levels, change, write);
    if (newRoot === root) return { root, census: target.census };
    return append(newRoot);
  });
}
