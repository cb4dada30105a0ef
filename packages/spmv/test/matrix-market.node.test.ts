// Matrix Market files through `@scan/spmv/node`: a ~300k-entry matrix written by
// writeMatrixMarketFile (several 1 MiB chunks) and read back by readMatrixMarketFile, bit for bit;
// the file's text agrees with the in-memory writer and reader; CSR and symmetric files; a comment
// with multi-byte UTF-8 characters across a chunk boundary; and the errors: a missing file, a
// malformed file (path and line in the message), a bad matrix (no file left behind).
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScanError } from '@scan/core';
import { createRng } from '@scan/gpu-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMatrixMarket, writeMatrixMarket } from '../src/matrix-market/index.js';
import { readMatrixMarketFile, writeMatrixMarketFile } from '../src/node/index.js';
import type { CooMatrix, CsrMatrix } from '../src/types.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scan-spmv-mm-'));
});
afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

function bitsOf(values: Float32Array): Uint32Array {
  return new Uint32Array(values.buffer, values.byteOffset, values.length);
}

/** The first index where two u32 arrays differ (-1: none); deep equality is slow on 300k entries. */
function firstDifference(a: Uint32Array, b: Uint32Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

function expectCooEqual(actual: CooMatrix, expected: CooMatrix): void {
  expect([actual.rows, actual.cols]).toEqual([expected.rows, expected.cols]);
  expect(actual.values).toBeInstanceOf(Float32Array);
  expect(firstDifference(actual.rowIdx, expected.rowIdx), 'rowIdx').toBe(-1);
  expect(firstDifference(actual.colIdx, expected.colIdx), 'colIdx').toBe(-1);
  expect(firstDifference(bitsOf(actual.values), bitsOf(expected.values)), 'value bits').toBe(-1);
}

/** A seeded random COO matrix with f32 values from random bits (NaNs made canonical). */
function randomCoo(n: number, rows: number, cols: number, seed: number): CooMatrix {
  const rng = createRng(seed);
  const values = new Float32Array(new Uint32Array(n).map(() => rng.u32()).buffer);
  for (let k = 0; k < n; k++) if (Number.isNaN(values[k])) values[k] = Number.NaN;
  values[0] = -0;
  values[1] = Number.POSITIVE_INFINITY;
  values[2] = Number.NEGATIVE_INFINITY;
  values[3] = 2 ** -149;
  return {
    rows,
    cols,
    rowIdx: new Uint32Array(n).map(() => rng.int(0, rows - 1)),
    colIdx: new Uint32Array(n).map(() => rng.int(0, cols - 1)),
    values,
  };
}

async function errorOf(promise: Promise<unknown>): Promise<ScanError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(ScanError);
    return e as ScanError;
  }
  throw new Error('expected an error, none was thrown');
}

describe('readMatrixMarketFile / writeMatrixMarketFile', () => {
  it('~300k entries: write, read back bit for bit, same text as the in-memory writer', async () => {
    const A = randomCoo(300_000, 70_000, 2 ** 32 - 1, 11);
    const path = join(dir, 'big.mtx');
    await writeMatrixMarketFile(path, A, { comment: 'random bits\nseed 11' });
    const text = await readFile(path, 'utf8');
    expect(text.length).toBeGreaterThan(3 << 20); // several read and write chunks
    expect(text).toBe(writeMatrixMarket(A, { comment: 'random bits\nseed 11' }));
    expect(text.startsWith('%%MatrixMarket matrix coordinate real general\n% random bits\n% seed 11\n70000 4294967295 300000\n')).toBe(
      true,
    );
    expectCooEqual(await readMatrixMarketFile(path), A);
  });

  it('a CSR matrix: entries in row order', async () => {
    const rowPtr = new Uint32Array([0, 2, 2, 5]);
    const A: CsrMatrix = { rows: 3, cols: 3, rowPtr, colIdx: new Uint32Array([2, 0, 1, 1, 0]), values: new Float32Array([1, 2, 3, 4, 5]) };
    const path = join(dir, 'csr.mtx');
    await writeMatrixMarketFile(path, A);
    expect(await readFile(path, 'utf8')).toBe('%%MatrixMarket matrix coordinate real general\n3 3 5\n1 3 1\n1 1 2\n3 2 3\n3 2 4\n3 1 5\n');
    const B = await readMatrixMarketFile(path);
    expect(Array.from(B.rowIdx)).toEqual([0, 0, 2, 2, 2]);
    expect(Array.from(B.colIdx)).toEqual([2, 0, 1, 1, 0]);
  });

  it('a symmetric file with CRLF, and multi-byte characters across a 1 MiB chunk boundary', async () => {
    // The comment puts a 3-byte character on bytes (2^20 − 1, 2^20, 2^20 + 1) of the file.
    const banner = '%%MatrixMarket matrix coordinate real symmetric\r\n% ';
    const pad = 'x'.repeat((1 << 20) - 1 - banner.length);
    const lines = [`${banner}${pad}€€ comment €`, '3 3 3', '1 1 1.5', '3 1 -2', '% c', '2 2 nan', ''];
    const text = lines.join('\r\n');
    expect(
      Buffer.from(text, 'utf8')
        .subarray((1 << 20) - 1, (1 << 20) + 2)
        .toString('utf8'),
    ).toBe('€');
    const path = join(dir, 'sym.mtx');
    await writeFile(path, text, 'utf8');
    const A = await readMatrixMarketFile(path);
    expect(Array.from(A.rowIdx)).toEqual([0, 2, 0, 1]);
    expect(Array.from(A.colIdx)).toEqual([0, 0, 2, 1]);
    expect(Array.from(A.values)).toEqual([1.5, -2, -2, Number.NaN]);
    expectCooEqual(A, readMatrixMarket(text));
  });

  it('a missing file: INVALID_ARGUMENT naming the path', async () => {
    const path = join(dir, 'does-not-exist.mtx');
    const error = await errorOf(readMatrixMarketFile(path));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.argument).toBe('path');
    expect(error.message).toContain(path);
    expect(error.message).toMatch(/cannot read the Matrix Market file.*ENOENT/);
  });

  it('a directory, and a bad path argument', async () => {
    expect((await errorOf(readMatrixMarketFile(dir))).message).toMatch(/cannot read the Matrix Market file.*EISDIR/);
    expect((await errorOf(readMatrixMarketFile(''))).argument).toBe('path');
    expect((await errorOf(writeMatrixMarketFile(join(dir, 'no-such-dir', 'a.mtx'), randomCoo(3, 2, 2, 1)))).message).toMatch(
      /cannot write the Matrix Market file.*ENOENT/,
    );
  });

  it('a malformed file: the path and the line in the message', async () => {
    const path = join(dir, 'bad.mtx');
    await writeFile(path, '%%MatrixMarket matrix coordinate real general\n% c\n2 2 3\n1 1 1\n\n2 3 1\n1 2 1\n');
    const error = await errorOf(readMatrixMarketFile(path));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.argument).toBe('path');
    expect(error.message).toBe(`Matrix Market file ${path}, line 6: column index "3" is out of range: expected 1..2`);

    await writeFile(path, '%%MatrixMarket matrix array real general\n2 2\n');
    expect((await errorOf(readMatrixMarketFile(path))).code).toBe('UNSUPPORTED');

    await writeFile(path, '%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n');
    expect((await errorOf(readMatrixMarketFile(path))).message).toMatch(
      new RegExp(`${path}, line 3: the input ends after 1 of the 3 entries`),
    );
  });

  it('the same entry rules as readMatrixMarket: upper entries of a symmetric file, f32 overflow, skew diagonal', async () => {
    const path = join(dir, 'rules.mtx');
    const files = [
      ['%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 1\n1 2 1\n', 4, /entry \(1, 2\) is above the diagonal/],
      ['%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n1 3 1\n', 3, /entry \(1, 3\) is above the diagonal/],
      ['%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n3 3 1\n', 3, /diagonal entry \(3, 3\)/],
      ['%%MatrixMarket matrix coordinate real general\n% c\n3 3 1\n3 2 1e40\n', 4, /value "1e40" of entry \(3, 2\) is past the f32 range/],
    ] as const;
    for (const [text, line, pattern] of files) {
      await writeFile(path, text);
      const error = await errorOf(readMatrixMarketFile(path));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.argument).toBe('path');
      expect(error.message).toMatch(new RegExp(`^Matrix Market file ${path}, line ${line}: `));
      expect(error.message).toMatch(pattern);
      // The string reader rejects the same text with the same words after its own prefix.
      let fromText: unknown;
      try {
        readMatrixMarket(text);
      } catch (e) {
        fromText = e;
      }
      expect((fromText as Error).message.replace(/^[^,]*, /, '')).toBe(error.message.replace(/^[^,]*, /, ''));
    }
  });

  it('a malformed matrix is rejected before the file is created', async () => {
    const path = join(dir, 'never.mtx');
    const A = randomCoo(10, 4, 4, 3);
    A.colIdx[7] = 4;
    const error = await errorOf(writeMatrixMarketFile(path, A));
    expect(error.message).toMatch(/A\.colIdx.*entry 7 is 4/);
    expect(existsSync(path)).toBe(false);
  });
});
