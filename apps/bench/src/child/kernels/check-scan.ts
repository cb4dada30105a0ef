import type { ElementType, ScanOp } from '@scan/core';
import { defineKernel, read } from '@scan/core/kit';
import { COMMON_WGSL, combineWgsl, ENTRY_ARGS, ERROR_BINDING, ERROR_WGSL, identityWgsl } from './common.js';

/** The scan a check kernel expects (its specialization: plain data, so a type rather than an interface). */
export type ScanCheckSpec = {
  readonly type: ElementType;
  readonly op: ScanOp;
  readonly inclusive: boolean;
  readonly backward: boolean;
};

/**
 * The check of a scan, element by element against its recurrence, in scan order j (physical index
 * `n-1-j` when backward): exclusive `out[0] = identity`, `out[j] = op(out[j-1], in[j-1])`;
 * inclusive `out[0] = in[0]`, `out[j] = op(out[j-1], in[j])`. When every element passes, the output
 * is the scan by induction — exact for integers, and for f32 because the inputs are small integers.
 * Bindings: `inp`, `out`, `err`; parameter `n` elements.
 *
 * @example
 * ```ts
 * const kernel = checkScanKernel({ type: 'u32', op: 'add', inclusive: false, backward: false });
 * encodeKernel(ctx, encoder, kernel, { inp: input, out: output, err: errors, params: pool.params(kernel, { n }) }, { invocations: n });
 * ```
 */
export const checkScanKernel = defineKernel({
  name: 'bench/check-scan',
  bindings: (spec: ScanCheckSpec) => ({ inp: read(`array<${spec.type}>`), out: read(`array<${spec.type}>`), ...ERROR_BINDING }),
  params: { n: 'u32' },
  wgsl: (spec) => {
    const T = spec.type;
    const phys = spec.backward ? (j: string) => `(params.n - 1u - ${j})` : (j: string) => j;
    const first = spec.inclusive ? `inp[${phys('0u')}]` : identityWgsl(spec.op, T);
    const operand = spec.inclusive ? `inp[${phys('j')}]` : `inp[${phys('(j - 1u)')}]`;
    return `${COMMON_WGSL}${ERROR_WGSL}
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let j = global_index(wid, nwg, lid);
  if (j >= params.n) { return; }
  var expected: ${T};
  if (j == 0u) {
    expected = ${first};
  } else {
    expected = ${combineWgsl(spec.op, `out[${phys('(j - 1u)')}]`, operand)};
  }
  if (out[${phys('j')}] != expected) { mismatch(j); }
}
`;
  },
});
