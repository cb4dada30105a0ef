import type { ElementType, ScanOp } from '@scan/core';
import { defineKernel, read, readWrite } from '@scan/core/kit';
import { COMMON_WGSL, combineWgsl, ENTRY_ARGS, ERROR_BINDING, ERROR_WGSL, identityWgsl, WG } from './common.js';

/** Elements each invocation folds before the workgroup tree: one pass shrinks the data 2048-fold. */
export const TREE_ITEMS = 8;

/** Elements one workgroup of {@link reduceTreeKernel} reduces. */
export const TREE_SPAN = WG * TREE_ITEMS;

/**
 * The bench's own reduction, deliberately simple (scalar loads, a workgroup-memory tree, one partial
 * per workgroup, repeated until one value is left) so it shares nothing with the library's reduce.
 * Parameters: `n` elements, `groups` workgroups.
 *
 * @example
 * ```ts
 * const kernel = reduceTreeKernel({ type: 'u32', op: 'add' });
 * encodeKernel(ctx, encoder, kernel, { src, partials, params: pool.params(kernel, { n, groups }) }, { groups });
 * ```
 */
export const reduceTreeKernel = defineKernel({
  name: 'bench/reduce-tree',
  bindings: (spec: { type: ElementType; op: ScanOp }) => ({ src: read(`array<${spec.type}>`), partials: readWrite(`array<${spec.type}>`) }),
  params: { n: 'u32', groups: 'u32' },
  wgsl: (spec) => {
    const T = spec.type;
    const op = spec.op;
    return `${COMMON_WGSL}
var<workgroup> tree: array<${T}, ${WG}>;
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let g = group_index(wid, nwg);
  var acc: ${T} = ${identityWgsl(op, T)};
  for (var k = 0u; k < ${TREE_ITEMS}u; k++) {
    let i = g * ${TREE_SPAN}u + k * ${WG}u + lid.x;
    if (i < params.n) { acc = ${combineWgsl(op, 'acc', 'src[i]')}; }
  }
  tree[lid.x] = acc;
  workgroupBarrier();
  for (var s = ${WG / 2}u; s > 0u; s >>= 1u) {
    if (lid.x < s) { tree[lid.x] = ${combineWgsl(op, 'tree[lid.x]', 'tree[lid.x + s]')}; }
    workgroupBarrier();
  }
  if (lid.x == 0u && g < params.groups) { partials[g] = tree[0]; }
}
`;
  },
});

/**
 * The check comparing element 0 of two arrays of `type` (the plan's result and the bench's).
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, checkScalarKernel({ type: 'f32' }), { a: planOutput, b: benchTotal, err: errors }, { groups: 1 });
 * ```
 */
export const checkScalarKernel = defineKernel({
  name: 'bench/check-scalar',
  bindings: (spec: { type: ElementType }) => ({ a: read(`array<${spec.type}>`), b: read(`array<${spec.type}>`), ...ERROR_BINDING }),
  wgsl: () => `${ERROR_WGSL}
@compute @workgroup_size(1) fn main() {
  if (a[0] != b[0]) { mismatch(0u); }
}
`,
});
