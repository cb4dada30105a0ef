import type { ElementType, ScanOp } from '@scan/core';
import { COMMON_WGSL, combineWgsl, ENTRY_ARGS, ERROR_WGSL, identityWgsl, WG } from './common.js';

/** Elements each invocation folds before the workgroup tree: one pass shrinks the data 2048-fold. */
export const TREE_ITEMS = 8;

/** Elements one workgroup of {@link reduceTreeWgsl} reduces. */
export const TREE_SPAN = WG * TREE_ITEMS;

/**
 * The bench's own reduction, deliberately simple (scalar loads, a workgroup-memory tree, one partial
 * per workgroup, repeated until one value is left) so it shares nothing with the library's reduce.
 * Bindings: 0 src, 1 partials, 2 params (`p.n` elements, `p.a` workgroups).
 *
 * @example
 * ```ts
 * getPipeline(ctx, { key: 'bench/reduce-tree/u32/add', wgsl: () => reduceTreeWgsl('u32', 'add') });
 * ```
 */
export function reduceTreeWgsl(type: ElementType, op: ScanOp): string {
  const T = type;
  return `${COMMON_WGSL}
@group(0) @binding(0) var<storage, read> src: array<${T}>;
@group(0) @binding(1) var<storage, read_write> partials: array<${T}>;
@group(0) @binding(2) var<uniform> p: Params;
var<workgroup> tree: array<${T}, ${WG}>;
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let g = group_index(wid, nwg);
  var acc: ${T} = ${identityWgsl(op, T)};
  for (var k = 0u; k < ${TREE_ITEMS}u; k++) {
    let i = g * ${TREE_SPAN}u + k * ${WG}u + lid.x;
    if (i < p.n) { acc = ${combineWgsl(op, 'acc', 'src[i]')}; }
  }
  tree[lid.x] = acc;
  workgroupBarrier();
  for (var s = ${WG / 2}u; s > 0u; s >>= 1u) {
    if (lid.x < s) { tree[lid.x] = ${combineWgsl(op, 'tree[lid.x]', 'tree[lid.x + s]')}; }
    workgroupBarrier();
  }
  if (lid.x == 0u && g < p.a) { partials[g] = tree[0]; }
}
`;
}

/**
 * WGSL comparing element 0 of two arrays of `type` (the plan's result and the bench's).
 * Bindings: 0 a, 1 b, 2 error counters.
 *
 * @example
 * ```ts
 * getPipeline(ctx, { key: 'bench/check-scalar/f32', wgsl: () => checkScalarWgsl('f32') });
 * ```
 */
export function checkScalarWgsl(type: ElementType): string {
  return `
@group(0) @binding(0) var<storage, read> a: array<${type}>;
@group(0) @binding(1) var<storage, read> b: array<${type}>;
${ERROR_WGSL(2)}
@compute @workgroup_size(1) fn main() {
  if (a[0] != b[0]) { mismatch(0u); }
}
`;
}
