import { defineKernel, read, readWrite } from './define-kernel.js';
import { AUX_TAIL_IN, AUX_TAIL_OUT, SLOT_PARAMS } from './slots.js';

/** What a count-fixup kernel does besides writing the parameters. */
export type CountFixupSpec = {
  /** Copy the input's partial last vec4 into aux (a slot kernel's "tail in", which the host cannot stage for a count it does not know). */
  readonly tail: boolean;
  /** Write 0 to a count output when the count is 0 (no tile runs then, so the kernel that normally writes it does not). */
  readonly zeroOut: boolean;
};

/**
 * **Count fixup**: turns a count the GPU wrote (a culling pass, a previous pack) into the `Params`
 * block the slot-based kernels read (`SLOT_PARAMS`: count, slots, full vecs, tiles, then the
 * constant words), in a small scratch buffer those kernels bind as their uniform. The plan
 * records its kernels for `maxCount` — dispatched for the most tiles, each kernel returning past
 * `params.tiles` — so nothing on the host depends on the count, and no read-back or indirect
 * dispatch is needed. It also stages the partial last vec4 (`tail`), as the host's copies do for a
 * known count, and zeroes a count output when the count is 0 (`zeroOut`).
 *
 * Bindings: the caller's count buffer `count_src`, the parameters it writes `counted`, the input as
 * words `src_words` and `aux` (`tail`), the count output `count_out` (`zeroOut`).
 *
 * @example
 * ```ts
 * b.dispatch(countFixupKernel({ tail: false, zeroOut: false }), { count_src: count, counted }, 1, fixupValues);
 * ```
 */
export const countFixupKernel = defineKernel({
  name: 'core/gpu-count-fixup',
  bindings: (spec: CountFixupSpec) => ({
    count_src: read('array<u32>'),
    counted: readWrite('array<u32>'),
    src_words: spec.tail ? read('array<u32>') : undefined,
    aux: spec.tail ? readWrite('array<u32>') : undefined,
    count_out: spec.zeroOut ? readWrite('array<u32>') : undefined,
  }),
  // Where the count is in the caller's buffer (in u32 words); the plan's maxCount, to which the
  // count is clamped; the kernels' tiles, min(⌈count / tile_elements⌉, max_tiles); and the last four
  // words of the slot parameters, which do not depend on the count.
  params: {
    count_word: 'u32',
    cap: 'u32',
    tile_elements: 'u32',
    max_tiles: 'u32',
    dispatch_x: 'u32',
    carry_in: 'u32',
    carry_out: 'u32',
    extra: 'u32',
  },
  wgsl: (spec) => `
@compute @workgroup_size(1)
fn main() {
  let n = min(count_src[params.count_word], params.cap);
  let full = n / 4u;
  counted[0] = n;
  counted[1] = (n + 3u) / 4u;
  counted[2] = full;
  counted[3] = min((n + params.tile_elements - 1u) / params.tile_elements, params.max_tiles);
  counted[4] = params.dispatch_x;
  counted[5] = params.carry_in;
  counted[6] = params.carry_out;
  counted[7] = params.extra;
  ${spec.tail ? `for (var i = 0u; i < n - 4u * full; i++) { aux[${AUX_TAIL_IN}u + i] = src_words[4u * full + i]; }` : ''}
  ${spec.zeroOut ? 'if (n == 0u) { count_out[0] = 0u; }' : ''}
}
`,
});

/**
 * **Tail out** for a count the GPU wrote: copies the partial last vec4 the slot kernels left in
 * aux into the output's last `count mod 4` elements (the host's copy, for a count it does not know).
 *
 * Bindings: `aux`, the output as words `dst_words`; its parameters are the fixed-up ones the GPU wrote.
 *
 * @example
 * ```ts
 * b.dispatch(tailOutKernel({}), { aux, dst_words: output }, 1, counted);
 * ```
 */
export const tailOutKernel = defineKernel({
  name: 'core/gpu-count-tail-out',
  bindings: { aux: read('array<u32>'), dst_words: readWrite('array<u32>') },
  params: SLOT_PARAMS,
  wgsl: () => `
@compute @workgroup_size(1)
fn main() {
  for (var i = 0u; i < params.count - 4u * params.full_vecs; i++) {
    dst_words[4u * params.full_vecs + i] = aux[${AUX_TAIL_OUT}u + i];
  }
}
`,
});
