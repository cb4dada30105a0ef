// Zero pivots: the systems with b = 0 everywhere (singular for every algorithm) are reported, the
// smallest index first, by the GPU (status word, array-level rejection) and by the CPU reference.
import { ScanError } from '@scan/core';
import { getTestContext } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { solveTridiagonal } from '../src/index.js';
import { TRIDIAGONAL_ALGORITHMS, type TridiagonalLayout, type TridiagonalSystems } from '../src/types.js';
import { randomSystems, solveWithPlan } from './helpers.js';

/** Random systems where systems `bad` have a zero diagonal and no off-diagonals. */
function withSingular(n: number, batch: number, bad: readonly number[], stride: TridiagonalLayout): TridiagonalSystems {
  const systems = randomSystems(n, batch, 11, stride);
  for (const s of bad) {
    for (let i = 0; i < n; i++) {
      const k = stride === 'contiguous' ? s * n + i : i * batch + s;
      systems.a[k] = 0;
      systems.b[k] = 0;
      systems.c[k] = 0;
    }
  }
  return systems;
}

describe('zero pivots', () => {
  it('the plan lowers status to the first failing system (workgroup, partition and global paths)', async () => {
    const ctx = await getTestContext();
    for (const stride of ['contiguous', 'interleaved'] as const) {
      for (const algorithm of TRIDIAGONAL_ALGORITHMS) {
        for (const [n, extra] of [
          [31, {}],
          [32, {}],
          [33, {}],
          [1000, {}],
          [1000, { maxWorkgroupSystem: 32 }],
        ] as const) {
          const systems = withSingular(n, 12, [9, 5], stride);
          const { status } = await solveWithPlan(ctx, systems, { algorithm, ...extra });
          expect(status, `${algorithm} ${stride} n=${n}`).toBe(5);
        }
      }
    }
  });

  it('solveTridiagonal rejects naming the system; the CPU reference throws the same', async () => {
    const ctx = await getTestContext();
    const systems = withSingular(64, 8, [6, 3], 'contiguous');
    await expect(solveTridiagonal(ctx, systems)).rejects.toThrow(/system 3 met a zero pivot/);
    await expect(solveTridiagonal(ctx, systems)).rejects.toBeInstanceOf(ScanError);
    expect(() => cpu.solveTridiagonal(systems)).toThrow(/system 3 met a zero pivot/);
    // A single zero on the diagonal of a 1-unknown system.
    const one = {
      a: new Float32Array([0, 0]),
      b: new Float32Array([1, 0]),
      c: new Float32Array(2),
      d: new Float32Array([1, 1]),
      n: 1,
      batch: 2,
    };
    await expect(solveTridiagonal(ctx, one, { algorithm: 'cr' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'systems' });
    expect(() => cpu.solveTridiagonal(one)).toThrow(/system 1/);
  });
});
