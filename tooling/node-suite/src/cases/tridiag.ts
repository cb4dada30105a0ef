// @scan/tridiag's array-level function on host data: four diagonals in, the unknowns out.
import { createRng } from '@scan/gpu-testing';
import { solveTridiagonal } from '@scan/tridiag';
import * as cpu from '@scan/tridiag/cpu';
import { defineCase, type NodeCase } from '../case.js';

/** Unknowns per system: the partition method's home ground, and a divisor of every power-of-two size. */
const UNKNOWNS = 1024;
/** Largest residual accepted: |d| ≤ 1 and a dominant diagonal keep |x| ≤ 1, so f32 lands near 1e-7. */
const RESIDUAL = 1e-5;

export const tridiagCases: readonly NodeCase[] = [
  defineCase('tridiag.solveTridiagonal', `diagonally dominant, ${UNKNOWNS} unknowns per system`, (size, seed) => {
    const n = Math.min(UNKNOWNS, Math.max(1, size));
    const batch = Math.max(1, Math.floor(size / n));
    const rng = createRng(seed);
    const band = (lo: number, hi: number) => Float32Array.from({ length: n * batch }, () => lo + (hi - lo) * rng.float());
    const systems = { a: band(-1, 1), b: band(3, 4), c: band(-1, 1), d: band(-1, 1), n, batch };
    return {
      call: (ctx) => solveTridiagonal(ctx, systems),
      check: (got) => {
        const { max, perSystem } = cpu.tridiagonalResidual(systems, got);
        if (!(max <= RESIDUAL)) throw new Error(`solveTridiagonal: residual ${max} > ${RESIDUAL} (system ${perSystem.indexOf(max)})`);
      },
    };
  }),
];
