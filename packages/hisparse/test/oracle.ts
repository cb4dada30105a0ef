// Independent oracles of the HiSparse tests: seeded matrices, dense comparison, and CSR addition
// and edits written here from the definitions (never through the code under test).
import { createRng } from '@scan/gpu-testing';
import { type CooMatrix, type CsrMatrix, cooToCsr } from '@scan/spmv/cpu';
import { expect } from 'vitest';
import { forEachNode } from '../src/cpu/traverse.js';
import { NODE_TYPE } from '../src/format/layout.js';
import type { HiSparseHost } from '../src/format/matrix.js';
import { readNode } from '../src/format/node-io.js';
import { COO4_SIZE_CLASSES, sizeClassOf } from '../src/gpu/kernels/size-classes.js';

/**
 * A seeded COO matrix with about `nnz` distinct positions and dyadic values k/8, k in ±[1, 64]
 * (never 0), so sums of a few of them and their products with {@link dyadicVector} are exact.
 */
export function randomCoo(rows: number, cols: number, nnz: number, seed: number): CooMatrix {
  const rng = createRng(seed);
  const n = rows === 0 || cols === 0 ? 0 : nnz;
  const rowIdx = new Uint32Array(n);
  const colIdx = new Uint32Array(n);
  const values = new Float32Array(n);
  for (let k = 0; k < n; k++) {
    rowIdx[k] = rng.int(0, rows - 1);
    colIdx[k] = rng.int(0, cols - 1);
    values[k] = (rng.int(1, 64) * (rng.int(0, 1) === 0 ? 1 : -1)) / 8;
  }
  return { rows, cols, rowIdx, colIdx, values };
}

/** A seeded CSR (sorted, duplicates summed) with dyadic values. */
export function randomCsrDyadic(rows: number, cols: number, nnz: number, seed: number): CsrMatrix {
  return cooToCsr(randomCoo(rows, cols, nnz, seed));
}

/** A seeded vector of small dyadic values k/4, k in [−8, 8]. */
export function dyadicVector(n: number, seed: number): Float32Array {
  const rng = createRng(seed);
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) x[i] = rng.int(-8, 8) / 4;
  return x;
}

/** The entries of a CSR as a map "row,col" → value. */
export function entryMap(A: CsrMatrix): Map<string, number> {
  const m = new Map<string, number>();
  for (let r = 0; r < A.rows; r++) for (let k = A.rowPtr[r]!; k < A.rowPtr[r + 1]!; k++) m.set(`${r},${A.colIdx[k]}`, A.values[k]!);
  return m;
}

/** Exact equality of two canonical CSR matrices: shape, pattern and value bits. */
export function expectSameCsr(actual: CsrMatrix, expected: CsrMatrix, label: string): void {
  expect([actual.rows, actual.cols], `${label}: shape`).toEqual([expected.rows, expected.cols]);
  expect(Array.from(actual.rowPtr), `${label}: rowPtr`).toEqual(Array.from(expected.rowPtr));
  expect(Array.from(actual.colIdx), `${label}: colIdx`).toEqual(Array.from(expected.colIdx));
  const bits = (v: Float32Array) => Array.from(new Uint32Array(v.buffer, v.byteOffset, v.length));
  expect(bits(actual.values), `${label}: value bits`).toEqual(bits(expected.values));
}

/** Equality as matrices: every position has the same value, a missing entry counting as 0. */
export function expectSameValues(actual: CsrMatrix, expected: CsrMatrix, label: string): void {
  expect([actual.rows, actual.cols], `${label}: shape`).toEqual([expected.rows, expected.cols]);
  const a = entryMap(actual);
  const e = entryMap(expected);
  for (const key of new Set([...a.keys(), ...e.keys()])) {
    expect(a.get(key) ?? 0, `${label}: entry ${key}`).toBe(e.get(key) ?? 0);
  }
}

/** sA·op(A) + sB·op(B) in CSR, from entry maps (values summed in f64, rounded once). */
export function csrAdd(A: CsrMatrix, sA: number, B: CsrMatrix, sB: number): CsrMatrix {
  const sum = new Map<string, number>();
  for (const [key, v] of entryMap(A)) sum.set(key, sA * v);
  for (const [key, v] of entryMap(B)) sum.set(key, (sum.get(key) ?? 0) + sB * v);
  return fromMap(A.rows, A.cols, sum);
}

/** The transpose of a CSR, from its entry map. */
export function csrTranspose(A: CsrMatrix): CsrMatrix {
  const t = new Map<string, number>();
  for (const [key, v] of entryMap(A)) {
    const [r, c] = key.split(',');
    t.set(`${c},${r}`, v);
  }
  return fromMap(A.cols, A.rows, t);
}

/** A canonical CSR from an entry map. */
export function fromMap(rows: number, cols: number, m: Map<string, number>): CsrMatrix {
  const keys = [...m.keys()];
  return cooToCsr({
    rows,
    cols,
    rowIdx: Uint32Array.from(keys, (k) => Number(k.split(',')[0])),
    colIdx: Uint32Array.from(keys, (k) => Number(k.split(',')[1])),
    values: Float32Array.from(keys, (k) => m.get(k)!),
  });
}

/**
 * The COO4 leaves of a CPU matrix per size class (`COO4_SIZE_CLASSES`), counted on the host: what
 * the GPU census's `coo4Classes` must hold (the product plans size their leaf dispatches from it).
 */
export function coo4ClassesOf(H: HiSparseHost): number[] {
  const classes = COO4_SIZE_CLASSES.map(() => 0);
  forEachNode(H, (pointer, level) => {
    if (level !== H.levels - 1 || (pointer & 3) !== NODE_TYPE.coo4) return;
    const k = sizeClassOf(readNode(H.pool, pointer, H.nodeSize).slots.length);
    classes[k] = (classes[k] as number) + 1;
  });
  return classes;
}
