import { defineKernel, read } from '@scan/core/kit';
import { COMMON_WGSL, ENTRY_ARGS, ERROR_BINDING, ERROR_WGSL } from './common.js';

/**
 * What each output element must equal, bit for bit: `copy` the input element at the same index;
 * `first`/`last` the input's first/last element (distribute forward/backward).
 */
export type EqualMode = 'copy' | 'first' | 'last';

/**
 * The check that counts output elements whose bits differ from the expected input element, for the
 * first `n` elements (input and output as u32 words).
 *
 * @example
 * ```ts
 * const kernel = checkEqualKernel({ mode: 'first' });
 * encodeKernel(ctx, encoder, kernel, { inp, out, err: errors, params: pool.params(kernel, { n }) }, { invocations: n });
 * ```
 */
export const checkEqualKernel = defineKernel({
  name: 'bench/check-equal',
  bindings: { inp: read('array<u32>'), out: read('array<u32>'), ...ERROR_BINDING },
  params: { n: 'u32' },
  wgsl: (spec: { mode: EqualMode }) => {
    const source = spec.mode === 'copy' ? 'i' : spec.mode === 'first' ? '0u' : '(params.n - 1u)';
    return `${COMMON_WGSL}${ERROR_WGSL}
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i < params.n && out[i] != inp[${source}]) { mismatch(i); }
}
`;
  },
});
