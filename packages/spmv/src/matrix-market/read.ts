import type { CooMatrix } from '../types.js';
import { MatrixMarketParser } from './parser.js';

/**
 * Reads a Matrix Market `coordinate` matrix (fields `real`, `integer`, `pattern`; symmetries
 * `general`, `symmetric`, `skew-symmetric`) into a {@link CooMatrix}: 0-based indices, f32 values,
 * entries in file order with each mirrored entry of a symmetric file right after its original,
 * duplicates kept. A `symmetric` file holds only the lower triangle (row ≥ column) and a
 * `skew-symmetric` one only the strictly lower triangle, as the format defines them. See
 * {@link MatrixMarketParser} for the exact rules, and for reading a stream in chunks;
 * `readMatrixMarketFile` in `@scan/spmv/node` streams a file through the same parser, so it accepts
 * and rejects exactly the same texts.
 *
 * @throws ScanError `INVALID_ARGUMENT` (argument `text`) naming the line of a malformed input, of an
 *   entry above the diagonal of a symmetric or skew-symmetric file, of a diagonal entry of a
 *   skew-symmetric file, or of a finite value past the f32 range (`1e39`); `UNSUPPORTED` for the
 *   `array` format, `complex` and `hermitian`; `TOO_LARGE` past 2^31 entries.
 * @example
 * ```ts
 * const A = readMatrixMarket(`%%MatrixMarket matrix coordinate real symmetric
 * % a 2 × 2 example
 * 2 2 2
 * 1 1 4
 * 2 1 -1
 * `);
 * // A.rowIdx = [0, 1, 0], A.colIdx = [0, 0, 1], A.values = [4, -1, -1]
 * const csr = cooToCsr(A);
 * ```
 */
export function readMatrixMarket(text: string): CooMatrix {
  const parser = new MatrixMarketParser();
  parser.push(text);
  return parser.finish();
}
