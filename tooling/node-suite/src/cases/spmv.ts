// @scan/spmv's array-level functions on host data: the matrix, x, y and X all cross to the GPU on
// every call, so `size` counts the nonzeros (the largest arrays).
import { createRng, expectEqualArrays } from '@scan/gpu-testing';
import { biasedMatrix, type CsrMatrix, powerLawMatrix, spmm, spmv, transposeCsr, uniformRandomMatrix } from '@scan/spmv';
import * as cpu from '@scan/spmv/cpu';
import { defineCase, type NodeCase } from '../case.js';

/** `n` values uniform in [-1, 1). */
function vector(n: number, seed: number): Float32Array {
  const rng = createRng(seed);
  return Float32Array.from({ length: n }, () => 2 * rng.float() - 1);
}

/** Throws unless every output is within the f32 error bound of the f64 CPU reference. */
function expectWithinBound(got: Float32Array, want: ArrayLike<number>, bound: ArrayLike<number>, label: string): void {
  if (got.length !== want.length) throw new Error(`${label}: length ${got.length}, expected ${want.length}`);
  for (let i = 0; i < want.length; i++) {
    if (!(Math.abs(got[i]! - want[i]!) <= bound[i]!)) {
      throw new Error(`${label}: element ${i} is ${got[i]}, expected ${want[i]} ± ${bound[i]}`);
    }
  }
}

/** A case of `spmv(ctx, A, x, options)` on the matrix `make(size, seed)`. */
function spmvCase(name: string, what: string, make: (size: number, seed: number) => CsrMatrix, transpose: boolean): NodeCase {
  return defineCase(name, what, (size, seed) => {
    const A = make(size, seed);
    const [inLength, outLength] = transpose ? [A.rows, A.cols] : [A.cols, A.rows];
    const options = { alpha: 1.5, beta: -0.5, y: vector(outLength, seed + 2), transpose };
    const x = vector(inLength, seed + 1);
    return {
      call: (ctx) => spmv(ctx, A, x, options),
      check: (got) => expectWithinBound(got, cpu.spmv(A, x, options), cpu.spmvErrorBound(A, x, options), name),
    };
  });
}

export const spmvCases: readonly NodeCase[] = [
  spmvCase(
    'spmv.spmv:uniform',
    'uniform random, 16 per row, alpha·A·x + beta·y',
    (size, seed) => uniformRandomMatrix({ rows: Math.max(1, size >>> 4), seed }),
    false,
  ),
  spmvCase(
    'spmv.spmv:biased',
    "the paper's biased matrix (one full row), A·x",
    (size, seed) => biasedMatrix(Math.max(1, size >>> 1), { seed }),
    false,
  ),
  spmvCase(
    'spmv.spmv:transposed',
    'power law (R-MAT), 16 per row, alpha·Aᵀ·x + beta·y',
    (size, seed) => powerLawMatrix({ rows: Math.max(1, size >>> 4), seed }),
    true,
  ),
  defineCase('spmv.spmm', 'uniform random, 16 per row, k = 4 right-hand sides', (size, seed) => {
    const A = uniformRandomMatrix({ rows: Math.max(1, size >>> 4), seed });
    const k = 4;
    const X = vector(A.cols * k, seed + 1);
    return {
      call: (ctx) => spmm(ctx, A, X, { k }),
      check: (got) => {
        // Column j of X·… is spmv with x = column j; the bound is per column.
        const want = cpu.spmm(A, X, { k });
        for (let j = 0; j < k; j++) {
          const x = Float32Array.from({ length: A.cols }, (_, i) => X[i * k + j]!);
          const bound = cpu.spmvErrorBound(A, x);
          const column = (m: ArrayLike<number>) => Float32Array.from({ length: A.rows }, (_, i) => m[i * k + j]!);
          expectWithinBound(column(got), column(want), bound, `spmm column ${j}`);
        }
      },
    };
  }),
  defineCase('spmv.transposeCsr', 'uniform random, 16 per row', (size, seed) => {
    const A = uniformRandomMatrix({ rows: Math.max(1, size >>> 4), cols: Math.max(1, size >>> 5), seed });
    return {
      call: (ctx) => transposeCsr(ctx, A),
      check: (got) => {
        const want = cpu.transposeCsr(A);
        if (got.rows !== want.rows || got.cols !== want.cols)
          throw new Error(`transposeCsr: shape ${got.rows}×${got.cols}, expected ${want.rows}×${want.cols}`);
        expectEqualArrays(got.rowPtr, want.rowPtr, 'transposeCsr rowPtr');
        expectEqualArrays(got.colIdx, want.colIdx, 'transposeCsr colIdx');
        expectEqualArrays(got.values, want.values, 'transposeCsr values');
      },
    };
  }),
];
