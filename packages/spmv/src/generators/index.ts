// Seeded matrix generators: the SpMV paper's biased matrices, Poisson stencils, R-MAT power law,
// uniform, banded, empty rows and a general random CSR. All are CPU code on typed arrays and return
// a `CsrMatrix` with sorted, unique columns in every row; the same arguments give the same matrix.

export { type BandedMatrixOptions, bandedMatrix } from './banded.js';
export { type BiasedMatrixOptions, biasedMatrix } from './biased.js';
export { type EmptyRowsMatrixOptions, emptyRowsMatrix } from './empty-rows.js';
export { type GeometricGraphMatrixOptions, geometricGraphMatrix } from './geometric.js';
export { type PerturbedMatrixOptions, perturbedMatrix } from './perturbed.js';
export { poisson2d, poisson3d, stencil27 } from './poisson.js';
export { type PowerLawMatrixOptions, powerLawMatrix } from './power-law.js';
export { type RandomCsrOptions, randomCsr } from './random-csr.js';
export { type RmatGraphMatrixOptions, rmatGraphMatrix } from './rmat-graph.js';
export { type UniformRandomMatrixOptions, uniformRandomMatrix } from './uniform.js';
