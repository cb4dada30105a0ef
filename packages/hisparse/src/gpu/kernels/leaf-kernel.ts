import type { KernelSpec } from '@scan/core/kit';
import { entriesPerLoad, NODE_TYPE, type NodeType } from '../../format/layout.js';
import { QUEUE_ENTRY_WORDS } from './expand-kernel.js';
import { FLAT_BUILTINS_WGSL, FLAT_WORKGROUP_WGSL, NODE_WGSL } from './node-wgsl.js';

/** Binding numbers of the leaf kernels. */
export const LEAF_BINDINGS = { pool: 0, queueIn: 1, counters: 2, x: 3, y: 4, params: 5 } as const;

/**
 * Invocations per leaf and workgroup size of the leaf kernel of `type`: one invocation per COO1 or
 * COO2 leaf, eight per COO4 leaf (each takes one four-entry load at a time), a workgroup per dense
 * leaf (an invocation per row or column of the d×d block).
 */
export function leafShape(type: NodeType): { lanes: number; workgroupSize: number } {
  if (type === NODE_TYPE.coo1 || type === NODE_TYPE.coo2) return { lanes: 1, workgroupSize: 256 };
  if (type === NODE_TYPE.coo4) return { lanes: 8, workgroupSize: 64 };
  return { lanes: 64, workgroupSize: 64 };
}

/** What a leaf dispatch is specialized on. */
export interface LeafSpec {
  readonly nodeSize: number;
  readonly type: NodeType;
}

/**
 * The leaf kernel of one node type (Derler et al. §5, Algorithm 1): every leaf of the queue
 * multiplies its entries by x and adds them into y. The matrix state arrives as uniforms — `swap`
 * (read the stored block transposed: the matrix's flag differs from the product's) and the scale —
 * so transposed and plain products share the pipeline and cost the same.
 *
 * **Combine without float atomics**: WebGPU has only integer atomics, so a sum is added into y by
 * compare-and-swap on its f32 bits (retried while another invocation changed the word). An
 * invocation first sums the consecutive entries it holds that go to the same output (a COOX leaf
 * is sorted row-major, so a row's entries in a plain product are consecutive), and a dense leaf
 * sums a whole line of its block, so one compare-and-swap carries many products.
 *
 * Params: queue base of the leaves, index of their counter, swap (0/1), the scale's f32 bits.
 *
 * @example
 * ```ts
 * const kernel = leafKernel({ nodeSize: 32, type: NODE_TYPE.coo4 });
 * ```
 */
export function leafKernel(spec: LeafSpec): KernelSpec {
  return { key: `hisparse/leaf/d${spec.nodeSize}/t${spec.type}/cas`, wgsl: () => leafWgsl(spec) };
}

function leafWgsl(spec: LeafSpec): string {
  const { lanes, workgroupSize } = leafShape(spec.type);
  const B = LEAF_BINDINGS;
  const dense = spec.type === NODE_TYPE.dense;
  const body = dense
    ? /* wgsl */ `
  // One line of the block per invocation: a row (plain) or a column (swapped) of stored entries.
  for (var line = lane; line < D; line += LANES) {
    var sum = 0.0;
    var any = false;
    for (var m = 0u; m < D; m++) {
      let word = pool[off + select(line * D + m, m * D + line, swap)];
      if (word != 0u) {
        sum += bitcast<f32>(word) * x[select(col0, row0, swap) + m];
        any = true;
      }
    }
    if (any) { add_y(select(row0, col0, swap) + line, scale * sum); }
  }`
    : /* wgsl */ `
  // Runs of entries with one output are summed before they are added.
  var run_out = 0xffffffffu;
  var run_sum = 0.0;
  let loads = (n + X - 1u) / X;
  for (var g = lane; g < loads; g += LANES) {
    for (var e = 0u; e < X; e++) {
      let i = g * X + e;
      if (i < n) {
        let rc = coord_of(off, T, i);
        let r = row0 + rc.x;
        let c = col0 + rc.y;
        let out = select(r, c, swap);
        let product = bitcast<f32>(pool[off + vs + i]) * x[select(c, r, swap)];
        if (out != run_out) {
          if (run_out != 0xffffffffu) { add_y(run_out, scale * run_sum); }
          run_out = out;
          run_sum = 0.0;
        }
        run_sum += product;
      }
    }
  }
  if (run_out != 0xffffffffu) { add_y(run_out, scale * run_sum); }`;
  return /* wgsl */ `
struct Params { in_base: u32, count_index: u32, swap: u32, scale_bits: u32 }
@group(0) @binding(${B.pool}) var<storage, read> pool: array<u32>;
@group(0) @binding(${B.queueIn}) var<storage, read> queue_in: array<u32>;
@group(0) @binding(${B.counters}) var<storage, read> counters: array<u32>;
@group(0) @binding(${B.x}) var<storage, read> x: array<f32>;
@group(0) @binding(${B.y}) var<storage, read_write> y: array<atomic<u32>>;
@group(0) @binding(${B.params}) var<uniform> params: Params;
${NODE_WGSL}
const D: u32 = ${spec.nodeSize}u;
const T: u32 = ${spec.type}u;
const X: u32 = ${dense ? 1 : entriesPerLoad(spec.type as Exclude<NodeType, 0>)}u;
const LANES: u32 = ${lanes}u;
const WG: u32 = ${workgroupSize}u;

// y[i] += v through a compare-and-swap loop on the f32 bits (no float atomics in WebGPU).
fn add_y(i: u32, v: f32) {
  var old = atomicLoad(&y[i]);
  loop {
    let r = atomicCompareExchangeWeak(&y[i], old, bitcast<u32>(bitcast<f32>(old) + v));
    if (r.exchanged) { break; }
    old = r.old_value;
  }
}

@compute @workgroup_size(${workgroupSize})
fn main(${FLAT_BUILTINS_WGSL}) {
  ${FLAT_WORKGROUP_WGSL}
  let k = (wg * WG + lid) / LANES;
  let lane = lid % LANES;
  if (k >= counters[params.count_index]) { return; }
  let swap = params.swap != 0u;
  let scale = bitcast<f32>(params.scale_bits);
  let e = (params.in_base + k) * ${QUEUE_ENTRY_WORDS}u;
  let off = queue_in[e] & ~3u;
  let row0 = queue_in[e + 1u];
  let col0 = queue_in[e + 2u];
  ${dense ? '' : 'let n = pool[off];\n  let vs = value_start(T, n);'}
${body}
}
`;
}
