import { createReadStream } from 'node:fs';
import { ScanError } from '@scan/core';
import { MatrixMarketParser } from '../matrix-market/parser.js';
import type { CooMatrix } from '../types.js';

/** Bytes per read: large enough that the per-chunk cost vanishes, small enough to stay off the heap. */
const CHUNK_BYTES = 1 << 20;

/**
 * Reads a Matrix Market file by streaming it through a {@link MatrixMarketParser} in 1 MiB chunks:
 * the whole text is never in memory, only the matrix. It is the parser `readMatrixMarket` uses, so
 * a file is accepted or rejected exactly as its text would be there (see `MatrixMarketParser` for
 * the rules: only the lower triangle of a symmetric file, values within the f32 range, …); only
 * the messages differ, naming the path instead of `Matrix Market text`.
 *
 * @param path The file to read (UTF-8; ASCII in practice).
 * @throws ScanError `INVALID_ARGUMENT` (argument `path`) when the file cannot be read, or naming
 *   the path and line of a malformed or forbidden entry; `UNSUPPORTED` and `TOO_LARGE` as
 *   `readMatrixMarket`.
 * @example
 * ```ts
 * import { cooToCsr } from '@scan/spmv';
 * import { readMatrixMarketFile } from '@scan/spmv/node';
 * const A = cooToCsr(await readMatrixMarketFile('matrices/bcsstk13.mtx'));
 * ```
 */
export async function readMatrixMarketFile(path: string): Promise<CooMatrix> {
  if (typeof path !== 'string' || path === '') {
    throw new ScanError('INVALID_ARGUMENT', `path = ${JSON.stringify(path)}: must be a file path`, { argument: 'path' });
  }
  const parser = new MatrixMarketParser({ source: `Matrix Market file ${path}`, argument: 'path' });
  // The stream decodes UTF-8 across chunk boundaries itself; the parser copes with any split.
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: CHUNK_BYTES });
  try {
    for await (const chunk of stream) parser.push(chunk as string);
  } catch (cause) {
    stream.destroy();
    if (cause instanceof ScanError) throw cause;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ScanError('INVALID_ARGUMENT', `path = ${JSON.stringify(path)}: cannot read the Matrix Market file (${reason})`, {
      argument: 'path',
      cause,
    });
  }
  return parser.finish();
}
