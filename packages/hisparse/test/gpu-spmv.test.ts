// The GPU traversal (census, per-type queues sized on the GPU, leaf kernels that add by
// compare-and-swap) against the CPU reference, on dyadic data so every sum is exact whatever the
// order the leaves add in: y = s·op(A)·x for plain, transposed, scaled and transposed-view
// matrices, every generator shape and the edge shapes, node sizes 4 to 256. Statistics and memory
// must equal the CPU's counts exactly.
import type { ScanContext } from '@scan/core';
import { getTestContext } from '@scan/gpu-testing';
import { bandedMatrix, biasedMatrix, type CsrMatrix, poisson2d, powerLawMatrix, uniformRandomMatrix } from '@scan/spmv';
import { beforeAll, describe, expect, it } from 'vitest';
import { hisparseFromCsr, hisparseSpmv, hisparseStats, scale as scaleHost, transpose as transposeHost } from '../src/cpu/index.js';
import { HiSparseMatrix } from '../src/gpu/matrix.js';
import { dyadicVector, randomCsrDyadic } from './oracle.js';

let ctx: ScanContext;
beforeAll(async () => {
  ctx = await getTestContext();
});

/** The pattern of A with dyadic values k/8 (k in ±[1, 16], from the position), so products sum exactly. */
function dyadic(A: CsrMatrix): CsrMatrix {
  const values = new Float32Array(A.values.length);
  for (let k = 0; k < values.length; k++) values[k] = ((((k * 7919) % 32) - 16 || 3) as number) / 8;
  return { ...A, values };
}

// Bits, with −0 read as +0: an empty row of a negatively scaled matrix is s·0 = −0 on the CPU and a cleared +0 on the GPU.
const bits = (a: Float32Array) => Array.from(a, (v) => new Uint32Array(new Float32Array([v === 0 ? 0 : v]).buffer)[0]);

async function expectProducts(A: CsrMatrix, nodeSize: number, label: string): Promise<void> {
  const H = hisparseFromCsr(A, { nodeSize });
  const M = await HiSparseMatrix.fromHost(ctx, H);
  const views: [string, HiSparseMatrix, ReturnType<typeof transposeHost>][] = [
    ['A', M, H],
    ['Aᵀ view', M.transpose(), transposeHost(H)],
    ['-0.5·Aᵀ view', M.transpose().scale(-0.5), scaleHost(transposeHost(H), -0.5)],
  ];
  try {
    for (const [name, G, host] of views) {
      for (const transpose of [false, true]) {
        const x = dyadicVector(transpose ? G.rows : G.cols, A.rows + 3);
        const expected = hisparseSpmv(host, x, { transpose });
        const actual = await G.spmv(x, { transpose });
        expect(bits(actual), `${label} d=${nodeSize} ${name} transpose=${transpose}`).toEqual(bits(expected));
      }
    }
    const stats = hisparseStats(H);
    expect(M.stats(), `${label} d=${nodeSize} stats`).toEqual(stats);
    expect(M.memoryBytes()).toBe(stats.memoryBytes);
  } finally {
    for (const [, G] of views) G.destroy();
  }
}

describe('HiSparseMatrix.spmv against the CPU reference', () => {
  it('edge shapes', async () => {
    const empty = (rows: number, cols: number): CsrMatrix => ({
      rows,
      cols,
      rowPtr: new Uint32Array(rows + 1),
      colIdx: new Uint32Array(0),
      values: new Float32Array(0),
    });
    await expectProducts(empty(0, 0), 4, '0×0');
    await expectProducts(empty(5, 9), 4, 'no entries');
    await expectProducts(randomCsrDyadic(1, 1, 1, 1), 4, '1×1');
    await expectProducts(randomCsrDyadic(37, 300, 500, 2), 4, 'non-square');
    await expectProducts(randomCsrDyadic(300, 37, 500, 3), 16, 'non-square, tall');
    await expectProducts(randomCsrDyadic(20, 20, 400, 4), 4, 'dense (dense leaves and inner nodes)');
    const row = randomCsrDyadic(1, 700, 700, 5);
    await expectProducts(
      { ...row, rows: 70, rowPtr: Uint32Array.from({ length: 71 }, (_, r) => (r <= 33 ? 0 : row.colIdx.length)) },
      32,
      'one full row',
    );
  });

  it('generators at several node sizes', async () => {
    await expectProducts(dyadic(poisson2d(24)), 4, 'poisson2d');
    await expectProducts(dyadic(poisson2d(24)), 32, 'poisson2d');
    await expectProducts(dyadic(biasedMatrix(3000, { seed: 3 })), 16, 'biased');
    await expectProducts(dyadic(powerLawMatrix({ rows: 2048, nnzPerRow: 6, seed: 4 })), 32, 'power law');
    await expectProducts(dyadic(uniformRandomMatrix({ rows: 1500, cols: 900, nnzPerRow: 6, seed: 5 })), 8, 'uniform');
    await expectProducts(dyadic(bandedMatrix({ n: 2500, lower: 2, upper: 3, seed: 6 })), 256, 'banded');
  });
});
