// The group level (`groupLevelWgsl`) on values that are not scalars: records (WGSL structs, which
// the subgroup form shuffles member by member) and vectors. A harness kernel loads one value per
// invocation from words in declaration order, runs the group scan (inclusive, exclusive, total;
// forward or backward) and the group reduce, and writes them; each group's results are checked
// against the CPU's serial scan of that group in the lanes' order (backward: from the last lane,
// `out[l] = x(l) ⊕ … ⊕ x(size−1)`), subgroups on (SwiftShader: width 4) and off.
// Operators: argmax {value: f32, index: u32} with ties to the lowest index (commutative), argmax
// with ties to the left operand (associative, not commutative), affine maps
// {a: f32, b: f32} composed in order (small integers: exact in f32), and a vec4<u32> of four
// per-component operators, one of which does not commute.
import { expectEqualArrays, getTestContext } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { defineKernel, read, readWrite } from '../../src/kernels/define-kernel.js';
import { type BlockOp, groupIdentityWgsl, groupLevelWgsl } from '../../src/kernels/group-scan.js';
import { WGSL_PRELUDE } from '../../src/kernels/wgsl-ops.js';
import { chooser, type KernelJob, runKernels } from './helpers.js';

type RecordOpName = 'argmax' | 'argmax-first' | 'affine' | 'vec4';

/** How a component of a value is stored in a word. */
type Word = 'f32' | 'u32';

/** A test operator: its WGSL, its `BlockOp`, its words, and its CPU twin on components. */
interface RecordOp {
  readonly wgsl: string;
  readonly op: BlockOp;
  /** The components' kinds, one word each, in declaration order. */
  readonly words: readonly Word[];
  /** A WGSL expression of the value whose words start at `input[i]`. */
  load(i: string): string;
  /** WGSL statements that store `x`'s words from `results[o]` on. */
  store(o: string, x: string): string;
  readonly identity: readonly number[];
  combine(a: readonly number[], b: readonly number[]): number[];
  /** A random value; `position` is the element's index in the input. */
  draw(pick: ReturnType<typeof chooser>, position: number): number[];
}

const ARGMAX_STRUCT = 'struct ArgMax { value: f32, index: u32 }';
const argmaxFields = [
  { name: 'value', type: 'f32' },
  { name: 'index', type: 'u32' },
] as const;
const argmaxIo = {
  words: ['f32', 'u32'] as const,
  load: (i: string) => `ArgMax(bitcast<f32>(input[${i}]), input[${i} + 1u])`,
  store: (o: string, x: string) => `results[${o}] = bitcast<u32>(${x}.value); results[${o} + 1u] = ${x}.index;`,
  identity: [Number.NEGATIVE_INFINITY, 0xffffffff],
  // Small integers: many ties.
  draw: (pick: ReturnType<typeof chooser>, position: number) => [pick.int(0, 5), position],
};

const OPS: Record<RecordOpName, RecordOp> = {
  // The maximum, ties to the lowest index: commutative (indices are distinct).
  argmax: {
    wgsl: `${ARGMAX_STRUCT}
fn test_argmax(a: ArgMax, b: ArgMax) -> ArgMax {
  if (b.value > a.value || (b.value == a.value && b.index < a.index)) { return b; }
  return a;
}`,
    op: {
      type: 'ArgMax',
      fields: argmaxFields,
      identity: 'ArgMax(f32_neg_inf(), 0xffffffffu)',
      combine: (a, b) => `test_argmax(${a}, ${b})`,
      commutative: true,
    },
    ...argmaxIo,
    combine: (a, b) => (b[0]! > a[0]! || (b[0] === a[0] && b[1]! < a[1]!) ? [...b] : [...a]),
  },
  // The maximum, ties to the left operand (the lower lane): associative, not commutative.
  'argmax-first': {
    wgsl: `${ARGMAX_STRUCT}
fn test_argmax_first(a: ArgMax, b: ArgMax) -> ArgMax {
  if (b.value > a.value) { return b; }
  return a;
}`,
    op: {
      type: 'ArgMax',
      fields: argmaxFields,
      identity: 'ArgMax(f32_neg_inf(), 0xffffffffu)',
      combine: (a, b) => `test_argmax_first(${a}, ${b})`,
    },
    ...argmaxIo,
    combine: (a, b) => (b[0]! > a[0]! ? [...b] : [...a]),
  },
  // Affine maps x ↦ a·x + b, f first then g: (f.a·g.a, g.a·f.b + g.b). Not commutative.
  affine: {
    wgsl: `struct Affine { a: f32, b: f32 }
fn test_affine_then(f: Affine, g: Affine) -> Affine { return Affine(f.a * g.a, g.a * f.b + g.b); }`,
    op: {
      type: 'Affine',
      fields: [
        { name: 'a', type: 'f32' },
        { name: 'b', type: 'f32' },
      ],
      identity: 'Affine(1.0f, 0.0f)',
      combine: (f, g) => `test_affine_then(${f}, ${g})`,
    },
    words: ['f32', 'f32'],
    load: (i) => `Affine(bitcast<f32>(input[${i}]), bitcast<f32>(input[${i} + 1u]))`,
    store: (o, x) => `results[${o}] = bitcast<u32>(${x}.a); results[${o} + 1u] = bitcast<u32>(${x}.b);`,
    identity: [1, 0],
    combine: (f, g) => [Math.fround(f[0]! * g[0]!), Math.fround(Math.fround(g[0]! * f[1]!) + g[1]!)],
    // a in {−1, 1}, now and then 2; b in [−3, 3]: every composition of a group is exact in f32.
    draw: (pick) => [pick.chance(1 / 16) ? 2 : pick.chance(0.5) ? -1 : 1, pick.int(-3, 3)],
  },
  // Per component: wrapping add, max, min, and the last non-zero (not commutative).
  vec4: {
    wgsl: `fn test_vec_op(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
  return vec4<u32>(a.x + b.x, max(a.y, b.y), min(a.z, b.z), select(a.w, b.w, b.w != 0u));
}`,
    op: {
      type: 'vec4<u32>',
      identity: 'vec4<u32>(0u, 0u, 0xffffffffu, 0u)',
      combine: (a, b) => `test_vec_op(${a}, ${b})`,
    },
    words: ['u32', 'u32', 'u32', 'u32'],
    load: (i) => `vec4<u32>(input[${i}], input[${i} + 1u], input[${i} + 2u], input[${i} + 3u])`,
    store: (o, x) => [0, 1, 2, 3].map((c) => `results[${o} + ${c}u] = ${x}[${c}];`).join(' '),
    identity: [0, 0, 0xffffffff, 0],
    combine: (a, b) => [(a[0]! + b[0]!) >>> 0, Math.max(a[1]!, b[1]!), Math.min(a[2]!, b[2]!), b[3] !== 0 ? b[3]! : a[3]!],
    draw: (pick) => [pick.u32(), pick.u32(), pick.u32(), pick.chance(0.5) ? 0 : pick.int(1, 1000)],
  },
};

interface RecordCase {
  readonly op: RecordOpName;
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  readonly backward: boolean;
}

/** Results per invocation, each `words` long: inclusive, exclusive, total (the scan), then the reduce. */
const RESULTS = 4;

/**
 * Invocation `i = workgroup · WG + group · gsize + lane` loads value i and writes its scan and
 * reduction at `results[i · 4W …]`, and its group size at `sizes[i]`.
 */
const recordHarness = defineKernel({
  name: 'test/blocks/group-level-records',
  bindings: () => ({ input: read('array<u32>'), results: readWrite('array<u32>'), sizes: readWrite('array<u32>') }),
  params: { count: 'u32' },
  enable: (s: RecordCase) => (s.subgroups ? ['subgroups'] : []),
  wgsl: (s) => {
    const r = OPS[s.op];
    const W = r.words.length;
    const id = groupIdentityWgsl(s.subgroups, s.workgroupSize);
    const level = groupLevelWgsl({
      names: { scan: 'rec_group_scan', reduce: 'rec_group_reduce', struct: 'rec_GroupScan', buf: 'rec_group_buf' },
      op: r.op,
      subgroups: s.subgroups,
      workgroupSize: s.workgroupSize,
      backward: s.backward,
    });
    return `${WGSL_PRELUDE}
${r.wgsl}
${id.decls}
${level}
@compute @workgroup_size(${s.workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>${id.builtins}) {
  ${id.body}
  // SwiftShader gives every subgroup ticket 0 unless a barrier follows the ticket (the blocks'
  // functions hold barriers; the group level's subgroup form does not).
  workgroupBarrier();
  let i = wid.x * ${s.workgroupSize}u + group * gsize + lane;
  let x = ${r.load(`i * ${W}u`)};
  let s = rec_group_scan(x, lane, gsize);
  let t = rec_group_reduce(x, lane, gsize);
  if (i < params.count) {
    let o = i * ${RESULTS * W}u;
    ${r.store('o', 's.inclusive')}
    ${r.store(`o + ${W}u`, 's.exclusive')}
    ${r.store(`o + ${2 * W}u`, 's.total')}
    ${r.store(`o + ${3 * W}u`, 't')}
    sizes[i] = gsize;
  }
}`;
  },
});

/** The words of values whose components are `kinds`. */
function wordsOf(values: readonly (readonly number[])[], kinds: readonly Word[]): Uint32Array {
  const out = new Uint32Array(values.length * kinds.length);
  const view = new DataView(out.buffer);
  values.forEach((v, i) =>
    kinds.forEach((k, c) => {
      const at = 4 * (i * kinds.length + c);
      if (k === 'f32') view.setFloat32(at, v[c]!, true);
      else view.setUint32(at, v[c]! >>> 0, true);
    }),
  );
  return out;
}

/**
 * Inclusive, exclusive and total of a serial scan of `xs` in order; backward from the last, still
 * combining in the lanes' order (the lower lane on the left), so the total is the same.
 */
function serialScan(r: RecordOp, xs: readonly (readonly number[])[], backward: boolean) {
  const n = xs.length;
  const inclusive: number[][] = new Array(n);
  const exclusive: number[][] = new Array(n);
  let acc: number[] = [...r.identity];
  for (let q = 0; q < n; q++) {
    const lane = backward ? n - 1 - q : q;
    exclusive[lane] = acc;
    acc = backward ? r.combine(xs[lane]!, acc) : r.combine(acc, xs[lane]!);
    inclusive[lane] = acc;
  }
  return { inclusive, exclusive, total: acc };
}

function cases(subgroups: boolean): RecordCase[] {
  const all: RecordCase[] = [];
  for (const op of Object.keys(OPS) as RecordOpName[])
    for (const backward of [false, true]) for (const workgroupSize of [32, 128]) all.push({ op, subgroups, workgroupSize, backward });
  return all;
}

describe('groupLevelWgsl on records and vectors (GPU)', () => {
  for (const subgroups of [true, false]) {
    it(`scans and reduces records and vectors against the CPU (${subgroups ? 'subgroups' : 'workgroup memory'})`, async () => {
      const ctx = await getTestContext({ subgroups });
      const WORKGROUPS = 3;
      const all = cases(subgroups).map((s, c) => {
        const r = OPS[s.op];
        const n = WORKGROUPS * s.workgroupSize;
        const pick = chooser((subgroups ? 7100 : 7200) + c);
        const values = Array.from({ length: n }, (_, i) => r.draw(pick, i));
        return { s, r, n, values };
      });
      const jobs: KernelJob[] = all.map(({ s, r, n, values }) => ({
        kernel: recordHarness(s),
        groups: WORKGROUPS,
        params: { count: n },
        inputs: { input: wordsOf(values, r.words) },
        outputs: { results: 4 * RESULTS * r.words.length * n, sizes: 4 * n },
      }));
      const results = await runKernels(ctx, jobs);
      all.forEach(({ s, r, n, values }, c) => {
        const label = JSON.stringify(s);
        const W = r.words.length;
        const sizes = new Uint32Array(results[c]!['sizes']!);
        const gsize = sizes[0]!;
        expectEqualArrays(sizes, new Uint32Array(n).fill(gsize), `${label} group sizes`);
        // With subgroups the workgroup is several groups (SwiftShader: of 4); without, one.
        if (subgroups) expect(gsize).toBeLessThan(s.workgroupSize);
        else expect(gsize).toBe(s.workgroupSize);
        expect(s.workgroupSize % gsize).toBe(0);
        const want = { inclusive: [] as number[][], exclusive: [] as number[][], total: [] as number[][], reduce: [] as number[][] };
        for (let g = 0; g < n; g += gsize) {
          const scan = serialScan(r, values.slice(g, g + gsize), s.backward);
          want.inclusive.push(...scan.inclusive);
          want.exclusive.push(...scan.exclusive);
          for (let l = 0; l < gsize; l++) {
            want.total.push(scan.total);
            want.reduce.push(scan.total);
          }
        }
        const got = new Uint32Array(results[c]!['results']!);
        (['inclusive', 'exclusive', 'total', 'reduce'] as const).forEach((kind, k) => {
          const words = new Uint32Array(n * W);
          for (let i = 0; i < n; i++) words.set(got.subarray(i * RESULTS * W + k * W, i * RESULTS * W + (k + 1) * W), i * W);
          expectEqualArrays(words, wordsOf(want[kind], r.words), `${label} ${kind} (${W} words a value)`);
        });
      });
    });
  }
});
