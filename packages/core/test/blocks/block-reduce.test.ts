// The block reduce on its own: a harness kernel made of a tile load and the block reduce, on
// seeded cases over operators (built-in, on shuffles, not commutative) and types, arrangements,
// items per invocation (scalars and vec4 slots), both directions, one value per invocation or
// several, the result in every invocation or in the leader alone, at edge sizes; every
// invocation's result (or the leader's) against the CPU's reduction of its tile,
// subgroups on (SwiftShader: width 4) and off.
import { expectCloseArrays, expectEqualArrays, getTestContext } from '@scan/gpu-testing';
import { describe, it } from 'vitest';
import type { TileArrangement } from '../../src/kernels/blocks/arrangement.js';
import { composeBlocks } from '../../src/kernels/blocks/block.js';
import { blockReduce } from '../../src/kernels/blocks/block-reduce.js';
import { defineKernel, readWrite } from '../../src/kernels/define-kernel.js';
import { groupIdentityWgsl } from '../../src/kernels/group-scan.js';
import { SLOT_PARAMS } from '../../src/kernels/slots.js';
import { WGSL_PRELUDE } from '../../src/kernels/wgsl-ops.js';
import {
  AFFINE_WGSL,
  ARRANGEMENTS,
  blockOpOf,
  chooser,
  countOf,
  cpuOpOf,
  dataFor,
  harnessParams,
  harnessTileIo,
  type KernelJob,
  opsFor,
  physicalOf,
  runKernels,
  type TestOpName,
  type TestType,
  type TileShapeCase,
  tilesOf,
  typedOf,
} from './helpers.js';

interface ReduceCase extends TileShapeCase {
  readonly op: TestOpName;
  readonly backward: boolean;
  /** `items`: `NAME_reduce_items`; `single`: `NAME_reduce` of one value per invocation. */
  readonly form: 'items' | 'single';
  /** Where the block leaves its result (`'leader'`: the harness shares the leader's with everyone). */
  readonly result: 'all' | 'leader';
}

function blocksOf(s: ReduceCase) {
  const io = harnessTileIo(s, 'io', blockOpOf(s.op, s.type).identity);
  const reduce = blockReduce({
    name: 'bred',
    op: blockOpOf(s.op, s.type),
    subgroups: s.subgroups,
    workgroupSize: s.workgroupSize,
    itemsPerThread: s.itemsPerThread,
    arrangement: s.arrangement,
    vec4: s.vec4,
    backward: s.backward,
    result: s.result,
  });
  return { io, reduce, needs: composeBlocks(io, reduce) };
}

/** `results[tile · WG + rank]`: the tile's reduction as invocation `rank` has it (twice in a row: the block is reusable). */
const reduceHarness = defineKernel({
  name: 'test/blocks/reduce',
  bindings: (s: ReduceCase) => ({ ...blocksOf(s).needs.bindings, results: readWrite(`array<${s.type}>`) }),
  params: SLOT_PARAMS,
  enable: (s) => blocksOf(s).needs.enable,
  wgsl: (s) => {
    const { io, reduce, needs } = blocksOf(s);
    const id = groupIdentityWgsl(s.subgroups, s.workgroupSize);
    const once = s.form === 'single' ? reduce.reduce('items[0]') : reduce.reduceItems('items');
    return `${s.vec4 ? '' : WGSL_PRELUDE}${s.op === 'affine' ? AFFINE_WGSL : ''}
${id.decls}
var<workgroup> test_leader: ${s.type};
${needs.decls}
@compute @workgroup_size(${s.workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>${id.builtins}) {
  ${id.body}
  let tile = wid.x;
  let items = ${io.load('tile')};
  let first = ${once};
  ${s.result === 'leader' ? 'workgroupBarrier();   // the caller places it before the block runs again' : ''}
  let second = ${once};
  // A second call that disagrees with the first leaves a sentinel no case expects.
  let mine = select(${s.type}(0x5eed), first, first == second);
  ${
    s.result === 'leader'
      ? `if (group == 0u && lane == 0u) { test_leader = mine; }
  workgroupBarrier();
  results[tile * ${s.workgroupSize}u + group * gsize + lane] = test_leader;`
      : `results[tile * ${s.workgroupSize}u + group * gsize + lane] = mine;`
  }
}`;
  },
});

function cases(subgroups: boolean, count: number, seed: number): ReduceCase[] {
  const pick = chooser(seed);
  return Array.from({ length: count }, (_, i) => {
    const type = pick.pick<TestType>(['u32', 'u32', 'i32', 'f32']);
    const single = i % 5 === 4;
    const vec4 = !single && pick.chance(0.35);
    return {
      op: pick.pick(opsFor(type)),
      type,
      subgroups,
      workgroupSize: pick.pick([32, 64]),
      itemsPerThread: single ? 1 : pick.int(1, vec4 ? 2 : 4),
      vec4,
      arrangement: ARRANGEMENTS[i % 3] as TileArrangement,
      backward: (i >> 1) % 2 === 1,
      form: single ? 'single' : 'items',
      result: i % 4 === 1 ? 'leader' : 'all',
    };
  });
}

describe('blockReduce (GPU)', () => {
  for (const subgroups of [true, false]) {
    it(`reduces tiles against the CPU (${subgroups ? 'subgroups' : 'workgroup memory'})`, async () => {
      const ctx = await getTestContext({ subgroups });
      const all = cases(subgroups, 30, subgroups ? 303 : 404).map((s, i) => {
        const TE = s.workgroupSize * s.itemsPerThread * (s.vec4 ? 4 : 1);
        const n = countOf(TE, chooser(3000 + i));
        return { s, n, TE, tiles: tilesOf(n, TE, s.vec4), input: dataFor(s.op, s.type, n, 30 + i) };
      });
      const jobs: KernelJob[] = all.map(({ s, n, tiles, input }) => ({
        kernel: reduceHarness(s),
        groups: tiles,
        params: harnessParams(n, tiles),
        inputs: { [s.vec4 ? 'src' : 'input']: input },
        outputs: { results: 4 * tiles * s.workgroupSize },
      }));
      const results = await runKernels(ctx, jobs);
      all.forEach(({ s, n, TE, tiles, input }, i) => {
        const cpu = cpuOpOf(s.op, s.type);
        const want: number[] = [];
        let bound = 0;
        for (let t = 0; t < tiles; t++) {
          // The tile's elements in its order, x0 ⊕ … ⊕ x(TE−1), whichever way the block runs: a
          // backward block visits them from the last, each on the left of what came after it.
          let acc = cpu.identity;
          let magnitude = 0;
          for (let q = 0; q < TE; q++) {
            const p = physicalOf(t * TE + (s.backward ? TE - 1 - q : q), n, s.vec4, false);
            const x = p < 0 ? cpu.identity : (input[p] as number);
            acc = s.backward ? cpu.combine(x, acc) : cpu.combine(acc, x);
            magnitude += Math.abs(x);
          }
          bound = Math.max(bound, magnitude);
          for (let r = 0; r < s.workgroupSize; r++) want.push(acc);
        }
        const got = typedOf(s.type, results[i]!['results']!);
        const label = `${JSON.stringify(s)} n=${n}`;
        if (cpu.approximate) expectCloseArrays(got, want, { atol: 2e-5 * bound, label });
        else expectEqualArrays(got, want, label);
      });
    });
  }
});
