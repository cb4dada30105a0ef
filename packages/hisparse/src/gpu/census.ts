import { createStorageBuffer, type ScanContext, ScanError } from '@scan/core';
import { type BufferRef, RecipeBuilder, RecipeExecutor, withSession } from '@scan/core/kit';
import { NODE_TYPE, type NodeType } from '../format/layout.js';
import { expandKernel, expandShape, QUEUE_ENTRY_WORDS, TALLY_CLASSES, TALLY_REGIONS, TALLY_WORDS } from './kernels/expand-kernel.js';
import { COO4_SIZE_CLASSES } from './kernels/size-classes.js';
import type { GpuHiSparseParts } from './parts.js';

/** The node types in the order of their codes: the order of a level's four queues. */
export const NODE_TYPES: readonly NodeType[] = [NODE_TYPE.dense, NODE_TYPE.coo1, NODE_TYPE.coo2, NODE_TYPE.coo4];

/**
 * What a matrix's tree holds, level by level and per node type: `nodes[ℓ][t]`, their entries
 * (children of inner nodes, stored values of leaves) and their words; and the COO4 leaves per
 * size class (`COO4_SIZE_CLASSES`). The traversal plans size their queues from `nodes` and their
 * leaf dispatches from `nodes` and `coo4Classes`; `stats()` and `memoryBytes()` are read from it.
 *
 * @example
 * ```ts
 * const c = await takeCensus(ctx, parts);
 * c.nodes[c.nodes.length - 1]; // leaves per type
 * c.coo4Classes; // COO4 leaves of up to 128, up to 1024 and more entries
 * ```
 */
export interface Census {
  readonly nodes: readonly (readonly number[])[];
  readonly entries: readonly (readonly number[])[];
  readonly words: readonly (readonly number[])[];
  readonly coo4Classes: readonly number[];
  /**
   * The region leaves (FORMAT.md, "Region leaves") among the nodes: absent when there are none (a
   * matrix the GPU built or added never has any). They are in `nodes` (their parents
   * pushed them as children of their type) but not in `entries` and `words`, which count them here.
   */
  readonly regions?: RegionCensus;
}

/**
 * The region leaves of a matrix, all levels together: their number and entries per node type
 * (indexed as `nodes[ℓ]`; dense is always 0), and the words they take.
 *
 * @example
 * ```ts
 * const r: RegionCensus = { leaves: [0, 2, 0, 5], entries: [0, 2, 0, 310], words: 660 };
 * ```
 */
export interface RegionCensus {
  readonly leaves: readonly number[];
  readonly entries: readonly number[];
  readonly words: number;
}

/**
 * The region leaves of a census, all types together (0 without any): the product plans' region
 * queue and region-leaf dispatch are sized from it.
 *
 * @example
 * ```ts
 * censusRegionLeaves(A.census); // 0 for a matrix the GPU built
 * ```
 */
export function censusRegionLeaves(census: Census): number {
  return (census.regions?.leaves ?? []).reduce((a, b) => a + b, 0);
}

/**
 * Throws an `UNSUPPORTED` ScanError naming `argument` when the matrix of `census` holds region
 * leaves: the GPU products and edits read them, the GPU add does not yet (its joint traversal
 * takes an inner node's words for child pointers).
 *
 * @example
 * ```ts
 * refuseRegionLeaves(A.census, 'A', 'add'); // throws for a matrix built with regionLeaves
 * ```
 */
export function refuseRegionLeaves(census: Census, argument: string, operation: string): void {
  if (census.regions === undefined) return;
  throw new ScanError(
    'UNSUPPORTED',
    `${argument} holds ${censusRegionLeaves(census)} region leaves (built with regionLeaves or nodeSize: 'auto'): the GPU ${operation} does not read them yet (its products and edits do); ${operation} on the host with @scan/hisparse/cpu (A.toHost()), or build without regionLeaves`,
    { argument },
  );
}

/**
 * No COO4 leaves in any size class: the `coo4Classes` of an empty census.
 *
 * @example
 * ```ts
 * const empty: Census = { nodes: [[0, 0, 0, 0]], entries: [[0, 0, 0, 0]], words: [[0, 0, 0, 0]], coo4Classes: noClasses() };
 * ```
 */
export function noClasses(): number[] {
  return COO4_SIZE_CLASSES.map(() => 0);
}

/**
 * All nodes of a census, every level and type.
 *
 * @example
 * ```ts
 * totalNodes({ nodes: [[0, 0, 0, 1], [2, 5, 0, 0]], entries: [], words: [], coo4Classes: [] }); // 8
 * ```
 */
export function totalNodes(census: Census): number {
  return census.nodes.reduce((sum, level) => sum + level.reduce((a, b) => a + b, 0), 0);
}

/**
 * The nodes of each level of a census, all types together.
 *
 * @example
 * ```ts
 * levelNodes({ nodes: [[0, 0, 0, 1], [2, 5, 0, 0]], entries: [], words: [], coo4Classes: [] }); // [1, 7]
 * ```
 */
export function levelNodes(census: Census): number[] {
  return census.nodes.map((level) => level.reduce((a, b) => a + b, 0));
}

/** Where each type's queue starts in a level's queue buffer (entries): the types one after the other. */
export function queueBases(counts: readonly number[]): number[] {
  const bases: number[] = [];
  let at = 0;
  for (const c of counts) {
    bases.push(at);
    at += c;
  }
  return bases;
}

/** d^(L−ℓ−1): the side of the blocks a level-ℓ node's slots cover. */
export function childSpan(nodeSize: number, levels: number, level: number): number {
  return nodeSize ** Math.max(0, levels - level - 1);
}

/**
 * Counts the tree on the GPU, one level at a time: the level's nodes are tallied (children per
 * type, entries, words; region leaves apart) by the traversal kernel in its counting form, the
 * tally is read back (a few dozen words), the next level's queues are allocated to size and filled
 * by the same kernel in its pushing form. Run once per matrix; every product after it runs
 * without read-backs.
 *
 * @example
 * ```ts
 * const census = await takeCensus(ctx, uploadHiSparse(ctx, H));
 * ```
 */
export async function takeCensus(ctx: ScanContext, parts: GpuHiSparseParts): Promise<Census> {
  const L = parts.levels;
  const zero = (): number[] => [0, 0, 0, 0];
  const nodes: number[][] = Array.from({ length: L }, zero);
  const entries: number[][] = Array.from({ length: L }, zero);
  const words: number[][] = Array.from({ length: L }, zero);
  let coo4Classes = noClasses();
  if (parts.root === 0) return { nodes, entries, words, coo4Classes };
  const regionLeaves = zero();
  const regionEntries = zero();
  let regionWords = 0;
  (nodes[0] as number[])[parts.root & 3] = 1;
  const exec = new RecipeExecutor(ctx, 'hisparse census', 'A');
  let queueIn = createStorageBuffer(ctx, 16, 'hisparse census queue');
  ctx.device.queue.writeBuffer(queueIn, 0, new Uint32Array([parts.root, 0, 0, 0]));
  const counters = createStorageBuffer(ctx, 32, 'hisparse census counters');
  const tally = createStorageBuffer(ctx, 4 * TALLY_WORDS, 'hisparse census tally');
  const owned = [queueIn, counters, tally];
  try {
    for (let level = 0; level < L; level++) {
      const counts = nodes[level] as number[];
      const bases = queueBases(counts);
      const span = childSpan(parts.nodeSize, L, level);
      const leaf = level === L - 1;
      ctx.device.queue.writeBuffer(counters, 0, new Uint32Array([...counts, 0, 0, 0, 0]));
      ctx.device.queue.writeBuffer(tally, 0, new Uint32Array(TALLY_WORDS));
      const count = levelRecipe(parts.nodeSize, counts, bases, span, 'count', leaf, [0, 0, 0, 0]);
      const t = await withSession(ctx, 'hisparse census', async (s) => {
        exec.encode(s.encoder, () => count, { pool: parts.pool, queueIn, counters, tally });
        const read = s.readback(tally, 4 * TALLY_WORDS);
        s.submit();
        return new Uint32Array(await read());
      });
      for (const type of NODE_TYPES) {
        (entries[level] as number[])[type] = t[4 + 2 * type] as number;
        (words[level] as number[])[type] = t[5 + 2 * type] as number;
        regionLeaves[type] = (regionLeaves[type] as number) + (t[TALLY_REGIONS + type] as number);
        regionEntries[type] = (regionEntries[type] as number) + (t[TALLY_REGIONS + 4 + type] as number);
      }
      regionWords += t[TALLY_REGIONS + 8] as number;
      if (leaf) {
        coo4Classes = Array.from(t.subarray(TALLY_CLASSES, TALLY_CLASSES + COO4_SIZE_CLASSES.length));
        break;
      }
      const next = [t[0], t[1], t[2], t[3]] as number[];
      nodes[level + 1] = next;
      const total = next.reduce((a, b) => a + b, 0);
      const queueOut = createStorageBuffer(ctx, Math.max(16, 4 * QUEUE_ENTRY_WORDS * total), 'hisparse census queue');
      owned.push(queueOut);
      const push = levelRecipe(parts.nodeSize, counts, bases, span, 'push', false, queueBases(next));
      await withSession(ctx, 'hisparse census', async (s) => {
        exec.encode(s.encoder, () => push, { pool: parts.pool, queueIn, counters, queueOut });
        s.submit();
      });
      queueIn = queueOut;
    }
  } finally {
    exec.destroy();
    for (const b of owned) b.destroy();
  }
  const regions = regionWords > 0 ? { regions: { leaves: regionLeaves, entries: regionEntries, words: regionWords } } : {};
  return { nodes, entries, words, coo4Classes, ...regions };
}

/**
 * The dispatches of one level in the census (direct: the counts are known on the host here).
 * Counters 0–3 hold this level's counts; a push writes the next level's into 4–7.
 */
function levelRecipe(
  d: number,
  counts: readonly number[],
  bases: readonly number[],
  span: number,
  mode: 'count' | 'push',
  leaf: boolean,
  nextBases: readonly number[],
) {
  const b = new RecipeBuilder();
  const whole = (role: string): BufferRef => ({ role, offset: 0 });
  for (const type of NODE_TYPES) {
    const n = counts[type] as number;
    if (n === 0) continue;
    const { lanes, workgroupSize } = expandShape(type);
    const [, nb1, nb2, nb3] = nextBases as [number, number, number, number];
    const params = {
      in_base: bases[type] as number,
      count_index: type,
      next_counter: mode === 'push' ? 4 : 0,
      nb1,
      nb2,
      nb3,
      child_span: span,
      // The census's push skips region leaves (the count tallied them; they have no children).
      region_counter: 0,
    };
    const bindings = {
      pool: whole('pool'),
      queue_in: whole('queueIn'),
      counters: whole('counters'),
      queue_out: mode === 'push' ? whole('queueOut') : undefined,
      tally: mode === 'push' ? undefined : whole('tally'),
    };
    b.dispatch(expandKernel({ nodeSize: d, type, mode, leaf }), bindings, Math.ceil((n * lanes) / workgroupSize), params);
  }
  return b.build();
}
