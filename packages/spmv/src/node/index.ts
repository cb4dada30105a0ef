/**
 * `@scan/spmv/node`: what needs Node — reading and writing Matrix Market files by streaming them.
 * Kept apart from the main entry so that browser bundles never pull in `node:fs`.
 *
 * @example
 * ```ts
 * import { readMatrixMarketFile, writeMatrixMarketFile } from '@scan/spmv/node';
 * const A = await readMatrixMarketFile('in.mtx');
 * await writeMatrixMarketFile('out.mtx', A, { comment: 'copied' });
 * ```
 * @module
 */
export { readMatrixMarketFile } from './read-file.js';
export { writeMatrixMarketFile } from './write-file.js';
