// GPU solvers against the Thomas algorithm (f64) on seeded, strictly diagonally dominant systems.
//
// Tolerance: every row is dominant by at least 1, so ‖A⁻¹‖∞ ≤ 1 and ‖A‖∞ ≤ 6 (κ∞ ≤ 6). Cyclic
// reduction and PCR are stable on such systems; each of the ≤ log2(n) + 1 elimination levels adds a
// few f32 roundings (ε = 6e-8), so the normwise relative error per system should stay below
// about κ·(log2 n + 1)·ε·few ≈ 1e-5 up to n = 2^17. Measured on SwiftShader: ≤ 3e-7. A wrong or
// unwritten element (x is poisoned with 0xdeadbeef ≈ −6e18) misses the bound by orders of magnitude.
// Residuals: ‖x‖∞ ≤ ‖A⁻¹‖∞‖d‖∞ ≤ 1, so max |A·x − d| ≤ 1e-4 is a loose, meaningful bound.
//
// SwiftShader compiles a workgroup-solve kernel of 1024–2048 unknowns in ~2 s, the main cost here,
// so the sizes are chosen to reuse kernels: capacities 32, 64, 512, 1024 and the scratch-fed 2048.
import { getTestContext } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { createTridiagonalPlan, solveTridiagonal, tridiagonalResidual, workgroupCapacity } from '../src/index.js';
import { TRIDIAGONAL_ALGORITHMS, TRIDIAGONAL_LAYOUTS, type TridiagonalSystems } from '../src/types.js';
import { randomSystems, relativeError, solveWithPlan } from './helpers.js';

const TOLERANCE = 1e-5;
const RESIDUAL = 1e-4;

function expectSolved(x: Float32Array, systems: TridiagonalSystems, label: string): void {
  const ref = cpu.solveTridiagonal(systems);
  const { worst, system } = relativeError(x, ref, systems);
  expect(worst, `${label}: normwise relative error of system ${system}`).toBeLessThanOrEqual(TOLERANCE);
  expect(tridiagonalResidual(systems, x).max, `${label}: residual`).toBeLessThanOrEqual(RESIDUAL);
}

const SIZES: readonly (readonly [number, number])[] = [
  [1, 3],
  [2, 64],
  [3, 1],
  [31, 3],
  [32, 64],
  [33, 1],
  [512, 64],
  [1000, 3],
  [4097, 3],
];

describe('solve (plan level, x poisoned)', () => {
  for (const stride of TRIDIAGONAL_LAYOUTS) {
    for (const algorithm of TRIDIAGONAL_ALGORITHMS) {
      it(`${algorithm} ${stride}: n = 1 … 4097, batches 1, 3, 64`, async () => {
        const ctx = await getTestContext();
        for (const [n, batch] of SIZES) {
          const systems = randomSystems(n, batch, 1000 * n + batch, stride);
          const { x, status } = await solveWithPlan(ctx, systems, { algorithm });
          expect(status, `status n=${n}`).toBe(0xffffffff);
          expectSolved(x, systems, `${algorithm} ${stride} n=${n} batch=${batch}`);
        }
      });

      it(`${algorithm} ${stride}: many global levels (workgroup systems of ≤ 32 unknowns)`, async () => {
        const ctx = await getTestContext();
        for (const [n, batch] of [
          [33, 5],
          [1000, 3],
          [4097, 64],
        ] as const) {
          const systems = randomSystems(n, batch, 7 * n + batch, stride);
          const { x, status } = await solveWithPlan(ctx, systems, { algorithm, maxWorkgroupSystem: 32 });
          expect(status).toBe(0xffffffff);
          expectSolved(x, systems, `${algorithm} ${stride} n=${n} batch=${batch} levels`);
        }
      });
    }
  }

  // The hybrid's PCR keeps one row per invocation and exchanges rows through two buffers in turn;
  // switch sizes 4 … 256 move the split between forward reduction and PCR.
  it('cr-pcr, PCR rows in registers, switch sizes 4 … 256', async () => {
    const ctx = await getTestContext();
    for (const stride of TRIDIAGONAL_LAYOUTS) {
      for (const switchSize of [4, 32, 256]) {
        for (const [n, batch] of [
          [33, 5],
          [512, 3],
          [1000, 2],
        ] as const) {
          const systems = randomSystems(n, batch, 11 * n + switchSize, stride);
          const { x, status } = await solveWithPlan(ctx, systems, { algorithm: 'cr-pcr', switchSize });
          expect(status).toBe(0xffffffff);
          expectSolved(x, systems, `cr-pcr ${stride} switch=${switchSize} n=${n} batch=${batch}`);
        }
      }
    }
  });

  // The partition method keeps a block of rows per invocation in registers: n a multiple of 4
  // (whole vec4s), the last block partial or not, one block per invocation up to a full workgroup.
  it('partition: blocks of 4 and 8 rows, n = 4 … 2048, partial last blocks', async () => {
    const ctx = await getTestContext();
    for (const partitionBlock of [4, 8]) {
      for (const [n, batch] of [
        [4, 3],
        [8, 5],
        [12, 2],
        [36, 7],
        [100, 3],
        [1020, 2],
        [1024, 9],
        [2048, 2],
        [4096, 2],
      ] as const) {
        const systems = randomSystems(n, batch, 13 * n + partitionBlock, 'contiguous');
        // It runs (rather than falling back) wherever its reduced system fits a workgroup.
        const plan = createTridiagonalPlan(ctx, { n, batch, algorithm: 'partition', partitionBlock } as never);
        const invocations = Math.max(2, 2 ** Math.ceil(Math.log2(n / partitionBlock)));
        const fits = 2 * invocations <= workgroupCapacity(ctx) && invocations <= ctx.caps.limits.maxComputeInvocationsPerWorkgroup;
        expect(plan.algorithm, `n=${n}`).toBe(fits ? 'partition' : 'cr-pcr');
        plan.destroy();
        const { x, status } = await solveWithPlan(ctx, systems, { algorithm: 'partition', partitionBlock });
        expect(status).toBe(0xffffffff);
        expectSolved(x, systems, `partition block=${partitionBlock} n=${n} batch=${batch}`);
      }
    }
  });

  it('n = 2^17: batch 2 contiguous and batch 1 interleaved, every algorithm', async () => {
    const ctx = await getTestContext();
    for (const [stride, batch] of [
      ['contiguous', 2],
      ['interleaved', 1],
    ] as const) {
      const systems = randomSystems(2 ** 17, batch, 17 + batch, stride);
      for (const algorithm of TRIDIAGONAL_ALGORITHMS) {
        const { x, status } = await solveWithPlan(ctx, systems, { algorithm });
        expect(status).toBe(0xffffffff);
        expectSolved(x, systems, `${algorithm} ${stride} n=2^17 batch=${batch}`);
      }
    }
  });

  it('a batch past 65535 workgroups per dimension (2-D dispatch), interleaved, n = 2', async () => {
    const ctx = await getTestContext();
    const systems = randomSystems(2, 70_001, 3, 'interleaved');
    const { x, status } = await solveWithPlan(ctx, systems, { maxWorkgroupSystem: 32 });
    expect(status).toBe(0xffffffff);
    expectSolved(x, systems, 'n=2 batch=70001');
  });
});

describe('solveTridiagonal (array level)', () => {
  it('a hand-checked system, every algorithm, inputs unchanged', async () => {
    const ctx = await getTestContext();
    // 2x0 + x1 = 3, x0 + 2x1 + x2 = 4, x1 + 2x2 = 3 → x = [1, 1, 1]; a_0 and c_2 are ignored.
    const systems = {
      a: new Float32Array([9, 1, 1]),
      b: new Float32Array([2, 2, 2]),
      c: new Float32Array([1, 1, 9]),
      d: new Float32Array([3, 4, 3]),
      n: 3,
      batch: 1,
    };
    for (const algorithm of ['auto', ...TRIDIAGONAL_ALGORITHMS] as const) {
      expect([...(await solveTridiagonal(ctx, systems, { algorithm }))]).toEqual([1, 1, 1]);
    }
    expect([...systems.a]).toEqual([9, 1, 1]);
    expect([...systems.d]).toEqual([3, 4, 3]);
  });

  it('random systems, both layouts, residual helper', async () => {
    const ctx = await getTestContext();
    for (const stride of TRIDIAGONAL_LAYOUTS) {
      const systems = randomSystems(1000, 3, 5, stride);
      const x = await solveTridiagonal(ctx, systems);
      expectSolved(x, systems, `array level ${stride}`);
      const { perSystem, max } = tridiagonalResidual(systems, x);
      expect(perSystem.length).toBe(3);
      expect(max).toBe(Math.max(...perSystem));
    }
  });
});
