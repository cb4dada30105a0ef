/**
 * Matrix Market I/O: an incremental reader of the `coordinate` format and a bit-exact writer.
 *
 * @example
 * ```ts
 * import { readMatrixMarket, writeMatrixMarket } from '@scan/spmv';
 * const A = readMatrixMarket(writeMatrixMarket(B));
 * ```
 * @module
 */
export { MatrixMarketParser } from './parser.js';
export { readMatrixMarket } from './read.js';
export type {
  MatrixMarketField,
  MatrixMarketHeader,
  MatrixMarketParserOptions,
  MatrixMarketSymmetry,
  WriteMatrixMarketOptions,
} from './types.js';
export { matrixMarketChunks, writeMatrixMarket } from './write.js';
