import { defineKernel, readWrite } from '@scan/core/kit';
import { COMMON_WGSL, ENTRY_ARGS, INDEX_CODEC_WGSL } from './common.js';

/**
 * What a fill kernel writes at element i (as 32-bit words):
 * - `random`: a hashed u32 (i32 inputs are the same bits);
 * - `small-f32`: an integer in [-8, 8] as f32, so every sum the bench checks stays exact;
 * - `unit-f32`: an f32 in [0, 1), a multiple of 2^-24 (the top-k and arg-max keys, as torch's `rand`);
 * - `flags`: 1 with probability `density` (parameter `arg` = density · 2^32), else 0;
 * - `iota-u32`, `iota-i32`, `iota-f32`: a value that encodes i (split and pack inputs);
 * - `constant`: `arg` everywhere (poisons outputs before a run, so unwritten elements fail).
 */
export type FillMode = 'random' | 'small-f32' | 'unit-f32' | 'flags' | 'iota-u32' | 'iota-i32' | 'iota-f32' | 'constant';

/** PCG-style hash (as in shared/gpu/gpu-resident-stress.mjs); `rand(i, seed)` is a bijection of i per seed. */
export const HASH_WGSL = `
fn pcg(x: u32) -> u32 {
  var v = x * 747796405u + 2891336453u;
  v = ((v >> ((v >> 28u) + 4u)) ^ v) * 277803737u;
  return (v >> 22u) ^ v;
}
fn rand(i: u32, seed: u32) -> u32 { return pcg(i ^ pcg(seed)); }
`;

function valueExpression(mode: FillMode): string {
  switch (mode) {
    case 'random':
      return 'rand(i, params.seed)';
    case 'small-f32':
      return 'bitcast<u32>(f32(i32(rand(i, params.seed) % 17u) - 8))';
    case 'unit-f32':
      return 'bitcast<u32>(f32(rand(i, params.seed) >> 8u) * (1.0 / 16777216.0))';
    case 'flags':
      return 'select(0u, 1u, rand(i, params.seed) < params.arg)';
    case 'iota-u32':
    case 'iota-i32':
      return 'i';
    case 'iota-f32':
      return 'encode_index_f32(i)';
    case 'constant':
      return 'params.arg';
  }
}

/**
 * The fill kernel of each {@link FillMode}: `out[i]` for i < `n`, from the hash of i and `seed`,
 * or the mode's argument `arg`.
 *
 * @example
 * ```ts
 * const kernel = fillKernel({ mode: 'flags' });
 * encodeKernel(ctx, encoder, kernel, { out, params: pool.params(kernel, { n, seed, arg: densityThreshold(0.5) }) }, { invocations: n });
 * ```
 */
export const fillKernel = defineKernel({
  name: 'bench/fill',
  bindings: { out: readWrite('array<u32>') },
  params: { n: 'u32', seed: 'u32', arg: 'u32' },
  wgsl: (spec: { mode: FillMode }) => `${COMMON_WGSL}${HASH_WGSL}${INDEX_CODEC_WGSL}
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i < params.n) { out[i] = ${valueExpression(spec.mode)}; }
}
`,
});

/**
 * The `arg` parameter of a flags fill: the 32-bit threshold a hash must stay below.
 *
 * @example
 * ```ts
 * densityThreshold(0.5); // 2147483648
 * ```
 */
export function densityThreshold(density: number): number {
  return Math.min(0xffffffff, Math.round(density * 2 ** 32));
}
