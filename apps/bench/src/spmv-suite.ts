import { closeSync, openSync, readSync } from 'node:fs';
import { basename, resolve } from 'node:path';

// The SpMV matrix suite: names such as `biased-1M` map to a family and a size, and every shape
// (rows, columns, nonzeros) follows from them in closed form, so the parent knows each case's size
// without generating anything. The child generates the same matrices on the GPU
// (child/kernels/spmv-generate.ts); cuda/spmv.py builds them again with CuPy.

/** Matrix families of the suite; a name is `<family>-<size>`. */
export const MATRIX_FAMILIES = ['poisson2d', 'biased', 'powerlaw', 'uniform', 'banded'] as const;
export type MatrixFamily = (typeof MATRIX_FAMILIES)[number];

/**
 * The suite `--matrices` defaults to (the DESIGN.md SpMV anchors): the 5-point Laplacian of a 2048²
 * grid, the paper's biased mat1M and a 16M one, R-MAT power law, uniform and banded at 4M rows.
 */
export const DEFAULT_MATRICES: readonly string[] = ['poisson2d-2048', 'biased-1M', 'biased-16M', 'powerlaw-4M', 'uniform-4M', 'banded-4M'];

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
 * so the power-law matrix has exactly rows·16 nonzeros).
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

/**
 * The name of a Matrix Market file in the report: its base name without `.mtx`.
 *
 * @example
 * ```ts
 * mtxName('/data/bcsstk13.mtx'); // 'bcsstk13'
 * ```
 */
export function mtxName(path: string): string {
  return basename(path).replace(/\.mtx$/i, '');
}

/**
 * Reads the size line of a Matrix Market file (only its first 64 KiB): rows, columns and stored
 * entries of a `coordinate` matrix. Throws a message naming the file when it is not one.
 *
 * @example
 * ```ts
 * readMtxSize('bcsstk13.mtx'); // { rows: 2003, cols: 2003, entries: 42943 }
 * ```
 */
export function readMtxSize(path: string): { rows: number; cols: number; entries: number } {
  let text: string;
  try {
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(1 << 16);
      text = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new Error(`--mtx ${path}: cannot read it (${error instanceof Error ? error.message : String(error)})`);
  }
  const lines = text.split('\n');
  if (!/^%%MatrixMarket\s+matrix\s+coordinate/i.test(lines[0] ?? '')) {
    throw new Error(`--mtx ${path}: not a Matrix Market coordinate matrix (first line "${(lines[0] ?? '').slice(0, 60)}")`);
  }
  const sizeLine = lines.slice(1).find((l) => l.trim() !== '' && !l.startsWith('%'));
  const parts = (sizeLine ?? '').trim().split(/\s+/).map(Number);
  if (parts.length !== 3 || !parts.every((v) => Number.isSafeInteger(v) && v >= 0)) {
    throw new Error(`--mtx ${path}: no "rows cols entries" line in its first 64 KiB`);
  }
  const [rows, cols, entries] = parts as [number, number, number];
  return { rows, cols, entries };
}

/**
 * Parses `--mtx`: comma-separated paths of Matrix Market files (resolved against the working
 * directory), each named by its base name; `n` is its stored entries (at least 1).
 *
 * @example
 * ```ts
 * parseMtxList('a.mtx,dir/b.mtx'); // [{ name: 'a', n: …, path: '/…/a.mtx' }, { name: 'b', … }]
 * ```
 */
export function parseMtxList(text: string): MatrixSource[] {
  const paths = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (paths.length === 0) throw new Error(`--mtx "${text}": expected comma-separated .mtx paths`);
  return paths.map((p) => {
    const path = resolve(p);
    return { name: mtxName(path), n: Math.max(1, readMtxSize(path).entries), path };
  });
}

/**
 * The matrices of a run: `--matrices` (default {@link DEFAULT_MATRICES} unless `--mtx` is given
 * alone) followed by the `--mtx` files. Names must be unique: they name the series.
 *
 * @example
 * ```ts
 * selectMatrices(undefined, undefined).length; // 6, the default suite
 * selectMatrices('poisson2d-64', undefined); // [{ name: 'poisson2d-64', n: 20224 }]
 * ```
 */
export function selectMatrices(matrices: string | undefined, mtx: string | undefined): MatrixSource[] {
  const files = mtx !== undefined ? parseMtxList(mtx) : [];
  const suite = matrices !== undefined ? parseMatrixList(matrices) : files.length > 0 ? [] : parseMatrixList(DEFAULT_MATRICES.join(','));
  const all = [...suite, ...files];
  const seen = new Set<string>();
  for (const m of all) {
    if (seen.has(m.name)) throw new Error(`--mtx: two matrices are named "${m.name}"; rename one of the files`);
    seen.add(m.name);
  }
  return all;
}
