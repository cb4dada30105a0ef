// The one look-back generator of the kit, on its own: every status encoding, every kind of walker,
// the window, the fallback that ends a walk, forced and not. Each tile publishes one value per
// chain; the exclusive prefix it resolves must equal the CPU's, tile by tile and chain by chain.
import { getTestContext } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import {
  decoupledLookBack,
  LOOK_BACK_STATUS,
  type LookBackWalkers,
  lookBackCommonWgsl,
  type StatusEncoding,
  TAKE_TILE_WGSL,
} from '../src/kernels/decoupled-look-back.js';
import { defineKernel, read, readWrite } from '../src/kernels/define-kernel.js';
import { groupIdentityWgsl } from '../src/kernels/group-scan.js';
import { wgslOp } from '../src/kernels/wgsl-ops.js';
import { RecipeExecutor } from '../src/plans/executor.js';
import { RecipeBuilder } from '../src/plans/recipe.js';
import { bufferOf, poisoned, runBatch } from './harness.js';

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
  });
});
