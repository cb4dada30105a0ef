import { defineKernel, read } from '@scan/core/kit';
import { COMMON_WGSL, ENTRY_ARGS, ERROR_BINDING, ERROR_WGSL } from './common.js';

/**
 * The check that counts the words of `actual` in [`start`, `end`) that differ from `expected` at
 * the same index: a plan given a count must leave everything past it alone, so this catches a plan
 * that ignored a smaller count (from the host or from a GPU buffer) and processed the whole buffer.
 *
 * @example
 * ```ts
 * const params = pool.params(checkTailKernel, { end: n, start: count });
 * encodeKernel(ctx, encoder, checkTailKernel, { actual: output, expected: poison, err: errors, params }, { invocations: n - count });
 * ```
 */
export const checkTailKernel = defineKernel({
  name: 'bench/check-tail',
  bindings: { actual: read('array<u32>'), expected: read('array<u32>'), ...ERROR_BINDING },
  params: { end: 'u32', start: 'u32' },
  wgsl: () => `${COMMON_WGSL}${ERROR_WGSL}
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let i = params.start + global_index(wid, nwg, lid);
  if (i < params.end && actual[i] != expected[i]) { mismatch(i); }
}
`,
})({});
