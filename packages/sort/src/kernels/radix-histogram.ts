import type { ElementType } from '@scan/core';
import { defineKernel, type ParamFields, read, readWrite, tileIo, unroll } from '@scan/core/kit';
import { isHalfKey, keyWgslType, orderBitsWgsl, orderShiftWgsl } from '../key-order.js';
import type { SortKeyType } from '../types.js';
import { type DigitPass, digitWgsl, RADIX, SORT_COUNT_PARAMS } from './radix-digits.js';

/**
 * The word of the `digits` scratch where the digit starts begin, for a sort of `passes` digit
 * passes: the global histogram of every pass comes first (`passes · 256` words), then its
 * exclusive scan.
 *
 * @example
 * ```ts
 * digitStartsWord(4); // 1024
 * ```
 */
export function digitStartsWord(passes: number): number {
  return passes * RADIX;
}

/**
 * The parameters of the histogram kernel: the count ({@link SORT_COUNT_PARAMS}), the workgroups
 * dispatched (`tiles`, the grid stride) and their row length in a 2-D dispatch (`dispatch_x`).
 *
 * @example
 * ```ts
 * b.dispatch(kernel, { keys, digits }, groups, { count, tiles: groups, dispatch_x: dispatchShape(groups, maxDim).x });
 * ```
 */
export const HISTOGRAM_PARAMS = { ...SORT_COUNT_PARAMS, tiles: 'u32', dispatch_x: 'u32' } as const satisfies ParamFields;

/** What the global histogram kernel is specialized on. */
export type HistogramSpec = {
  readonly keyType: SortKeyType;
  readonly descending: boolean;
  readonly passes: readonly DigitPass[];
  readonly workgroupSize: number;
  readonly elementsPerThread: number;
};

/**
 * The "one global histogram pass" of Onesweep (Adinets & Merrill 2022): a single read of the keys
 * counts the digits of every pass at once, so the per-digit passes need no counting pass of their
 * own. Each workgroup strides over the keys (a grid-stride loop: a bounded number of workgroups, so
 * the global atomics stay few), counts into workgroup memory, and adds its counts into
 * `digits[pass · 256 + digit]` (cleared by the plan).
 *
 * @example
 * ```ts
 * const k = radixHistogramKernel({ keyType: 'u32', descending: false, passes: digitPasses([0, 32]), workgroupSize: 256, elementsPerThread: 16 });
 * b.dispatch(k, { keys, digits }, groups, histogramValues);
 * ```
 */
export const radixHistogramKernel = defineKernel({
  name: 'sort/histogram',
  bindings: (spec: HistogramSpec) => ({ keys: read(`array<${keyWgslType(spec.keyType)}>`), digits: readWrite('array<atomic<u32>>') }),
  params: HISTOGRAM_PARAMS,
  wgsl: (spec) => histogramWgsl(spec),
});

function histogramWgsl(spec: HistogramSpec): string {
  const P = spec.passes.length;
  const WG = spec.workgroupSize;
  const E = spec.elementsPerThread;
  const K = keyWgslType(spec.keyType);
  const digits = spec.passes.map((p, i) => digitWgsl(`digit_${i}`, p, K)).join('\n');
  // The chunk load, striped (consecutive invocations on consecutive keys). The kernel has no
  // subgroups: the workgroup is one group, invocation lid its lane. Keys past the end read as 0 and
  // are not counted.
  // 16-bit keys: two to a word, adjacent invocations reading the halves of one word.
  const half = isHalfKey(spec.keyType);
  const chunk = tileIo({
    name: 'key_chunk',
    // The elements source only names its type in WGSL, so a two-word key loads as a vec2.
    type: K as ElementType,
    workgroupSize: WG,
    itemsPerThread: E,
    arrangement: 'striped',
    fill: `${K}()`,
    source: { kind: 'elements', load: 'keys' },
  });
  return `${orderBitsWgsl(spec.keyType, spec.descending)}
${orderShiftWgsl(spec.keyType)}
${digits}
${half ? '' : chunk.decls}

var<workgroup> counts: array<atomic<u32>, ${P * RADIX}>;

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let w = wid.x + wid.y * params.dispatch_x;
  if (w >= params.tiles) { return; }
  let n = params.count;
  // Grid stride: workgroup w counts chunks w, w + tiles, … of ${WG * E} keys, consecutive
  // invocations on consecutive keys.
  for (var c = w; c * ${WG * E}u < n; c += params.tiles) {
    let base = c * ${WG * E}u;
    // All loads first (independent, in flight together: the chunk load), then the counting.
    ${
      half
        ? `var k: array<u32, ${E}>;
${unroll(E, (j) => `    { let e = base + ${j * WG}u + lid; if (e < n) { k[${j}] = (keys[e >> 1u] >> ((e & 1u) << 4u)) & 0xffffu; } }`)}`
        : `let k = ${chunk.load('c', '0u', 'lid', `${WG}u`)};`
    }
${unroll(
  E,
  (j) => `    if (base + ${j * WG}u + lid < n) {
${spec.passes.map((_, i) => `      atomicAdd(&counts[${i * RADIX}u + digit_${i}(k[${j}])], 1u);`).join('\n')}
    }`,
)}
  }
  workgroupBarrier();
  for (var i = lid; i < ${P * RADIX}u; i += ${WG}u) {
    let c = atomicLoad(&counts[i]);
    if (c > 0u) { atomicAdd(&digits[i], c); }
  }
}
`;
}

/**
 * The exclusive scan of every pass's global histogram: `digits[digitStartsWord(passes) + pass · 256 + d]`
 * becomes the first output position of digit d in that pass. One workgroup of 256 invocations, a
 * Kogge–Stone scan in workgroup memory per pass (256 values: not worth more). Not the kit's block
 * scan: without subgroups (this kernel has none) it takes two more barriers per pass, its exclusive
 * value and total going through workgroup memory where this takes `inc − own`.
 *
 * @example
 * ```ts
 * const k = digitScanKernel({ passes: 4 });
 * b.dispatch(k, { digits }, 1);
 * ```
 */
export const digitScanKernel = defineKernel({
  name: 'sort/digit-scan',
  bindings: { digits: readWrite('array<u32>') },
  wgsl: ({ passes }: { readonly passes: number }) => `var<workgroup> buf: array<u32, ${RADIX}>;

@compute @workgroup_size(${RADIX})
fn main(@builtin(local_invocation_index) d: u32) {
  for (var p = 0u; p < ${passes}u; p++) {
    let own = digits[p * ${RADIX}u + d];
    var inc = own;
    for (var step = 1u; step < ${RADIX}u; step = step << 1u) {
      buf[d] = inc;
      workgroupBarrier();
      if (d >= step) { inc += buf[d - step]; }
      workgroupBarrier();
    }
    digits[${digitStartsWord(passes)}u + p * ${RADIX}u + d] = inc - own;
  }
}
`,
});
