import type { Plan } from '@scan/core';

/**
 * How the `batch` systems of `n` unknowns lie in each of the arrays `a`, `b`, `c`, `d` and `x`:
 * - `'contiguous'`: element i of system s at `s·n + i` (rows of a row-major grid);
 * - `'interleaved'`: element i of system s at `i·batch + s` (columns of a row-major grid), so a
 *   column sweep of an ADI step needs no transpose.
 *
 * @example
 * ```ts
 * const stride: TridiagonalLayout = 'interleaved'; // x of system s, row i at i·batch + s
 * ```
 */
export type TridiagonalLayout = 'contiguous' | 'interleaved';

/**
 * Solver algorithm: `'cr'` cyclic reduction (Sengupta et al. 2007, §4.3), `'pcr'` parallel cyclic
 * reduction, `'cr-pcr'` the hybrid of Zhang, Cohen and Owens 2010, `'partition'` the partition
 * method (blocks of 8 rows eliminated in registers, their reduced system solved by `'cr-pcr'`; for
 * contiguous systems with n a multiple of 4 whose reduced system fits a workgroup — other shapes
 * run `'cr-pcr'`),
 * `'auto'` picks by shape.
 *
 * @example
 * ```ts
 * await solveTridiagonal(ctx, systems, { algorithm: 'pcr' satisfies TridiagonalAlgorithm });
 * ```
 */
export type TridiagonalAlgorithm = 'auto' | 'cr' | 'pcr' | 'cr-pcr' | 'partition';

/**
 * `batch` independent systems of `n` unknowns: a_i·x_{i−1} + b_i·x_i + c_i·x_{i+1} = d_i.
 * `a` is the sub-diagonal (a_0 of each system is ignored), `b` the diagonal, `c` the
 * super-diagonal (c_{n−1} is ignored), `d` the right-hand side; each holds `n·batch` values.
 *
 * @example
 * ```ts
 * const systems: TridiagonalSystems = { a: sub, b: diag, c: sup, d: rhs, n: 1024, batch: 64, stride: 'contiguous' };
 * ```
 */
export interface TridiagonalSystems {
  a: Float32Array;
  b: Float32Array;
  c: Float32Array;
  d: Float32Array;
  n: number;
  batch: number;
  /**
   * Layout of all five arrays (default `'contiguous'`). It belongs here, in the systems, not in
   * the options of `solveTridiagonal` (those hold only `algorithm`).
   */
  stride?: TridiagonalLayout;
}

/**
 * Options of `createTridiagonalPlan`: the shape every `encode` call solves.
 *
 * @example
 * ```ts
 * const options: TridiagonalPlanOptions = { n: 128, batch: 128, stride: 'interleaved', algorithm: 'cr-pcr' };
 * ```
 */
export interface TridiagonalPlanOptions {
  /** Unknowns per system, ≥ 1. */
  n: number;
  /** Number of systems, ≥ 1. */
  batch: number;
  /** Layout of the five buffers of every encode (default `'contiguous'`); `solveTridiagonal` takes it in `systems` instead. */
  stride?: TridiagonalLayout;
  /** Algorithm (default `'auto'`). */
  algorithm?: TridiagonalAlgorithm;
}

/**
 * Buffers of one solve, each `n·batch` f32 values in the plan's layout, bound from offset 0.
 * `a`, `b`, `c`, `d` are read only (never modified); `x` receives the solution and must not alias
 * them.
 *
 * @example
 * ```ts
 * plan.encode(encoder, { a: sub, b: diag, c: sup, d: rhs, x, status } satisfies TridiagonalEncodeArgs);
 * ```
 */
export interface TridiagonalEncodeArgs {
  a: GPUBuffer;
  b: GPUBuffer;
  c: GPUBuffer;
  d: GPUBuffer;
  x: GPUBuffer;
  /**
   * Optional u32 buffer (≥ 4 bytes, STORAGE usage) that the solve leaves holding the smallest index
   * of a system that met a zero pivot, or 0xffffffff when none did. The caller fills it with
   * 0xffffffff before the first solve (the plan only lowers it), so one read-back can cover many solves.
   */
  status?: GPUBuffer;
}

/**
 * A reusable solver for one shape: records solves into the caller's encoder.
 *
 * @example
 * ```ts
 * const plan: TridiagonalPlan = createTridiagonalPlan(ctx, { n: 1024, batch: 4096 });
 * plan.algorithm; // 'partition'
 * ```
 */
export interface TridiagonalPlan extends Plan<TridiagonalEncodeArgs> {
  readonly n: number;
  readonly batch: number;
  readonly stride: TridiagonalLayout;
  /** The algorithm that runs: `'auto'` resolved, and `'partition'` reported as `'cr-pcr'` where it does not apply. */
  readonly algorithm: Exclude<TridiagonalAlgorithm, 'auto'>;
}

/**
 * Every concrete algorithm, in a stable order.
 *
 * @example
 * ```ts
 * for (const algorithm of TRIDIAGONAL_ALGORITHMS) await solveTridiagonal(ctx, systems, { algorithm });
 * ```
 */
export const TRIDIAGONAL_ALGORITHMS: readonly Exclude<TridiagonalAlgorithm, 'auto'>[] = ['cr', 'pcr', 'cr-pcr', 'partition'];

/**
 * Both layouts, in a stable order.
 *
 * @example
 * ```ts
 * TRIDIAGONAL_LAYOUTS; // ['contiguous', 'interleaved']
 * ```
 */
export const TRIDIAGONAL_LAYOUTS: readonly TridiagonalLayout[] = ['contiguous', 'interleaved'];

/**
 * Options of `solveTridiagonal` (GPU; the CPU reference accepts and ignores `algorithm`). The
 * layout is not an option: it is `systems.stride` (see {@link TridiagonalSystems}).
 *
 * @example
 * ```ts
 * await solveTridiagonal(ctx, systems, { algorithm: 'cr' } satisfies TridiagonalSolveOptions);
 * ```
 */
export interface TridiagonalSolveOptions {
  /** Algorithm (default `'auto'`, which resolves to `'cr-pcr'`). */
  algorithm?: TridiagonalAlgorithm;
}

/**
 * What `tridiagonalResidual` returns: the largest |A·x − d| of each system and of all of them.
 *
 * @example
 * ```ts
 * const { max, perSystem }: TridiagonalResidual = tridiagonalResidual(systems, x);
 * ```
 */
export interface TridiagonalResidual {
  /** max over i of |a_i·x_{i−1} + b_i·x_i + c_i·x_{i+1} − d_i| for each system (computed in f64). */
  readonly perSystem: Float64Array;
  /** The largest entry of `perSystem` (0 for no systems). */
  readonly max: number;
}
