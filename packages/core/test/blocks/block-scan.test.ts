// The block scan on its own: a harness kernel made of a tile load, the block scan and the tile
// store, on seeded cases drawn over operators (built-in, on shuffles, not commutative) and types,
// arrangements, items per invocation (scalars and vec4 slots), both directions of the load and of
// the scan, inclusive and exclusive, a seed, a prefix callback or none, the whole scan or its two
// phases (upsweep, then down-sweep), at edge sizes; each tile's
// results and aggregate against the CPU, subgroups on (SwiftShader: width 4) and off.
import { expectCloseArrays, expectEqualArrays, getTestContext } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import type { TileArrangement } from '../../src/kernels/blocks/arrangement.js';
import { composeBlocks } from '../../src/kernels/blocks/block.js';
import { blockScan } from '../../src/kernels/blocks/block-scan.js';
import { defineKernel, read, readWrite } from '../../src/kernels/define-kernel.js';
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
  firstWritten,
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

interface ScanCase extends TileShapeCase {
  readonly op: TestOpName;
  readonly loadBackward: boolean;
  readonly backward: boolean;
  readonly inclusive: boolean;
  /**
   * `items`: the `_items` functions; `single`: `NAME_scan` of one value per invocation; `sweep`:
   * the upsweep (its aggregate), then the down-sweep with the seed.
   */
  readonly form: 'items' | 'single' | 'sweep';
  readonly seed: 'arg' | 'callback' | 'none';
}

function blocksOf(s: ScanCase) {
  const io = harnessTileIo(s, 'io', blockOpOf(s.op, s.type).identity, { backward: s.loadBackward, writes: true });
  const scan = blockScan({
    name: 'bscan',
    op: blockOpOf(s.op, s.type),
    subgroups: s.subgroups,
    workgroupSize: s.workgroupSize,
    itemsPerThread: s.itemsPerThread,
    arrangement: s.arrangement,
    vec4: s.vec4,
    backward: s.backward,
    prefix: s.seed === 'callback' ? 'test_prefix' : undefined,
  });
  return { io, scan, needs: composeBlocks(io, scan) };
}

/** Each tile scanned in place (input → output), its aggregate in `aggregates[tile]`, seeded with `seeds[tile]`. */
const scanHarness = defineKernel({
  name: 'test/blocks/scan',
  bindings: (s: ScanCase) => ({
    ...blocksOf(s).needs.bindings,
    seeds: read(`array<${s.type}>`),
    aggregates: readWrite(`array<${s.type}>`),
  }),
  params: SLOT_PARAMS,
  enable: (s) => blocksOf(s).needs.enable,
  wgsl: (s) => {
    const { io, scan, needs } = blocksOf(s);
    const id = groupIdentityWgsl(s.subgroups, s.workgroupSize);
    const seed = s.seed === 'arg' ? 'seeds[tile]' : undefined;
    const down = s.inclusive ? scan.inclusiveDownsweep : scan.exclusiveDownsweep;
    const run =
      s.form === 'sweep'
        ? `let items = ${io.load('tile')};
  let aggregate = ${scan.upsweepItems('items')};
  workgroupBarrier();
  let r = ${scan.itemsStruct}(${down('items', seed)}, aggregate);
  ${io.store('tile', 'r.items')}`
        : s.form === 'single'
          ? `let items = ${io.load('tile')};
  let r = ${scan.scan('items[0]', seed)};
  var out: array<${s.type}, 1>;
  out[0] = r.${s.inclusive ? 'inclusive' : 'exclusive'};
  ${io.store('tile', 'out')}`
          : `let r = ${s.inclusive ? scan.inclusiveItems(io.load('tile'), seed) : scan.exclusiveItems(io.load('tile'), seed)};
  ${io.store('tile', 'r.items')}`;
    return `${s.vec4 ? '' : WGSL_PRELUDE}${s.op === 'affine' ? AFFINE_WGSL : ''}
${id.decls}
var<private> test_tile: u32;
${
  s.seed === 'callback'
    ? `// The prefix callback: records the aggregate, returns the tile's seed.
fn test_prefix(aggregate: ${s.type}) -> ${s.type} {
  aggregates[test_tile] = aggregate;
  return seeds[test_tile];
}`
    : ''
}
${needs.decls}
@compute @workgroup_size(${s.workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>${id.builtins}) {
  ${id.body}
  let tile = wid.x;
  test_tile = tile;
  ${run}
  ${s.seed === 'callback' ? '' : 'if (group == 0u && lane == 0u) { aggregates[tile] = r.aggregate; }'}
}`;
  },
});

/**
 * The expected output (n elements) and aggregates: each tile of the load's logical view scanned on
 * the CPU, in the tile's order both ways: backward, `out[p] = (x(p) ⊕ … ⊕ x(last)) ⊕ seed`, each
 * element combined on the left of what came after it (the affine operator does not commute).
 */
function expected(s: ScanCase, input: ArrayLike<number>, seeds: ArrayLike<number>, n: number, tiles: number) {
  const cpu = cpuOpOf(s.op, s.type);
  const TE = s.workgroupSize * s.itemsPerThread * (s.vec4 ? 4 : 1);
  const output = new Array<number>(n).fill(0);
  const aggregates: number[] = [];
  const bounds: number[] = [];
  for (let t = 0; t < tiles; t++) {
    const at = (p: number) => physicalOf(t * TE + p, n, s.vec4, s.loadBackward);
    const value = (p: number) => (at(p) < 0 ? cpu.identity : (input[at(p)] as number));
    const seed = s.seed === 'none' ? cpu.identity : (seeds[t] as number);
    let acc = seed;
    let aggregate = cpu.identity;
    let magnitude = Math.abs(seed);
    for (let q = 0; q < TE; q++) {
      const p = s.backward ? TE - 1 - q : q;
      const x = value(p);
      const before = acc;
      acc = s.backward ? cpu.combine(x, acc) : cpu.combine(acc, x);
      aggregate = s.backward ? cpu.combine(x, aggregate) : cpu.combine(aggregate, x);
      magnitude += Math.abs(x);
      if (at(p) >= 0) output[at(p)] = s.inclusive ? acc : before;
    }
    aggregates.push(aggregate);
    bounds.push(magnitude);
  }
  return { output, aggregates, bound: Math.max(...bounds) };
}

function cases(subgroups: boolean, count: number, seed: number): ScanCase[] {
  const pick = chooser(seed);
  const out: ScanCase[] = [];
  for (let i = 0; i < count; i++) {
    const type = pick.pick<TestType>(['u32', 'u32', 'i32', 'f32']);
    const single = i % 5 === 4;
    const sweep = i % 5 === 2;
    const vec4 = !single && pick.chance(0.35);
    // The upsweep takes blocked and group-striped items (striped too without subgroups).
    const drawn = ARRANGEMENTS[i % 3] as TileArrangement;
    const arrangement: TileArrangement = sweep && subgroups && drawn === 'striped' ? 'group-striped' : drawn;
    const seed = pick.pick(['arg', 'callback', 'none'] as const);
    out.push({
      op: pick.pick(opsFor(type)),
      type,
      subgroups,
      workgroupSize: pick.pick([32, 64]),
      itemsPerThread: single ? 1 : pick.int(1, vec4 ? 2 : 4),
      vec4,
      arrangement,
      loadBackward: pick.chance(0.3),
      backward: (i >> 1) % 2 === 1,
      inclusive: i % 2 === 0,
      form: single ? 'single' : sweep ? 'sweep' : 'items',
      seed: sweep && seed === 'callback' ? 'arg' : seed,
    });
  }
  return out;
}

describe('blockScan (GPU)', () => {
  for (const subgroups of [true, false]) {
    it(`scans tiles against the CPU (${subgroups ? 'subgroups' : 'workgroup memory'})`, async () => {
      const ctx = await getTestContext({ subgroups });
      const all = cases(subgroups, 40, subgroups ? 101 : 202).map((s, i) => {
        const TE = s.workgroupSize * s.itemsPerThread * (s.vec4 ? 4 : 1);
        const n = countOf(TE, chooser(1000 + i));
        const tiles = tilesOf(n, TE, s.vec4);
        const input = dataFor(s.op, s.type, n, 7 + i);
        const seeds = dataFor(s.op, s.type, tiles, 70 + i);
        return { s, n, tiles, input, seeds };
      });
      const jobs: KernelJob[] = all.map(({ s, n, tiles, input, seeds }) => {
        const padded = 4 * Math.ceil(n / 4) + (s.vec4 ? 0 : 4); // elements: 4 spare words must stay poisoned
        return {
          kernel: scanHarness(s),
          groups: tiles,
          params: harnessParams(n, tiles),
          inputs: { [s.vec4 ? 'src' : 'input']: input, seeds },
          outputs: { [s.vec4 ? 'dst' : 'output']: 4 * padded, aggregates: 4 * tiles },
        };
      });
      const results = await runKernels(ctx, jobs);
      all.forEach(({ s, n, tiles, input, seeds }, i) => {
        const got = results[i]!;
        const outBytes = got[s.vec4 ? 'dst' : 'output']!;
        const label = `${JSON.stringify(s)} n=${n}`;
        const want = expected(s, input, seeds, n, tiles);
        const output = typedOf(s.type, outBytes).subarray(0, n);
        const aggregates = typedOf(s.type, got['aggregates']!);
        if (cpuOpOf(s.op, s.type).approximate) {
          expectCloseArrays(output, want.output, { atol: 2e-5 * want.bound, label });
          expectCloseArrays(aggregates, want.aggregates, { atol: 2e-5 * want.bound, label: `${label} aggregates` });
        } else {
          expectEqualArrays(output, want.output, label);
          expectEqualArrays(aggregates, want.aggregates, `${label} aggregates`);
        }
        expect(firstWritten(outBytes, n), `${label}: written past the end`).toBe(-1);
      });
    });
  }

  it('refuses a seed when a prefix callback gives the prefix', () => {
    const scan = blockScan({ name: 's', op: blockOpOf('add', 'u32'), subgroups: false, workgroupSize: 64, prefix: 'p' });
    expect(scan.scan('x')).toBe('s_scan(x, group, lane, gsize)');
    expect(() => scan.scan('x', '1u')).toThrow(/prefix from p/);
  });
});
