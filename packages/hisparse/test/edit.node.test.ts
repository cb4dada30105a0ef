// Copy-on-write edits against the same edits on CSR (entry maps), and sharing: an edit copies only
// its path, the other matrix keeps every word it can reach, and untouched subtrees are shared.

import { createRng } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import {
  type HiSparseHost,
  hisparseCompact,
  hisparseFromCsr,
  hisparseInsert,
  hisparseMemoryBytes,
  hisparseRemove,
  hisparseToCsr,
  scale,
  transpose,
} from '../src/cpu/index.js';
import { forEachNode } from '../src/cpu/traverse.js';
import { nodeSizeAt } from '../src/format/node-io.js';
import { entryMap, expectSameCsr, fromMap, randomCsrDyadic } from './oracle.js';

/** Every reachable node's offset with a copy of its words. */
function snapshot(H: HiSparseHost): Map<number, number[]> {
  const out = new Map<number, number[]>();
  forEachNode(H, (pointer) => {
    const at = pointer & ~3;
    out.set(at, Array.from(H.pool.words.subarray(at, at + nodeSizeAt(H.pool, pointer, H.nodeSize))));
  });
  return out;
}

function nodeSet(H: HiSparseHost): Set<number> {
  const s = new Set<number>();
  forEachNode(H, (p) => s.add(p));
  return s;
}

describe('insert and remove', () => {
  for (const d of [4, 8, 32]) {
    it(`a random sequence of edits matches CSR edits, d = ${d}`, () => {
      const A = randomCsrDyadic(70, 45, 400, d);
      let H = hisparseFromCsr(A, { nodeSize: d });
      const map = entryMap(A);
      const rng = createRng(100 + d);
      for (let step = 0; step < 300; step++) {
        const r = rng.int(0, 69);
        const c = rng.int(0, 44);
        if (rng.int(0, 2) === 0) {
          H = hisparseRemove(H, r, c);
          map.delete(`${r},${c}`);
        } else {
          const v = rng.int(1, 40) / 4;
          H = hisparseInsert(H, r, c, v);
          map.set(`${r},${c}`, v);
        }
      }
      expectSameCsr(hisparseToCsr(H), fromMap(70, 45, map), 'after 300 edits');
      // Node types were re-chosen on the way: the edited matrix is laid out as a fresh build of it.
      expect(Array.from(hisparseCompact(H).pool.view())).toEqual(
        Array.from(hisparseFromCsr(hisparseToCsr(H), { nodeSize: d }).pool.view()),
      );
    });
  }

  it('honours the state: transposed coordinates, value / scale', () => {
    const A = randomCsrDyadic(20, 12, 60, 3);
    const T = scale(transpose(hisparseFromCsr(A, { nodeSize: 4 })), 4);
    const E = hisparseInsert(T, 11, 19, 3); // logical (11, 19) = stored (19, 11), stored value 3/4
    expect(hisparseToCsr(E).values[hisparseToCsr(E).rowPtr[12]! - 1]).toBe(3);
    const stored = entryMap(hisparseToCsr(transpose(scale(E, 0.25))));
    expect(stored.get('19,11')).toBe(0.75);
  });

  it('removing every entry leaves a null root; removing an absent entry copies nothing', () => {
    const A = randomCsrDyadic(9, 9, 12, 8);
    let H = hisparseFromCsr(A, { nodeSize: 4 });
    const used = H.pool.used;
    const absent = [...Array(81).keys()].map((k) => [Math.floor(k / 9), k % 9] as const).find(([r, c]) => !entryMap(A).has(`${r},${c}`))!;
    const same = hisparseRemove(H, absent[0], absent[1]);
    expect(same.root).toBe(H.root);
    expect(H.pool.used).toBe(used);
    for (const key of entryMap(A).keys()) {
      const [r, c] = key.split(',').map(Number);
      H = hisparseRemove(H, r!, c!);
    }
    expect(H.root).toBe(0);
    expect(hisparseToCsr(H).colIdx.length).toBe(0);
    expect(hisparseMemoryBytes(H)).toBe(16);
  });

  it('insert into an empty matrix builds the whole path', () => {
    const E = hisparseFromCsr(
      { rows: 300, cols: 300, rowPtr: new Uint32Array(301), colIdx: new Uint32Array(0), values: new Float32Array(0) },
      { nodeSize: 4 },
    );
    const H = hisparseInsert(E, 299, 7, 2.5);
    expect(H.levels).toBe(5);
    expect(hisparseMemoryBytes(H)).toBe(16 + 5 * 16); // five COO1 nodes
    expect(E.root).toBe(0);
  });
});

describe('shared subtrees', () => {
  it('survive edits of the other matrix', () => {
    const A = randomCsrDyadic(200, 200, 3000, 55);
    const H = hisparseFromCsr(A, { nodeSize: 8 });
    const B = hisparseInsert(H, 3, 190, 1.5); // B shares everything but one path with H
    const beforeH = snapshot(H);
    const beforeB = snapshot(B);
    const csrB = hisparseToCsr(B);
    const shared = [...nodeSet(H)].filter((p) => nodeSet(B).has(p));
    expect(shared.length).toBeGreaterThan(nodeSet(H).size - 1 - H.levels); // all but the copied path
    expect(B.pool).toBe(H.pool);

    // Edit H many times (including inside subtrees B shares): B must not change.
    let H2 = H;
    for (let i = 0; i < 50; i++)
      H2 = hisparseInsert(hisparseRemove(H2, (i * 37) % 200, (i * 91) % 200), (i * 53) % 200, (i * 17) % 200, i + 0.5);
    expectSameCsr(hisparseToCsr(B), csrB, 'B after edits of H');
    expectSameCsr(hisparseToCsr(H), A, 'H after edits of its successors');
    expect(snapshot(B)).toEqual(beforeB);
    expect(snapshot(H)).toEqual(beforeH);
    // H2 still shares untouched subtrees with B.
    expect([...nodeSet(H2)].filter((p) => nodeSet(B).has(p)).length).toBeGreaterThan(0);
    // Memory counts each matrix's reachable nodes only, not the grown pool.
    expect(hisparseMemoryBytes(B)).toBe(4 * hisparseCompact(B).pool.used);
    expect(4 * H.pool.used).toBeGreaterThan(hisparseMemoryBytes(H) + 100 * 16); // the pool holds every copied path
  });
});
