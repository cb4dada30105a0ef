import type { ScanContext } from '@scan/core';
import { defineKernel, read, readWrite } from '@scan/core/kit';
import { createTridiagonalPlan, type TridiagonalAlgorithm } from '@scan/tridiag';
import { solveTridiagonal as cpuSolveTridiagonal } from '@scan/tridiag/cpu';
import { benchModule } from '../bench-module.js';
import type { Case, CaseShape } from '../case-types.js';
import { encodeFill, runCheck } from '../child/device-ops.js';
import { BufferPool, encodeKernel, submitAndWait } from '../child/gpu.js';
import { COMMON_WGSL, ENTRY_ARGS, ERROR_BINDING, ERROR_WGSL } from '../child/kernels/common.js';
import { HASH_WGSL } from '../child/kernels/fill.js';
import { POISON, readArray, type Workload } from '../child/workload.js';
import { bytesMoved } from '../metrics.js';

/** The tridiagonal cases, one per algorithm of `@scan/tridiag` (`--only tridiag-cr-pcr`, …). */
export const TRIDIAG_PRIMITIVES = ['tridiag-cr', 'tridiag-pcr', 'tridiag-cr-pcr', 'tridiag-partition'] as const;
export type TridiagPrimitive = (typeof TRIDIAG_PRIMITIVES)[number];

/** A tridiagonal case (f32, contiguous systems): its primitive names the algorithm. */
export type TridiagCase = Case<TridiagPrimitive>;

/** The algorithm of `createTridiagonalPlan` each primitive runs. */
const ALGORITHMS: Readonly<Record<TridiagPrimitive, Exclude<TridiagonalAlgorithm, 'auto'>>> = {
  'tridiag-cr': 'cr',
  'tridiag-pcr': 'pcr',
  'tridiag-cr-pcr': 'cr-pcr',
  'tridiag-partition': 'partition',
};

/**
 * Unknowns per system: a case of size N solves ⌊N / 1024⌋ contiguous systems of 1024 unknowns
 * (4096 × 1024 at N = 2^22, the stated target), or one system of N unknowns when N < 1024.
 */
export const TRIDIAG_SYSTEM_SIZE = 1024;

/**
 * The shape of a case of size N: `n` unknowns per system, `batch` systems (n·batch ≤ N).
 *
 * @example
 * ```ts
 * tridiagShape(2 ** 22); // { n: 1024, batch: 4096 }
 * tridiagShape(1001); // { n: 1001, batch: 1 }
 * ```
 */
export function tridiagShape(size: number): { n: number; batch: number } {
  const n = Math.min(TRIDIAG_SYSTEM_SIZE, size);
  return { n, batch: Math.floor(size / n) };
}

/**
 * The tridiagonal configurations (f32, contiguous), one per algorithm.
 *
 * @example
 * ```ts
 * tridiagShapes().map((s) => s.primitive); // ['tridiag-cr', 'tridiag-pcr', 'tridiag-cr-pcr', 'tridiag-partition']
 * ```
 */
export function tridiagShapes(): CaseShape<TridiagCase>[] {
  return TRIDIAG_PRIMITIVES.map((primitive): CaseShape<TridiagCase> => ({ primitive, type: 'f32' }));
}

/**
 * The generator of the systems, on the GPU: element i gets a, c, d uniform in [−1, 1) from hashes of
 * (4i + k, seed) and b = ±(|a| + |c| + 1 + u), u in [0, 1), so every row is diagonally dominant by at
 * least 1 (‖A⁻¹‖∞ ≤ 1, ‖x‖∞ ≤ 1). Parameters: `n` unknowns, `seed`.
 */
const generateKernel = defineKernel({
  name: 'bench/tridiag-generate',
  bindings: { a: readWrite('array<f32>'), b: readWrite('array<f32>'), c: readWrite('array<f32>'), d: readWrite('array<f32>') },
  params: { n: 'u32', seed: 'u32' },
  wgsl: () => `${COMMON_WGSL}${HASH_WGSL}
fn unit(i: u32, k: u32) -> f32 { return f32(rand(4u * i + k, params.seed) >> 8u) / 16777216.0; }
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i >= params.n) { return; }
  let ai = 2.0 * unit(i, 0u) - 1.0;
  let ci = 2.0 * unit(i, 1u) - 1.0;
  let u = unit(i, 2u);
  a[i] = ai;
  c[i] = ci;
  d[i] = 2.0 * unit(i, 3u) - 1.0;
  b[i] = select(1.0, -1.0, (rand(i, params.seed + 1u) & 1u) != 0u) * (abs(ai) + abs(ci) + 1.0 + u);
}
`,
})({});

/**
 * The check, written here rather than taken from `@scan/tridiag`: the residual of every row,
 * r_i = a_i·x_{i−1} + b_i·x_i + c_i·x_{i+1} − d_i (a_0, c_{n−1} of each system ignored), must stay
 * within 1e-5 × (|a_i·x_{i−1}| + |b_i·x_i| + |c_i·x_{i+1}| + |d_i|) + 1e-6 — a few hundred f32
 * roundings of the terms, far below what a wrong or unwritten x_i (poisoned) gives; an infinite or
 * NaN x fails too. Parameters: `n` unknowns in all, `system` unknowns per system.
 */
const checkKernel = defineKernel({
  name: 'bench/check-tridiag-residual',
  bindings: {
    a: read('array<f32>'),
    b: read('array<f32>'),
    c: read('array<f32>'),
    d: read('array<f32>'),
    x: read('array<f32>'),
    ...ERROR_BINDING,
  },
  params: { n: 'u32', system: 'u32' },
  wgsl: () => `${COMMON_WGSL}${ERROR_WGSL}
fn finite(v: f32) -> bool { return (bitcast<u32>(v) & 0x7f800000u) != 0x7f800000u; }
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i >= params.n) { return; }
  let row = i % params.system;
  var lo = 0.0;
  var hi = 0.0;
  if (row > 0u) { lo = a[i] * x[i - 1u]; }
  if (row + 1u < params.system) { hi = c[i] * x[i + 1u]; }
  let mid = b[i] * x[i];
  let r = lo + mid + hi - d[i];
  let bound = 1e-5 * (abs(lo) + abs(mid) + abs(hi) + abs(d[i])) + 1e-6;
  if (!finite(x[i]) || !finite(r) || abs(r) > bound) { mismatch(i); }
}
`,
})({});

/** Offset between the seed of the systems and the case seed, so they differ from other cases' data. */
const SEED_OFFSET = 0x7d1a9;

async function tridiagWorkload(ctx: ScanContext, c: TridiagCase): Promise<Workload> {
  const algorithm = ALGORITHMS[c.primitive];
  const { n, batch } = tridiagShape(c.n);
  const total = n * batch;
  const pool = new BufferPool(ctx);
  const [a, b, cc, d] = ['a', 'b', 'c', 'd'].map((name) => pool.storage(4 * total, `tridiag ${name}`)) as [
    GPUBuffer,
    GPUBuffer,
    GPUBuffer,
    GPUBuffer,
  ];
  const x = pool.storage(4 * total, 'tridiag x');
  const setup = ctx.device.createCommandEncoder();
  const generateParams = pool.params(generateKernel, { n: total, seed: c.seed + SEED_OFFSET });
  encodeKernel(ctx, setup, generateKernel, { a, b, c: cc, d, params: generateParams }, { invocations: total });
  encodeFill(ctx, pool, setup, x, total, 'constant', 0, POISON);
  await submitAndWait(ctx, setup);
  const plan = createTridiagonalPlan(ctx, { n, batch, stride: 'contiguous', algorithm });
  const args = { a, b, c: cc, d, x };
  return {
    bytes: bytesMoved(c.primitive, total),
    output: x,
    encode: (encoder) => plan.encode(encoder, args),
    verify: () =>
      runCheck(ctx, pool, (encoder, errors) =>
        encodeKernel(
          ctx,
          encoder,
          checkKernel,
          { a, b, c: cc, d, x, err: errors, params: pool.params(checkKernel, { n: total, system: n }) },
          { invocations: total },
        ),
      ),
    async compareWithCpu() {
      // Elements more than 1e-4 from the Thomas solution (‖x‖∞ ≤ 1; measured errors are ~1e-7).
      const [ha, hb, hc, hd, hx] = await Promise.all([a, b, cc, d, x].map((buffer) => readArray(ctx, buffer, total, 'f32')));
      const expected = cpuSolveTridiagonal({ a: ha, b: hb, c: hc, d: hd, n, batch } as never);
      let wrong = 0;
      for (let i = 0; i < total; i++) if (!(Math.abs((hx![i] as number) - (expected[i] as number)) <= 1e-4)) wrong++;
      return wrong;
    },
    destroy() {
      plan.destroy();
      pool.destroy();
    },
  };
}

/**
 * `@scan/tridiag` in the registry, a case per algorithm: 4096 × 1024 (at N = 2^22) diagonally
 * dominant systems generated on the GPU, solved with the case's algorithm, checked on the GPU
 * through every row's residual, and against the CPU Thomas solution at small sizes.
 *
 * @example
 * ```ts
 * TRIDIAG.primitives; // ['tridiag-cr', 'tridiag-pcr', 'tridiag-cr-pcr', 'tridiag-partition']
 * ```
 */
export const TRIDIAG = benchModule<TridiagCase>({
  package: '@scan/tridiag',
  primitives: TRIDIAG_PRIMITIVES,
  shapes: tridiagShapes,
  workload: tridiagWorkload,
});
