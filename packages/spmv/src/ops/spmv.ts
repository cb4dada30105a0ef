import type { ScanContext } from '@scan/core';
import { assertUsable, withSession } from '@scan/core/kit';
import { createSpmvPlan } from '../plans/spmv-plan.js';
import type { CsrMatrix, SpmmOptions, SpmvOptions } from '../types.js';
import { checkCsr, normalizeSpmmOptions, normalizeSpmvOptions } from '../validate.js';

/**
 * Computes `alpha·op(A)·x + beta·y` on the GPU in f32 (op(A) = A, or Aᵀ with `transpose`) and
 * resolves to a new array; A, x and y are untouched. Empty matrices and empty rows are fine (an
 * empty row gives `beta·y`). For repeated products with one matrix, make a plan
 * (`createSpmvPlan`) instead: this uploads and analyses A on every call.
 *
 * Algorithms: `'auto'` (default) picks from the row-length statistics, `'row'`, `'segmented'`
 * (Sengupta et al. 2007), `'branchless'` (the index-based segmented scan), `'merge'` (merge path).
 *
 * @example
 * ```ts
 * const A = { rows: 2, cols: 3, rowPtr: new Uint32Array([0, 2, 3]), colIdx: new Uint32Array([0, 2, 1]), values: new Float32Array([1, 2, 3]) };
 * await spmv(ctx, A, new Float32Array([1, 1, 1])); // Float32Array [3, 3]
 * await spmv(ctx, A, new Float32Array([1, 1]), { transpose: true }); // Float32Array [1, 3, 2]
 * ```
 */
export async function spmv(ctx: ScanContext, A: CsrMatrix, x: Float32Array, options: SpmvOptions = {}): Promise<Float32Array> {
  assertUsable(ctx);
  checkCsr(A, 'A');
  const o = normalizeSpmvOptions(A, x, options);
  const outLength = o.transpose ? A.cols : A.rows;
  if (outLength === 0) return new Float32Array(0);
  return withSession(ctx, 'spmv', async (s) => {
    const plan = await s.plan(createSpmvPlan(ctx, A, { algorithm: o.algorithm, transpose: o.transpose }));
    const xBuffer = s.upload(x, 'x');
    const yBuffer = o.y && o.beta !== 0 ? s.upload(o.y, 'y') : s.buffer(4 * outLength, 'y');
    plan.encode(s.encoder, { x: xBuffer, y: yBuffer, alpha: o.alpha, beta: o.beta });
    const read = s.readback(yBuffer, 4 * outLength);
    s.submit();
    return new Float32Array(await read());
  });
}

/**
 * `op(A)·X` for a dense X of `k` columns, row-major (entry (i, j) at `i·k + j`), on the GPU in f32:
 * one pass over A serves up to 8 columns at once (graph and GNN feature propagation). Resolves to a
 * row-major array of `rows·k` values (`cols·k` with `transpose`).
 *
 * @example
 * ```ts
 * const A = { rows: 2, cols: 2, rowPtr: new Uint32Array([0, 1, 2]), colIdx: new Uint32Array([1, 0]), values: new Float32Array([2, 3]) };
 * await spmm(ctx, A, new Float32Array([1, 10, 2, 20]), { k: 2 }); // Float32Array [4, 40, 3, 30]
 * ```
 */
export async function spmm(ctx: ScanContext, A: CsrMatrix, X: Float32Array, options: SpmmOptions): Promise<Float32Array> {
  assertUsable(ctx);
  checkCsr(A, 'A');
  const o = normalizeSpmmOptions(A, X, options);
  const outLength = (o.transpose ? A.cols : A.rows) * o.k;
  if (outLength === 0) return new Float32Array(0);
  return withSession(ctx, 'spmm', async (s) => {
    const plan = await s.plan(createSpmvPlan(ctx, A, { transpose: o.transpose, k: o.k }));
    const xBuffer = s.upload(X, 'X');
    const yBuffer = s.buffer(4 * outLength, 'Y');
    plan.encode(s.encoder, { x: xBuffer, y: yBuffer });
    const read = s.readback(yBuffer, 4 * outLength);
    s.submit();
    return new Float32Array(await read());
  });
}
