// The SpMV matrix suite: names such as `biased-1M` map to a family and a size, and every shape
// (rows, columns, nonzeros) follows from them in closed form, so the parent knows each case's size
// without generating anything. The child generates the same matrices on the GPU
// (child/kernels/spmv-generate.ts); cuda/spmv.py builds them again with CuPy. The families of
// HiSparse's workload (stencil27, geometric, rmat: HOST_FAMILIES) are generated on the host by
// `@scan/spmv` (spmv-host-matrix.ts) and uploaded; cuda/spmv.py loads the very same arrays, written
// by `dist/matrix-export.js`. No Node module here:
// a browser bundle (the dashboard) imports this file; reading `.mtx` files is in spmv-mtx-file.ts.

/** Matrix families of the suite; a name is `<family>-<size>`. */
export const MATRIX_FAMILIES = ['poisson2d', 'biased', 'powerlaw', 'uniform', 'banded', 'stencil27', 'geometric', 'rmat'] as const;
export type MatrixFamily = (typeof MATRIX_FAMILIES)[number];

/**
 * The families with the local structure of HiSparse's matrix collection (issue 51), generated on
 * the host by `@scan/spmv` and uploaded, not on the GPU: `stencil27-S` (`stencil27(S)`, the 27-point
 * stencil of an S³ grid), `geometric-N` (`geometricGraphMatrix`, N points in the unit square in
 * Morton order, ~{@link GEOMETRIC_PER_ROW} nonzeros per row) and `rmat-N` (`rmatGraphMatrix`,
 * undirected Graph500 R-MAT with edge factor {@link POWERLAW}.edgesPerRow). Their nonzero counts
 * (but stencil27's) are known only once generated: {@link matrixShape} gives a nominal count.
 */
export const HOST_FAMILIES: readonly MatrixFamily[] = ['stencil27', 'geometric', 'rmat'];

/** Mean nonzeros per row (diagonal included) the geometric matrices aim at. */
export const GEOMETRIC_PER_ROW = 12;

/**
 * The suite `--matrices` defaults to (the DESIGN.md SpMV anchors): the 5-point Laplacian of a 2048²
 * grid, the paper's biased mat1M and a 16M one, R-MAT power law, uniform and banded at 4M rows; then
 * HiSparse's locally structured ones: the 27-point stencil of a 100³ grid (26.5M nonzeros), a
 * geometric graph of 1M points (~12M) and an undirected R-MAT graph of 2^20 vertices (~31M).
 */
export const DEFAULT_MATRICES: readonly string[] = [
  'poisson2d-2048',
  'biased-1M',
  'biased-16M',
  'powerlaw-4M',
  'uniform-4M',
  'banded-4M',
  'stencil27-100',
  'geometric-1M',
  'rmat-2^20',
];

/**
 * The suite on a software adapter (SwiftShader), where the GPU suite would take hours: the same
 * generators at sizes their names state, verified against the CPU too (nnz ≤ 2^16): a regular
 * matrix and the paper's skewed one. Two, because an SpMV case costs 2–4 s there whatever its size
 * (its own process, plan and pipelines), and the whole default run must end within 3 minutes on 2
 * cores; test/spmv-verify.test.ts runs every family.
 */
export const SOFTWARE_MATRICES: readonly string[] = ['poisson2d-16', 'biased-1K'];

/** R-MAT: edges drawn per row and the quadrant probabilities (Graph500's; d = 1 − a − b − c = 0.05). */
export const POWERLAW = { edgesPerRow: 16, a: 0.57, b: 0.19, c: 0.19 } as const;

/** Nonzeros per row of the uniform matrices (fewer when there are fewer columns). */
export const UNIFORM_PER_ROW = 16;

/** Diagonals below and above the main one of the banded matrices (clipped to n − 1). */
export const BAND = { lower: 4, upper: 4 } as const;

/** Most nonzeros a suite matrix may have: the kernels index with u32 and the plans with i32. */
export const MAX_MATRIX_NNZ = 2 ** 31 - 1;

/** A suite matrix: its name, family and size (the grid side for `poisson2d`, else the rows). */
export interface MatrixSpec {
  readonly name: string;
  readonly family: MatrixFamily;
  readonly size: number;
}

/** Rows, columns and nonzeros of a matrix. */
export interface MatrixShape {
  readonly rows: number;
  readonly cols: number;
  readonly nnz: number;
}

/**
 * A matrix a run multiplies with: a suite name, or a Matrix Market file (`path`). `n` is the
 * number the report's `n` column shows: the nonzeros of a suite matrix, the stored entries of a file
 * (a symmetric file expands to up to twice as many; the report's `matrix.nnz` has the real count).
 */
export interface MatrixSource {
  readonly name: string;
  readonly n: number;
  /** Absolute path of a `.mtx` file (`--mtx`); absent for the generated suite matrices. */
  readonly path?: string;
}

/**
 * Parses the size part of a matrix name: a whole number, `K` (×1000) or `M` (×1,000,000) after
 * it, or `2^k`. Decimal suffixes, because the paper's mat1M has exactly 1,000,000 rows.
 *
 * @example
 * ```ts
 * parseMatrixSize('4M'); // 4000000
 * parseMatrixSize('2^20'); // 1048576
 * parseMatrixSize('2048'); // 2048
 * ```
 */
export function parseMatrixSize(text: string): number {
  const t = text.trim().replaceAll('_', '');
  const power = /^2\^(\d{1,2})$/.exec(t);
  const scaled = /^(\d+)([KM]?)$/i.exec(t);
  const value = power
    ? 2 ** Number(power[1])
    : scaled
      ? Number(scaled[1]) * ({ '': 1, k: 1e3, m: 1e6 } as Record<string, number>)[scaled[2]!.toLowerCase()]!
      : Number.NaN;
  if (!(Number.isSafeInteger(value) && value >= 1))
    throw new Error(`matrix size "${text}": expected a count such as 2048, 64K, 4M or 2^20`);
  return value;
}

/**
 * Rows, columns and nonzeros of a suite matrix, in closed form (duplicate R-MAT edges are kept,
 * so the power-law matrix has exactly rows·16 nonzeros). For `geometric` and `rmat` the nonzeros
 * are nominal (rows·12, rows·2·16): the real count, a little lower, is known once generated, and
 * the report's `matrix.nnz` has it.
 *
 * @example
 * ```ts
 * matrixShape({ name: 'poisson2d-2048', family: 'poisson2d', size: 2048 }); // { rows: 4194304, cols: 4194304, nnz: 20963328 }
 * matrixShape({ name: 'biased-1M', family: 'biased', size: 1e6 }).nnz; // 1999999
 * ```
 */
export function matrixShape(spec: MatrixSpec): MatrixShape {
  const s = spec.size;
  switch (spec.family) {
    case 'poisson2d':
      return { rows: s * s, cols: s * s, nnz: 5 * s * s - 4 * s };
    case 'biased':
      return { rows: s, cols: s, nnz: 2 * s - 1 };
    case 'powerlaw':
      return { rows: s, cols: s, nnz: s * POWERLAW.edgesPerRow };
    case 'uniform':
      return { rows: s, cols: s, nnz: s * Math.min(UNIFORM_PER_ROW, s) };
    case 'banded': {
      const { lower, upper } = bandOf(s);
      return { rows: s, cols: s, nnz: s * (lower + upper + 1) - (lower * (lower + 1)) / 2 - (upper * (upper + 1)) / 2 };
    }
    case 'stencil27':
      return { rows: s * s * s, cols: s * s * s, nnz: (3 * s - 2) ** 3 };
    // Nominal: the generated matrix has a little fewer (boundary points; merged duplicate edges).
    case 'geometric':
      return { rows: s, cols: s, nnz: s * Math.min(GEOMETRIC_PER_ROW, s) };
    case 'rmat':
      return { rows: s, cols: s, nnz: 2 * s * POWERLAW.edgesPerRow };
  }
}

/**
 * The band of an n×n banded suite matrix: {@link BAND}, clipped to n − 1.
 *
 * @example
 * ```ts
 * bandOf(3); // { lower: 2, upper: 2 }
 * ```
 */
export function bandOf(n: number): { lower: number; upper: number } {
  return { lower: Math.min(BAND.lower, n - 1), upper: Math.min(BAND.upper, n - 1) };
}

/**
 * Parses a suite name `<family>-<size>` (any size, not only the default suite's: `poisson2d-64`
 * is a 64² grid for a quick run on SwiftShader). Throws a message that names the text.
 *
 * @example
 * ```ts
 * parseMatrixName('powerlaw-4M'); // { name: 'powerlaw-4M', family: 'powerlaw', size: 4000000 }
 * ```
 */
export function parseMatrixName(text: string): MatrixSpec {
  const name = text.trim();
  const dash = name.lastIndexOf('-');
  const family = name.slice(0, dash) as MatrixFamily;
  if (dash < 0 || !MATRIX_FAMILIES.includes(family)) {
    throw new Error(`--matrices: unknown matrix "${name}"; expected <family>-<size> with family ${MATRIX_FAMILIES.join(', ')}`);
  }
  const spec: MatrixSpec = { name, family, size: parseMatrixSize(name.slice(dash + 1)) };
  const { rows, nnz } = matrixShape(spec);
  if (nnz > MAX_MATRIX_NNZ || rows > MAX_MATRIX_NNZ) throw new Error(`--matrices: ${name} has ${nnz} nonzeros, more than 2^31 − 1`);
  return spec;
}

/**
 * Parses `--matrices`: comma-separated suite names, in the order given, without duplicates.
 *
 * @example
 * ```ts
 * parseMatrixList('poisson2d-2048,biased-1M').map((s) => s.n); // [20963328, 1999999]
 * ```
 */
export function parseMatrixList(text: string): MatrixSource[] {
  const names = [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (names.length === 0) throw new Error(`--matrices "${text}": expected a comma-separated list such as ${DEFAULT_MATRICES.join(',')}`);
  return names.map((name) => ({ name, n: matrixShape(parseMatrixName(name)).nnz }));
}
