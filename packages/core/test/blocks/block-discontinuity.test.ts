// The block discontinuity on its own: a harness kernel made of a tile load of keys and the block's
// heads and tails, each tile given its neighbours' keys across its edges (none before the first,
// none after the last); seeded cases over key types, arrangements, items per invocation (scalars
// and vec4 slots), both directions of the load and of the order, the default inequality and an
// asymmetric predicate, at edge sizes; every flag against the CPU, with the subgroups' group
// numbering and without.
import { expectEqualArrays, getTestContext } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import type { TileArrangement } from '../../src/kernels/blocks/arrangement.js';
import { composeBlocks } from '../../src/kernels/blocks/block.js';
import { blockDiscontinuity } from '../../src/kernels/blocks/block-discontinuity.js';
import { defineKernel, readWrite } from '../../src/kernels/define-kernel.js';
import { groupIdentityWgsl } from '../../src/kernels/group-scan.js';
import { SLOT_PARAMS } from '../../src/kernels/slots.js';
import { unroll } from '../../src/kernels/unroll.js';
import {
  ARRANGEMENTS,
  chooser,
  countOf,
  firstWritten,
  harnessParams,
  harnessTileIo,
  type KernelJob,
  physicalOf,
  runKernels,
  type TestType,
  type TileShapeCase,
  tilesOf,
  typedFrom,
} from './helpers.js';

interface FlagCase extends TileShapeCase {
  readonly loadBackward: boolean;
  readonly backward: boolean;
  /** `ne`: the default, keys differ; `gt`: the earlier key is greater (an asymmetric predicate). */
  readonly differ: 'ne' | 'gt';
}

function blocksOf(s: FlagCase) {
  const io = harnessTileIo(s, 'keys', `${s.type}(0)`, { backward: s.loadBackward });
  const runs = blockDiscontinuity({
    name: 'runs',
    type: s.type,
    workgroupSize: s.workgroupSize,
    itemsPerThread: s.itemsPerThread,
    arrangement: s.arrangement,
    vec4: s.vec4,
    backward: s.backward,
    differ: s.differ === 'gt' ? (a, b) => `(${a}) > (${b})` : undefined,
  });
  return { io, runs, needs: composeBlocks(io, runs) };
}

/** `heads[j]`, `tails[j]`: the flags of logical element j (of the load's view), for j before the end. */
const flagHarness = defineKernel({
  name: 'test/blocks/discontinuity',
  bindings: (s: FlagCase) => ({ ...blocksOf(s).needs.bindings, heads: readWrite('array<u32>'), tails: readWrite('array<u32>') }),
  params: SLOT_PARAMS,
  enable: (s) => (s.subgroups ? ['subgroups'] : []),
  wgsl: (s) => {
    const { io, runs, needs } = blocksOf(s);
    const id = groupIdentityWgsl(s.subgroups, s.workgroupSize);
    const V = s.vec4 ? 4 : 1;
    const K = s.itemsPerThread;
    const TE = s.workgroupSize * K * V;
    // Logical element j alone: an element, or a lane of a slot.
    const key = (j: string) => (s.vec4 ? `${io.loadItem(`(${j}) / 4u`)}[(${j}) % 4u]` : io.loadItem(j));
    // The neighbour before the tile in the tile's order, and after it.
    const before = { value: key(`tile * ${TE}u - 1u`), has: 'tile > 0u' };
    const after = { value: key(`(tile + 1u) * ${TE}u`), has: `(tile + 1u) * ${TE}u < params.count` };
    const [pred, succ] = s.backward ? [after, before] : [before, after];
    return `${id.decls}
${needs.decls}
@compute @workgroup_size(${s.workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>${id.builtins}) {
  ${id.body}
  let tile = wid.x;
  let items = ${io.load('tile')};
  let valid = ${io.valid('tile')};
  let h = ${runs.heads('items', pred.value, pred.has, 'valid')};
  let t = ${runs.tails('items', succ.value, succ.has, 'valid')};
${unroll(K, (k) =>
  unroll(
    V,
    (e) => `  {
    let p = ${io.position(`${k}u`)} * ${V}u + ${e}u;
    if (p < valid) {
      heads[tile * ${TE}u + p] = (h >> ${k * V + e}u) & 1u;
      tails[tile * ${TE}u + p] = (t >> ${k * V + e}u) & 1u;
    }
  }`,
  ),
)}
}`;
  },
});

function cases(subgroups: boolean, count: number, seed: number): FlagCase[] {
  const pick = chooser(seed);
  return Array.from({ length: count }, (_, i) => {
    const vec4 = pick.chance(0.35);
    return {
      type: pick.pick<TestType>(['u32', 'i32', 'f32']),
      subgroups,
      workgroupSize: pick.pick([32, 64]),
      itemsPerThread: pick.int(1, vec4 ? 2 : 4),
      vec4,
      arrangement: ARRANGEMENTS[i % 3] as TileArrangement,
      // A backward slot view puts the padding of a partial vec4 first: not a layout for keys.
      loadBackward: !vec4 && pick.chance(0.3),
      backward: (i >> 1) % 2 === 1,
      differ: pick.chance(0.3) ? 'gt' : 'ne',
    };
  });
}

describe('blockDiscontinuity (GPU)', () => {
  for (const subgroups of [true, false]) {
    it(`flags heads and tails across tiles (${subgroups ? 'subgroup groups' : 'one group'})`, async () => {
      const ctx = await getTestContext({ subgroups });
      const all = cases(subgroups, 24, subgroups ? 505 : 606).map((s, i) => {
        const TE = s.workgroupSize * s.itemsPerThread * (s.vec4 ? 4 : 1);
        const n = countOf(TE, chooser(5000 + i));
        const pick = chooser(5500 + i);
        // Keys in runs: few distinct values, so equal neighbours are common.
        const values = Array.from({ length: n }, () => (s.type === 'f32' ? pick.int(-1, 1) + 0.5 : pick.int(s.type === 'i32' ? -1 : 0, 2)));
        return { s, n, TE, tiles: tilesOf(n, TE, s.vec4), input: typedFrom(s.type, values) };
      });
      const jobs: KernelJob[] = all.map(({ s, n, TE, tiles, input }) => ({
        kernel: flagHarness(s),
        groups: tiles,
        params: harnessParams(n, tiles),
        inputs: { [s.vec4 ? 'src' : 'input']: input },
        outputs: { heads: 4 * tiles * TE, tails: 4 * tiles * TE },
      }));
      const results = await runKernels(ctx, jobs);
      all.forEach(({ s, n, input }, i) => {
        const keys = Array.from({ length: n }, (_, j) => input[physicalOf(j, n, s.vec4, s.loadBackward)] as number);
        const differ = s.differ === 'gt' ? (a: number, b: number) => a > b : (a: number, b: number) => a !== b;
        // In the order's terms: element j's predecessor is j − 1 forward, j + 1 backward.
        const step = s.backward ? 1 : -1;
        const flag = (j: number, towards: number, head: boolean) => {
          const other = j + towards;
          if (other < 0 || other >= n) return 1;
          return (head ? differ(keys[other]!, keys[j]!) : differ(keys[j]!, keys[other]!)) ? 1 : 0;
        };
        const label = `${JSON.stringify(s)} n=${n}`;
        const heads = results[i]!['heads']!;
        const tails = results[i]!['tails']!;
        expectEqualArrays(
          new Uint32Array(heads, 0, n),
          Array.from({ length: n }, (_, j) => flag(j, step, true)),
          `${label} heads`,
        );
        expectEqualArrays(
          new Uint32Array(tails, 0, n),
          Array.from({ length: n }, (_, j) => flag(j, -step, false)),
          `${label} tails`,
        );
        expect(firstWritten(heads, n), `${label}: a head past the end`).toBe(-1);
        expect(firstWritten(tails, n), `${label}: a tail past the end`).toBe(-1);
      });
    });
  }

  it('refuses more flags than a u32 holds', () => {
    expect(() => blockDiscontinuity({ name: 'd', type: 'u32', workgroupSize: 64, itemsPerThread: 9, vec4: true })).toThrow(/36 flags/);
  });
});
