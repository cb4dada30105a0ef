import { closeSync, openSync, readSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { DEFAULT_MATRICES, type MatrixSource, parseMatrixList } from './spmv-suite.js';

// `--mtx`: Matrix Market files named on the command line. Node only (it reads files), so only
// options.ts imports it; the suite itself (spmv-suite.ts) stays free of Node modules for the
// dashboard's browser bundle.

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
