import type { KernelSpec } from '../pipeline-cache.js';
import { AUX_TAIL_IN, AUX_TAIL_OUT, PARAMS_WGSL } from './slots.js';

/** What a count-fixup kernel does besides writing the parameters. */
export interface CountFixupSpec {
  /** Copy the input's partial last vec4 into aux (a slot kernel's "tail in", which the host cannot stage for a count it does not know). */
  readonly tail: boolean;
  /** Write 0 to a count output when the count is 0 (no tile runs then, so the kernel that normally writes it does not). */
  readonly zeroOut: boolean;
}

/**
 * The parameters of a count fixup (one uniform block the host writes):
 * `count_word` (where the count is in the caller's buffer, in u32 words), `cap` (the plan's
 * maxCount: the count is clamped to it), `tile_elements` and `max_tiles` (the kernels' tiles:
 * min(⌈count / tile_elements⌉, max_tiles)), and the last four words of the kernels' `Params`
 * (dispatch_x, carry_in, carry_out, extra), which do not depend on the count.
 */
const FIXUP_PARAMS_WGSL = `struct FixupParams {
  count_word: u32,
  cap: u32,
  tile_elements: u32,
  max_tiles: u32,
  dispatch_x: u32,
  carry_in: u32,
  carry_out: u32,
  extra: u32,
}`;

/**
 * **Count fixup**: turns a count the GPU wrote (a culling pass, a previous pack) into the `Params`
 * block the slot-based kernels read (`PARAMS_WGSL`: count, slots, full vecs, tiles, then the
 * constant words), in a small scratch buffer those kernels bind as their uniform. The plan
 * records its kernels for `maxCount` — dispatched for the most tiles, each kernel returning past
 * `params.tiles` — so nothing on the host depends on the count, and no read-back or indirect
 * dispatch is needed. It also stages the partial last vec4 (`tail`), as the host's copies do for a
 * known count, and zeroes a count output when the count is 0 (`zeroOut`).
 *
 * Bindings: 0 fixup params (uniform), 1 the caller's count buffer, 2 the params it writes,
 * 3 the input as words (`tail`), 4 aux (`tail`), 5 the count output (`zeroOut`).
 *
 * @example
 * ```ts
 * b.dispatch(countFixupKernel({ tail: true, zeroOut: false }), [fixup, count, counted, input, aux], 1);
 * ```
 */
export function countFixupKernel(spec: CountFixupSpec): KernelSpec {
  return {
    key: `gpu-count/fixup/${spec.tail ? 'tail' : 'no-tail'}/${spec.zeroOut ? 'zero-out' : 'no-out'}`,
    wgsl: () => `${FIXUP_PARAMS_WGSL}
@group(0) @binding(0) var<uniform> fixup: FixupParams;
@group(0) @binding(1) var<storage, read> count_src: array<u32>;
@group(0) @binding(2) var<storage, read_write> counted: array<u32>;
${spec.tail ? '@group(0) @binding(3) var<storage, read> src_words: array<u32>;\n@group(0) @binding(4) var<storage, read_write> aux: array<u32>;' : ''}
${spec.zeroOut ? '@group(0) @binding(5) var<storage, read_write> count_out: array<u32>;' : ''}

@compute @workgroup_size(1)
fn main() {
  let n = min(count_src[fixup.count_word], fixup.cap);
  let full = n / 4u;
  counted[0] = n;
  counted[1] = (n + 3u) / 4u;
  counted[2] = full;
  counted[3] = min((n + fixup.tile_elements - 1u) / fixup.tile_elements, fixup.max_tiles);
  counted[4] = fixup.dispatch_x;
  counted[5] = fixup.carry_in;
  counted[6] = fixup.carry_out;
  counted[7] = fixup.extra;
  ${spec.tail ? `for (var i = 0u; i < n - 4u * full; i++) { aux[${AUX_TAIL_IN}u + i] = src_words[4u * full + i]; }` : ''}
  ${spec.zeroOut ? 'if (n == 0u) { count_out[0] = 0u; }' : ''}
}
`,
  };
}

/**
 * **Tail out** for a count the GPU wrote: copies the partial last vec4 the slot kernels left in
 * aux into the output's last `count mod 4` elements (the host's copy, for a count it does not know).
 *
 * Bindings: 0 the fixed-up `Params` (uniform), 1 aux, 2 the output as words.
 *
 * @example
 * ```ts
 * b.dispatch(tailOutKernel(), [counted, aux, output], 1);
 * ```
 */
export function tailOutKernel(): KernelSpec {
  return {
    key: 'gpu-count/tail-out',
    wgsl: () => `${PARAMS_WGSL}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> aux: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst_words: array<u32>;

@compute @workgroup_size(1)
fn main() {
  for (var i = 0u; i < params.count - 4u * params.full_vecs; i++) {
    dst_words[4u * params.full_vecs + i] = aux[${AUX_TAIL_OUT}u + i];
  }
}
`,
  };
}
