import type { ElementType, ScanOp } from '@scan/core';
import { COMMON_WGSL, combineWgsl, ENTRY_ARGS, ERROR_WGSL, identityWgsl } from './common.js';

/** The scan a check kernel expects. */
export interface ScanCheckSpec {
  readonly type: ElementType;
  readonly op: ScanOp;
  readonly inclusive: boolean;
  readonly backward: boolean;
}

/**
 * WGSL that checks a scan element by element against its recurrence, in scan order j (physical
 * index `n-1-j` when backward): exclusive `out[0] = identity`, `out[j] = op(out[j-1], in[j-1])`;
 * inclusive `out[0] = in[0]`, `out[j] = op(out[j-1], in[j])`. When every element passes, the output
 * is the scan by induction — exact for integers, and for f32 because the inputs are small integers.
 * Bindings: 0 input, 1 output, 2 error counters, 3 params (`p.n`).
 *
 * @example
 * ```ts
 * checkScanWgsl({ type: 'u32', op: 'add', inclusive: false, backward: false });
 * ```
 */
export function checkScanWgsl(spec: ScanCheckSpec): string {
  const T = spec.type;
  const phys = spec.backward ? (j: string) => `(p.n - 1u - ${j})` : (j: string) => j;
  const first = spec.inclusive ? `inp[${phys('0u')}]` : identityWgsl(spec.op, T);
  const operand = spec.inclusive ? `inp[${phys('j')}]` : `inp[${phys('(j - 1u)')}]`;
  return `${COMMON_WGSL}
@group(0) @binding(0) var<storage, read> inp: array<${T}>;
@group(0) @binding(1) var<storage, read> out: array<${T}>;
${ERROR_WGSL(2)}
@group(0) @binding(3) var<uniform> p: Params;
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let j = global_index(wid, nwg, lid);
  if (j >= p.n) { return; }
  var expected: ${T};
  if (j == 0u) {
    expected = ${first};
  } else {
    expected = ${combineWgsl(spec.op, `out[${phys('(j - 1u)')}]`, operand)};
  }
  if (out[${phys('j')}] != expected) { mismatch(j); }
}
`;
}

/** Cache key of {@link checkScanWgsl}. */
export function checkScanKey(spec: ScanCheckSpec): string {
  return `bench/check-scan/${spec.type}/${spec.op}/${spec.inclusive ? 'incl' : 'excl'}/${spec.backward ? 'bwd' : 'fwd'}`;
}
