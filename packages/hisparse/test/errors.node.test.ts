// Every bad input is an INVALID_ARGUMENT ScanError whose message names the argument and the value.
import { ScanError } from '@scan/core';
import { describe, expect, it } from 'vitest';
import {
  hisparseAdd,
  hisparseFromCoo,
  hisparseFromCsr,
  hisparseInsert,
  hisparseMemoryBytes,
  hisparseRemove,
  hisparseSpmv,
  hisparseStats,
  hisparseToCsr,
  scale,
  transpose,
} from '../src/cpu/index.js';
import { HiSparseMatrix } from '../src/gpu/matrix.js';
import { randomCsrDyadic } from './oracle.js';

function expectInvalid(run: () => unknown, message: RegExp): void {
  let error: unknown;
  try {
    run();
  } catch (e) {
    error = e;
  }
  expect(error, `expected a ScanError matching ${message}`).toBeInstanceOf(ScanError);
  expect((error as ScanError).code).toBe('INVALID_ARGUMENT');
  expect((error as ScanError).message).toMatch(message);
}

const A = randomCsrDyadic(10, 6, 20, 1);
const H = hisparseFromCsr(A, { nodeSize: 4 });

describe('bad input', () => {
  it('node size: a power of two from 4 to 256', () => {
    for (const nodeSize of [2, 3, 12, 512, 0, -4, 4.5, '16', Number.NaN]) {
      expectInvalid(
        () => hisparseFromCsr(A, { nodeSize: nodeSize as number }),
        /^options\.nodeSize = .*: expected a power of two from 4 to 256/,
      );
    }
    expectInvalid(() => hisparseFromCsr(A, { nodesize: 4 } as never), /options\.nodesize = 4: unknown option/);
  });

  it('invalid CSR and COO, through @scan/spmv validation', () => {
    expectInvalid(() => hisparseFromCsr({ ...A, rowPtr: new Uint32Array(5) }), /A\.rowPtr = Uint32Array\(5\): expected rows \+ 1 = 11/);
    const bad = A.colIdx.slice();
    bad[3] = 6;
    expectInvalid(() => hisparseFromCsr({ ...A, colIdx: bad }), /A\.colIdx\[3\] = 6: not below A\.cols = 6/);
    expectInvalid(() => hisparseFromCsr(null as never), /^A = null/);
    const coo = { rows: 2, cols: 2, rowIdx: new Uint32Array([2]), colIdx: new Uint32Array([0]), values: new Float32Array([1]) };
    expectInvalid(() => hisparseFromCoo(coo), /coo\.rowIdx\[0\] = 2: not below coo\.rows = 2/);
  });

  it('not a HiSparse matrix', () => {
    expectInvalid(() => hisparseToCsr(A as never), /^H = Object: expected a HiSparse matrix/);
    expectInvalid(() => hisparseSpmv({ ...H } as never, new Float32Array(6)), /^H = Object: expected a HiSparse matrix/);
    expectInvalid(() => hisparseMemoryBytes(undefined as never), /^H = undefined/);
    expectInvalid(() => hisparseStats(42 as never), /^H = 42/);
    expectInvalid(() => transpose([] as never), /^H = Array\(0\)/);
    expectInvalid(() => hisparseAdd(H, A as never), /^B = Object/);
  });

  it('vectors of the wrong length or type', () => {
    expectInvalid(() => hisparseSpmv(H, new Float32Array(10)), /^x = Float32Array\(10\): expected 6 elements \(H\.cols\), got 10/);
    expectInvalid(() => hisparseSpmv(H, new Float32Array(6), { transpose: true }), /^x = Float32Array\(6\): expected 10 elements/);
    expectInvalid(() => hisparseSpmv(transpose(H), new Float32Array(6)), /^x = Float32Array\(6\): expected 10 elements \(H\.cols\)/);
    expectInvalid(() => hisparseSpmv(H, new Float64Array(6) as never), /^x = Float64Array\(6\): expected a Float32Array/);
    expectInvalid(() => hisparseSpmv(H, new Float32Array(6), { transpose: 'yes' as never }), /^options\.transpose = "yes"/);
  });

  it('shape or node size mismatch in add', () => {
    expectInvalid(() => hisparseAdd(H, transpose(H)), /^B = 6×10 matrix: shape does not match A = 10×6/);
    expectInvalid(() => hisparseAdd(H, hisparseFromCsr(A, { nodeSize: 8 })), /^B\.nodeSize = 8: does not match A\.nodeSize = 4/);
  });

  it('scale factors', () => {
    expectInvalid(() => scale(H, Number.NaN), /^s = NaN: expected a finite number/);
    expectInvalid(() => scale(H, Number.POSITIVE_INFINITY), /^s = Infinity/);
    expectInvalid(() => scale(H, '2' as never), /^s = "2"/);
  });

  it('edits out of range', () => {
    expectInvalid(() => hisparseInsert(H, 10, 0, 1), /^row = 10: expected an integer from 0 to H\.rows − 1 = 9/);
    expectInvalid(() => hisparseInsert(H, 0, 6, 1), /^col = 6: expected an integer from 0 to H\.cols − 1 = 5/);
    expectInvalid(() => hisparseInsert(transpose(H), 6, 0, 1), /^row = 6: expected an integer from 0 to H\.rows − 1 = 5/);
    expectInvalid(() => hisparseRemove(H, -1, 0), /^row = -1/);
    expectInvalid(() => hisparseRemove(H, 0, 1.5), /^col = 1\.5/);
    expectInvalid(() => hisparseInsert(H, 0, 0, '1' as never), /^value = "1": expected a number/);
    expectInvalid(() => hisparseInsert(scale(H, 0), 0, 0, 1), /^H\.scale = 0/);
    const E = hisparseFromCsr({ rows: 0, cols: 0, rowPtr: new Uint32Array(1), colIdx: new Uint32Array(0), values: new Float32Array(0) });
    expectInvalid(() => hisparseInsert(E, 0, 0, 1), /^row = 0: out of range: H\.rows = 0/);
  });

  it('the constructor of HiSparseMatrix is not public: a ScanError that names the static constructors', () => {
    // JavaScript ignores TypeScript's `private`: a caller may still write `new HiSparseMatrix(…)`.
    const Constructor = HiSparseMatrix as unknown as new (...args: unknown[]) => HiSparseMatrix;
    const tree = { root: 0, census: {}, retain: () => tree };
    for (const args of [[], [undefined], [{}, tree, false, 1]]) {
      let error: unknown;
      try {
        new Constructor(...args);
      } catch (e) {
        error = e;
      }
      expect(error, `new HiSparseMatrix(${args.length} arguments)`).toBeInstanceOf(ScanError);
      expect((error as ScanError).code).toBe('INVALID_ARGUMENT');
      expect((error as ScanError).argument).toBe('new HiSparseMatrix');
      expect((error as ScanError).message).toMatch(
        /^new HiSparseMatrix\(\): the constructor is not public; make a matrix with HiSparseMatrix\.fromCsr/,
      );
    }
  });
});
