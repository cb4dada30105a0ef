import { defineKernel, read, readWrite } from '@scan/core/kit';
import { entriesPerLoad, NODE_TYPE, type NodeType } from '../../format/layout.js';
import { QUEUE_ENTRY_WORDS } from './expand-kernel.js';
import { FLAT_BUILTINS_WGSL, FLAT_WORKGROUP_WGSL, NODE_WGSL } from './node-wgsl.js';
import { COO4_SIZE_CLASSES } from './size-classes.js';
import { SPILL_REPLICAS, SPILL_TABLE, spillAddWgsl } from './spill-kernels.js';

/**
 * How the leaves' sums reach y (WebGPU has no float atomics): `'atomic'` adds them into y by
 * compare-and-swap on the f32 bits; `'segmented'` writes every run sum as a record (output index,
 * partial) that a sort by key and a segmented scan reduce afterwards (`../combine/`).
 *
 * @example
 * ```ts
 * const combine: LeafCombine = 'segmented';
 * ```
 */
export type LeafCombine = 'atomic' | 'segmented';

/**
 * Invocations per leaf and workgroup size of the leaf kernel of `type`: one invocation per COO1 or
 * COO2 leaf (256 leaves per workgroup); for COO4 leaves the lanes of their size class
 * (`COO4_SIZE_CLASSES`: 8, 32 or 128, each taking a run of consecutive four-entry loads; 256
 * invocations per workgroup); a workgroup per dense leaf (an invocation per row or column of the
 * d×d block). `sizeClass` defaults to 0, the class a COO4 queue that is not split by size uses.
 *
 * @example
 * ```ts
 * leafShape(NODE_TYPE.coo4, 2); // { lanes: 128, workgroupSize: 256 }
 * ```
 */
export function leafShape(type: NodeType, sizeClass = 0): { lanes: number; workgroupSize: number } {
  if (type === NODE_TYPE.coo1 || type === NODE_TYPE.coo2) return { lanes: 1, workgroupSize: 256 };
  if (type === NODE_TYPE.coo4)
    return { lanes: (COO4_SIZE_CLASSES[sizeClass] ?? COO4_SIZE_CLASSES[0])?.lanes as number, workgroupSize: 256 };
  return { lanes: 64, workgroupSize: 64 };
}

/** What a leaf dispatch is specialized on. */
export type LeafSpec = {
  readonly nodeSize: number;
  readonly type: NodeType;
  /** How sums reach y (default `'atomic'`). */
  readonly combine?: LeafCombine;
  /** COO4 only: the size class whose lanes per leaf the kernel uses (default 0; see {@link leafShape}). */
  readonly sizeClass?: number;
  /** `'atomic'` only, for tests: every sum goes through the spill table (see spill-kernels.ts). */
  readonly spillAlways?: boolean;
  /**
   * The queue holds region leaves (FORMAT.md, "Region leaves"; the traversal's region queue) of
   * any sparse type, read from each pointer: a workgroup per region leaf (up to
   * `REGION_LEAF_MAX_ENTRIES` = 4096 entries, 16 per invocation), 16-bit local coordinates (one
   * word per entry). `type` and `sizeClass` are ignored.
   */
  readonly region?: boolean;
};

/**
 * The leaf kernel of one node type (Derler et al. §5, Algorithm 1): every leaf of the queue
 * multiplies its entries by x and adds them into y. The matrix state arrives as uniforms — `swap`
 * (read the stored block transposed: the matrix's flag differs from the product's) and the scale —
 * so transposed and plain products share the pipeline and cost the same.
 *
 * **Combine without float atomics**: WebGPU has only integer atomics, so a sum is added into y by
 * compare-and-swap on its f32 bits (retried while another invocation changed the word). Three
 * levels keep those few: an invocation sums the consecutive entries it holds that go to one output
 * (a COOX leaf is sorted row-major, so a row's entries in a plain product are consecutive); a
 * workgroup of sparse leaves adds those sums into a table in workgroup memory keyed by output and
 * flushes it once; a dense leaf sums a whole line of its block per invocation. A sum that loses
 * `SPILL_AFTER` compare-and-swap attempts on y goes to a spill table of per-workgroup replicas
 * instead (spill-kernels.ts), which the plan adds into y after the leaves: hot outputs no longer
 * serialize hundreds of workgroups.
 *
 * **Combine by records** (`combine: 'segmented'`): the same run sums (a line of a dense leaf, a run
 * of a lane's consecutive entries with one output) are written as records — key the output index,
 * value the partial with the scale applied — instead of being added: a first walk counts the
 * lane's runs (coordinates only, x is not read) and adds them in workgroup memory, which gives
 * each lane its place in the workgroup's run; one global atomic per workgroup reserves that run of
 * the record arrays; a second walk writes the records. No hash table: every run sum is a record.
 *
 * Bindings: `pool`, `queue_in` (the leaf queue), `counters`, `x`; with the `'atomic'` combine `y`
 * and `spill` (the spill table of hot outputs, spill-kernels.ts), with the `'segmented'` one
 * `record_count`, `record_keys` and `record_values` (the run sums as records). Params: `in_base`
 * (the queue base of the leaves), `count_index` (the index of their counter), `swap` (0/1),
 * `scale_bits` (the scale's f32 bits) and `start_index` (the index of the counter word added to
 * the queue base: a size class's start inside the COO4 leaves, written on the GPU; a word that
 * stays 0 for queues not split by size).
 *
 * @example
 * ```ts
 * const kernel = leafKernel({ nodeSize: 32, type: NODE_TYPE.coo4 });
 * const records = leafKernel({ nodeSize: 32, type: NODE_TYPE.coo4, combine: 'segmented' });
 * b.dispatch(records, { pool, queue_in, counters, x, record_count, record_keys, record_values }, groups, params);
 * ```
 */
export function leafKernel(spec: LeafSpec) {
  // The defaults written out, so that a spec that leaves them out names the same pipeline.
  const region = spec.region === true;
  return leaf({
    nodeSize: spec.nodeSize,
    type: region ? NODE_TYPE.coo4 : spec.type,
    combine: spec.combine ?? 'atomic',
    sizeClass: region ? 0 : (spec.sizeClass ?? 0),
    spillAlways: spec.spillAlways === true,
    region,
  });
}

/** Invocations per region leaf, and per workgroup: one workgroup per region leaf. */
const REGION_LANES = 256;

/**
 * Slots of a region-leaf workgroup's table of partial sums: the most {@link hashSlots} gives (a
 * region leaf reaches up to 4096 outputs; a sum that finds no slot goes to y directly).
 */
const REGION_HASH_SLOTS = 1024;

const leaf = defineKernel({
  name: 'hisparse/leaf',
  bindings: (spec: Required<LeafSpec>) => {
    const records = spec.combine === 'segmented';
    return {
      pool: read('array<u32>'),
      queue_in: read('array<u32>'),
      counters: read('array<u32>'),
      x: read('array<f32>'),
      y: records ? undefined : readWrite('array<atomic<u32>>'),
      spill: records ? undefined : SPILL_TABLE,
      record_count: records ? readWrite('array<atomic<u32>>') : undefined,
      record_keys: records ? readWrite('array<u32>') : undefined,
      record_values: records ? readWrite('array<f32>') : undefined,
    };
  },
  params: { in_base: 'u32', count_index: 'u32', swap: 'u32', scale_bits: 'u32', start_index: 'u32' },
  wgsl: (spec) => leafWgsl(spec, spec.combine),
});

/**
 * Slots of the workgroup's table of partial sums (two words each in workgroup memory): twice the
 * outputs the workgroup's leaves can reach (leaves per workgroup × d, at most half full), as a
 * power of two, at most 1024. A workgroup of one or four large leaves needs a small table, and
 * every slot costs at the workgroup's start (zero-filled) and end (flushed).
 *
 * @example
 * ```ts
 * hashSlots(64, 1); // 128: one leaf of a 64-wide block
 * ```
 */
export function hashSlots(nodeSize: number, leavesPerWorkgroup: number): number {
  return Math.min(1024, 2 ** Math.ceil(Math.log2(2 * nodeSize * leavesPerWorkgroup)));
}

const hashWgsl = (slots: number) => `
const HASH_SLOTS: u32 = ${slots}u;
const NO_OUTPUT: u32 = 0xffffffffu;
var<workgroup> hash_key: array<atomic<u32>, HASH_SLOTS>;
var<workgroup> hash_sum: array<atomic<u32>, HASH_SLOTS>;

fn add_local(i: u32, v: f32) {
  let home = (i * 2654435761u) >> ${32 - Math.log2(slots)}u;
  for (var probe = 0u; probe < 8u; probe++) {
    let slot = (home + probe) & (HASH_SLOTS - 1u);
    let claim = atomicCompareExchangeWeak(&hash_key[slot], 0u, i + 1u);
    if (claim.exchanged || claim.old_value == i + 1u) {
      var old = atomicLoad(&hash_sum[slot]);
      loop {
        let r = atomicCompareExchangeWeak(&hash_sum[slot], old, bitcast<u32>(bitcast<f32>(old) + v));
        if (r.exchanged) { break; }
        old = r.old_value;
      }
      return;
    }
  }
  add_y(i, v);
}
`;

/**
 * The walk over a leaf's entries, with `emit(out, value)` the WGSL statement each sum goes to (once
 * per line of a dense leaf, once per run of a sparse lane); `counting` leaves out the reads of x
 * (the first walk of the records combine only counts the runs). `coord` is the WGSL call giving
 * entry i's local (row, col): a COOX leaf's byte pair or a region leaf's 16-bit pair.
 */
function walkWgsl(dense: boolean, emit: (out: string, value: string) => string, counting: boolean, coord: string): string {
  if (dense) {
    return `
  // One line of the block per invocation: a row (plain) or a column (swapped) of stored entries.
  if (live) {
    for (var line = lane; line < D; line += LANES) {
      var sum = 0.0;
      var any = false;
      for (var m = 0u; m < D; m++) {
        let word = pool[off + select(line * D + m, m * D + line, swap)];
        if (word != 0u) {
          ${counting ? '' : 'sum += bitcast<f32>(word) * x[select(col0, row0, swap) + m];'}
          any = true;
        }
      }
      if (any) { ${emit('select(row0, col0, swap) + line', 'scale * sum')} }
    }
  }`;
  }
  return `
  // Runs of entries with one output are summed before they are combined: a lane takes consecutive
  // loads, and a COOX leaf is sorted row-major, so a row's entries of a plain product are one run.
  var run_out = NO_OUTPUT;
  var run_sum = 0.0;
  if (live) {
    let loads = (n + X - 1u) / X;
    let per_lane = (loads + LANES - 1u) / LANES;
    let first = min(lane * per_lane, loads);
    let last = min(first + per_lane, loads);
    for (var g = first; g < last; g++) {
      for (var e = 0u; e < X; e++) {
        let i = g * X + e;
        if (i < n) {
          let rc = ${coord};
          let r = row0 + rc.x;
          let c = col0 + rc.y;
          let out = select(r, c, swap);
          ${counting ? '' : 'let product = bitcast<f32>(pool[off + vs + i]) * x[select(c, r, swap)];'}
          if (out != run_out) {
            if (run_out != NO_OUTPUT) { ${emit('run_out', 'scale * run_sum')} }
            run_out = out;
            run_sum = 0.0;
          }
          ${counting ? '' : 'run_sum += product;'}
        }
      }
    }
  }
  if (run_out != NO_OUTPUT) { ${emit('run_out', 'scale * run_sum')} }`;
}

function leafWgsl(spec: LeafSpec, combine: LeafCombine): string {
  const region = spec.region === true;
  const { lanes, workgroupSize } = region ? { lanes: REGION_LANES, workgroupSize: REGION_LANES } : leafShape(spec.type, spec.sizeClass);
  const dense = spec.type === NODE_TYPE.dense && !region;
  const records = combine === 'segmented';
  const coord = region ? 'region_coord(off, t, i)' : 'coord_of(off, T, i)';
  let body: string;
  if (!records) {
    body = walkWgsl(dense, (o, v) => (dense ? `add_y(${o}, ${v});` : `add_local(${o}, ${v});`), false, coord);
    if (!dense) {
      body += `
  workgroupBarrier();
  // Flush: one compare-and-swap into y per output the workgroup's leaves touched.
  for (var slot = lid; slot < HASH_SLOTS; slot += WG) {
    let key = atomicLoad(&hash_key[slot]);
    if (key != 0u) { add_y(key - 1u, bitcast<f32>(atomicLoad(&hash_sum[slot]))); }
  }`;
    }
  } else {
    body = `
  // Count: this lane's runs; the workgroup's total in workgroup memory gives the lane its place.
  var runs = 0u;
  {${walkWgsl(dense, () => 'runs += 1u;', true, coord)}
  }
  let mine = atomicAdd(&wg_records, runs);
  workgroupBarrier();
  // Reserve: one run of the record arrays for the whole workgroup.
  if (lid == 0u) {
    let total = atomicLoad(&wg_records);
    wg_base = select(0u, atomicAdd(&record_count[0], total), total > 0u);
  }
  workgroupBarrier();
  // Write: the same walk, each run sum a record (output index, partial).
  var at = wg_base + mine;
  {${walkWgsl(dense, (o, v) => `record_keys[at] = ${o}; record_values[at] = ${v}; at += 1u;`, false, coord)}
  }`;
  }
  const yDecl = records
    ? `var<workgroup> wg_records: atomic<u32>;
var<workgroup> wg_base: u32;
const NO_OUTPUT: u32 = 0xffffffffu;`
    : `${spillAddWgsl(spec.spillAlways)}
${dense ? '' : hashWgsl(region ? REGION_HASH_SLOTS : hashSlots(spec.nodeSize, workgroupSize / lanes))}`;
  return `
${NODE_WGSL}
const D: u32 = ${spec.nodeSize}u;
const T: u32 = ${spec.type}u;
${region ? '' : `const X: u32 = ${dense ? 1 : entriesPerLoad(spec.type as Exclude<NodeType, 0>)}u;`}
const LANES: u32 = ${lanes}u;
const WG: u32 = ${workgroupSize}u;
${yDecl}
@compute @workgroup_size(${workgroupSize})
fn main(${FLAT_BUILTINS_WGSL}) {
  ${FLAT_WORKGROUP_WGSL}
  ${records ? '' : `replica = wg % ${SPILL_REPLICAS}u;`}
  let k = (wg * WG + lid) / LANES;
  let lane = lid % LANES;
  // Every invocation reaches the workgroup's barriers (hash flush, record reservation).
  let live = k < counters[params.count_index];
  let swap = params.swap != 0u;
  let scale = bitcast<f32>(params.scale_bits);
  let e = (params.in_base + counters[params.start_index] + min(k, max(counters[params.count_index], 1u) - 1u)) * ${QUEUE_ENTRY_WORDS}u;
  let off = queue_in[e] & ~3u;
  let row0 = queue_in[e + 1u];
  let col0 = queue_in[e + 2u];
  ${
    region
      ? `// A region leaf: its type from the pointer, its count below the flag, 16-bit local coordinates.
  let t = queue_in[e] & 3u;
  let X = per_load(t);
  let n = select(0u, pool[off] & ~REGION_FLAG, live);
  let vs = region_value_start(t, n);`
      : dense
        ? ''
        : 'let n = select(0u, pool[off], live);\n  let vs = value_start(T, n);'
  }
${body}
}
`;
}
