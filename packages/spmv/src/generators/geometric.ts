import { invalidArgument } from '@scan/core/kit';
import type { CsrMatrix } from '../types.js';
import { checkDimension, checkNnz, checkNumber, checkSeed, generatorOptions } from './args.js';
import { createRng, sortRange } from './random.js';

/** Options of {@link geometricGraphMatrix}. */
export interface GeometricGraphMatrixOptions {
  /** Points, and so rows and columns (a positive integer). */
  rows: number;
  /** Dimension of the unit cube the points lie in: 2 (the unit square, default) or 3. */
  dims?: 2 | 3;
  /**
   * Mean nonzeros per row the radius aims at, the diagonal included (default 12, at least 1): the
   * radius makes an interior point expect `nnzPerRow − 1` neighbours; points near the boundary
   * have fewer, so the mean comes out a little lower.
   */
  nnzPerRow?: number;
  /** Seed (a u32, default 1). */
  seed?: number;
}

/** Bits per coordinate of the Morton code: 16 in 2-D and 10 in 3-D, so a code fits in 32 bits. */
const MORTON_BITS = { 2: 16, 3: 10 } as const;

/**
 * A random geometric graph as a matrix with the local structure of mesh and graph collections:
 * `rows` points uniform in the unit square (or cube), numbered along the Morton (Z-order)
 * space-filling curve, and an edge between every two points at distance ≤ r, with r set so an
 * interior point expects `nnzPerRow − 1` neighbours (2-D: π·r²·rows = nnzPerRow − 1). The Morton
 * numbering puts most neighbours near the diagonal and in a few off-diagonal blocks, as a
 * bandwidth-reducing ordering of a mesh does. The matrix is the graph Laplacian plus the identity:
 * −1 for each edge, the degree + 1 on the diagonal, so it is symmetric (pattern and values), SPD and
 * every row has its diagonal. Row lengths vary (Poisson-like around the mean, shorter at the
 * boundary); columns sorted and unique.
 *
 * Points: coordinates are u32 draws / 2^32; the Morton code quantizes each to 16 (2-D) or 10 (3-D)
 * bits, ties broken by draw order. Neighbours are found in a grid of cells of side ≥ r, so the cost
 * is O(rows·nnzPerRow) plus the sort of the codes.
 *
 * @throws ScanError `INVALID_ARGUMENT` for a bad size, dimension, seed or `nnzPerRow` (a number in
 *   [1, rows]); `TOO_LARGE` when the expected nonzeros pass 2^31 − 1.
 *
 * @example
 * ```ts
 * const A = geometricGraphMatrix({ rows: 1 << 16, seed: 3 }); // ~12 nonzeros per row, symmetric
 * const B = geometricGraphMatrix({ rows: 4096, dims: 3, nnzPerRow: 16 });
 * ```
 */
export function geometricGraphMatrix(options: GeometricGraphMatrixOptions): CsrMatrix {
  const o = generatorOptions(options, ['rows', 'dims', 'nnzPerRow', 'seed']);
  const n = checkDimension(o['rows'], 'options.rows', 1, 'rows');
  const dims = o['dims'] === undefined ? 2 : o['dims'];
  if (dims !== 2 && dims !== 3) return invalidArgument('options.dims', dims, 'expected 2 or 3');
  const perRow = checkNumber(o['nnzPerRow'], 'options.nnzPerRow', 1, n, Math.min(12, n));
  const seed = checkSeed(o['seed']);
  // Twice the mean leaves room for the spread of row lengths; the exact count comes from pass 1.
  checkNnz(Math.ceil(n * perRow), 'options.nnzPerRow', 'rows·nnzPerRow');

  const neighbours = perRow - 1;
  const radius = dims === 2 ? Math.sqrt(neighbours / (Math.PI * n)) : Math.cbrt((3 * neighbours) / (4 * Math.PI * n));
  const r2 = radius * radius;

  // Points in draw order, then renumbered along the Morton curve.
  const rng = createRng(seed);
  const drawn = new Float64Array(n * dims);
  for (let i = 0; i < drawn.length; i++) drawn[i] = rng.u32() / 4294967296;
  const bits = MORTON_BITS[dims];
  const code = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let c = 0;
    for (let d = 0; d < dims; d++) {
      const q = Math.floor(drawn[i * dims + d]! * 2 ** bits);
      for (let b = 0; b < bits; b++) c += ((q >>> b) & 1) * 2 ** (b * dims + d);
    }
    code[i] = c;
  }
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => code[a]! - code[b]! || a - b);
  const pos = new Float64Array(n * dims);
  for (let i = 0; i < n; i++) for (let d = 0; d < dims; d++) pos[i * dims + d] = drawn[order[i]! * dims + d]!;

  // Cells of side 1/g ≥ r (g ≥ 1): a point's neighbours lie in its cell and the adjacent ones.
  const g = Math.max(
    1,
    Math.min(Math.floor(1 / Math.max(radius, Number.MIN_VALUE)), Math.ceil(Math.sqrt(n)) * 4, dims === 2 ? 1 << 15 : 1 << 10),
  );
  const cellCount = g ** dims;
  const cellOf = (i: number): number => {
    let c = 0;
    for (let d = dims - 1; d >= 0; d--) c = c * g + Math.min(g - 1, Math.floor(pos[i * dims + d]! * g));
    return c;
  };
  const cellStart = new Uint32Array(cellCount + 1);
  const cells = new Uint32Array(n);
  for (let i = 0; i < n; i++) cellStart[cellOf(i) + 1]!++;
  for (let c = 0; c < cellCount; c++) cellStart[c + 1]! += cellStart[c]!;
  const cursor = cellStart.slice(0, cellCount);
  for (let i = 0; i < n; i++) cells[cursor[cellOf(i)]!++] = i;

  // Visits every j within r of point i (i itself included), in cell order.
  const visit = (i: number, f: (j: number) => void): void => {
    const cx = Math.min(g - 1, Math.floor(pos[i * dims]! * g));
    const cy = Math.min(g - 1, Math.floor(pos[i * dims + 1]! * g));
    const cz = dims === 3 ? Math.min(g - 1, Math.floor(pos[i * dims + 2]! * g)) : 0;
    for (let z = Math.max(0, cz - 1); z <= (dims === 3 ? Math.min(g - 1, cz + 1) : 0); z++) {
      for (let y = Math.max(0, cy - 1); y <= Math.min(g - 1, cy + 1); y++) {
        for (let x = Math.max(0, cx - 1); x <= Math.min(g - 1, cx + 1); x++) {
          const c = (z * g + y) * g + x;
          for (let k = cellStart[c]!; k < cellStart[c + 1]!; k++) {
            const j = cells[k]!;
            let s = 0;
            for (let d = 0; d < dims; d++) {
              const t = pos[i * dims + d]! - pos[j * dims + d]!;
              s += t * t;
            }
            if (s <= r2) f(j);
          }
        }
      }
    }
  };

  // Two passes (count, then fill) size the arrays exactly.
  const rowPtr = new Uint32Array(n + 1);
  let count = 0;
  for (let i = 0; i < n; i++) {
    visit(i, () => {
      count++;
    });
    checkNnz(count, 'options.nnzPerRow', 'the edges within the radius');
    rowPtr[i + 1] = count;
  }
  const colIdx = new Uint32Array(count);
  const values = new Float32Array(count);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const start = k;
    visit(i, (j) => {
      colIdx[k++] = j;
    });
    sortRange(colIdx, start, k);
    for (let t = start; t < k; t++) values[t] = colIdx[t] === i ? k - start : -1;
  }
  return { rows: n, cols: n, rowPtr, colIdx, values };
}
