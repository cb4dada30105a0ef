import { COMMON_WGSL, ENTRY_ARGS, ERROR_WGSL } from './common.js';

/**
 * What each output element must equal, bit for bit: `copy` the input element at the same index;
 * `first`/`last` the input's first/last element (distribute forward/backward).
 */
export type EqualMode = 'copy' | 'first' | 'last';

/**
 * WGSL that counts output elements whose bits differ from the expected input element.
 * Bindings: 0 input, 1 output (both as u32 words), 2 error counters, 3 params (`p.n`).
 *
 * @example
 * ```ts
 * getPipeline(ctx, { key: 'bench/check-equal/first', wgsl: () => checkEqualWgsl('first') });
 * ```
 */
export function checkEqualWgsl(mode: EqualMode): string {
  const source = mode === 'copy' ? 'i' : mode === 'first' ? '0u' : '(p.n - 1u)';
  return `${COMMON_WGSL}
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read> out: array<u32>;
${ERROR_WGSL(2)}
@group(0) @binding(3) var<uniform> p: Params;
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i < p.n && out[i] != inp[${source}]) { mismatch(i); }
}
`;
}
