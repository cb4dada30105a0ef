// The layout of FORMAT.md checked word by word on small hand-computed cases, the node-type rule,
// and the memory accounting.
import { describe, expect, it } from 'vitest';
import { hisparseFromCoo, hisparseFromCsr, hisparseMemoryBytes, hisparseStats } from '../src/cpu/index.js';
import { chooseNodeType, levelsFor, NODE_TYPE, nodeWords, sparseLayout } from '../src/kit/index.js';

const f32 = (v: number) => new Uint32Array(new Float32Array([v]).buffer)[0]!;

describe('layout', () => {
  it('COOX node sizes follow FORMAT.md', () => {
    expect(sparseLayout(NODE_TYPE.coo1, 1)).toEqual({ coordStart: 1, valueStart: 2, words: 4 });
    expect(sparseLayout(NODE_TYPE.coo2, 2)).toEqual({ coordStart: 1, valueStart: 2, words: 4 });
    expect(sparseLayout(NODE_TYPE.coo4, 3)).toEqual({ coordStart: 2, valueStart: 4, words: 8 });
    expect(sparseLayout(NODE_TYPE.coo4, 4)).toEqual({ coordStart: 2, valueStart: 4, words: 8 });
    expect(sparseLayout(NODE_TYPE.coo4, 5)).toEqual({ coordStart: 2, valueStart: 8, words: 16 });
    expect(sparseLayout(NODE_TYPE.coo4, 9)).toEqual({ coordStart: 2, valueStart: 8, words: 20 });
    // COO1 and COO2 accept any count (padding to their load width), for tuned thresholds later.
    expect(sparseLayout(NODE_TYPE.coo2, 3)).toEqual({ coordStart: 1, valueStart: 4, words: 8 });
    expect(sparseLayout(NODE_TYPE.coo1, 3)).toEqual({ coordStart: 1, valueStart: 3, words: 8 });
    for (const d of [4, 8, 16, 32, 64, 128, 256]) expect(nodeWords(NODE_TYPE.dense, 1, d)).toBe(d * d);
  });

  it('node types: COO1, COO2, COO4 by count (§7), dense when smaller (§3.3)', () => {
    expect(chooseNodeType(1, 4)).toBe(NODE_TYPE.coo1);
    expect(chooseNodeType(2, 4)).toBe(NODE_TYPE.coo2);
    expect(chooseNodeType(3, 4)).toBe(NODE_TYPE.coo4);
    expect(chooseNodeType(8, 4)).toBe(NODE_TYPE.coo4); // 16 words either way: a tie stays sparse
    expect(chooseNodeType(9, 4)).toBe(NODE_TYPE.dense);
    expect(chooseNodeType(16, 4)).toBe(NODE_TYPE.dense);
    // d = 32: COO4 of n entries takes about 1.5·n words, dense 1024.
    expect(chooseNodeType(680, 32)).toBe(NODE_TYPE.coo4);
    expect(chooseNodeType(684, 32)).toBe(NODE_TYPE.dense);
  });

  it('levels: smallest L with d^L ≥ max(rows, cols)', () => {
    expect(levelsFor(0, 0, 4)).toBe(1);
    expect(levelsFor(4, 1, 4)).toBe(1);
    expect(levelsFor(5, 1, 4)).toBe(2);
    expect(levelsFor(1, 17, 4)).toBe(3);
    expect(levelsFor(2 ** 32 - 1, 1, 256)).toBe(4);
    expect(levelsFor(2 ** 32 - 1, 1, 4)).toBe(16);
  });
});

describe('a hand-computed pool', () => {
  // 8×8, d = 4: two levels (the root covers 16×16). (0,0)=1, (0,1)=2 in block (0,0); (5,6)=3 in block (1,1).
  const coo = {
    rows: 8,
    cols: 8,
    rowIdx: new Uint32Array([5, 0, 0]),
    colIdx: new Uint32Array([6, 1, 0]),
    values: new Float32Array([3, 2, 1]),
  };

  it('is laid out leaves first, root last, word for word', () => {
    const H = hisparseFromCoo(coo, { nodeSize: 4 });
    expect(H.levels).toBe(2);
    expect(Array.from(H.pool.view())).toEqual([
      // header: 'HSP1', version 1
      0x31505348,
      1,
      0,
      0,
      // word 4: leaf of block (0,0), COO2: count, coords (0,0) | (0,1) << 16, values 1, 2
      2,
      0x0100_0000,
      f32(1),
      f32(2),
      // word 8: leaf of block (1,1), COO1: count, coord (1,2), value 3, padding
      1,
      0x0201,
      f32(3),
      0,
      // word 12: root, COO2: count, coords (0,0) | (1,1) << 16, child pointers 4|COO2, 8|COO1
      2,
      0x0101_0000,
      4 | 2,
      8 | 1,
    ]);
    expect(H.root).toBe(12 | NODE_TYPE.coo2);
  });

  it('memory and statistics', () => {
    const H = hisparseFromCoo(coo, { nodeSize: 4 });
    expect(hisparseMemoryBytes(H)).toBe(64);
    const st = hisparseStats(H);
    expect(st.nnz).toBe(3);
    expect(st.innerNodes).toEqual({ dense: 0, coo1: 0, coo2: 1, coo4: 0 });
    expect(st.leafNodes).toEqual({ dense: 0, coo1: 1, coo2: 1, coo4: 0 });
    expect(st.meanLeafEntries).toEqual({ dense: 0, coo1: 1, coo2: 2, coo4: 0 });
    expect(st.meanInnerEntries.coo2).toBe(2);
    expect(st.csrBytes).toBe(4 * 9 + 8 * 3);
    expect(st.cooBytes).toBe(36);
    expect(st.bytesPerNonzero).toBeCloseTo(64 / 3);
    expect([st.levels, st.nodeSize, st.rows, st.cols]).toEqual([2, 4, 8, 8]);
  });

  it('a dense leaf: d² words, row-major, +0 for no entry', () => {
    // A full 4×4 block with one hole: 15 entries > 8, so dense (16 words) beats COO4 (28 words).
    const rows: number[] = [];
    const cols: number[] = [];
    for (let r = 0; r < 4; r++) {
      for (let c = 0; c < 4; c++) {
        if (r === 2 && c === 1) continue;
        rows.push(r);
        cols.push(c);
      }
    }
    const H = hisparseFromCoo(
      {
        rows: 4,
        cols: 4,
        rowIdx: Uint32Array.from(rows),
        colIdx: Uint32Array.from(cols),
        values: Float32Array.from(rows, (_, i) => i + 1),
      },
      { nodeSize: 4 },
    );
    expect(H.root).toBe(4 | NODE_TYPE.dense);
    const words = Array.from(H.pool.view().subarray(4));
    expect(words[9]).toBe(0);
    expect(words[0]).toBe(f32(1));
    expect(words[15]).toBe(f32(15));
    expect(hisparseMemoryBytes(H)).toBe(16 + 64);
  });

  it('empty matrices have a null root and only the header', () => {
    for (const [rows, cols] of [
      [0, 0],
      [5, 7],
    ] as const) {
      const H = hisparseFromCsr({ rows, cols, rowPtr: new Uint32Array(rows + 1), colIdx: new Uint32Array(0), values: new Float32Array(0) });
      expect(H.root).toBe(0);
      expect(hisparseMemoryBytes(H)).toBe(16);
      expect(hisparseStats(H).nnz).toBe(0);
    }
  });
});
