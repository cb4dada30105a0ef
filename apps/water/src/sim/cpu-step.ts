/**
 * Solves one tridiagonal system with the Thomas algorithm in f64: element i of the system is at
 * `offset + i·stride` of each array; a_0 and c_{n−1} are ignored. Writes the solution into `x`.
 *
 * @example
 * ```ts
 * thomas(a, b, c, d, x, n, rowStart, 1); // a row of a row-major grid
 * thomas(a, b, c, d, x, n, column, n); // a column
 * ```
 */
export function thomas(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  c: ArrayLike<number>,
  d: ArrayLike<number>,
  x: { [i: number]: number },
  n: number,
  offset: number,
  stride: number,
): void {
  const cp = new Float64Array(n);
  const dp = new Float64Array(n);
  const at = (i: number) => offset + i * stride;
  cp[0] = c[at(0)]! / b[at(0)]!;
  dp[0] = d[at(0)]! / b[at(0)]!;
  for (let i = 1; i < n; i++) {
    const m = b[at(i)]! - a[at(i)]! * cp[i - 1]!;
    cp[i] = c[at(i)]! / m;
    dp[i] = (d[at(i)]! - a[at(i)]! * dp[i - 1]!) / m;
  }
  x[at(n - 1)] = dp[n - 1]!;
  for (let i = n - 2; i >= 0; i--) x[at(i)] = dp[i]! - cp[i]! * (x[at(i + 1)] as number);
}

/** The state and constants of one step of {@link cpuAdiStep}. */
export interface CpuStepInput {
  size: number;
  /** hⁿ⁻¹, N·N row-major. */
  height: ArrayLike<number>;
  /** hⁿ⁻², N·N row-major. */
  previous: ArrayLike<number>;
  bottom: ArrayLike<number>;
  g: number;
  dt: number;
  dx: number;
  /** Default 0. */
  damping?: number;
}

/**
 * The tridiagonal coefficients of one sweep over the grid (same formulas and layout as the WGSL
 * kernel in `kernels.ts`): `lower`, `diag`, `upper` at the cell index, for systems along the rows
 * (`step` 1) or the columns (`step` N).
 */
export function cpuCoefficients(
  input: CpuStepInput,
  axis: 'rows' | 'columns',
): { lower: Float64Array; diag: Float64Array; upper: Float64Array } {
  const n = input.size;
  const k = (input.g * input.dt * input.dt) / (2 * input.dx * input.dx);
  const depth = (i: number) => Math.max(input.height[i]! - input.bottom[i]!, 0);
  const lower = new Float64Array(n * n);
  const diag = new Float64Array(n * n);
  const upper = new Float64Array(n * n);
  const next = axis === 'rows' ? 1 : n;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const i = y * n + x;
      const p = axis === 'rows' ? x : y;
      const d = depth(i);
      const below = p > 0 ? k * (depth(i - next) + d) : 0;
      const above = p + 1 < n ? k * (d + depth(i + next)) : 0;
      lower[i] = -below;
      upper[i] = -above;
      diag[i] = 1 + below + above;
    }
  }
  return { lower, diag, upper };
}

/**
 * One Kass & Miller ADI step on the CPU in f64, the reference the GPU step is tested against:
 * row solves with the right-hand side hⁿ⁻¹ + (1 − damping)(hⁿ⁻¹ − hⁿ⁻²), then column solves whose
 * right-hand side is the row solution; both sweeps take their depth from hⁿ⁻¹.
 *
 * @example
 * ```ts
 * const { next } = cpuAdiStep({ size: 16, height, previous: height, bottom, g: 9.81, dt: 0.25, dx: 1 });
 * ```
 */
export function cpuAdiStep(input: CpuStepInput): { half: Float64Array; next: Float64Array } {
  const n = input.size;
  const keep = 1 - (input.damping ?? 0);
  const rhs = new Float64Array(n * n);
  for (let i = 0; i < n * n; i++) rhs[i] = input.height[i]! + keep * (input.height[i]! - input.previous[i]!);
  const half = new Float64Array(n * n);
  const rows = cpuCoefficients(input, 'rows');
  for (let y = 0; y < n; y++) thomas(rows.lower, rows.diag, rows.upper, rhs, half, n, y * n, 1);
  const next = new Float64Array(n * n);
  const columns = cpuCoefficients(input, 'columns');
  for (let x = 0; x < n; x++) thomas(columns.lower, columns.diag, columns.upper, half, next, n, x, n);
  return { half, next };
}
