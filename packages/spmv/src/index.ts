/**
 * `@scan/spmv`: sparse matrix–vector products on WebGPU. CSR and COO matrices, Matrix Market
 * reading and writing, seeded generators (the SpMV paper's biased matrices, Poisson, R-MAT power
 * law, uniform, banded, empty rows), and `y ← alpha·op(A)·x + beta·y` by four algorithms — row-wise
 * (CSR-vector), the segmented-scan method of Sengupta et al. 2007, the branchless index-based
 * segmented scan, and merge path — with `'auto'` choosing from the matrix's row-length statistics.
 * Transposed products, several right-hand sides (`spmm`), plans that upload and analyse a matrix
 * once, and CPU references in `@scan/spmv/cpu` (f64 accumulation). `@scan/spmv/node` reads and
 * writes `.mtx` files in Node, streaming.
 *
 * @packageDocumentation
 */

export { cooToCsr, csrStats, csrToCoo } from './convert.js';
export {
  type BandedMatrixOptions,
  type BiasedMatrixOptions,
  bandedMatrix,
  biasedMatrix,
  type EmptyRowsMatrixOptions,
  emptyRowsMatrix,
  type GeometricGraphMatrixOptions,
  geometricGraphMatrix,
  type PerturbedMatrixOptions,
  type PowerLawMatrixOptions,
  perturbedMatrix,
  poisson2d,
  poisson3d,
  powerLawMatrix,
  type RandomCsrOptions,
  type RmatGraphMatrixOptions,
  randomCsr,
  rmatGraphMatrix,
  stencil27,
  type UniformRandomMatrixOptions,
  uniformRandomMatrix,
} from './generators/index.js';
export {
  type MatrixMarketField,
  type MatrixMarketHeader,
  MatrixMarketParser,
  type MatrixMarketParserOptions,
  type MatrixMarketSymmetry,
  matrixMarketChunks,
  readMatrixMarket,
  type WriteMatrixMarketOptions,
  writeMatrixMarket,
} from './matrix-market/index.js';
export { spmm, spmv } from './ops/spmv.js';
export { transposeCsr } from './ops/transpose.js';
export { gpuCsrStats } from './plans/gpu-stats.js';
export { createSpmvPlan } from './plans/spmv-plan.js';
export {
  type CooMatrix,
  type CsrMatrix,
  type CsrStats,
  type GpuCsrMatrix,
  SPMV_ALGORITHMS,
  type SpmmOptions,
  type SpmvAlgorithm,
  type SpmvEncodeArgs,
  type SpmvOptions,
  type SpmvPlan,
  type SpmvPlanOptions,
} from './types.js';
