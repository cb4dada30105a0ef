import type { ScanContext } from '@scan/core';
import { assertUsable, checkArrayLength, withSession } from '@scan/core/kit';
import { createTridiagonalPlan } from '../plans/tridiagonal-plan.js';
import type { TridiagonalSolveOptions, TridiagonalSystems } from '../types.js';
import { checkSolveOptions, checkSystems, zeroPivotError } from '../validate.js';

/** The status word's value when no system met a zero pivot. */
export const NO_FAILURE = 0xffffffff;

/**
 * Solves `batch` tridiagonal systems of `n` unknowns on the GPU and resolves to the `n·batch`
 * unknowns in the systems' layout. `a` is the sub-diagonal (`a_0` ignored), `b` the diagonal, `c`
 * the super-diagonal (`c_{n−1}` ignored), `d` the right-hand side, all `Float32Array`s of `n·batch`
 * values; they are not modified.
 *
 * The layout is `systems.stride` — a field of the first argument, beside `n` and `batch`:
 * `'contiguous'` (default; element i of system s at `s·n + i`) or `'interleaved'` (at
 * `i·batch + s`). It describes the data, so it travels with the arrays; `options` holds only
 * `algorithm`, and a `stride` there is rejected as an unknown option. (`createTridiagonalPlan`,
 * which gets no arrays, takes `stride` in its options.)
 * `options.algorithm`: `'cr'`, `'pcr'`, `'cr-pcr'`, `'partition'` or `'auto'` (default: the
 * partition method where it applies, else the CR+PCR hybrid).
 *
 * No pivoting is done: the systems should be diagonally dominant. A zero pivot or a non-finite
 * solution rejects with an `INVALID_ARGUMENT` `ScanError` naming the first system that met it.
 * Bad arguments throw `INVALID_ARGUMENT`; arrays past one storage binding of the device are
 * `TOO_LARGE`, naming `systems.a` and its length, before any GPU work.
 *
 * @example
 * ```ts
 * // 2x0 + x1 = 3, x0 + 2x1 + x2 = 4, x1 + 2x2 = 3  →  x = [1, 1, 1]
 * const x = await solveTridiagonal(ctx, {
 *   a: new Float32Array([0, 1, 1]), b: new Float32Array([2, 2, 2]),
 *   c: new Float32Array([1, 1, 0]), d: new Float32Array([3, 4, 3]), n: 3, batch: 1,
 * }, { algorithm: 'cr' }); // Float32Array [1, 1, 1]
 * // Columns of a row-major grid: the layout goes in the systems, the algorithm in the options.
 * const columns = await solveTridiagonal(ctx, { a: sub, b: diag, c: sup, d: rhs, n: 64, batch: 64, stride: 'interleaved' }, { algorithm: 'auto' });
 * ```
 */
export async function solveTridiagonal(
  ctx: ScanContext,
  systems: TridiagonalSystems,
  options?: TridiagonalSolveOptions,
): Promise<Float32Array> {
  assertUsable(ctx);
  const { a, b, c, d, n, batch, stride } = checkSystems(systems);
  const algorithm = checkSolveOptions(options);
  // The four arrays have n·batch values each (checkSystems): the first one names them all.
  checkArrayLength(ctx, n * batch, 'systems.a');
  const bytes = 4 * n * batch;
  const { x, failed } = await withSession(ctx, 'solveTridiagonal', async (s) => {
    const plan = await s.plan(createTridiagonalPlan(ctx, { n, batch, stride, algorithm }));
    const buffers = {
      a: s.upload(a, 'tridiagonal a'),
      b: s.upload(b, 'tridiagonal b'),
      c: s.upload(c, 'tridiagonal c'),
      d: s.upload(d, 'tridiagonal d'),
      x: s.buffer(bytes, 'tridiagonal x'),
      status: s.upload(new Uint32Array([NO_FAILURE]), 'tridiagonal status'),
    };
    plan.encode(s.encoder, buffers);
    const readX = s.readback(buffers.x, bytes);
    const readStatus = s.readback(buffers.status, 4);
    s.submit();
    const [xBytes, statusBytes] = await Promise.all([readX(), readStatus()]);
    return { x: new Float32Array(xBytes), failed: new Uint32Array(statusBytes)[0] as number };
  });
  if (failed !== NO_FAILURE) throw zeroPivotError(failed);
  return x;
}
