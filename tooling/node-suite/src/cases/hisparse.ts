// @scan/hisparse on host data: a matrix built on the GPU from CSR, then A·x and Aᵀ·x read back and
// compared with the CPU reference's products on the same tree. `size` counts the nonzeros.
import { createRng, expectCloseArrays } from '@scan/gpu-testing';
import { HiSparseMatrix } from '@scan/hisparse';
import { hisparseFromCsr, hisparseSpmv, transpose } from '@scan/hisparse/cpu';
import { poisson2d, powerLawMatrix } from '@scan/spmv';
import { defineCase, type NodeCase } from '../case.js';

function hisparseCase(name: string, what: string, make: (size: number, seed: number) => ReturnType<typeof poisson2d>): NodeCase {
  return defineCase(name, what, (size, seed) => {
    const A = make(size, seed);
    const rng = createRng(seed + 1);
    const x = Float32Array.from({ length: Math.max(A.rows, A.cols) }, () => 2 * rng.float() - 1);
    const tree = hisparseFromCsr(A, { nodeSize: 16 });
    return {
      async call(ctx) {
        const H = await HiSparseMatrix.fromCsr(ctx, A, { nodeSize: 16 });
        try {
          return [await H.spmv(x.subarray(0, A.cols)), await H.spmv(x.subarray(0, A.rows), { transpose: true })] as const;
        } finally {
          H.destroy();
        }
      },
      check([ax, atx]) {
        // Within 1e-4 · (1 + |want|): the GPU sums a row's leaves in another order than the CPU.
        const close = { rtol: 1e-4, atol: 1e-4 };
        expectCloseArrays(ax, hisparseSpmv(tree, x.subarray(0, A.cols)), { ...close, label: `${name} A·x` });
        expectCloseArrays(atx, hisparseSpmv(transpose(tree), x.subarray(0, A.rows)), { ...close, label: `${name} Aᵀ·x` });
      },
    };
  });
}

export const hisparseCases: readonly NodeCase[] = [
  hisparseCase('hisparse.spmv:poisson', 'Poisson 2-D (5 per row), built on the GPU, A·x and Aᵀ·x', (size) =>
    poisson2d(Math.max(1, Math.round(Math.sqrt(size / 5)))),
  ),
  hisparseCase('hisparse.spmv:power-law', 'power law (R-MAT), 16 per row, A·x and Aᵀ·x', (size, seed) =>
    powerLawMatrix({ rows: Math.max(1, size >>> 4), seed }),
  ),
];
