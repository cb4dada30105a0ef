import { COMMON_WGSL, ENTRY_ARGS, ERROR_WGSL } from './common.js';

/**
 * WGSL that counts the words of `actual` in [p.a, p.n) that differ from `expected` at the same
 * index: a plan given a count must leave everything past it alone, so this catches a plan that
 * ignored a smaller count (from the host or from a GPU buffer) and processed the whole buffer.
 * Bindings: 0 actual, 1 expected (u32 words), 2 error counters, 3 params (`p.n` end, `p.a` start).
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, { key: 'bench/check-tail', wgsl: checkTailWgsl }, [output, poison, errors, pool.params(n, count)], { invocations: n - count });
 * ```
 */
export function checkTailWgsl(): string {
  return `${COMMON_WGSL}
@group(0) @binding(0) var<storage, read> actual: array<u32>;
@group(0) @binding(1) var<storage, read> expected: array<u32>;
${ERROR_WGSL(2)}
@group(0) @binding(3) var<uniform> p: Params;
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let i = p.a + global_index(wid, nwg, lid);
  if (i < p.n && actual[i] != expected[i]) { mismatch(i); }
}
`;
}
