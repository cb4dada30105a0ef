import { createTridiagonalPlan, type TridiagonalAlgorithm } from '@scan/tridiag';
import { solveTridiagonal as cpuSolveTridiagonal } from '@scan/tridiag/cpu';
import type { CaseModule } from './case-module.js';
import { type CaseShape, TRIDIAG_PRIMITIVES, type TridiagPrimitive } from './case-types.js';
import { encodeFill, runCheck } from './child/device-ops.js';
import { BufferPool, encodeKernel, submitAndWait } from './child/gpu.js';
import { COMMON_WGSL, ENTRY_ARGS, ERROR_WGSL } from './child/kernels/common.js';
import { HASH_WGSL } from './child/kernels/fill.js';
import { POISON, readArray, type WorkloadFactory } from './child/workload.js';
import { bytesMoved } from './metrics.js';

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
export function tridiagShapes(): CaseShape[] {
  return TRIDIAG_PRIMITIVES.map((primitive): CaseShape => ({ primitive, type: 'f32' }));
}

/**
 * The generator of the systems, on the GPU: element i gets a, c, d uniform in [−1, 1) from hashes of
 * (4i + k, seed) and b = ±(|a| + |c| + 1 + u), u in [0, 1), so every row is diagonally dominant by at
 * least 1 (‖A⁻¹‖∞ ≤ 1, ‖x‖∞ ≤ 1). Bindings: 0 a, 1 b, 2 c, 3 d, 4 params (`p.n` unknowns, `p.a` seed).
 */
function generateSystemsWgsl(): string {
  return `${COMMON_WGSL}${HASH_WGSL}
@group(0) @binding(0) var<storage, read_write> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<storage, read_write> d: array<f32>;
@group(0) @binding(4) var<uniform> p: Params;
fn unit(i: u32, k: u32) -> f32 { return f32(rand(4u * i + k, p.a) >> 8u) / 16777216.0; }
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i >= p.n) { return; }
  let ai = 2.0 * unit(i, 0u) - 1.0;
  let ci = 2.0 * unit(i, 1u) - 1.0;
  let u = unit(i, 2u);
  a[i] = ai;
  c[i] = ci;
  d[i] = 2.0 * unit(i, 3u) - 1.0;
  b[i] = select(1.0, -1.0, (rand(i, p.a + 1u) & 1u) != 0u) * (abs(ai) + abs(ci) + 1.0 + u);
}
`;
}

/**
 * The check, written here rather than taken from `@scan/tridiag`: the residual of every row,
 * r_i = a_i·x_{i−1} + b_i·x_i + c_i·x_{i+1} − d_i (a_0, c_{n−1} of each system ignored), must stay
 * within 1e-5 × (|a_i·x_{i−1}| + |b_i·x_i| + |c_i·x_{i+1}| + |d_i|) + 1e-6 — a few hundred f32
 * roundings of the terms, far below what a wrong or unwritten x_i (poisoned) gives; an infinite or
 * NaN x fails too. Bindings: 0 a, 1 b, 2 c, 3 d, 4 x, 5 errors, 6 params (`p.n` unknowns in all,
 * `p.a` unknowns per system).
 */
function checkResidualWgsl(): string {
  return `${COMMON_WGSL}${ERROR_WGSL(5)}
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read> c: array<f32>;
@group(0) @binding(3) var<storage, read> d: array<f32>;
@group(0) @binding(4) var<storage, read> x: array<f32>;
@group(0) @binding(6) var<uniform> p: Params;
fn finite(v: f32) -> bool { return (bitcast<u32>(v) & 0x7f800000u) != 0x7f800000u; }
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i >= p.n) { return; }
  let row = i % p.a;
  var lo = 0.0;
  var hi = 0.0;
  if (row > 0u) { lo = a[i] * x[i - 1u]; }
  if (row + 1u < p.a) { hi = c[i] * x[i + 1u]; }
  let mid = b[i] * x[i];
  let r = lo + mid + hi - d[i];
  let bound = 1e-5 * (abs(lo) + abs(mid) + abs(hi) + abs(d[i])) + 1e-6;
  if (!finite(x[i]) || !finite(r) || abs(r) > bound) { mismatch(i); }
}
`;
}

const GENERATE_KERNEL = { key: 'bench/tridiag-generate', wgsl: generateSystemsWgsl };
const CHECK_KERNEL = { key: 'bench/check-tridiag-residual', wgsl: checkResidualWgsl };

/** Offset between the seed of the systems and the case seed, so they differ from other cases' data. */
const SEED_OFFSET = 0x7d1a9;

function tridiagWorkload(algorithm: Exclude<TridiagonalAlgorithm, 'auto'>): WorkloadFactory {
  return async (ctx, c) => {
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
    encodeKernel(ctx, setup, GENERATE_KERNEL, [a, b, cc, d, pool.params(total, c.seed + SEED_OFFSET)], { invocations: total });
    encodeFill(ctx, pool, setup, x, total, 'constant', 0, POISON);
    await submitAndWait(ctx, setup);
    const plan = createTridiagonalPlan(ctx, { n, batch, stride: 'contiguous', algorithm });
    const args = { a, b, c: cc, d, x };
    return {
      bytes: bytesMoved(c.primitive as TridiagPrimitive, total),
      output: x,
      encode: (encoder) => plan.encode(encoder, args),
      verify: () =>
        runCheck(ctx, pool, (encoder, errors) =>
          encodeKernel(ctx, encoder, CHECK_KERNEL, [a, b, cc, d, x, errors, pool.params(total, n)], { invocations: total }),
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
  };
}

/**
 * The workload factory of each tridiagonal case: 4096 × 1024 (at N = 2^22) diagonally dominant
 * systems generated on the GPU, solved with the case's algorithm, checked on the GPU through every
 * row's residual, and against the CPU Thomas solution at small sizes.
 *
 * @example
 * ```ts
 * const w = await TRIDIAG_WORKLOADS['tridiag-cr-pcr'](ctx, c);
 * ```
 */
export const TRIDIAG_WORKLOADS: Readonly<Record<TridiagPrimitive, WorkloadFactory>> = {
  'tridiag-cr': tridiagWorkload('cr'),
  'tridiag-pcr': tridiagWorkload('pcr'),
  'tridiag-cr-pcr': tridiagWorkload('cr-pcr'),
  'tridiag-partition': tridiagWorkload('partition'),
};

/**
 * `@scan/tridiag` in the case registry.
 *
 * @example
 * ```ts
 * TRIDIAG_CASES.primitives; // ['tridiag-cr', 'tridiag-pcr', 'tridiag-cr-pcr', 'tridiag-partition']
 * ```
 */
export const TRIDIAG_CASES: CaseModule = { package: '@scan/tridiag', primitives: TRIDIAG_PRIMITIVES, shapes: tridiagShapes };
