import { ScanError } from '@scan/core';
import type { CooMatrix, CsrMatrix } from '../types.js';
import { entryBytes } from './encode-entries.js';
import type { WriteMatrixMarketOptions } from './types.js';
import { checkMatrixForWrite } from './validate-matrix.js';

/** The banner, the comment lines and the size line. */
function headerText(A: CsrMatrix | CooMatrix, nnz: number, options: WriteMatrixMarketOptions | undefined): string {
  let text = '%%MatrixMarket matrix coordinate real general\n';
  const comment = options?.comment;
  if (comment !== undefined) {
    if (typeof comment !== 'string')
      throw new ScanError('INVALID_ARGUMENT', 'options.comment must be a string', { argument: 'options.comment' });
    for (const line of comment.split(/\r\n|\r|\n/)) text += line === '' ? '%\n' : `% ${line}\n`;
  }
  return `${text}${A.rows} ${A.cols} ${nnz}\n`;
}

/**
 * The header as text and the entry lines as ASCII bytes in chunks of about 1 MiB, after checking
 * the matrix (for file writers, which take bytes as they are).
 *
 * @example
 * ```ts
 * const { header, entries } = matrixMarketParts(A, options);
 * stream.write(header);
 * for (const bytes of entries) stream.write(bytes);
 * ```
 */
export function matrixMarketParts(
  A: CsrMatrix | CooMatrix,
  options?: WriteMatrixMarketOptions,
): { header: string; entries: Iterable<Uint8Array> } {
  const nnz = checkMatrixForWrite(A);
  const header = headerText(A, nnz, options);
  return { header, entries: { [Symbol.iterator]: () => entryBytes(A) } };
}

/**
 * The text of {@link writeMatrixMarket} as a sequence of chunks (the header, then about 1 MiB of
 * entry lines each), for writing a large matrix to a stream without building one giant string. The
 * matrix is checked now, before the first chunk, so a bad matrix never leaves half a file.
 *
 * @throws ScanError `INVALID_ARGUMENT` for a malformed matrix (see `writeMatrixMarket`).
 * @example
 * ```ts
 * const blob = new Blob([...matrixMarketChunks(A, { comment: 'my matrix' })], { type: 'text/plain' });
 * ```
 */
export function matrixMarketChunks(A: CsrMatrix | CooMatrix, options?: WriteMatrixMarketOptions): Iterable<string> {
  const { header, entries } = matrixMarketParts(A, options);
  return {
    *[Symbol.iterator]() {
      yield header;
      // The entries are ASCII: any decoder gives one flat string per chunk.
      const decoder = new TextDecoder();
      for (const bytes of entries) yield decoder.decode(bytes);
    },
  };
}

/**
 * Writes a matrix in the Matrix Market format `coordinate real general`: 1-based indices, one entry
 * per line (a CSR matrix row by row, a COO matrix in its order), each value printed so that
 * `readMatrixMarket` gives back the same f32 bit for bit (NaN as `nan`, ±∞ as `inf`/`-inf`, −0 as
 * `-0`). The comment, possibly several lines, goes after the banner as `%` lines. For very large
 * matrices use `writeMatrixMarketFile` (`@scan/spmv/node`) or {@link matrixMarketChunks}, which do
 * not build one string.
 *
 * @throws ScanError `INVALID_ARGUMENT` (argument `A.…`) for a matrix whose arrays do not agree, a
 *   CSR `rowPtr` that decreases, or an index out of range; `TOO_LARGE` when the text is longer than
 *   a JavaScript string can be.
 * @example
 * ```ts
 * const A = { rows: 2, cols: 2, rowPtr: new Uint32Array([0, 1, 2]), colIdx: new Uint32Array([1, 0]),
 *             values: new Float32Array([0.5, -2]) };
 * writeMatrixMarket(A, { comment: 'a permutation' });
 * // '%%MatrixMarket matrix coordinate real general\n% a permutation\n2 2 2\n1 2 0.5\n2 1 -2\n'
 * ```
 */
export function writeMatrixMarket(A: CsrMatrix | CooMatrix, options?: WriteMatrixMarketOptions): string {
  let text = '';
  try {
    for (const chunk of matrixMarketChunks(A, options)) text += chunk;
  } catch (cause) {
    if (!(cause instanceof RangeError)) throw cause;
    throw new ScanError(
      'TOO_LARGE',
      `A: the Matrix Market text of ${A.values.length} entries is longer than a string can be; write it in chunks (matrixMarketChunks, or writeMatrixMarketFile in @scan/spmv/node)`,
      { argument: 'A', cause },
    );
  }
  return text;
}
