import { defineKernel, read, readWrite } from '@scan/core/kit';
import { NODE_TYPE, type NodeType } from '../../format/layout.js';
import { FLAT_BUILTINS_WGSL, FLAT_WORKGROUP_WGSL, NODE_WGSL } from './node-wgsl.js';
import { classOfWgsl } from './size-classes.js';

/** Words of a queue entry: the node pointer and the stored row and column where its block starts. */
export const QUEUE_ENTRY_WORDS = 3;

/**
 * Words of one level's census tally: children per type (4), then entries and words per node type
 * (4 × 2), then at the leaf level the COO4 leaves per size class (from {@link TALLY_CLASSES}), then
 * at inner levels the region leaves (from {@link TALLY_REGIONS}).
 */
export const TALLY_WORDS = 28;

/** Where the census tally counts the COO4 leaves per size class (`COO4_SIZE_CLASSES`). */
export const TALLY_CLASSES = 12;

/**
 * Where the census tally counts region leaves (FORMAT.md, "Region leaves"): their number per type
 * (4 words), their entries per type (4), and their words (1). They are not in the level's entries
 * and words per type, which count the nodes whose entries are slots of a d×d grid.
 */
export const TALLY_REGIONS = 16;

/**
 * How many invocations work on one node of `type` (its "lanes"), and the workgroup size: an
 * invocation per node for COO1 and COO2 (one or two entries), a whole workgroup per node for COO4
 * and dense nodes (up to d² slots).
 */
export function expandShape(type: NodeType): { lanes: number; workgroupSize: number } {
  return type === NODE_TYPE.coo1 || type === NODE_TYPE.coo2 ? { lanes: 1, workgroupSize: 256 } : { lanes: 64, workgroupSize: 64 };
}

/** What an expansion dispatch is specialized on. */
export type ExpandSpec = {
  readonly nodeSize: number;
  readonly type: NodeType;
  /**
   * `'push'`: the traversal step — every child goes into the next level's queue of its type, at a
   * place reserved with one atomic per workgroup and type. `'count'`: the census — children per
   * type, entries and words of the nodes themselves are added to the tally (the plan sizes its
   * queues from it; `stats()` and `memoryBytes()` come from it).
   */
  readonly mode: 'push' | 'count';
  /** The nodes are leaves (census only: no children to count). */
  readonly leaf: boolean;
  /**
   * `'push'` only: the region leaves met among COOX inner nodes go into a queue of their own
   * (`region_out`, counted at `region_counter`), which the products' region-leaf kernel reads.
   * Without it they are skipped (the census's push: they have no children, and the count tallied
   * them). Either way a region leaf's entries are never taken for children.
   */
  readonly regionQueue?: boolean;
};

const expand = defineKernel({
  name: 'hisparse/expand',
  bindings: (spec: ExpandSpec) => ({
    pool: read('array<u32>'),
    queue_in: read('array<u32>'),
    counters: readWrite('array<atomic<u32>>'),
    queue_out: spec.mode === 'push' ? readWrite('array<u32>') : undefined,
    tally: spec.mode === 'push' ? undefined : readWrite('array<atomic<u32>>'),
    region_out: spec.mode === 'push' && spec.regionQueue === true ? readWrite('array<u32>') : undefined,
  }),
  params: {
    in_base: 'u32',
    count_index: 'u32',
    next_counter: 'u32',
    nb1: 'u32',
    nb2: 'u32',
    nb3: 'u32',
    child_span: 'u32',
    region_counter: 'u32',
  },
  wgsl: (spec) => expandWgsl(spec),
});

/**
 * One level of the top-down traversal (Derler et al. §5: the GPU-controlled scheduler, here as
 * per-type queues that the GPU fills and sizes itself). Each queue entry is a node of type
 * `spec.type`; its children (non-null slots of a dense node, the entries of a COOX node) are the
 * next level's work, each placed with the stored coordinates of its block, so leaves know where
 * their entries are without walking back up.
 *
 * Phases: **count** the children per type in workgroup memory; **reserve** a run of each next-level
 * queue with one global atomic per type and workgroup (millions of leaves must not all hit four
 * counters one by one); **push** the children into their runs. The order inside a queue depends
 * on the scheduler, which only changes the order of additions in the leaves.
 *
 * A COOX inner node whose word 0 carries the region flag is a **region leaf** (FORMAT.md): it has
 * no children, so it counts none; the census tallies it apart (number, entries and words per
 * type at `TALLY_REGIONS`), and the traversal's push with `regionQueue` puts it, with its block's
 * coordinates, into the region queue (reserved like the others, one atomic per workgroup).
 *
 * Bindings: `pool`, `queue_in` (this level's queue), `counters`, and `queue_out` (the next level's
 * queue; with `regionQueue` also `region_out`, the region queue) when pushing or `tally` (the
 * census's words) when counting. Params: `in_base` (the queue
 * base of this level and type), `count_index` (the index of its counter), `next_counter` (the index
 * of the next level's first counter, or of the tally's first word), `nb1`…`nb3` (the next level's
 * queue bases of the types after dense, whose queue starts at 0), `child_span` (d^(L−ℓ−1)) and
 * `region_counter` (the index of the region queue's counter; read only with `regionQueue`).
 *
 * @example
 * ```ts
 * const kernel = expandKernel({ nodeSize: 32, type: NODE_TYPE.coo4, mode: 'push', leaf: false });
 * b.dispatchIndirect(kernel, { pool, queue_in, counters, queue_out }, argsRef, { in_base, count_index, next_counter, nb1, nb2, nb3, child_span, region_counter: 0 });
 * ```
 */
export function expandKernel(spec: ExpandSpec) {
  return expand(spec);
}

function expandWgsl(spec: ExpandSpec): string {
  const { lanes, workgroupSize } = expandShape(spec.type);
  const d = spec.nodeSize;
  const dense = spec.type === NODE_TYPE.dense;
  const push = spec.mode === 'push';
  const children = !spec.leaf;
  // The census of COO4 leaves also counts them per size class (the product plans' dispatch sizes).
  const classes = !push && spec.leaf && spec.type === NODE_TYPE.coo4;
  // Only COOX inner nodes may be region leaves (FORMAT.md: the flag is never tested on a dense node).
  const regions = !dense && children;
  const regionQueue = regions && push && spec.regionQueue === true;
  // A slot is present when a dense node's word is not null (+0.0 in a leaf: no entry); every COOX entry is.
  const slotRead = dense
    ? `let word = pool[off + i]; let present = word != 0u; let r = i / D; let c = i % D;`
    : `let word = pool[off + vs + i]; let present = true; let rc = coord_of(off, T, i); let r = rc.x; let c = rc.y;`;
  return `
${NODE_WGSL}
${classes ? classOfWgsl() : ''}
const D: u32 = ${d}u;
const T: u32 = ${spec.type}u;
const LANES: u32 = ${lanes}u;
const WG: u32 = ${workgroupSize}u;

var<workgroup> wg_children: array<atomic<u32>, 4>;
var<workgroup> wg_base: array<u32, 4>;
var<workgroup> wg_entries: atomic<u32>;
var<workgroup> wg_words: atomic<u32>;
${regionQueue ? 'var<workgroup> wg_regions: atomic<u32>;\nvar<workgroup> wg_region_base: u32;' : ''}

fn next_base(t: u32) -> u32 {
  return select(select(select(params.nb3, params.nb2, t == 2u), params.nb1, t == 1u), 0u, t == 0u);
}

@compute @workgroup_size(${workgroupSize})
fn main(${FLAT_BUILTINS_WGSL}) {
  ${FLAT_WORKGROUP_WGSL}
  let k = (wg * WG + lid) / LANES;
  let lane = lid % LANES;
  let count = atomicLoad(&counters[params.count_index]);
  let live = k < count;
  var off = 0u;
  var row0 = 0u;
  var col0 = 0u;
  var extent = 0u;
  var vs = 0u;
  var pointer = 0u;
  // A region leaf (its entry count without the flag): no children, its entries are not slots.
  var region = false;
  var region_n = 0u;
  if (live) {
    let e = (params.in_base + k) * ${QUEUE_ENTRY_WORDS}u;
    pointer = queue_in[e];
    off = pointer & ~3u;
    row0 = queue_in[e + 1u];
    col0 = queue_in[e + 2u];
    ${dense ? 'extent = D * D;' : 'extent = pool[off];'}
    ${
      regions
        ? `region = (extent & REGION_FLAG) != 0u;
    if (region) { region_n = extent & ~REGION_FLAG; extent = 0u; }`
        : ''
    }
    ${dense ? '' : 'vs = value_start(T, extent);'}
  }

  // Count: the children of each type (census: also the node's own entries and words).
  var entries = 0u;
  for (var i = lane; i < extent; i += LANES) {
    ${slotRead}
    if (present) {
      entries++;
      ${children ? 'atomicAdd(&wg_children[word & 3u], 1u);' : ''}
    }
  }
  ${
    push
      ? ''
      : `if (live && !region) {
    atomicAdd(&wg_entries, entries);
    if (lane == 0u) {
      atomicAdd(&wg_words, ${dense ? 'D * D' : 'sparse_words(T, extent)'});
      ${classes ? `atomicAdd(&tally[params.next_counter + ${TALLY_CLASSES}u + class_of(extent)], 1u);` : ''}
    }
  }`
  }
  ${
    regions && !push
      ? `// Region leaves are tallied apart: their number, entries and words.
  if (live && region && lane == 0u) {
    atomicAdd(&tally[params.next_counter + ${TALLY_REGIONS}u + T], 1u);
    atomicAdd(&tally[params.next_counter + ${TALLY_REGIONS + 4}u + T], region_n);
    atomicAdd(&tally[params.next_counter + ${TALLY_REGIONS + 8}u], region_words(T, region_n));
  }`
      : ''
  }
  ${regionQueue ? 'if (live && region && lane == 0u) { atomicAdd(&wg_regions, 1u); }' : ''}
  workgroupBarrier();
  ${
    push
      ? `
  // Reserve: one run per type of the next level's queues for the whole workgroup.
  if (lid < 4u) {
    let n = atomicLoad(&wg_children[lid]);
    if (n > 0u) { wg_base[lid] = next_base(lid) + atomicAdd(&counters[params.next_counter + lid], n); }
    atomicStore(&wg_children[lid], 0u);
  }
  ${
    regionQueue
      ? `if (lid == 4u) {
    let n = atomicLoad(&wg_regions);
    if (n > 0u) { wg_region_base = atomicAdd(&counters[params.region_counter], n); }
    atomicStore(&wg_regions, 0u);
  }`
      : ''
  }
  workgroupBarrier();

  // Push: each child with the stored coordinates of its block.
  for (var i = lane; i < extent; i += LANES) {
    ${slotRead}
    if (present) {
      let t = word & 3u;
      let dst = (wg_base[t] + atomicAdd(&wg_children[t], 1u)) * ${QUEUE_ENTRY_WORDS}u;
      queue_out[dst] = word;
      queue_out[dst + 1u] = row0 + r * params.child_span;
      queue_out[dst + 2u] = col0 + c * params.child_span;
    }
  }${
    regionQueue
      ? `
  // A region leaf goes whole into the region queue, with its block's coordinates.
  if (live && region && lane == 0u) {
    let dst = (wg_region_base + atomicAdd(&wg_regions, 1u)) * ${QUEUE_ENTRY_WORDS}u;
    region_out[dst] = pointer;
    region_out[dst + 1u] = row0;
    region_out[dst + 2u] = col0;
  }`
      : ''
  }`
      : `
  // Tally: this level's children per type, and entries and words per node type.
  if (lid < 4u) { atomicAdd(&tally[params.next_counter + lid], atomicLoad(&wg_children[lid])); }
  if (lid == 0u) {
    atomicAdd(&tally[params.next_counter + 4u + 2u * T], atomicLoad(&wg_entries));
    atomicAdd(&tally[params.next_counter + 5u + 2u * T], atomicLoad(&wg_words));
  }`
  }
}
`;
}
