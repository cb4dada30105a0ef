import { defineKernel, read, readWrite } from '@scan/core/kit';
import { QUEUE_ENTRY_WORDS } from './expand-kernel.js';
import { FLAT_BUILTINS_WGSL, FLAT_WORKGROUP_WGSL } from './node-wgsl.js';
import { CLASS_WORD } from './size-class-kernels.js';

/** Invocations per workgroup of the leaf-order kernels (one leaf each). */
export const LEAF_ORDER_WORKGROUP = 256;

/**
 * Bits of a leaf's sort key (see {@link leafOrderKernel}): the output block's index below
 * `groupShift`, the queue group (dense, COO1, COO2, the three COO4 size classes) in three bits above.
 *
 * @example
 * ```ts
 * leafKeyShift(4_000_000, 64); // 16: 62,500 blocks
 * ```
 */
export function leafKeyShift(outLength: number, nodeSize: number): number {
  return Math.max(1, Math.ceil(Math.log2(Math.max(2, Math.ceil(outLength / nodeSize)))));
}

const leafOrder = defineKernel({
  name: 'hisparse/leaf-order',
  bindings: (spec: { step: 'key' | 'gather' }) => {
    const key = spec.step === 'key';
    return {
      queue: read('array<u32>'),
      counters: key ? read('array<u32>') : undefined,
      keys: key ? readWrite('array<u32>') : undefined,
      perm: key ? readWrite('array<u32>') : read('array<u32>'),
      sorted: key ? undefined : readWrite('array<u32>'),
    };
  },
  params: { n: 'u32', b1: 'u32', b2: 'u32', b3: 'u32', class_counter: 'u32', log2d: 'u32', swap: 'u32', shift: 'u32' },
  wgsl: (spec) => leafOrderWgsl(spec.step),
});

/**
 * The two steps around the sort of a product plan's leaf queue, from one generator.
 *
 * `'key'`: the sort key of every leaf — its group (dense, COO1, COO2 or a COO4 size class, from
 * its place in the queue: the type bases from the census, the class starts from the counters the
 * size-class scatter wrote) above the index of the d-block of outputs it adds into (rows in a
 * plain product, columns in a swapped one); `perm` gets the identity, the sort's values. A stable
 * sort by this key keeps each group's run where the leaf dispatches expect it and orders the
 * leaves inside by output block, so a workgroup's leaves share their outputs: its table in
 * workgroup memory merges their sums and far fewer compare-and-swaps reach y (and those on few
 * lines of it). Bindings: `queue`, `counters`, `keys`, `perm`. Params: `n` (leaves), `b1`, `b2`,
 * `b3` (the COO1, COO2 and COO4 bases), `class_counter` (the class counter index), `log2d`,
 * `swap`, `shift` ({@link leafKeyShift}).
 *
 * `'gather'`: entry i of `sorted` is the queue entry `perm[i]` (the plan copies `sorted` back over
 * the queue). Bindings: `queue`, `perm`, `sorted`. Params: `n` (leaves); the others are the key
 * step's, unread.
 *
 * @example
 * ```ts
 * b.dispatch(leafOrderKernel('key'), { queue, counters, keys, perm }, Math.ceil(leaves / LEAF_ORDER_WORKGROUP), params);
 * ```
 */
export function leafOrderKernel(step: 'key' | 'gather') {
  return leafOrder({ step });
}

function leafOrderWgsl(step: 'key' | 'gather'): string {
  const W = QUEUE_ENTRY_WORDS;
  const key = step === 'key';
  const body = key
    ? `
  var group = select(select(select(0u, 1u, i >= params.b1), 2u, i >= params.b2), 3u, i >= params.b3);
  if (group == 3u) {
    let r = i - params.b3;
    let c = params.class_counter + ${CLASS_WORD.start}u;
    group += select(select(0u, 1u, r >= counters[c + 1u]), 2u, r >= counters[c + 2u]);
  }
  let e = i * ${W}u;
  let out0 = select(queue[e + 1u], queue[e + 2u], params.swap != 0u);
  keys[i] = (group << params.shift) | (out0 >> params.log2d);
  perm[i] = i;`
    : `
  let source = perm[i] * ${W}u;
  for (var w = 0u; w < ${W}u; w++) { sorted[i * ${W}u + w] = queue[source + w]; }`;
  return `
@compute @workgroup_size(${LEAF_ORDER_WORKGROUP})
fn main(${FLAT_BUILTINS_WGSL}) {
  ${FLAT_WORKGROUP_WGSL}
  let i = wg * ${LEAF_ORDER_WORKGROUP}u + lid;
  if (i >= params.n) { return; }
${body}
}
`;
}
