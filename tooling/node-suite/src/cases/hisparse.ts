// @scan/hisparse on host data: a matrix built on the GPU from CSR (or on the host with region
// leaves and uploaded), then A·x and Aᵀ·x read back and compared with the CPU reference's products
// on the same tree. `size` counts the nonzeros.
import { createRng, expectCloseArrays } from '@scan/gpu-testing';
import { HiSparseMatrix } from '@scan/hisparse';
import { hisparseAdd, hisparseFromCsr, hisparseSpmv, hisparseToCsr, scale, transpose } from '@scan/hisparse/cpu';
import { perturbedMatrix, poisson2d, powerLawMatrix, uniformRandomMatrix } from '@scan/spmv';
import { defineCase, type NodeCase } from '../case.js';

function hisparseCase(
  name: string,
  what: string,
  make: (size: number, seed: number) => ReturnType<typeof poisson2d>,
  regionLeaves = false,
): NodeCase {
  return defineCase(name, what, (size, seed) => {
    const A = make(size, seed);
    const rng = createRng(seed + 1);
    const x = Float32Array.from({ length: Math.max(A.rows, A.cols) }, () => 2 * rng.float() - 1);
    const tree = hisparseFromCsr(A, { nodeSize: 16, regionLeaves });
    return {
      async call(ctx) {
        // Region leaves: the GPU build does not make them, so the host's tree is uploaded.
        const H = regionLeaves ? await HiSparseMatrix.fromHost(ctx, tree) : await HiSparseMatrix.fromCsr(ctx, A, { nodeSize: 16 });
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

/**
 * C = A + B and Aᵀ + 2B (HiSparse's workload: B is A's entries moved by a normal offset), by
 * `add`'s one submission, read back as CSR and compared with the CPU `hisparseAdd` exactly (the
 * values are sums of a few small integers, exact in f32).
 */
const hisparseAddCase = defineCase(
  'hisparse.add:perturbed',
  'A + B and Aᵀ + 2B, A Poisson 2-D, B its perturbed copy (σ = 10), d = 16',
  (size, seed) => {
    // At most about 8,000 nonzeros: the add's two-level traversal over SwiftShader takes a minute
    // at the suite's largest size, and these sizes already reach every kernel.
    const A = poisson2d(Math.max(1, Math.round(Math.sqrt(Math.min(size, 8192) / 5))));
    const B = perturbedMatrix(A, { seed });
    const hA = hisparseFromCsr(A, { nodeSize: 16 });
    const hB = hisparseFromCsr(B, { nodeSize: 16 });
    return {
      async call(ctx) {
        const gA = await HiSparseMatrix.fromCsr(ctx, A, { nodeSize: 16 });
        const gB = await HiSparseMatrix.fromCsr(ctx, B, { nodeSize: 16 });
        const views = [gA.transpose(), gB.scale(2)];
        try {
          const sums = [await gA.add(gB), await views[0]!.add(views[1]!)];
          const csr = [await sums[0]!.toCsr(), await sums[1]!.toCsr()];
          for (const C of sums) C.destroy();
          return csr;
        } finally {
          for (const M of [...views, gA, gB]) M.destroy();
        }
      },
      check([ab, atb]) {
        const wants = [hisparseToCsr(hisparseAdd(hA, hB)), hisparseToCsr(hisparseAdd(transpose(hA), scale(hB, 2)))];
        for (const [i, got] of [ab!, atb!].entries()) {
          const want = wants[i]!;
          const label = i === 0 ? 'A + B' : 'Aᵀ + 2B';
          const same =
            got.colIdx.length === want.colIdx.length &&
            got.rowPtr.every((v, k) => v === want.rowPtr[k]) &&
            got.colIdx.every((v, k) => v === want.colIdx[k]) &&
            got.values.every((v, k) => v === want.values[k]);
          if (!same)
            throw new Error(
              `hisparse.add:perturbed ${label}: C differs from hisparseAdd (${got.colIdx.length} vs ${want.colIdx.length} entries)`,
            );
        }
      },
    };
  },
);

export const hisparseCases: readonly NodeCase[] = [
  hisparseAddCase,
  hisparseCase('hisparse.spmv:poisson', 'Poisson 2-D (5 per row), built on the GPU, A·x and Aᵀ·x', (size) =>
    poisson2d(Math.max(1, Math.round(Math.sqrt(size / 5)))),
  ),
  hisparseCase('hisparse.spmv:power-law', 'power law (R-MAT), 16 per row, A·x and Aᵀ·x', (size, seed) =>
    powerLawMatrix({ rows: Math.max(1, size >>> 4), seed }),
  ),
  hisparseCase(
    'hisparse.spmv:region-leaves',
    'uniform random, 4 per row, built on the host with region leaves, A·x and Aᵀ·x',
    (size, seed) => uniformRandomMatrix({ rows: Math.max(1, size >>> 2), nnzPerRow: 4, seed }),
    true,
  ),
];
