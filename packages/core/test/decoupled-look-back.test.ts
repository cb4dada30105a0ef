// The one look-back generator of the kit, on its own: every status encoding, every kind of walker,
// the window, the fallback that ends a walk, forced and not. Each tile publishes one value per
// chain; the exclusive prefix it resolves must equal the CPU's, tile by tile and chain by chain.
// Then values wider than 32 bits (records, vectors, f16) under operators that need not commute.
import { getTestContext } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import {
  decoupledLookBack,
  LOOK_BACK_STATUS,
  type LookBackWalkers,
  lookBackCommonWgsl,
  type StatusEncoding,
  TAKE_TILE_WGSL,
  tileLookBack,
} from '../src/kernels/decoupled-look-back.js';
import { defineKernel, read, readWrite } from '../src/kernels/define-kernel.js';
import { type BlockOp, groupIdentityWgsl } from '../src/kernels/group-scan.js';
import { wgslOp } from '../src/kernels/wgsl-ops.js';
import { defineOperator } from '../src/operators/define-operator.js';
import { operatorBlockOp } from '../src/operators/operator-block-op.js';
import { RecipeExecutor } from '../src/plans/executor.js';
import { RecipeBuilder } from '../src/plans/recipe.js';
import { bufferOf, POISON_U32, poisoned, runBatch } from './harness.js';

const WG = 64;
/** Tiles whose index is a multiple of this hold a "segment head": they publish INCLUSIVE at once. */
const HEAD_EVERY = 7;

interface ChainSpec {
  readonly op: 'add' | 'max';
  readonly type: 'u32' | 'i32';
  readonly encoding: StatusEncoding;
  readonly walkers: LookBackWalkers;
  readonly window: number;
  /** Chains per invocation ('every-invocation'); else the tile has one chain. */
  readonly chains: number;
  readonly heads: boolean;
  readonly forceFallback: boolean;
  readonly subgroups: boolean;
}

function chainsPerTile(s: ChainSpec): number {
  return s.walkers === 'every-invocation' ? WG * s.chains : 1;
}

/**
 * output[tile · C + c] = the exclusive prefix of chain c at `tile`: values of the tiles before it,
 * back to (and including) the nearest head, combined by the look-back.
 */
const chainTest = defineKernel({
  name: 'test/look-back',
  bindings: (s: ChainSpec) => ({
    input: read(`array<${s.type}>`),
    output: readWrite(`array<${s.type}>`),
    status: LOOK_BACK_STATUS,
  }),
  params: { tiles: 'u32' },
  enable: (s) => (s.subgroups ? ['subgroups'] : []),
  wgsl: (s) => {
    const o = wgslOp(s.op, s.type);
    const C = chainsPerTile(s);
    const id = groupIdentityWgsl(s.subgroups, WG);
    const every = s.walkers === 'every-invocation';
    const chain = (r: number) => (every ? `lid * ${s.chains}u + ${r}u` : '0u');
    const head = (t: string) => (s.heads ? `(${t} % ${HEAD_EVERY}u == 0u)` : 'false');
    const lb = decoupledLookBack({
      name: 'lb',
      op: o,
      encoding: s.encoding,
      word: (t, c) => `1u + (${t} * ${C}u + ${c}) * 2u`,
      walkers: s.walkers,
      window: s.window,
      maxSpin: 2,
      forceFallback: s.forceFallback,
      chains: every ? s.chains : 1,
      chain,
      inclusive: (p, r) =>
        `select(${o.combine(p, `input[tile * ${C}u + ${chain(r)}]`)}, input[tile * ${C}u + ${chain(r)}], ${head('tile')})`,
      resolved: (p, r) => `output[tile * ${C}u + ${chain(r)}] = ${p};`,
      fallback: {
        run: (t) => `let fallback_tile = ${t};`,
        value: (r) => `input[fallback_tile * ${C}u + ${chain(r)}]`,
        ends: s.heads ? head : undefined,
      },
    });
    const owned = every ? Array.from({ length: s.chains }, (_, r) => chain(r)) : ['0u'];
    const publisher = every ? 'true' : 'leader';
    return `${lookBackCommonWgsl()}
${lb.decls}
${id.decls}
@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32${id.builtins}) {
  ${TAKE_TILE_WGSL}
  ${id.body}
  let leader = group == 0u && lane == 0u;
  if (${publisher}) {
${owned
  .map(
    (c) => `    {
      let v = input[tile * ${C}u + ${c}];
      lb_publish(tile, ${c}, select(FLAG_AGGREGATE, FLAG_INCLUSIVE, tile == 0u || ${head('tile')}), v);
      if (tile == 0u) { output[${c}] = ${o.identity}; }
    }`,
  )
  .join('\n')}
  }
${lb.start}
  ${lb.finish}
}`;
  },
});

/** The expected exclusive prefixes, tile-major. */
function expected(s: ChainSpec, input: Uint32Array | Int32Array, tiles: number): number[] {
  const C = chainsPerTile(s);
  const combine = s.op === 'add' ? (a: number, b: number) => (a + b) >>> 0 : (a: number, b: number) => Math.max(a, b);
  const identity = s.op === 'add' ? 0 : -(2 ** 31);
  const out: number[] = [];
  for (let t = 0; t < tiles; t++) {
    for (let c = 0; c < C; c++) {
      let acc = identity;
      for (let k = t - 1; k >= 0; k--) {
        acc = combine(acc, input[k * C + c]!);
        if (k === 0 || (s.heads && k % HEAD_EVERY === 0)) break;
      }
      out.push(s.type === 'u32' ? acc >>> 0 : acc | 0);
    }
  }
  return out;
}

function specs(subgroups: boolean): ChainSpec[] {
  const base = { op: 'add', type: 'u32', encoding: 'split', window: 1, chains: 1, heads: false, forceFallback: false, subgroups } as const;
  const walkers: LookBackWalkers[] = subgroups ? ['leader', 'first-subgroup', 'every-invocation'] : ['leader', 'every-invocation'];
  const out: ChainSpec[] = [];
  for (const w of walkers) {
    for (const forceFallback of [false, true]) {
      out.push({ ...base, walkers: w, forceFallback });
      out.push({ ...base, walkers: w, forceFallback, op: 'max', type: 'i32', heads: true });
    }
  }
  // Windows and encodings of the invocation walkers (the sort's packed counts, several chains each).
  out.push({ ...base, walkers: 'leader', window: 4, heads: true });
  out.push({ ...base, walkers: 'every-invocation', encoding: 'packed', window: 3, chains: 2 });
  out.push({ ...base, walkers: 'every-invocation', encoding: 'packed', window: 3, chains: 2, forceFallback: true });
  return out;
}

function seededValues(s: ChainSpec, n: number, seed: number): Uint32Array | Int32Array {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  // Below 2^20, so that 300 tiles' sums fit the packed encoding's 30 bits.
  return s.type === 'u32'
    ? Uint32Array.from({ length: n }, () => next() & 0xfffff)
    : Int32Array.from({ length: n }, () => (next() | 0) >> 4);
}

describe('decoupledLookBack (GPU)', () => {
  for (const subgroups of [true, false]) {
    it(`every encoding and walker gives each tile its exclusive prefix (${subgroups ? 'subgroups' : 'no subgroups'})`, async () => {
      const ctx = await getTestContext({ subgroups });
      const tiles = 300;
      const exec = new RecipeExecutor(ctx, 'test look-back');
      const cases = specs(subgroups).map((s, i) => ({ s, input: seededValues(s, tiles * chainsPerTile(s), 17 + i) }));
      const jobs = cases.map(({ s, input }) => {
        const n = tiles * chainsPerTile(s);
        const inputBuffer = bufferOf(ctx, input);
        const output = poisoned(ctx, 4 * n);
        const status = bufferOf(ctx, new Uint32Array(1 + 2 * n));
        return {
          record: (encoder: GPUCommandEncoder) => {
            exec.encode(
              encoder,
              () => {
                const b = new RecipeBuilder();
                const ref = (role: string) => ({ role, offset: 0 });
                b.dispatch(chainTest(s), { input: ref('input'), output: ref('output'), status: ref('status') }, tiles, { tiles });
                return b.build();
              },
              { input: inputBuffer, output, status },
            );
            return [{ buffer: output, bytes: 4 * n }];
          },
        };
      });
      const results = await runBatch(ctx, jobs, [exec]);
      cases.forEach(({ s, input }, i) => {
        const bytes = results[i]![0]!;
        const got = Array.from(s.type === 'u32' ? new Uint32Array(bytes) : new Int32Array(bytes));
        expect({ spec: s, got }).toEqual({ spec: s, got: expected(s, input, tiles) });
      });
    });
  }

  it('refuses what an encoding or a walker cannot hold', () => {
    const base = {
      name: 'x',
      word: () => '0u',
      maxSpin: 4,
      inclusive: (p: string) => p,
      fallback: { run: () => '', value: () => '0u' },
    };
    expect(() => decoupledLookBack({ ...base, op: wgslOp('add', 'f32'), encoding: 'packed', walkers: 'leader' })).toThrow(/packed .* f32/);
    expect(() => decoupledLookBack({ ...base, op: wgslOp('add', 'u32'), encoding: 'split', walkers: 'leader', chains: 2 })).toThrow(
      /one chain, not 2/,
    );
    const matrix = WIDE_VALUES.matrix.op;
    expect(() => decoupledLookBack({ ...base, op: { ...matrix, type: 'u32' }, encoding: 'packed', walkers: 'leader' })).toThrow(
      /packed encoding holds one word/,
    );
    // A struct must list its fields: the look-back stores it member by member.
    expect(() => decoupledLookBack({ ...base, op: { ...matrix, fields: undefined }, encoding: 'split', walkers: 'leader' })).toThrow(
      /lists no fields/,
    );
    // 20 words are 40 half-word statuses: more than a tile's line of 32.
    const wide = Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, type: 'vec4<u32>' as const }));
    const tile = { subgroups: true, maxSpin: 4, fallback: base.fallback };
    expect(() => tileLookBack({ type: 'Wide', fields: wide, identity: 'Wide()', combine: (a, b) => `w(${a}, ${b})` }, tile)).toThrow(
      /takes 40 words, more than a tile's line of 32/,
    );
    expect(() => tileLookBack({ ...WIDE_VALUES.lanes.op }, tile)).not.toThrow();
  });

  it('offers a fallback aggregate only for exact built-ins of one word', () => {
    const offers = (op: BlockOp & { exact?: boolean }, walkers: LookBackWalkers) => {
      const lb = decoupledLookBack({
        name: 'x',
        op,
        encoding: 'split',
        word: () => '0u',
        walkers,
        maxSpin: 4,
        inclusive: (p: string) => p,
        fallback: { run: () => '', value: () => 'found' },
      });
      return /x_offer\(/.test(`${lb.start}${lb.finish}`);
    };
    for (const walkers of ['leader', 'first-subgroup', 'every-invocation'] as const) {
      expect(offers(wgslOp('add', 'u32'), walkers)).toBe(true);
      expect(offers(wgslOp('min', 'f32'), walkers)).toBe(true);
      expect(offers(wgslOp('add', 'f32'), walkers)).toBe(false);
      // A user's operator on u32, and wide values (an exact add on vec4<u32> too: offered half by
      // half, two writes could mix).
      expect(offers({ type: 'u32', identity: '0u', combine: (a, b) => `f(${a}, ${b})`, commutative: false }, walkers)).toBe(false);
      expect(offers({ ...WIDE_VALUES.vec4Builtin.op, exact: true }, walkers)).toBe(false);
      expect(offers(WIDE_VALUES.matrix.op, walkers)).toBe(false);
    }
  });
});

// Values wider than 32 bits (and f16): records, vectors, a record with a vector member. Each value
// is one u32 word per scalar in the buffers; the look-back carries it as 2W half-word statuses.

type Part = { readonly path: string; readonly type: 'u32' | 'i32' | 'f32' | 'f16' };

/** A value type of the wide tests: its operator, its WGSL, and the same on the CPU over its words. */
interface WideValue {
  readonly op: BlockOp;
  /** Module-scope WGSL the operator needs (its struct and functions). */
  readonly decls: string;
  readonly enable: readonly string[];
  /** Its scalars in order, one u32 word each in `input` and `output`. */
  readonly parts: readonly Part[];
  /** The identity's words. */
  readonly identity: readonly number[];
  /** `a ⊕ b` on words, `a` first. */
  combine(a: readonly number[], b: readonly number[]): number[];
  /** A random value's words. */
  random(next: () => number): number[];
}

const f32Bits = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0]!;
const f32Of = (bits: number) => new Float32Array(new Uint32Array([bits]).buffer)[0]!;

/** 2×2 matrices (row-major words) multiplied with wrapping i32 arithmetic, `a · b`. */
const mat = (a: readonly number[], b: readonly number[]) => {
  const [a0, a1, a2, a3] = a as [number, number, number, number];
  const [b0, b1, b2, b3] = b as [number, number, number, number];
  const dot = (p: number, q: number, r: number, s: number) => (Math.imul(p, q) + Math.imul(r, s)) >>> 0;
  return [dot(a0, b0, a1, b2), dot(a0, b1, a1, b3), dot(a2, b0, a3, b2), dot(a2, b1, a3, b3)];
};

const affineOp = defineOperator<{ a: number; b: number }>({
  type: { a: 'f32', b: 'f32' },
  identity: { a: 1, b: 0 },
  wgsl: 'var r = a;\nr.a = a.a * b.a;\nr.b = b.a * a.b + b.b;\nreturn r;',
  cpu: (x, y) => ({ a: x.a * y.a, b: y.a * x.b + y.b }),
  name: 'affine',
});
const matrixOp = defineOperator<{ m00: number; m01: number; m10: number; m11: number }>({
  type: { m00: 'i32', m01: 'i32', m10: 'i32', m11: 'i32' },
  identity: { m00: 1, m01: 0, m10: 0, m11: 1 },
  wgsl: `var r = a;
r.m00 = a.m00 * b.m00 + a.m01 * b.m10;
r.m01 = a.m00 * b.m01 + a.m01 * b.m11;
r.m10 = a.m10 * b.m00 + a.m11 * b.m10;
r.m11 = a.m10 * b.m01 + a.m11 * b.m11;
return r;`,
  cpu: (x, y) => {
    const [m00, m01, m10, m11] = mat([x.m00, x.m01, x.m10, x.m11], [y.m00, y.m01, y.m10, y.m11]).map((v) => v | 0) as [
      number,
      number,
      number,
      number,
    ];
    return { m00, m01, m10, m11 };
  },
  name: 'matrix2x2',
});
const vec4AddOp = defineOperator<number[]>({
  type: 'vec4<u32>',
  identity: [0, 0, 0, 0],
  wgsl: 'return a + b;',
  cpu: (x, y) => x.map((v, i) => (v + y[i]!) >>> 0),
  name: 'vec4 add',
});
const f16AddOp = defineOperator<number>({ type: 'f16', identity: 0, wgsl: 'return a + b;', cpu: (x, y) => x + y, name: 'f16 add' });

const XYZW = ['x', 'y', 'z', 'w'];
const vec4Parts: Part[] = XYZW.map((c) => ({ path: `.${c}`, type: 'u32' }));
const addWords = (a: readonly number[], b: readonly number[]) => a.map((v, i) => (v + b[i]!) >>> 0);
const f16Bits = (x: number) => {
  // Small integers only (|x| ≤ 2048): exact in f16.
  if (x === 0) return 0;
  const sign = x < 0 ? 0x8000 : 0;
  const m = Math.abs(x);
  const e = Math.floor(Math.log2(m));
  return sign | ((e + 15) << 10) | Math.round((m / 2 ** e - 1) * 1024);
};
const f16Of = (h: number) => {
  if ((h & 0x7fff) === 0) return 0;
  const e = ((h >> 10) & 0x1f) - 15;
  return (h & 0x8000 ? -1 : 1) * 2 ** e * (1 + (h & 0x3ff) / 1024);
};

const WIDE_VALUES = {
  // x ↦ a·x + b, maps applied in order: not commutative. a = ±1 and b a multiple of 1/256 below
  // 2^4, so 300 tiles' compositions are exact in f32 (and b's low half is not all zeros).
  affine: {
    op: operatorBlockOp(affineOp),
    decls: affineOp.declarations,
    enable: [],
    parts: [
      { path: '.a', type: 'f32' },
      { path: '.b', type: 'f32' },
    ],
    identity: [f32Bits(1), 0],
    combine: (x, y) => {
      const [xa, xb, ya, yb] = [f32Of(x[0]!), f32Of(x[1]!), f32Of(y[0]!), f32Of(y[1]!)];
      return [f32Bits(xa * ya), f32Bits(ya * xb + yb)];
    },
    random: (next) => [f32Bits(next() & 1 ? -1 : 1), f32Bits(((next() & 0x1fff) - 0x1000) / 256)],
  },
  // 2×2 i32 matrices, multiplied with wrapping: 4 words of full-width bits, not commutative.
  matrix: {
    op: operatorBlockOp(matrixOp),
    decls: matrixOp.declarations,
    enable: [],
    parts: ['m00', 'm01', 'm10', 'm11'].map((f) => ({ path: `.${f}`, type: 'i32' })),
    identity: [1, 0, 0, 1],
    combine: mat,
    random: (next) => [next(), next(), next(), next()],
  },
  // vec4<u32> add as a user's operator (no built-in: the subgroup walker reduces by shuffles).
  vec4: {
    op: operatorBlockOp(vec4AddOp),
    decls: vec4AddOp.declarations,
    enable: [],
    parts: vec4Parts,
    identity: [0, 0, 0, 0],
    combine: addWords,
    random: (next) => [next(), next(), next(), next()],
  },
  // The same with the subgroupAdd built-in, which takes vectors.
  vec4Builtin: {
    op: { type: 'vec4<u32>', identity: 'vec4<u32>()', combine: (a, b) => `(${a} + ${b})`, subgroupReduce: 'subgroupAdd' },
    decls: '',
    enable: [],
    parts: vec4Parts,
    identity: [0, 0, 0, 0],
    combine: addWords,
    random: (next) => [next(), next(), next(), next()],
  },
  // A record with a vector member, 3 words: affine maps x ↦ k·x + v mod 2^32 on two lanes.
  lanes: {
    op: {
      type: 'Lanes',
      fields: [
        { name: 'v', type: 'vec2<u32>' },
        { name: 'k', type: 'u32' },
      ],
      identity: 'Lanes(vec2<u32>(0u), 1u)',
      combine: (a, b) => `lanes_then(${a}, ${b})`,
      commutative: false,
    },
    decls:
      'struct Lanes { v: vec2<u32>, k: u32 }\nfn lanes_then(x: Lanes, y: Lanes) -> Lanes { return Lanes(x.v * y.k + y.v, x.k * y.k); }',
    enable: [],
    parts: [
      { path: '.v.x', type: 'u32' },
      { path: '.v.y', type: 'u32' },
      { path: '.k', type: 'u32' },
    ],
    identity: [0, 0, 1],
    combine: (x, y) => [(Math.imul(x[0]!, y[2]!) + y[0]!) >>> 0, (Math.imul(x[1]!, y[2]!) + y[1]!) >>> 0, Math.imul(x[2]!, y[2]!) >>> 0],
    random: (next) => [next(), next(), next() | 1],
  },
  // One f16: a single half-word status (needs shader-f16).
  f16: {
    op: operatorBlockOp(f16AddOp),
    decls: f16AddOp.declarations,
    enable: ['f16'],
    parts: [{ path: '', type: 'f16' }],
    identity: [0],
    combine: (x, y) => [f16Bits(f16Of(x[0]!) + f16Of(y[0]!))],
    random: (next) => [f16Bits((next() % 7) - 3)],
  },
} satisfies Record<string, WideValue>;
type WideName = keyof typeof WIDE_VALUES;

interface WideSpec {
  readonly value: WideName;
  readonly walkers: LookBackWalkers;
  readonly window: number;
  readonly chains: number;
  readonly heads: boolean;
  readonly forceFallback: boolean;
  readonly subgroups: boolean;
  /**
   * Tiles 1, 2 and 3 mod 5 take their ticket and leave, their statuses set before the run: 1 and 2
   * published their AGGREGATE (their INCLUSIVE, if heads) and never publish their INCLUSIVE, so
   * walks combine several values (a first-subgroup walker: a window's lanes, in order); 3's
   * status stays torn, all flags but one agreeing, so every reader must see it as not ready and
   * fall back.
   */
  readonly silent: boolean;
}

const SILENT_EVERY = 5;
const isSilent = (s: WideSpec, t: number) => s.silent && t % SILENT_EVERY >= 1 && t % SILENT_EVERY <= 3;
const halvesOf = (v: WideValue) => v.parts.reduce((sum, p) => sum + (p.type === 'f16' ? 1 : 2), 0);

function wideChainsPerTile(s: WideSpec): number {
  return s.walkers === 'every-invocation' ? WG * s.chains : 1;
}

/** output[(tile · C + c) · words + k]: word k of chain c's exclusive prefix at `tile`. */
const wideChainTest = defineKernel({
  name: 'test/look-back-wide',
  bindings: {
    input: read('array<u32>'),
    output: readWrite('array<u32>'),
    status: LOOK_BACK_STATUS,
  },
  params: { tiles: 'u32' },
  enable: (s: WideSpec) => [...WIDE_VALUES[s.value].enable, ...(s.subgroups ? ['subgroups'] : [])],
  wgsl: (s) => {
    const v: WideValue = WIDE_VALUES[s.value];
    const o = v.op;
    const T = o.type;
    const P = v.parts.length;
    const H = halvesOf(v);
    const C = wideChainsPerTile(s);
    const id = groupIdentityWgsl(s.subgroups, WG);
    const every = s.walkers === 'every-invocation';
    const chain = (r: number) => (every ? `lid * ${s.chains}u + ${r}u` : '0u');
    const head = (t: string) => (s.heads ? `(${t} % ${HEAD_EVERY}u == 0u)` : 'false');
    const load = (p: Part, w: string) =>
      p.type === 'u32' ? w : p.type === 'f16' ? `bitcast<vec2<f16>>((${w} & 0xffffu) * 0x10001u).x` : `bitcast<${p.type}>(${w})`;
    const store = (p: Part, x: string) => (p.type === 'f16' ? `(bitcast<u32>(vec2<f16>(${x}, ${x})) & 0xffffu)` : `bitcast<u32>(${x})`);
    const lb = decoupledLookBack({
      name: 'lb',
      op: o,
      encoding: 'split',
      word: (t, c) => `1u + (${t} * ${C}u + ${c}) * ${H}u`,
      walkers: s.walkers,
      window: s.window,
      maxSpin: 2,
      forceFallback: s.forceFallback,
      chains: every ? s.chains : 1,
      chain,
      inclusive: (p, r) =>
        `pick(${o.combine(p, `value_at(tile * ${C}u + ${chain(r)})`)}, value_at(tile * ${C}u + ${chain(r)}), ${head('tile')})`,
      resolved: (p, r) => `store_value(tile * ${C}u + ${chain(r)}, ${p});`,
      fallback: {
        run: (t) => `let fallback_tile = ${t};`,
        value: (r) => `value_at(fallback_tile * ${C}u + ${chain(r)})`,
        ends: s.heads ? head : undefined,
      },
    });
    const owned = every ? Array.from({ length: s.chains }, (_, r) => chain(r)) : ['0u'];
    const publisher = every ? 'true' : 'leader';
    return `${lookBackCommonWgsl()}
${v.decls}
fn value_at(i: u32) -> ${T} {
  var x: ${T};
${v.parts.map((p, k) => `  x${p.path} = ${load(p, `input[i * ${P}u + ${k}u]`)};`).join('\n')}
  return x;
}
fn store_value(i: u32, x: ${T}) {
${v.parts.map((p, k) => `  output[i * ${P}u + ${k}u] = ${store(p, `x${p.path}`)};`).join('\n')}
}
fn pick(f: ${T}, t: ${T}, cond: bool) -> ${T} { if (cond) { return t; } return f; }
${lb.decls}
${id.decls}
@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32${id.builtins}) {
  ${TAKE_TILE_WGSL}
  if (${s.silent ? `tile % ${SILENT_EVERY}u >= 1u && tile % ${SILENT_EVERY}u <= 3u` : 'false'}) { return; }
  ${id.body}
  let leader = group == 0u && lane == 0u;
  if (${publisher}) {
${owned
  .map(
    (c) => `    {
      lb_publish(tile, ${c}, select(FLAG_AGGREGATE, FLAG_INCLUSIVE, tile == 0u || ${head('tile')}), value_at(tile * ${C}u + ${c}));
      if (tile == 0u) { store_value(${c}, ${o.identity}); }
    }`,
  )
  .join('\n')}
  }
${lb.start}
  ${lb.finish}
}`;
  },
});

/** The expected output words, tile-major (a silent tile's stay poisoned). */
function wideExpected(s: WideSpec, input: Uint32Array, tiles: number): number[] {
  const v: WideValue = WIDE_VALUES[s.value];
  const C = wideChainsPerTile(s);
  const P = v.parts.length;
  const at = (i: number) => Array.from(input.subarray(i * P, (i + 1) * P));
  const out: number[] = [];
  for (let t = 0; t < tiles; t++) {
    for (let c = 0; c < C; c++) {
      if (isSilent(s, t)) {
        out.push(...new Array<number>(P).fill(POISON_U32));
        continue;
      }
      let acc = [...v.identity];
      for (let k = t - 1; k >= 0; k--) {
        acc = v.combine(at(k * C + c), acc);
        if (k === 0 || (s.heads && k % HEAD_EVERY === 0)) break;
      }
      out.push(...acc.map((x) => x >>> 0));
    }
  }
  return out;
}

/**
 * The status buffer before the run: zeros, but the silent tiles' statuses ({@link WideSpec.silent}):
 * published ones hold their value's halves (low half first, word by word), and torn ones every
 * half flagged INCLUSIVE over random bits but one, flagged AGGREGATE (which one varies, so that a
 * reader must compare every flag); a reader that took them would combine garbage.
 */
function wideStatus(s: WideSpec, input: Uint32Array, tiles: number, next: () => number): Uint32Array {
  const v: WideValue = WIDE_VALUES[s.value];
  const H = halvesOf(v);
  const C = wideChainsPerTile(s);
  const P = v.parts.length;
  const status = new Uint32Array(1 + tiles * C * H);
  for (let t = 0; t < tiles; t++) {
    if (!isSilent(s, t)) continue;
    for (let c = 0; c < C; c++) {
      const base = 1 + (t * C + c) * H;
      if (t % SILENT_EVERY === 3) {
        if (H < 2) continue; // one half cannot tear: it stays NOT_READY
        const odd = 1 + ((t + c) % (H - 1));
        for (let k = 0; k < H; k++) status[base + k] = (((k === odd ? 1 : 2) << 16) | (next() & 0xffff)) >>> 0;
        continue;
      }
      const flag = s.heads && t % HEAD_EVERY === 0 ? 2 : 1;
      const words = input.subarray((t * C + c) * P, (t * C + c + 1) * P);
      const halves = v.parts.flatMap((p, k) => (p.type === 'f16' ? [words[k]! & 0xffff] : [words[k]! & 0xffff, words[k]! >>> 16]));
      halves.forEach((h, k) => {
        status[base + k] = ((flag << 16) | h) >>> 0;
      });
    }
  }
  return status;
}

function wideSpecs(subgroups: boolean, f16: boolean): WideSpec[] {
  const walkers: LookBackWalkers[] = subgroups ? ['leader', 'first-subgroup', 'every-invocation'] : ['leader', 'every-invocation'];
  const values = (Object.keys(WIDE_VALUES) as WideName[]).filter((v) => f16 || v !== 'f16');
  const out: WideSpec[] = [];
  values.forEach((value, i) => {
    for (const w of walkers) {
      for (const forceFallback of [false, true]) {
        const every = w === 'every-invocation';
        out.push({
          value,
          walkers: w,
          window: every ? 1 + (i % 3) : i % 2 ? 3 : 1,
          chains: every ? 1 + (i % 2) : 1,
          heads: (i + (forceFallback ? 1 : 0)) % 2 === 0,
          forceFallback,
          subgroups,
          silent: !forceFallback,
        });
      }
    }
  });
  return out;
}

function xorshift(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}

describe('decoupledLookBack over values wider than 32 bits (GPU)', () => {
  for (const subgroups of [true, false]) {
    it(`records, vectors and f16 give each tile its exclusive prefix, in order (${subgroups ? 'subgroups' : 'no subgroups'})`, async () => {
      const ctx = await getTestContext({ subgroups });
      const tiles = 160;
      const exec = new RecipeExecutor(ctx, 'test wide look-back');
      const cases = wideSpecs(subgroups, ctx.caps.features.shaderF16).map((s, i) => {
        const v: WideValue = WIDE_VALUES[s.value];
        const next = xorshift(101 + i);
        const n = tiles * wideChainsPerTile(s);
        const input = Uint32Array.from(Array.from({ length: n }, () => v.random(next)).flat());
        return { s, n, input, status: wideStatus(s, input, tiles, next) };
      });
      const jobs = cases.map(({ s, n, input, status }) => {
        const words = n * WIDE_VALUES[s.value].parts.length;
        const inputBuffer = bufferOf(ctx, input);
        const output = poisoned(ctx, 4 * words);
        const statusBuffer = bufferOf(ctx, status);
        return {
          record: (encoder: GPUCommandEncoder) => {
            exec.encode(
              encoder,
              () => {
                const b = new RecipeBuilder();
                const ref = (role: string) => ({ role, offset: 0 });
                b.dispatch(wideChainTest(s), { input: ref('input'), output: ref('output'), status: ref('status') }, tiles, { tiles });
                return b.build();
              },
              { input: inputBuffer, output, status: statusBuffer },
            );
            return [{ buffer: output, bytes: 4 * words }];
          },
        };
      });
      const results = await runBatch(ctx, jobs, [exec]);
      // Every case that went wrong, with its first wrong value (a tile, a chain: its words).
      const wrong = cases.flatMap(({ s, input }, i) => {
        const got = new Uint32Array(results[i]![0]!);
        const want = wideExpected(s, input, tiles);
        const bad = want.findIndex((x, k) => got[k] !== x);
        if (bad < 0) return [];
        const P = WIDE_VALUES[s.value].parts.length;
        const at = bad - (bad % P);
        return [{ spec: s, value: (bad / P) | 0, got: Array.from(got.subarray(at, at + P)), want: want.slice(at, at + P) }];
      });
      expect(wrong).toEqual([]);
    });
  }
});
