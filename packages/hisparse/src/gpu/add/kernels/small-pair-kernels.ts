import { defineKernel } from '@scan/core/kit';
import { ADD_PARAMS, SMALL_PAIR_GROUP } from '../items.js';
import { addBindings, addCommonWgsl, fillCommonWgsl } from './add-common-wgsl.js';

// The small queue's kernels: one thread per pair of sparse nodes holding at most SMALL entries
// together (the paper's queues "for each combination of node types and maximum number of elements
// in either node", §6, reduced to two bins). The thread loads both coordinate lists into
// registers — A's already row-major; B's re-sorted by insertion when it is read transposed (the
// paper's "require sorting") — and merges them in row-major order: the union count is the number
// of merge steps, common slots are the steps where both lists advance.

/** The body that loads both nodes of the pair `item` into private arrays, sorted by slot. */
function loadPairWgsl(): string {
  return `
  let p_a = pairs[item].x;
  let p_b = pairs[item].y;
  var sa: array<u32, SMALL>;
  var wa: array<u32, SMALL>;
  var na = 0u;
  if (p_a != 0u) {
    let t = p_a & 3u;
    let off = p_a - t;
    let n = pool_a[off];
    let cs = off + coord_start(t);
    let vs = off + value_start(t, n);
    na = min(n, SMALL);
    for (var k = 0u; k < na; k++) {
      let c = (pool_a[cs + (k >> 1u)] >> ((k & 1u) * 16u)) & 0xffffu;
      sa[k] = (c & 0xffu) * D + (c >> 8u);
      wa[k] = pool_a[vs + k];
    }
  }
  var sb: array<u32, SMALL>;
  var wb: array<u32, SMALL>;
  var nb = 0u;
  if (p_b != 0u) {
    let swap = (params.flags & FLAG_SWAP_B) != 0u;
    let t = p_b & 3u;
    let off = p_b - t;
    let n = pool_b[off];
    let cs = off + coord_start(t);
    let vs = off + value_start(t, n);
    nb = min(n, SMALL);
    for (var k = 0u; k < nb; k++) {
      let c = (pool_b[cs + (k >> 1u)] >> ((k & 1u) * 16u)) & 0xffffu;
      let r = c & 0xffu;
      let col = c >> 8u;
      let s = select(r * D + col, col * D + r, swap);
      let w = pool_b[vs + k];
      // Insertion: a no-op shift for a list read in its stored order, a sort for a swapped one.
      var j = k;
      while (j > 0u && sb[j - 1u] > s) {
        sb[j] = sb[j - 1u];
        wb[j] = wb[j - 1u];
        j--;
      }
      sb[j] = s;
      wb[j] = w;
    }
  }`;
}

/**
 * A row-major merge of the two loaded lists running `body` once per union entry, with `k` (its
 * rank), `s` (its slot), `has_a`, `w_a`, `has_b`, `w_b` in scope.
 */
function mergeWgsl(body: string): string {
  return `
  {
    var i = 0u;
    var j = 0u;
    var k = 0u;
    while (i < na || j < nb) {
      let s_a = select(0xffffffffu, sa[min(i, SMALL - 1u)], i < na);
      let s_b = select(0xffffffffu, sb[min(j, SMALL - 1u)], j < nb);
      let s = min(s_a, s_b);
      let has_a = s_a == s;
      let has_b = s_b == s;
      let w_a = select(0u, wa[min(i, SMALL - 1u)], has_a);
      let w_b = select(0u, wb[min(j, SMALL - 1u)], has_b);
      ${body}
      if (has_a) { i++; }
      if (has_b) { j++; }
      k++;
    }
  }`;
}

/**
 * The kernel frame: the invocations of the grid stride over the level's small-queue range (the grid is
 * sized on the host, the range by the GPU: `levelRangeKernel`), one pair at a time. `body` ends a
 * pair with `continue`. The counting sweep's threads sum C's census in a private `tally`, which
 * the workgroup adds to C's tally once, after the loop.
 */
function frameWgsl(d: number, fill: boolean, body: string): string {
  return `${addCommonWgsl(d)}
${fill ? fillCommonWgsl() : 'var<workgroup> wg_tally: array<atomic<u32>, TALLY_WORDS>;'}
@compute @workgroup_size(${SMALL_PAIR_GROUP})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let r = CTL_LEVELS + LEVEL_WORDS * params.level + 4u;
  let first = atomicLoad(&ctl[r]);
  let count = atomicLoad(&ctl[r + 1u]);
  let stride = nwg.x * nwg.y * ${SMALL_PAIR_GROUP}u;
  let wg = wid.x + wid.y * nwg.x;
  ${fill ? '' : 'var tally: array<u32, TALLY_WORDS>;'}
  for (var g = wg * ${SMALL_PAIR_GROUP}u + lid; g < count; g += stride) {
    let item = queues[first + g];
    ${loadPairWgsl()}
${body}
  }
  ${
    fill
      ? ''
      : `for (var w = 0u; w < TALLY_WORDS; w++) {
    if (tally[w] != 0u) { atomicAdd(&wg_tally[w], tally[w]); }
  }
  workgroupBarrier();
  if (lid < TALLY_WORDS) {
    let v = atomicLoad(&wg_tally[lid]);
    if (v != 0u) { atomicAdd(&ctl[tally_base(wg) + lid], v); }
  }`
  }
}
`;
}

const smallUnionCount = defineKernel({
  name: 'hisparse/add/small-union-count',
  bindings: addBindings({ fill: false, links: true }),
  params: ADD_PARAMS,
  wgsl: (spec: { nodeSize: number }) =>
    frameWgsl(
      spec.nodeSize,
      false,
      `
  var n = 0u;
  var n_small = 0u;
  let inner = (params.flags & FLAG_LEAF) == 0u;
  ${mergeWgsl('n++; if (inner && is_small_pair(w_a, w_b)) { n_small++; }')}
  reserve_node(item, n);
  tally_private(&tally, n);
  if (!inner || n == 0u) { continue; }
  let at = atomicAdd(&ctl[CTL_ITEMS], n);
  if (at + n > params.capacity) {
    atomicOr(&ctl[CTL_OVERFLOW], 1u);
    continue;
  }
  var next_small = atomicAdd(&ctl[CTL_SMALL_TAIL], n_small);
  var next_large = params.capacity + atomicAdd(&ctl[CTL_LARGE_TAIL], n - n_small);
  ${mergeWgsl(`write_item(at + k, w_a, w_b, item, s, k);
      if (is_small_pair(w_a, w_b)) {
        queues[next_small] = at + k;
        next_small++;
      } else {
        queues[next_large] = at + k;
        next_large++;
      }`)}`,
    ),
});

/**
 * The counting sweep of one level for the small queue: per pair (one thread), the union count and
 * the output node reserved (`reserve_node`), its census in the thread's private tally (added to
 * C's once per workgroup, after the loop), then at inner levels the children: items reserved
 * with one atomicAdd, each binned into the small or the large queue (one atomicAdd per queue).
 * Bindings and params as `unionCountKernel`.
 *
 * @example
 * ```ts
 * b.dispatch(smallUnionCountKernel(32), { pool_a, pool_b, pairs, ctl, queues, links, outs }, smallGroups, params);
 * ```
 */
export function smallUnionCountKernel(d: number) {
  return smallUnionCount({ nodeSize: d });
}

const smallFill = defineKernel({
  name: 'hisparse/add/small-fill',
  bindings: addBindings({ fill: true, links: true }),
  params: ADD_PARAMS,
  wgsl: (spec: { nodeSize: number }) =>
    frameWgsl(
      spec.nodeSize,
      true,
      `
  let n = outs[item].x;
  let pointer = place_node(item);
  if (pointer == 0u) { continue; }
  let t = pointer & 3u;
  let off = pointer - t;
  let cs = off + coord_start(t);
  let vs = off + value_start(t, n);
  let leaf = (params.flags & FLAG_LEAF) != 0u;
  var pending = 0u;
  ${mergeWgsl(`if (t != 0u) {
        let coord = (s / D) | ((s % D) << 8u);
        if ((k & 1u) == 0u) { pending = coord; } else { atomicStore(&pool_c[cs + (k >> 1u)], pending | (coord << 16u)); }
      }
      if (leaf) {
        let v = leaf_value(has_a, w_a, has_b, w_b);
        if (t == 0u && v == 0u) { tally_cancelled(); }
        atomicStore(&pool_c[select(vs + k, off + s, t == 0u)], v);
      }`)}
  if (t != 0u && (n & 1u) == 1u) { atomicStore(&pool_c[cs + (n >> 1u)], pending); }`,
    ),
});

/**
 * The fill sweep of one level for the small queue: per pair (one thread), `place_node` (the
 * reserved node, its parent link), then the merge again writing the coordinates two to a word and, in a
 * leaf, the values. Bindings and params as `fillKernel`.
 *
 * @example
 * ```ts
 * b.dispatch(smallFillKernel(32), { pool_a, pool_b, pairs, ctl, pool_c, queues, links, outs }, smallGroups, params);
 * ```
 */
export function smallFillKernel(d: number) {
  return smallFill({ nodeSize: d });
}
