// Segment lengths around the single-pass kernels' tile (4096 elements: 256 invocations × 4 vec4
// slots for the scan, 256 × 4 × 1 row for the reduce) and a subgroup's run (512 elements), so that
// segments start and end just before, on and just after every boundary the look-back and the
// group scans stitch across. Against the CPU reference, outputs poisoned by the array-level calls.
import { getTestContext, randomData } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { segmentedReduce } from '../src/ops/segmented-reduce.js';
import { segmentedScan } from '../src/ops/segmented-scan.js';

const TILE = 4096;
const RUN = 512;

/** Head flags for consecutive segments of the given lengths. */
function flagsOf(lengths: readonly number[]): Uint8Array {
  const n = lengths.reduce((a, b) => a + b, 0);
  const flags = new Uint8Array(n);
  let at = 0;
  for (const length of lengths) {
    flags[at] = 1;
    at += length;
  }
  return flags;
}

const LENGTHS: readonly (readonly number[])[] = [
  // Tile-sized segments, off by one either way, so heads fall just before, on and after tile starts.
  [TILE - 1, TILE, TILE + 1, TILE, 1, TILE - 1, 2 * TILE + 1, 2 * TILE, 2 * TILE - 1, TILE],
  // Run-sized segments: heads near every subgroup run boundary inside the tiles.
  [RUN - 1, RUN, RUN + 1, RUN, 1, RUN - 1, 2 * RUN + 1, RUN, 3, TILE - RUN, RUN + 2, TILE + RUN],
  // One head right after each tile start and one right before each tile end.
  [1, TILE - 2, 2, TILE - 2, 2, TILE - 1, TILE + 1, TILE - 1],
];

/** Every case of LENGTHS with data of each (type, op), seeded. */
function* cases(kinds: readonly (readonly ['u32' | 'i32' | 'f32', 'add' | 'min' | 'max'])[]) {
  for (const [k, lengths] of LENGTHS.entries()) {
    const flags = flagsOf(lengths);
    for (const [type, op] of kinds) {
      const data = randomData(type, flags.length, 97 * k + flags.length, op === 'add' ? 'small' : 'random');
      yield { label: `${type} ${op} case ${k}`, segments: lengths.length, flags, op, data };
    }
  }
}

for (const subgroups of [true, false]) {
  describe(`single pass, segment lengths around the tile (${TILE}) and the subgroup run (${RUN}) (${subgroups ? 'subgroups' : 'workgroup memory'})`, () => {
    it('segmentedScan: u32 add forward and backward, inclusive and exclusive; f32 add and i32 max in two of those each', async () => {
      const ctx = await getTestContext({ subgroups });
      for (const { label, flags, op, data } of cases([
        ['u32', 'add'],
        ['f32', 'add'],
        ['i32', 'max'],
      ])) {
        for (const backward of [false, true]) {
          for (const inclusive of [false, true]) {
            // u32 add in every direction and mode; f32 add and i32 max in two each, between them
            // the four (the boundaries are the same for every operator; each mode is a pipeline).
            if (label.startsWith('f32') ? backward === inclusive : label.startsWith('i32') && backward !== inclusive) continue;
            const got = await segmentedScan(ctx, data, flags, { op, backward, inclusive, algorithm: 'single-pass' });
            const want = cpu.segmentedScan(data, flags, { op, backward, inclusive });
            const where = `${label} ${backward ? 'bwd' : 'fwd'} ${inclusive ? 'inc' : 'exc'}`;
            expect(got.length, where).toBe(data.length);
            for (let i = 0; i < data.length; i++) {
              if (got[i] !== want[i]) expect(`${where}: [${i}] = ${got[i]}`).toBe(`${where}: [${i}] = ${want[i]}`);
            }
          }
        }
      }
    });

    it('segmentedReduce: u32 and f32 add, i32 min', async () => {
      const ctx = await getTestContext({ subgroups });
      for (const { label, segments, flags, op, data } of cases([
        ['u32', 'add'],
        ['f32', 'add'],
        ['i32', 'min'],
      ])) {
        const got = await segmentedReduce(ctx, data, flags, { op });
        expect(got.length, label).toBe(segments);
        expect(Array.from(got), label).toEqual(Array.from(cpu.segmentedReduce(data, flags, { op })));
      }
    });
  });
}
