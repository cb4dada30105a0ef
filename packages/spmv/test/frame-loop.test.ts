// Every SpMV plan encoded the way a real-time application (or an iterative solver) does: new alpha
// and beta every frame — beta ≠ 0 in the warm-up, then beta = 0 (y not read) too — and x and y
// swapping buffers, 1,000
// frames, with the device's buffer, bind group and pipeline creations counted (see runFrameLoop).
// In steady state a plan creates nothing; it holds no more than its documented memory; after
// destroy() it leaves nothing alive. Then several products of one plan recorded into one encoder,
// each checked against the CPU reference.
import { bufferOf, createRng, getTestContext, poisoned, runBatch, runFrameLoop } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { spmv as cpuSpmv, transposeCsr as cpuTranspose, spmvErrorBound } from '../src/cpu/index.js';
import { biasedMatrix, poisson2d } from '../src/generators/index.js';
import { createSpmvPlan } from '../src/plans/spmv-plan.js';
import type { CsrMatrix, SpmvAlgorithm, SpmvPlan } from '../src/types.js';
import { expectCloseToReference, randomVector } from './spmv-oracle.js';

const NOTHING = { buffers: 0, bindGroups: 0, pipelines: 0 };

/** A skewed square matrix (row 0 holds n entries, the others one): several segment vectors and tiles. */
const BIASED = biasedMatrix(700, { seed: 5 });
/** A regular one, on which `'auto'` chooses `'row'`. */
const REGULAR = poisson2d(24);

interface LoopCase {
  algorithm: SpmvAlgorithm;
  k: number;
  A: CsrMatrix;
  transpose?: boolean;
}

const CASES: LoopCase[] = [
  ...(['row', 'segmented', 'branchless', 'merge', 'auto'] as const).flatMap((algorithm) =>
    // k = 9: two blocks of right-hand sides (8 + 1); the 2007 method takes k = 1 only.
    (algorithm === 'segmented' ? [1] : [1, 9]).map((k) => ({ algorithm, k, A: BIASED })),
  ),
  { algorithm: 'auto', k: 4, A: REGULAR },
  { algorithm: 'row', k: 1, A: BIASED, transpose: true },
];

/** Bytes of a parameter ring: 4 slots of `blocks` (rounded up to a power of two) 256-byte blocks. */
const ring = (blocks: number) => 4 * 2 ** Math.ceil(Math.log2(blocks)) * 256;
/** The segmented scan's buffers over `count` elements: 256-byte aux, a status line per 4096 plus one, a ring. */
const scanBytes = (count: number) => 256 + 128 * (Math.ceil(count / 4096) + 1) + ring(1);

/**
 * What `createSpmvPlan`'s JSDoc says a plan holds, for op(A) = `M` (rows, nnz) with k right-hand
 * sides: the matrix, the algorithm's analysis and scratch, the inner scan, a ring per part (every
 * buffer rounded up to 16 bytes: `slack` per buffer).
 */
function documentedBound(algorithm: string, M: CsrMatrix, k: number): { buffers: number; bytes: number } {
  const nnz = M.colIdx.length;
  const blocks = Math.ceil(k / 8);
  const matrix = 4 * (M.rows + 1) + 8 * nnz;
  const slack = (buffers: number) => 16 * buffers;
  switch (algorithm) {
    case 'row':
      return { buffers: 4, bytes: matrix + ring(blocks) + slack(4) };
    case 'segmented':
      // Head bits, products and their scan; the scan's aux, status and ring.
      return { buffers: 10, bytes: matrix + nnz / 8 + 8 * nnz + ring(1) + scanBytes(nnz) + slack(10) };
    case 'branchless': {
      // Indices (a byte per nonzero), flags (a bit per vector sum), vector info (two words per
      // vector), run sums and carries (12 bytes per vector sum); the scan of the vector sums.
      const sums = Math.ceil(nnz / 256) * k;
      const analysis = nnz + sums / 8 + 8 * (sums / k + 1);
      return { buffers: 12, bytes: matrix + analysis + 12 * sums + ring(blocks) + scanBytes(sums) + slack(12) };
    }
    case 'merge': {
      // Coordinates (8 bytes per tile), carry rows and sums per column width (tiles of 256 items at least).
      const tiles = Math.ceil((M.rows + nnz) / 256);
      const widths = k > 8 && k % 8 !== 0 ? 2 : 1;
      return { buffers: 6 + widths, bytes: matrix + 8 * (tiles + 1) + 4 * tiles * (1 + Math.min(k, 8) + 1) + ring(blocks) + slack(8) };
    }
    default:
      throw new Error(`no bound for ${algorithm}`);
  }
}

/** A random alpha and beta: beta is 0 (y not read) a third of the time. */
function scalars(rng: ReturnType<typeof createRng>): { alpha: number; beta: number } {
  const alpha = rng.int(-64, 64) / 16;
  const beta = rng.float() < 1 / 3 ? 0 : rng.int(-64, 64) / 16;
  return { alpha, beta };
}

describe('spmv plans in a frame loop', async () => {
  const ctx = await getTestContext();
  for (const c of CASES) {
    const name = `${c.algorithm}, k = ${c.k}${c.transpose ? ', transposed' : ''}, ${c.A === BIASED ? 'biased' : 'poisson'}`;
    it(`${name}: 1,000 frames with random alpha, beta and swapping x, y create nothing; destroy() frees everything`, async () => {
      // x and y swap every frame (an iterative method's ping-pong): two pairs of buffers.
      const n = Math.max(c.A.rows, c.A.cols) * c.k;
      const vectors = [bufferOf(ctx, randomVector(n, 1)), bufferOf(ctx, randomVector(n, 2))] as const;
      const rng = createRng(c.k * 31 + c.algorithm.length);
      let plan: SpmvPlan | undefined;
      let memoryAtEnd = 0;
      try {
        const counts = await runFrameLoop(ctx.device, {
          create: () => {
            plan = createSpmvPlan(ctx, c.A, { algorithm: c.algorithm, k: c.k, transpose: c.transpose ?? false });
            return plan;
          },
          encode: (p, encoder, frame) => {
            // The warm-up visits both pairs of buffers with beta ≠ 0 only (a solver's first
            // iterations); the counted frames then start with beta = 0 and go on with random
            // scalars, 0 a third of the time: the plan made the bind groups of both when it met
            // each pair, so new scalars create nothing.
            const { alpha, beta } =
              frame < 16 ? { alpha: 1 + frame, beta: 1 + frame / 16 } : frame < 18 ? { alpha: -1, beta: 0 } : scalars(rng);
            const [x, y] = frame % 2 === 0 ? vectors : [vectors[1], vectors[0]];
            p.encode(encoder, { x, y, alpha, beta });
            memoryAtEnd = p.memoryBytes;
          },
        });
        expect(counts.steady, `${name}: created during the counted frames`).toEqual(NOTHING);
        expect(counts.liveAfterDestroy, `${name}: buffers left after destroy()`).toBe(0);
        const M = c.transpose ? cpuTranspose(c.A) : c.A;
        const bound = documentedBound(plan?.algorithm ?? '', M, c.k);
        expect(counts.liveAtEnd, `${name}: buffers held`).toBe(bound.buffers);
        expect(memoryAtEnd, `${name}: bytes held`).toBeLessThanOrEqual(bound.bytes);
      } finally {
        for (const b of vectors) b.destroy();
      }
    });
  }
});

describe('several products of one plan before one submit', async () => {
  const ctx = await getTestContext();
  for (const algorithm of ['row', 'segmented', 'branchless', 'merge'] as const) {
    it(`${algorithm}: eight products (past the parameter slots), each with its own x, y, alpha and beta`, async () => {
      const A = BIASED;
      const plan = createSpmvPlan(ctx, A, { algorithm });
      await plan.ready;
      const rng = createRng(algorithm.length);
      const runs = Array.from({ length: 8 }, (_, i) => ({
        x: randomVector(A.cols, 100 + i),
        y: randomVector(A.rows, 200 + i),
        ...(i === 0 ? { alpha: 1, beta: 0 } : i === 1 ? { alpha: -2, beta: 1 } : scalars(rng)),
      }));
      const inputs: GPUBuffer[] = [];
      const results = await runBatch(
        ctx,
        runs.map((run) => ({
          record(encoder) {
            // y holds its values where beta ≠ 0 and the poison sentinel where it must not be read.
            const y = run.beta !== 0 ? bufferOf(ctx, run.y) : poisoned(ctx, 4 * A.rows);
            const x = bufferOf(ctx, run.x);
            inputs.push(x);
            plan.encode(encoder, { x, y, alpha: run.alpha, beta: run.beta });
            return [{ buffer: y, bytes: 4 * A.rows }];
          },
        })),
        inputs,
      );
      runs.forEach((run, i) => {
        const options = { alpha: run.alpha, beta: run.beta, ...(run.beta !== 0 ? { y: run.y } : {}) };
        const actual = new Float32Array(results[i]![0]!);
        expectCloseToReference(actual, cpuSpmv(A, run.x, options), spmvErrorBound(A, run.x, options), `${algorithm} product ${i}`);
      });
      plan.destroy();
    });
  }
});
