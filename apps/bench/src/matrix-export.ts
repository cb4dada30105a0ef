// `node apps/bench/dist/matrix-export.js <matrix> <case-seed> <out-dir>`: writes a host-made suite
// matrix (stencil27, geometric, rmat) and hisparse-add's perturbed B exactly as the bench's child
// makes them for that case seed, so that cuda/spmv.py (and baselines/cuda.py) time cuSPARSE on the
// very same arrays. Files `<out-dir>/<matrix>.A.csr` and `.B.csr`: a little-endian u32 header
// [0x52534331 ('CSR1'), rows, cols, nnz], then rowPtr (u32 × rows + 1), colIdx (u32 × nnz), values
// (f32 × nnz). Prints one JSON line per file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CsrMatrix } from '@scan/spmv/cpu';
import { hostSuiteMatrix, isHostFamily, perturbedOperand } from './spmv-host-matrix.js';
import { parseMatrixName } from './spmv-suite.js';

/** The header's first word: 'CSR1' in ASCII, little-endian. */
export const CSR_FILE_MAGIC = 0x52534331;

/**
 * The bytes of a CSR file (see the file's comment).
 *
 * @example
 * ```ts
 * writeFileSync('A.csr', csrFileBytes(stencil27(4)));
 * ```
 */
export function csrFileBytes(A: CsrMatrix): Uint8Array {
  const nnz = A.colIdx.length;
  const out = new Uint8Array(16 + 4 * (A.rows + 1) + 8 * nnz);
  new Uint32Array(out.buffer, 0, 4).set([CSR_FILE_MAGIC, A.rows, A.cols, nnz]);
  let at = 16;
  for (const part of [A.rowPtr, A.colIdx, A.values]) {
    out.set(new Uint8Array(part.buffer, part.byteOffset, part.byteLength), at);
    at += part.byteLength;
  }
  return out;
}

function main(args: readonly string[]): void {
  const [name, seedText, dir] = args;
  if (name === undefined || seedText === undefined || dir === undefined) {
    throw new Error('usage: node dist/matrix-export.js <matrix> <case-seed> <out-dir>  (matrix: stencil27-S, geometric-N, rmat-N)');
  }
  const spec = parseMatrixName(name);
  if (!isHostFamily(spec)) throw new Error(`${name}: only the host-made families (stencil27, geometric, rmat) are exported`);
  const seed = Number(seedText);
  if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`case seed "${seedText}": expected a non-negative integer`);
  const A = hostSuiteMatrix(spec, seed);
  const B = perturbedOperand(A, seed);
  for (const [which, M] of [
    ['A', A],
    ['B', B],
  ] as const) {
    const path = join(dir, `${name}.${which}.csr`);
    writeFileSync(path, csrFileBytes(M));
    console.log(JSON.stringify({ matrix: name, operand: which, path, rows: M.rows, cols: M.cols, nnz: M.colIdx.length }));
  }
}

main(process.argv.slice(2));
