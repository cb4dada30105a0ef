// Memory of region leaves at the SpMV suite's sizes (README, "Region leaves"). Not part of the
// test suite (it takes minutes): run with
//   MEASURE=uniform-1M MEASURE_OUT=table.txt npx vitest run --config test/region-memory.config.ts
// MEASURE lists suite names (comma-separated); each prints pool bytes ÷ CSR bytes for d = 64
// without and with region leaves and for nodeSize 'auto' (from one `hisparseCensus`).

import { appendFileSync } from 'node:fs';
import {
  bandedMatrix,
  biasedMatrix,
  type CsrMatrix,
  geometricGraphMatrix,
  poisson2d,
  powerLawMatrix,
  rmatGraphMatrix,
  stencil27,
  uniformRandomMatrix,
} from '@scan/spmv';
import { it } from 'vitest';
import { hisparseCensus } from '../src/cpu/index.js';

/** A suite matrix by name (the bench's generators and parameters, seed 1). */
function suiteMatrix(name: string): CsrMatrix {
  const [family, size] = name.split('-') as [string, string];
  const n = size === '2^20' ? 2 ** 20 : Number.parseFloat(size) * (size.endsWith('M') ? 1e6 : size.endsWith('K') ? 1e3 : 1);
  switch (family) {
    case 'uniform':
      return uniformRandomMatrix({ rows: n, nnzPerRow: 16, seed: 1 });
    case 'powerlaw':
      return powerLawMatrix({ rows: n, nnzPerRow: 16, seed: 1, a: 0.57, b: 0.19, c: 0.19 });
    case 'poisson2d':
      return poisson2d(n);
    case 'banded':
      return bandedMatrix({ n, lower: 4, upper: 4 });
    case 'biased':
      return biasedMatrix(n);
    case 'geometric':
      return geometricGraphMatrix({ rows: n, nnzPerRow: 12, seed: 1 });
    case 'rmat':
      return rmatGraphMatrix({ rows: n, edgeFactor: 16, seed: 1, a: 0.57, b: 0.19, c: 0.19 });
    case 'stencil27':
      return stencil27(n);
    default:
      throw new Error(`unknown matrix ${name}`);
  }
}

/** Prints a line, and appends it to the file MEASURE_OUT names (the runner may hold console output until the end). */
function report(line: string): void {
  console.log(line);
  const out = process.env['MEASURE_OUT'];
  if (out) appendFileSync(out, `${line}\n`);
}

it('region-leaf memory', { timeout: 3_600_000 }, () => {
  report('matrix | nnz | d=64 | d=64 region leaves | auto (choice) | census seconds');
  for (const name of (process.env['MEASURE'] ?? 'uniform-64K').split(',')) {
    const A = suiteMatrix(name);
    const csr = 4 * (A.rows + 1) + 8 * A.colIdx.length;
    const t = performance.now();
    // One census gives every build's exact pool bytes (hisparseMemoryBytes of that build).
    const census = hisparseCensus(A);
    const seconds = ((performance.now() - t) / 1000).toFixed(0);
    const of = (d: number, r: boolean) => census.find((c) => c.nodeSize === d && c.regionLeaves === r)!.memoryBytes / csr;
    const best = census.reduce((a, b) => (b.memoryBytes < a.memoryBytes ? b : a));
    const choice = `${best.nodeSize}${best.regionLeaves ? ' + regions' : ''}`;
    report(
      `${name} | ${A.colIdx.length} | ${of(64, false).toFixed(2)} | ${of(64, true).toFixed(2)} | ${(best.memoryBytes / csr).toFixed(2)} (${choice}) | ${seconds}`,
    );
  }
});
