import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ScanError } from '@scan/core';
import type { WriteMatrixMarketOptions } from '../matrix-market/types.js';
import { matrixMarketParts } from '../matrix-market/write.js';
import type { CooMatrix, CsrMatrix } from '../types.js';

/**
 * Writes a matrix to a Matrix Market file (`coordinate real general`, bit-exact f32 values; see
 * `writeMatrixMarket`), streaming it out as bytes in chunks of about 1 MiB with back-pressure, so a
 * huge matrix never becomes one string. The matrix is checked before the file is opened.
 *
 * @param path The file to create or replace.
 * @param A The matrix, CSR (written row by row) or COO (in its order).
 * @param options `comment`: text written as `%` lines after the banner.
 * @throws ScanError `INVALID_ARGUMENT` for a malformed matrix (argument `A.…`) or a file that
 *   cannot be written (argument `path`).
 * @example
 * ```ts
 * import { writeMatrixMarketFile } from '@scan/spmv/node';
 * await writeMatrixMarketFile('out/poisson.mtx', A, { comment: 'Poisson 2-D, 512 × 512' });
 * ```
 */
export async function writeMatrixMarketFile(path: string, A: CsrMatrix | CooMatrix, options?: WriteMatrixMarketOptions): Promise<void> {
  if (typeof path !== 'string' || path === '') {
    throw new ScanError('INVALID_ARGUMENT', `path = ${JSON.stringify(path)}: must be a file path`, { argument: 'path' });
  }
  const { header, entries } = matrixMarketParts(A, options);
  function* bytes(): Generator<Uint8Array> {
    yield new TextEncoder().encode(header); // UTF-8: a comment may hold any character
    yield* entries;
  }
  try {
    // pipeline waits for the file to drain (back-pressure) and closes it on success and failure.
    await pipeline(Readable.from(bytes(), { objectMode: false }), createWriteStream(path));
  } catch (cause) {
    if (cause instanceof ScanError) throw cause;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ScanError('INVALID_ARGUMENT', `path = ${JSON.stringify(path)}: cannot write the Matrix Market file (${reason})`, {
      argument: 'path',
      cause,
    });
  }
}
