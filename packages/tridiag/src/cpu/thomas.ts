import type { TridiagonalResidual, TridiagonalSolveOptions, TridiagonalSystems } from '../types.js';
import { checkSolveOptions, checkSystems, elementIndex, invalidTridiagonalArgument, zeroPivotError } from '../validate.js';

/**
 * Solves `batch` tridiagonal systems of `n` unknowns on the CPU with the Thomas algorithm (Gaussian
 * elimination without pivoting, O(n) per system), in f64 internally, rounding the solution to f32.
 * `a_0` and `c_{n−1}` of each system are ignored. The layout is `systems.stride` (`'contiguous'` by
 * default, or `'interleaved'`), as in the GPU function. `options.algorithm` is validated and
 * ignored, so the same call works against the GPU function.
 *
 * No pivoting is done: the systems should be diagonally dominant (|b_i| ≥ |a_i| + |c_i|, strictly
 * in at least one row) or otherwise stable without it. A zero pivot or a non-finite solution
 * throws an `INVALID_ARGUMENT` `ScanError` naming the first system that met it.
 *
 * @example
 * ```ts
 * // 2x0 + x1 = 3, x0 + 2x1 + x2 = 4, x1 + 2x2 = 3  →  x = [1, 1, 1]
 * solveTridiagonal({
 *   a: new Float32Array([0, 1, 1]), b: new Float32Array([2, 2, 2]),
 *   c: new Float32Array([1, 1, 0]), d: new Float32Array([3, 4, 3]), n: 3, batch: 1,
 * }); // Float32Array [1, 1, 1]
 * ```
 */
export function solveTridiagonal(systems: TridiagonalSystems, options?: TridiagonalSolveOptions): Float32Array {
  const { a, b, c, d, n, batch, stride } = checkSystems(systems);
  checkSolveOptions(options);
  const x = new Float32Array(n * batch);
  const cp = new Float64Array(n);
  const dp = new Float64Array(n);
  const xs = new Float64Array(n);
  for (let s = 0; s < batch; s++) {
    const at = (i: number) => elementIndex(stride, s, i, n, batch);
    // Forward sweep: c'_i = c_i / (b_i − a_i c'_{i−1}), d'_i = (d_i − a_i d'_{i−1}) / (same).
    for (let i = 0; i < n; i++) {
      const k = at(i);
      const ai = i === 0 ? 0 : (a[k] as number);
      const ci = i === n - 1 ? 0 : (c[k] as number);
      const pivot = (b[k] as number) - (i === 0 ? 0 : ai * (cp[i - 1] as number));
      if (pivot === 0 || !Number.isFinite(pivot)) throw zeroPivotError(s);
      cp[i] = ci / pivot;
      dp[i] = ((d[k] as number) - (i === 0 ? 0 : ai * (dp[i - 1] as number))) / pivot;
    }
    // Back substitution.
    for (let i = n - 1; i >= 0; i--) {
      const value = (dp[i] as number) - (i === n - 1 ? 0 : (cp[i] as number) * (xs[i + 1] as number));
      xs[i] = value;
    }
    for (let i = 0; i < n; i++) {
      const value = Math.fround(xs[i] as number);
      if (!Number.isFinite(value)) throw zeroPivotError(s);
      x[at(i)] = value;
    }
  }
  return x;
}

/**
 * The residual of a solution: for each system the largest |a_i·x_{i−1} + b_i·x_i + c_i·x_{i+1} − d_i|
 * over its equations (absolute, computed in f64 from the f32 inputs, `a_0` and `c_{n−1}` ignored),
 * and the largest of those over all systems. `x` holds `n·batch` values in the systems' layout.
 * A non-finite `x_i` gives a NaN or infinite residual, which `max` propagates.
 *
 * @example
 * ```ts
 * import { solveTridiagonal, tridiagonalResidual } from '@scan/tridiag';
 * const [n, batch] = [1024, 16];
 * const fill = (v: number) => new Float32Array(n * batch).fill(v);
 * const systems = { a: fill(1), b: fill(4), c: fill(1), d: fill(6), n, batch };
 * const x = await solveTridiagonal(ctx, systems);
 * const { max, perSystem } = tridiagonalResidual(systems, x);
 * ```
 */
export function tridiagonalResidual(systems: TridiagonalSystems, x: Float32Array): TridiagonalResidual {
  const { a, b, c, d, n, batch, stride } = checkSystems(systems);
  if (!(x instanceof Float32Array)) invalidTridiagonalArgument('x', x, 'expected a Float32Array');
  if (x.length !== n * batch) invalidTridiagonalArgument('x', x, `length ${x.length} does not match n·batch = ${n * batch}`);
  const perSystem = new Float64Array(batch);
  let max = 0;
  for (let s = 0; s < batch; s++) {
    let worst = 0;
    for (let i = 0; i < n; i++) {
      const k = elementIndex(stride, s, i, n, batch);
      let r = (b[k] as number) * (x[k] as number) - (d[k] as number);
      if (i > 0) r += (a[k] as number) * (x[elementIndex(stride, s, i - 1, n, batch)] as number);
      if (i < n - 1) r += (c[k] as number) * (x[elementIndex(stride, s, i + 1, n, batch)] as number);
      const e = Math.abs(r);
      if (!(e <= worst)) worst = e; // NaN sticks
    }
    perSystem[s] = worst;
    if (!(worst <= max)) max = worst;
  }
  return { perSystem, max };
}
