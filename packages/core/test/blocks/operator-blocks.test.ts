// User-defined operators (`defineOperator`) through the kit's blocks, end to end: the operator's
// WGSL (struct, identity, combine) in a harness kernel made of `blockScan` and `blockReduce` over
// `operatorBlockOp(op)`, against the operator's own CPU reference (`scanWith`, `reduceWith`) tile by
// tile. Operators that do not commute — affine maps and argmax (ties to the first) as records,
// 2×2 i32 matrix products as vec4<i32> — and the built-in add; inclusive and exclusive, forward
// and backward (issue 48's contract: array order both ways, backward `out[i] = xi ⊕ … ⊕ x(n−1)`),
// with a seed per tile or none (forward it comes before the tile, backward after it), the whole
// scan or its two phases (upsweep, then down-sweep), the three arrangements, partial last tiles;
// subgroups on (SwiftShader: width 4; records shuffled member by member) and off; outputs poisoned.
import { expectEqualArrays, getTestContext } from '@scan/gpu-testing';
import { describe, it } from 'vitest';
import { positionWgsl, type TileArrangement } from '../../src/kernels/blocks/arrangement.js';
import { composeBlocks } from '../../src/kernels/blocks/block.js';
import { blockReduce } from '../../src/kernels/blocks/block-reduce.js';
import { blockScan } from '../../src/kernels/blocks/block-scan.js';
import { defineKernel, read, readWrite } from '../../src/kernels/define-kernel.js';
import { groupIdentityWgsl } from '../../src/kernels/group-scan.js';
import { builtinOperator } from '../../src/operators/builtin-operators.js';
import { reduceWith, scanWith } from '../../src/operators/cpu-operator.js';
import { defineOperator } from '../../src/operators/define-operator.js';
import { readRecord, writeRecord } from '../../src/operators/host-records.js';
import { operatorBlockOp } from '../../src/operators/operator-block-op.js';
import type { Operator } from '../../src/operators/operator-type.js';
import { ARRANGEMENTS, chooser, type KernelJob, runKernels } from './helpers.js';

type Affine = { a: number; b: number };
type ArgMax = { value: number; index: number };

const affine = defineOperator<Affine>({
  type: { a: 'f32', b: 'f32' },
  identity: { a: 1, b: 0 },
  wgsl: 'var r = a;\nr.a = a.a * b.a;\nr.b = b.a * a.b + b.b;\nreturn r;',
  cpu: (x, y) => ({ a: x.a * y.a, b: y.a * x.b + y.b }),
  name: 'affine',
});
const argmaxFirst = defineOperator<ArgMax>({
  type: { value: 'f32', index: 'u32' },
  identity: { value: Number.NEGATIVE_INFINITY, index: 0xffffffff },
  wgsl: 'if (b.value > a.value) { return b; }\nreturn a;',
  cpu: (x, y) => (y.value > x.value ? y : x),
  name: 'argmax-first',
});
const matrix = defineOperator<number[]>({
  type: 'vec4<i32>',
  identity: [1, 0, 0, 1],
  wgsl: 'return vec4<i32>(a.x * b.x + a.y * b.z, a.x * b.y + a.y * b.w, a.z * b.x + a.w * b.z, a.z * b.y + a.w * b.w);',
  cpu: (p, q) => [
    (Math.imul(p[0]!, q[0]!) + Math.imul(p[1]!, q[2]!)) | 0,
    (Math.imul(p[0]!, q[1]!) + Math.imul(p[1]!, q[3]!)) | 0,
    (Math.imul(p[2]!, q[0]!) + Math.imul(p[3]!, q[2]!)) | 0,
    (Math.imul(p[2]!, q[1]!) + Math.imul(p[3]!, q[3]!)) | 0,
  ],
  name: 'matrix',
});
const add = builtinOperator('add', 'u32');

interface Case {
  readonly name: string;
  readonly op: Operator<unknown>;
  readonly draw: (pick: ReturnType<typeof chooser>, i: number) => unknown;
}

const OPERATORS: readonly Case[] = [
  { name: 'affine', op: affine as Operator<unknown>, draw: (p) => ({ a: p.pick([-1, 1]), b: p.int(-3, 3) }) },
  { name: 'argmax-first', op: argmaxFirst as Operator<unknown>, draw: (p, i) => ({ value: p.int(0, 5), index: i }) },
  { name: 'matrix', op: matrix as Operator<unknown>, draw: (p) => [p.int(-2, 2), p.int(-2, 2), p.int(-2, 2), p.int(-2, 2)] },
  { name: 'add', op: add as Operator<unknown>, draw: (p) => p.int(0, 0xffffffff) },
];

/** A harness specialization: plain data, so the operator goes by its case's name (kernels hold keys, not objects). */
interface Shape {
  readonly operator: string;
  readonly subgroups: boolean;
  readonly inclusive: boolean;
  readonly backward: boolean;
  readonly arrangement: TileArrangement;
  /** A seed per tile (`seeds[tile]`), or none (the identity). */
  readonly seeded: boolean;
  /** `items`: the `_items` functions; `sweep`: the upsweep (its aggregate), then the down-sweep. */
  readonly form: 'items' | 'sweep';
}
const BY_NAME = new Map(OPERATORS.map((c) => [c.name, c.op]));
const opOf = (s: Shape): Operator<unknown> => BY_NAME.get(s.operator)!;
const WG = 32;
const K = 2;
const TILE = WG * K;

/**
 * WGSL that reads the record whose words start at `input[w]` (or `seeds[w]`), and stores `x` from
 * `output[w]` (or `aggregates[w]`, `scan_aggregates[w]`) on.
 */
function wordsWgsl(op: Operator<unknown>) {
  const type = op.type;
  const names =
    typeof type === 'object' ? Object.keys(type) : op.lanes.length === 1 ? [''] : ['x', 'y', 'z', 'w'].slice(0, op.lanes.length);
  const member = (x: string, k: number) => (names[k] ? `${x}.${names[k]}` : x);
  const lane = (from: string, k: number) => (op.lanes[k] === 'u32' ? `${from}[w + ${k}u]` : `bitcast<${op.lanes[k]}>(${from}[w + ${k}u])`);
  const load = (fn: string, from: string) =>
    `fn ${fn}(w: u32) -> ${op.wgslType} { return ${op.wgslType}(${op.lanes.map((_, k) => lane(from, k)).join(', ')}); }`;
  const store = (fn: string, to: string) =>
    `fn ${fn}(w: u32, x: ${op.wgslType}) { ${op.lanes.map((_, k) => `${to}[w + ${k}u] = bitcast<u32>(${member('x', k)});`).join(' ')} }`;
  return [
    load('load_value', 'input'),
    load('load_seed', 'seeds'),
    store('store_value', 'output'),
    store('store_aggregate', 'aggregates'),
    store('store_scan_aggregate', 'scan_aggregates'),
  ].join('\n');
}

function blocksOf(s: Shape) {
  const bop = operatorBlockOp(opOf(s));
  const common = {
    op: bop,
    subgroups: s.subgroups,
    workgroupSize: WG,
    itemsPerThread: K,
    arrangement: s.arrangement,
    backward: s.backward,
  } as const;
  const scan = blockScan({ name: 'bscan', ...common });
  const reduce = blockReduce({ name: 'bred', ...common });
  return { scan, reduce, needs: composeBlocks(scan, reduce) };
}

/**
 * Each tile scanned (output, seeded with `seeds[tile]`), its aggregate as the scan has it
 * (`scan_aggregates[tile]`) and reduced (`aggregates[tile]`); items past `count` are the identity
 * and not stored.
 */
const harness = defineKernel({
  name: 'test/blocks/operator-blocks',
  bindings: () => ({
    input: read('array<u32>'),
    seeds: read('array<u32>'),
    output: readWrite('array<u32>'),
    aggregates: readWrite('array<u32>'),
    scan_aggregates: readWrite('array<u32>'),
  }),
  params: { count: 'u32' },
  enable: (s: Shape) => [...blocksOf(s).needs.enable, ...opOf(s).enable],
  wgsl: (s) => {
    const { scan, reduce, needs } = blocksOf(s);
    const id = groupIdentityWgsl(s.subgroups, WG);
    const op = opOf(s);
    const W = op.lanes.length;
    const T = op.wgslType;
    const identity = operatorBlockOp(op).identity;
    const seed = s.seeded ? `load_seed(tile * ${W}u)` : undefined;
    const down = s.inclusive ? scan.inclusiveDownsweep : scan.exclusiveDownsweep;
    const run =
      s.form === 'sweep'
        ? `let scanned = ${scan.upsweepItems('items')};
  workgroupBarrier();
  let out = ${down('items', seed)};`
        : `let s = ${s.inclusive ? scan.inclusiveItems('items', seed) : scan.exclusiveItems('items', seed)};
  let out = s.items;
  let scanned = s.aggregate;`;
    // Every operator's declarations, a built-in's too: its identity is its identity function.
    return `${op.declarations}
${wordsWgsl(op)}
${id.decls}
${needs.decls}
@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>${id.builtins}) {
  ${id.body}
  workgroupBarrier();   // SwiftShader: the subgroup ticket needs a barrier before the group is used
  let tile = wid.x;
  var items: array<${T}, ${K}>;
  for (var k = 0u; k < ${K}u; k++) {
    let i = tile * ${TILE}u + ${positionWgsl(s.arrangement, WG, K, 'k')};
    items[k] = ${identity};
    if (i < params.count) { items[k] = load_value(i * ${W}u); }
  }
  ${run}
  for (var k = 0u; k < ${K}u; k++) {
    let i = tile * ${TILE}u + ${positionWgsl(s.arrangement, WG, K, 'k')};
    if (i < params.count) { store_value(i * ${W}u, out[k]); }
  }
  let total = ${reduce.reduceItems('items')};
  if (group == 0u && lane == 0u) {
    store_aggregate(tile * ${W}u, total);
    store_scan_aggregate(tile * ${W}u, scanned);
  }
}`;
  },
});

/** Records `xs` with record `r` put before them (`first`) or after them, as a new array. */
function withRecord(op: Operator<unknown>, xs: Uint32Array, r: unknown, first: boolean): Uint32Array {
  const W = op.lanes.length;
  const out = new Uint32Array(xs.length + W);
  out.set(xs, first ? W : 0);
  writeRecord(op, out, first ? 0 : xs.length / W, r);
  return out;
}

/**
 * The CPU's scan of one tile in array order, seeded: the seed is one more record just outside the
 * tile — before it forward, after it backward (it stands for the tiles there) — so the inclusive
 * scan of the tile with it, read one record along for an exclusive scan, is the seeded scan:
 * backward `out[i] = (xi ⊕ … ⊕ x(last)) ⊕ seed`.
 */
function seededScan(op: Operator<unknown>, tile: Uint32Array, seed: unknown, inclusive: boolean, backward: boolean): Uint32Array {
  if (seed === undefined) return scanWith(op, tile, { inclusive, backward });
  const W = op.lanes.length;
  const all = scanWith(op, withRecord(op, tile, seed, !backward), { inclusive: true, backward });
  // Forward inclusive and backward exclusive: record i's result is record i + 1's of `all`.
  const from = inclusive !== backward ? W : 0;
  return all.subarray(from, from + tile.length);
}

describe('user-defined operators through the blocks (GPU)', () => {
  for (const subgroups of [true, false]) {
    it(`scans and reduces tiles like the operator's CPU reference (${subgroups ? 'subgroups' : 'workgroup memory'})`, async () => {
      const ctx = await getTestContext({ subgroups });
      const all = OPERATORS.flatMap((c, ci) =>
        [false, true].flatMap((inclusive) =>
          [false, true].flatMap((backward) =>
            [false, true].map((seeded) => {
              const j = 8 * ci + 4 * Number(inclusive) + 2 * Number(backward) + Number(seeded);
              // Arrangements and forms in turn; the upsweep takes no striped items in subgroups.
              const drawn = ARRANGEMENTS[j % 3] as TileArrangement;
              const form = Math.floor(j / 3) % 2 === 1 ? 'sweep' : 'items';
              const arrangement = form === 'sweep' && subgroups && drawn === 'striped' ? 'group-striped' : drawn;
              const pick = chooser(100 * j + (subgroups ? 0 : 10_000));
              const n = pick.pick([1, TILE - 1, TILE, 2 * TILE + 5, 3 * TILE]);
              const tiles = Math.ceil(n / TILE);
              const W = c.op.lanes.length;
              const input = new Uint32Array(n * W);
              for (let i = 0; i < n; i++) writeRecord(c.op, input, i, c.draw(pick, i));
              const seeds = new Uint32Array(tiles * W);
              for (let t = 0; t < tiles; t++) writeRecord(c.op, seeds, t, c.draw(pick, n + t));
              const s: Shape = { operator: c.name, subgroups, inclusive, backward, arrangement, seeded, form };
              return { c, s, n, W, input, seeds, tiles };
            }),
          ),
        ),
      );
      const jobs: KernelJob[] = all.map(({ s, n, W, input, seeds, tiles }) => ({
        kernel: harness(s),
        groups: tiles,
        params: { count: n },
        inputs: { input, seeds },
        outputs: { output: 4 * n * W, aggregates: 4 * tiles * W, scan_aggregates: 4 * tiles * W },
      }));
      const results = await runKernels(ctx, jobs);
      all.forEach(({ c, s, n, W, input, seeds, tiles }, i) => {
        const label = `${c.name} ${s.inclusive ? 'inclusive' : 'exclusive'} ${s.backward ? 'backward' : 'forward'} ${s.arrangement} ${s.form}${s.seeded ? ' seeded' : ''} n=${n}`;
        const want = new Uint32Array(n * W);
        const wantAggregates = new Uint32Array(tiles * W);
        for (let t = 0; t < tiles; t++) {
          const tile = input.subarray(t * TILE * W, Math.min(n, (t + 1) * TILE) * W);
          const seed = s.seeded ? readRecord(c.op, seeds, t) : undefined;
          want.set(seededScan(c.op, tile, seed, s.inclusive, s.backward), t * TILE * W);
          // The tile's aggregate is x0 ⊕ … ⊕ x(last) in either direction, without the seed.
          writeRecord(c.op, wantAggregates, t, reduceWith(c.op, tile));
        }
        expectEqualArrays(new Uint32Array(results[i]!['output']!), want, label);
        expectEqualArrays(new Uint32Array(results[i]!['aggregates']!), wantAggregates, `${label} aggregates`);
        expectEqualArrays(new Uint32Array(results[i]!['scan_aggregates']!), wantAggregates, `${label} scan aggregates`);
      });
    });
  }
});
