// User-defined operators (`defineOperator`) through the kit's blocks, end to end: the operator's
// WGSL (struct, identity, combine) in a harness kernel made of `blockScan` and `blockReduce` over
// `operatorBlockOp(op)`, against the operator's own CPU reference (`scanWith`, `reduceWith`) tile by
// tile. Operators that do not commute — affine maps and argmax (ties to the first) as records,
// 2×2 i32 matrix products as vec4<i32> — and the built-in add; inclusive and exclusive, partial
// last tiles; subgroups on (SwiftShader: width 4; records shuffled member by member) and off;
// outputs poisoned. Forward only, for now: a backward block combines in the scan's order (the last
// element first, `acc ⊕ x`), where issue 48's contract combines in array order
// (`out[i] = xi ⊕ … ⊕ x(n−1)`); the two agree only for operators that commute, and the blocks'
// backward order changes with the kernels that take user operators.
import { expectEqualArrays, getTestContext } from '@scan/gpu-testing';
import { describe, it } from 'vitest';
import { composeBlocks } from '../../src/kernels/blocks/block.js';
import { blockReduce } from '../../src/kernels/blocks/block-reduce.js';
import { blockScan } from '../../src/kernels/blocks/block-scan.js';
import { defineKernel, read, readWrite } from '../../src/kernels/define-kernel.js';
import { groupIdentityWgsl } from '../../src/kernels/group-scan.js';
import { builtinOperator } from '../../src/operators/builtin-operators.js';
import { reduceWith, scanWith } from '../../src/operators/cpu-operator.js';
import { defineOperator } from '../../src/operators/define-operator.js';
import { writeRecord } from '../../src/operators/host-records.js';
import { operatorBlockOp } from '../../src/operators/operator-block-op.js';
import type { Operator } from '../../src/operators/operator-type.js';
import { chooser, type KernelJob, runKernels } from './helpers.js';

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
}
const BY_NAME = new Map(OPERATORS.map((c) => [c.name, c.op]));
const opOf = (s: Shape): Operator<unknown> => BY_NAME.get(s.operator)!;
const WG = 32;
const K = 2;
const TILE = WG * K;

/** WGSL that reads the record whose words start at `input[w]`, and stores `x` from `output[w]` on. */
function wordsWgsl(op: Operator<unknown>) {
  const type = op.type;
  const names =
    typeof type === 'object' ? Object.keys(type) : op.lanes.length === 1 ? [''] : ['x', 'y', 'z', 'w'].slice(0, op.lanes.length);
  const member = (x: string, k: number) => (names[k] ? `${x}.${names[k]}` : x);
  const lane = (k: number, w: string) => (op.lanes[k] === 'u32' ? `input[${w} + ${k}u]` : `bitcast<${op.lanes[k]}>(input[${w} + ${k}u])`);
  return {
    load: `fn load_value(w: u32) -> ${op.wgslType} { return ${op.wgslType}(${op.lanes.map((_, k) => lane(k, 'w')).join(', ')}); }`,
    store: `fn store_value(w: u32, x: ${op.wgslType}) { ${op.lanes.map((_, k) => `output[w + ${k}u] = bitcast<u32>(${member('x', k)});`).join(' ')} }`,
    storeAggregate: `fn store_aggregate(w: u32, x: ${op.wgslType}) { ${op.lanes.map((_, k) => `aggregates[w + ${k}u] = bitcast<u32>(${member('x', k)});`).join(' ')} }`,
  };
}

function blocksOf(s: Shape) {
  const bop = operatorBlockOp(opOf(s));
  const common = {
    op: bop,
    subgroups: s.subgroups,
    workgroupSize: WG,
    itemsPerThread: K,
    arrangement: 'blocked',
    backward: s.backward,
  } as const;
  const scan = blockScan({ name: 'bscan', ...common });
  const reduce = blockReduce({ name: 'bred', ...common });
  return { scan, reduce, needs: composeBlocks(scan, reduce) };
}

/** Each tile scanned (output) and reduced (aggregates[tile]); items past `count` are the identity and not stored. */
const harness = defineKernel({
  name: 'test/blocks/operator-blocks',
  bindings: () => ({ input: read('array<u32>'), output: readWrite('array<u32>'), aggregates: readWrite('array<u32>') }),
  params: { count: 'u32' },
  enable: (s: Shape) => [...blocksOf(s).needs.enable, ...opOf(s).enable],
  wgsl: (s) => {
    const { scan, reduce, needs } = blocksOf(s);
    const id = groupIdentityWgsl(s.subgroups, WG);
    const op = opOf(s);
    const io = wordsWgsl(op);
    const W = op.lanes.length;
    const T = op.wgslType;
    const identity = operatorBlockOp(op).identity;
    return `${op.builtin ? '' : op.declarations}
${io.load}
${io.store}
${io.storeAggregate}
${id.decls}
${needs.decls}
@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>${id.builtins}) {
  ${id.body}
  workgroupBarrier();   // SwiftShader: the subgroup ticket needs a barrier before the group is used
  let tile = wid.x;
  let first = tile * ${TILE}u + (group * gsize + lane) * ${K}u;
  var items: array<${T}, ${K}>;
  for (var k = 0u; k < ${K}u; k++) {
    items[k] = ${identity};
    if (first + k < params.count) { items[k] = load_value((first + k) * ${W}u); }
  }
  let s = ${s.inclusive ? scan.inclusiveItems('items') : scan.exclusiveItems('items')};
  for (var k = 0u; k < ${K}u; k++) {
    if (first + k < params.count) { store_value((first + k) * ${W}u, s.items[k]); }
  }
  let total = ${reduce.reduceItems('items')};
  if (group == 0u && lane == 0u) { store_aggregate(tile * ${W}u, total); }
}`;
  },
});

describe('user-defined operators through the blocks (GPU)', () => {
  for (const subgroups of [true, false]) {
    it(`scans and reduces tiles like the operator's CPU reference (${subgroups ? 'subgroups' : 'workgroup memory'})`, async () => {
      const ctx = await getTestContext({ subgroups });
      const all = OPERATORS.flatMap((c, ci) =>
        [false, true].map((inclusive) => {
          const backward = false;
          const pick = chooser(100 * ci + 10 * Number(inclusive) + (subgroups ? 0 : 1000));
          const n = pick.pick([1, TILE - 1, TILE, 2 * TILE + 5, 3 * TILE]);
          const W = c.op.lanes.length;
          const input = new Uint32Array(n * W);
          for (let i = 0; i < n; i++) writeRecord(c.op, input, i, c.draw(pick, i));
          return { c, s: { operator: c.name, subgroups, inclusive, backward }, n, W, input, tiles: Math.ceil(n / TILE) };
        }),
      );
      const jobs: KernelJob[] = all.map(({ s, n, W, input, tiles }) => ({
        kernel: harness(s),
        groups: tiles,
        params: { count: n },
        inputs: { input },
        outputs: { output: 4 * n * W, aggregates: 4 * tiles * W },
      }));
      const results = await runKernels(ctx, jobs);
      all.forEach(({ c, s, n, W, input, tiles }, i) => {
        const label = `${c.name} ${s.inclusive ? 'inclusive' : 'exclusive'} ${s.backward ? 'backward' : 'forward'} n=${n}`;
        const want = new Uint32Array(n * W);
        const wantAggregates = new Uint32Array(tiles * W);
        for (let t = 0; t < tiles; t++) {
          const tile = input.subarray(t * TILE * W, Math.min(n, (t + 1) * TILE) * W);
          want.set(scanWith(c.op, tile, { inclusive: s.inclusive, backward: s.backward }), t * TILE * W);
          writeRecord(c.op, wantAggregates, t, reduceWith(c.op, tile));
        }
        expectEqualArrays(new Uint32Array(results[i]!['output']!), want, label);
        expectEqualArrays(new Uint32Array(results[i]!['aggregates']!), wantAggregates, `${label} aggregates`);
      });
    });
  }
});
