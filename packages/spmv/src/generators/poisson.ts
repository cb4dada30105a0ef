import type { CsrMatrix } from '../types.js';
import { checkDimension, checkNnz } from './args.js';

/**
 * The 5-point Laplacian of an nx×ny grid with Dirichlet boundaries: 4 on the diagonal and −1 for each
 * of the (up to four) grid neighbours. Unknown (x, y) is row y·nx + x (row-major, x fastest), so the
 * columns of a row are, in order, i − nx, i − 1, i, i + 1, i + nx where they exist. Symmetric
 * positive definite; nnz = 5·nx·ny − 2·nx − 2·ny (5n² − 4n for a square grid). The classic regular
 * matrix: every row but the boundary ones has the same length.
 *
 * @param nx grid points along x (a positive integer)
 * @param ny grid points along y (default nx)
 * @throws ScanError `INVALID_ARGUMENT` for a size that is not a positive integer, `TOO_LARGE` when
 *   the nonzeros pass 2^31 − 1.
 *
 * @example
 * ```ts
 * const A = poisson2d(64); // 4096×4096, 20224 nonzeros
 * const B = poisson2d(3, 2); // 6×6
 * ```
 */
export function poisson2d(nx: number, ny?: number): CsrMatrix {
  const sx = checkDimension(nx, 'nx', 1, 'rows');
  const sy = checkDimension(ny, 'ny', 1, 'rows', sx);
  const n = sx * sy;
  checkNnz(5 * n - 2 * sx - 2 * sy, 'nx', '5·nx·ny − 2·nx − 2·ny');
  return stencil(
    n,
    [
      { offset: -sx, has: (i) => i >= sx },
      { offset: -1, has: (i) => i % sx !== 0 },
      { offset: 0, has: () => true, center: true },
      { offset: 1, has: (i) => i % sx !== sx - 1 },
      { offset: sx, has: (i) => i < n - sx },
    ],
    4,
  );
}

/**
 * The 7-point Laplacian of an nx×ny×nz grid with Dirichlet boundaries: 6 on the diagonal and −1 for
 * each of the (up to six) neighbours. Unknown (x, y, z) is row (z·ny + y)·nx + x (x fastest), columns
 * in ascending order. nnz = 7·N − 2·(ny·nz + nx·nz + nx·ny) with N = nx·ny·nz (7n³ − 6n² for a cube).
 *
 * @param nx grid points along x (a positive integer)
 * @param ny grid points along y (default nx)
 * @param nz grid points along z (default nx)
 * @throws ScanError `INVALID_ARGUMENT` for a size that is not a positive integer, `TOO_LARGE` when
 *   the nonzeros pass 2^31 − 1.
 *
 * @example
 * ```ts
 * const A = poisson3d(16); // 4096×4096, 27136 nonzeros
 * const B = poisson3d(4, 3, 2); // 24×24
 * ```
 */
export function poisson3d(nx: number, ny?: number, nz?: number): CsrMatrix {
  const sx = checkDimension(nx, 'nx', 1, 'rows');
  const sy = checkDimension(ny, 'ny', 1, 'rows', sx);
  const sz = checkDimension(nz, 'nz', 1, 'rows', sx);
  const plane = sx * sy;
  const n = plane * sz;
  checkNnz(7 * n - 2 * (sy * sz + sx * sz + plane), 'nx', '7·nx·ny·nz − 2·(ny·nz + nx·nz + nx·ny)');
  return stencil(
    n,
    [
      { offset: -plane, has: (i) => i >= plane },
      { offset: -sx, has: (i) => i % plane >= sx },
      { offset: -1, has: (i) => i % sx !== 0 },
      { offset: 0, has: () => true, center: true },
      { offset: 1, has: (i) => i % sx !== sx - 1 },
      { offset: sx, has: (i) => i % plane < plane - sx },
      { offset: plane, has: (i) => i < n - plane },
    ],
    6,
  );
}

/** One point of a stencil: the column offset and whether row i has that neighbour. */
interface StencilPoint {
  offset: number;
  has: (i: number) => boolean;
  center?: boolean;
}

/**
 * The n×n matrix of a constant-coefficient stencil (points in ascending offset order, so columns come
 * out sorted): `center` on the diagonal, −1 elsewhere. Two passes over the rows (count, then fill)
 * size the arrays exactly without a growable buffer.
 */
function stencil(n: number, points: readonly StencilPoint[], center: number): CsrMatrix {
  const rowPtr = new Uint32Array(n + 1);
  let nnz = 0;
  for (let i = 0; i < n; i++) {
    for (const p of points) if (p.has(i)) nnz++;
    rowPtr[i + 1] = nnz;
  }
  const colIdx = new Uint32Array(nnz);
  const values = new Float32Array(nnz);
  let k = 0;
  for (let i = 0; i < n; i++) {
    for (const p of points) {
      if (!p.has(i)) continue;
      colIdx[k] = i + p.offset;
      values[k] = p.center === true ? center : -1;
      k++;
    }
  }
  return { rows: n, cols: n, rowPtr, colIdx, values };
}

/**
 * The 27-point stencil of an nx×ny×nz grid: 26 on the diagonal and −1 for each of the (up to 26)
 * grid neighbours that differ by at most one step in every coordinate (faces, edges and corners) —
 * the trilinear finite-element Laplacian's pattern, the typical 3-D mesh matrix of sparse
 * collections. Unknown (x, y, z) is row (z·ny + y)·nx + x (x fastest), columns in ascending order.
 * Symmetric and diagonally dominant (weakly on interior rows). nnz = (3·nx − 2)(3·ny − 2)(3·nz − 2):
 * along each axis, a pair of positions differing by at most one.
 *
 * @param nx grid points along x (a positive integer)
 * @param ny grid points along y (default nx)
 * @param nz grid points along z (default nx)
 * @throws ScanError `INVALID_ARGUMENT` for a size that is not a positive integer, `TOO_LARGE` when
 *   the nonzeros pass 2^31 − 1.
 *
 * @example
 * ```ts
 * const A = stencil27(16); // 4096×4096, 46^3 = 97336 nonzeros
 * const B = stencil27(4, 3, 2); // 24×24, 10·7·4 = 280 nonzeros
 * ```
 */
export function stencil27(nx: number, ny?: number, nz?: number): CsrMatrix {
  const sx = checkDimension(nx, 'nx', 1, 'rows');
  const sy = checkDimension(ny, 'ny', 1, 'rows', sx);
  const sz = checkDimension(nz, 'nz', 1, 'rows', sx);
  const n = sx * sy * sz;
  const nnz = (3 * sx - 2) * (3 * sy - 2) * (3 * sz - 2);
  checkNnz(nnz, 'nx', '(3·nx − 2)(3·ny − 2)(3·nz − 2)');
  const rowPtr = new Uint32Array(n + 1);
  const colIdx = new Uint32Array(nnz);
  const values = new Float32Array(nnz);
  let k = 0;
  let row = 0;
  for (let z = 0; z < sz; z++) {
    for (let y = 0; y < sy; y++) {
      for (let x = 0; x < sx; x++, row++) {
        // (z', y', x') in lexicographic order is ascending column order.
        for (let zz = Math.max(0, z - 1); zz <= Math.min(sz - 1, z + 1); zz++) {
          for (let yy = Math.max(0, y - 1); yy <= Math.min(sy - 1, y + 1); yy++) {
            const base = (zz * sy + yy) * sx;
            for (let xx = Math.max(0, x - 1); xx <= Math.min(sx - 1, x + 1); xx++) {
              const col = base + xx;
              colIdx[k] = col;
              values[k] = col === row ? 26 : -1;
              k++;
            }
          }
        }
        rowPtr[row + 1] = k;
      }
    }
  }
  return { rows: n, cols: n, rowPtr, colIdx, values };
}
