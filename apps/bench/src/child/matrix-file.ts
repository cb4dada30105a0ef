import type { CooMatrix } from '@scan/spmv/cpu';

// Reading a `.mtx` file needs Node (`@scan/spmv/node` streams it with node:fs), but runCase is also
// bundled for the browser (the dashboard), so this module only holds the reader that the Node
// entry (cli.ts) installs. Nothing in runCase's static imports names a Node module.

/** Reads a Matrix Market file into a COO matrix (`readMatrixMarketFile` in Node). */
export type MatrixFileReader = (path: string) => Promise<CooMatrix>;

let installed: MatrixFileReader | undefined;

/**
 * Installs the reader of `.mtx` files; the CLI's child mode passes `readMatrixMarketFile`.
 *
 * @example
 * ```ts
 * import { readMatrixMarketFile } from '@scan/spmv/node';
 * useMatrixFileReader(readMatrixMarketFile);
 * ```
 */
export function useMatrixFileReader(reader: MatrixFileReader): void {
  installed = reader;
}

/**
 * Reads the Matrix Market file of an SpMV case with the installed reader; throws where none is
 * installed (a browser has no files to read).
 *
 * @example
 * ```ts
 * const coo = await readMatrixFile('/data/bcsstk13.mtx');
 * ```
 */
export function readMatrixFile(path: string): Promise<CooMatrix> {
  if (!installed) throw new Error(`${path}: reading a Matrix Market file needs the Node CLI (no reader installed here)`);
  return installed(path);
}
