// The one-pass split and pack (and packIf) against the CPU reference: every element type, u32 and
// u8 flags and the predicate, densities 0, 0.01, 0.5 and 1, sizes around the tile, several tile
// shapes, staged and direct stores, the forced fallback, both group paths. Outputs are poisoned:
// pack must leave every word past the kept count untouched.
import { createRng, expectEqualArrays, getTestContext, isPoison, randomData, randomFlags } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import type { ScanContext } from '../src/context.js';
import * as cpu from '../src/cpu/index.js';
import { ELEMENT_TYPES, type ElementType, type ScanTypedArray } from '../src/element-types.js';
import { ScanError } from '../src/errors.js';
import { pack, packIf, split } from '../src/ops/primitives.js';
import { createDispatchArgsPlan } from '../src/plans/dispatch-args-plan.js';
import {
  createPackIfPlan,
  createPackPlan,
  createRunHeadsPackPlan,
  createSplitPlan,
  type ScatterTuning,
} from '../src/plans/scatter-plans.js';
import { COMPARE_OPS } from '../src/predicate.js';
import { asTyped, bufferOf, poisoned, runBatch } from './harness.js';

type Tuning = ScatterTuning;

/** u8 flags as the plans read them: a byte each, padded to whole words with nonzero bytes, which the plans must ignore. */
function flagBytes(flags: Uint32Array): Uint8Array {
  const bytes = new Uint8Array(Math.ceil(flags.length / 4) * 4).fill(0xff);
  bytes.set(flags);
  return bytes;
}

interface Case {
  readonly data: ScanTypedArray;
  readonly flags: Uint32Array;
  readonly label: string;
}

/**
 * Runs split and pack (u32 and u8 flags) of every case through plans of one shape, checks each
 * against the CPU reference, and checks that pack wrote nothing past its count.
 */
async function checkFlagPlans(
  ctx: ScanContext,
  type: ElementType,
  cases: readonly Case[],
  tuning: Tuning,
  algorithm?: 'scan-then-scatter',
) {
  const flagTypes = algorithm ? (['u32'] as const) : (['u32', 'u8'] as const);
  for (const flags of flagTypes) {
    const options = { type, flags, ...(algorithm ? { algorithm } : {}), tuning };
    const sp = createSplitPlan(ctx, options);
    const pk = createPackPlan(ctx, options);
    const results = await runBatch(
      ctx,
      cases.map((c) => ({
        record(encoder) {
          const n = c.data.length;
          const input = bufferOf(ctx, c.data);
          const f = bufferOf(ctx, flags === 'u8' ? flagBytes(c.flags) : c.flags);
          const out1 = poisoned(ctx, 4 * n);
          const out2 = poisoned(ctx, 4 * n);
          const c1 = poisoned(ctx, 4);
          const c2 = poisoned(ctx, 4);
          sp.encode(encoder, { input, flags: f, output: out1, count: n, falseCount: c1 });
          pk.encode(encoder, { input, flags: f, output: out2, count: n, packedCount: c2 });
          return [
            { buffer: out1, bytes: 4 * n },
            { buffer: c1, bytes: 4 },
            { buffer: out2, bytes: 4 * n },
            { buffer: c2, bytes: 4 },
          ];
        },
      })),
    );
    sp.destroy();
    pk.destroy();
    cases.forEach((c, i) => {
      const [o1, c1, o2, c2] = results[i]!;
      const label = `${c.label} ${flags} flags ${JSON.stringify(tuning)}${algorithm ? ` ${algorithm}` : ''}`;
      const want = cpu.split(c.data, c.flags);
      expectEqualArrays(asTyped(c.data, o1!), want.output, `split ${label}`);
      expect(new Uint32Array(c1!)[0], `split falseCount ${label}`).toBe(want.falseCount);
      const packed = cpu.pack(c.data, c.flags);
      expect(new Uint32Array(c2!)[0], `pack count ${label}`).toBe(packed.length);
      expectEqualArrays(asTyped(c.data, o2!).subarray(0, packed.length), packed, `pack ${label}`);
      const past = new Uint32Array(o2!).subarray(packed.length);
      const written = past.findIndex((w) => !isPoison(w));
      expect(written, `pack ${label}: a word past the kept count was written`).toBe(-1);
    });
  }
}

/** Cases of `type` at `sizes`, each at every density. */
function casesOf(type: ElementType, sizes: readonly number[], densities: readonly number[], seed: number): Case[] {
  return sizes.flatMap((n) =>
    densities.map((density, j) => ({
      data: randomData(type, n, seed + n + j, j % 2 ? 'random' : 'extreme'),
      flags: randomFlags(n, seed + 3 * n + j, density),
      label: `${type} n=${n} density=${density}`,
    })),
  );
}

const DENSITIES = [0, 0.01, 0.5, 1];
/** Tiles of the default shapes, 256 invocations × 16 elements (predicate), × 24 (u32 flags), × 32 (u8 flags). */
const TILE = 4096;
const TILE_U32 = 6144;
const TILE_U8 = 8192;

for (const subgroups of [true, false]) {
  describe(`one-pass split and pack (${subgroups ? 'subgroups' : 'workgroup memory'})`, () => {
    it('every type, u32 and u8 flags, densities 0 … 1, sizes around the tile', async () => {
      const ctx = await getTestContext({ subgroups });
      const sizes = [1, 2, 3, 4, 5, 63, TILE_U32 - 1, TILE_U32, TILE_U32 + 1, TILE_U8 - 1, TILE_U8, TILE_U8 + 1, 3 * TILE_U8 + 7];
      // Flag plans move elements as raw words through the same kernels whatever the type: u32 runs
      // every size, i32 and f32 (sign bits, NaN payloads, -0 kept bit for bit) a partial tile, one
      // past each tile and several tiles.
      const wordSizes = [1, 5, 63, TILE_U32 + 1, TILE_U8 + 1, 3 * TILE_U8 + 7];
      for (const type of ELEMENT_TYPES)
        await checkFlagPlans(ctx, type, casesOf(type, type === 'u32' ? sizes : wordSizes, DENSITIES, 11), {});
    });

    it('small tiles (many of them), odd and full masks, and the forced fallback', async () => {
      const ctx = await getTestContext({ subgroups });
      const cases = casesOf('u32', [255, 256, 257, 2047, 5000], [0.01, 0.5, 0.99], 5);
      for (const tuning of [
        { workgroupSize: 64, elementsPerThread: 1 },
        { workgroupSize: 64, elementsPerThread: 3 },
        { workgroupSize: 32, elementsPerThread: 32 },
        { workgroupSize: 64, elementsPerThread: 5, forceFallback: true },
        { workgroupSize: 64, elementsPerThread: 1, forceFallback: true },
        // Devices whose subgroups may be wider than 32 rank by four ballot words (SwiftShader's 4
        // takes the one-word rank otherwise).
        { workgroupSize: 64, elementsPerThread: 3, wideBallot: true },
      ]) {
        await checkFlagPlans(ctx, 'u32', cases, tuning);
      }
    });

    it('the widest workgroup the device allows (1024 × 8 where it can)', async () => {
      const ctx = await getTestContext({ subgroups });
      const workgroupSize = Math.min(1024, ctx.caps.limits.maxComputeInvocationsPerWorkgroup);
      const cases = casesOf('i32', [3 * 8192 + 5], [0.01, 0.5], 9);
      await checkFlagPlans(ctx, 'i32', cases, { workgroupSize, elementsPerThread: 8 });
    });

    it("the paper's scan-then-scatter, kept as an algorithm", async () => {
      const ctx = await getTestContext({ subgroups });
      await checkFlagPlans(ctx, 'f32', casesOf('f32', [1, 5, TILE + 1], [0, 0.5, 1], 3), {}, 'scan-then-scatter');
    });

    it('past 2^20 elements', async () => {
      const ctx = await getTestContext({ subgroups });
      await checkFlagPlans(ctx, 'u32', casesOf('u32', [(1 << 20) + 3], [0.5], 21), {});
    });

    it('packIf: every type and comparison (between the two paths), edge values, the forced fallback', async () => {
      const ctx = await getTestContext({ subgroups });
      for (const type of ELEMENT_TYPES) {
        const data = randomData(type, 3 * TILE + 3, 17, 'extreme');
        const small = randomData(type, 2 * TILE + 1, 19, 'small');
        if (type === 'f32') (data as Float32Array).set([Number.NaN, -0, 0, Number.NaN], 100);
        const values = type === 'f32' ? [0, -0.5, Number.POSITIVE_INFINITY] : type === 'i32' ? [0, -1, 3] : [0, 3, 0xffffffff];
        const jobs: { data: ScanTypedArray; op: (typeof COMPARE_OPS)[number]; value: number; forceFallback: boolean }[] = [];
        // Every type × comparison once between the two paths (half the comparisons of each type on
        // each path, alternating, so each path meets every comparison): the comparison is the flag
        // of one element, apart from the group scan that differs between the paths, and each
        // type × comparison is a pipeline SwiftShader compiles anew.
        const t = ELEMENT_TYPES.indexOf(type);
        for (const [i, op] of COMPARE_OPS.entries()) {
          if ((i + t) % 2 !== (subgroups ? 0 : 1)) continue;
          for (const value of values) jobs.push({ data: value === values[2] ? data : small, op, value, forceFallback: false });
        }
        jobs.push({ data: small, op: 'gt', value: 1, forceFallback: true });
        const plans = jobs.map((j) =>
          createPackIfPlan(ctx, { type, op: j.op, value: j.value, tuning: { forceFallback: j.forceFallback } }),
        );
        const results = await runBatch(
          ctx,
          jobs.map((j, i) => ({
            record(encoder) {
              const n = j.data.length;
              const output = poisoned(ctx, 4 * n);
              const count = poisoned(ctx, 4);
              plans[i]!.encode(encoder, { input: bufferOf(ctx, j.data), output, count: n, packedCount: count });
              return [
                { buffer: output, bytes: 4 * n },
                { buffer: count, bytes: 4 },
              ];
            },
          })),
          plans,
        );
        jobs.forEach((j, i) => {
          const want = cpu.packIf(j.data, { op: j.op, value: j.value });
          const label = `packIf ${type} ${j.op} ${j.value}${j.forceFallback ? ' forced fallback' : ''}`;
          const [out, count] = results[i]!;
          expect(new Uint32Array(count!)[0], `${label} count`).toBe(want.length);
          expectEqualArrays(asTyped(j.data, out!).subarray(0, want.length), want, label);
          expect(
            new Uint32Array(out!).subarray(want.length).findIndex((w) => !isPoison(w)),
            `${label}: written past the count`,
          ).toBe(-1);
        });
      }
    });
  });
}

/**
 * Keys in runs of seeded lengths from 1 to `maxRun`, with values drawn from `pool` (so neighbouring
 * runs may repeat a value, and a run boundary is where the value changes, not where a draw starts).
 */
function runKeys(n: number, maxRun: number, pool: readonly number[], seed: number, type: 'u32' | 'f32'): Uint32Array | Float32Array {
  const rng = createRng(seed);
  const out = type === 'f32' ? new Float32Array(n) : new Uint32Array(n);
  for (let i = 0; i < n; ) {
    const value = pool[rng.int(0, pool.length - 1)] as number;
    const run = rng.int(1, maxRun);
    for (let j = 0; j < run && i < n; j++) out[i++] = value;
  }
  return out;
}

/** The CPU reference of a run-heads pack: the first element and each one unlike (`!==`) the one before. */
function runHeads(keys: Uint32Array | Float32Array): Uint32Array {
  const words = new Uint32Array(keys.buffer, keys.byteOffset, keys.length);
  return Uint32Array.from(words.filter((_, i) => i === 0 || keys[i] !== keys[i - 1]));
}

for (const subgroups of [true, false]) {
  describe(`the run-heads pack (${subgroups ? 'subgroups' : 'workgroup memory'})`, () => {
    it('int and f32 keys (NaN payloads, ±0), runs of 1 … 4096, sizes around the tile, the forced fallback and a GPU count', async () => {
      const ctx = await getTestContext({ subgroups });
      const ints = [0, 1, 2, 0xffffffff, 0x80000000];
      const floats = [0, -0, 1.5, Number.NaN, Number.POSITIVE_INFINITY, -2];
      const jobs: { keys: Uint32Array | Float32Array; compare: 'int' | 'f32'; forceFallback: boolean; gpuCount?: number }[] = [];
      // The heads kernel is one per compare and path: every size and run length through it, the
      // fallback and the GPU count once each.
      for (const [i, n] of [1, 2, 5, TILE - 1, TILE, TILE + 1, 3 * TILE + 7].entries()) {
        for (const maxRun of [1, 3, 40, 4096]) {
          jobs.push({ keys: runKeys(n, maxRun, ints, 31 * i + maxRun, 'u32'), compare: 'int', forceFallback: false });
        }
        jobs.push({ keys: runKeys(n, 5, floats, 7 + i, 'f32'), compare: 'f32', forceFallback: false });
      }
      // A NaN with another payload, -0 beside +0, and NaN beside NaN of the same bits.
      const special = new Float32Array([1, 1, -0, 0, 0, Number.NaN, Number.NaN, 2, 2]);
      new Uint32Array(special.buffer)[6] = 0x7fc00001;
      jobs.push({ keys: special, compare: 'f32', forceFallback: false });
      jobs.push({ keys: runKeys(3 * TILE + 7, 9, ints, 91, 'u32'), compare: 'int', forceFallback: true });
      jobs.push({ keys: runKeys(2 * TILE + 1, 9, floats, 92, 'f32'), compare: 'f32', forceFallback: true });
      jobs.push({ keys: runKeys(2 * TILE + 5, 7, ints, 93, 'u32'), compare: 'int', forceFallback: false, gpuCount: TILE + 3 });
      const plans = jobs.map((j) =>
        createRunHeadsPackPlan(ctx, {
          compare: j.compare,
          tuning: { forceFallback: j.forceFallback },
          ...(j.gpuCount === undefined ? {} : { maxCount: j.keys.length }),
        }),
      );
      const results = await runBatch(
        ctx,
        jobs.map((j, i) => ({
          record(encoder) {
            const n = j.keys.length;
            const output = poisoned(ctx, 4 * n);
            const count = poisoned(ctx, 4);
            const input = bufferOf(ctx, j.keys);
            if (j.gpuCount === undefined) {
              plans[i]!.encode(encoder, { input, output, count: n, packedCount: count });
            } else {
              const countBuffer = bufferOf(ctx, new Uint32Array([0, j.gpuCount]));
              plans[i]!.encode(encoder, { input, output, countBuffer, countOffset: 4, packedCount: count });
            }
            return [
              { buffer: output, bytes: 4 * n },
              { buffer: count, bytes: 4 },
            ];
          },
        })),
        plans,
      );
      jobs.forEach((j, i) => {
        const want = runHeads(j.keys.subarray(0, j.gpuCount ?? j.keys.length));
        const label = `heads ${j.compare} n=${j.keys.length}${j.forceFallback ? ' forced fallback' : ''}${j.gpuCount ? ` GPU count ${j.gpuCount}` : ''}`;
        const [out, count] = results[i]!;
        expect(new Uint32Array(count!)[0], `${label} count`).toBe(want.length);
        expectEqualArrays(new Uint32Array(out!).subarray(0, want.length), want, label);
        expect(
          new Uint32Array(out!).subarray(want.length).findIndex((w) => !isPoison(w)),
          `${label}: written past the count`,
        ).toBe(-1);
      });
      expect(() => createRunHeadsPackPlan(ctx, { compare: 'u32' as never })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'options.compare' }),
      );
    });

    // The writes beside the heads do not depend on how the tile ranks its elements: one path.
    it.runIf(subgroups)(
      'writes beside each head its index, its run length and a companion word; every output set and a GPU count',
      async () => {
        const ctx = await getTestContext({ subgroups });
        const ints = [0, 1, 2, 0xffffffff];
        type Outputs = { indices: boolean; lengths: boolean; companion: boolean };
        const all: Outputs = { indices: true, lengths: true, companion: true };
        const jobs: {
          keys: Uint32Array | Float32Array;
          compare: 'int' | 'f32';
          outputs: Outputs;
          forceFallback?: boolean;
          gpuCount?: number;
        }[] = [];
        for (const [i, n] of [1, 5, TILE + 1, 3 * TILE + 7].entries()) {
          for (const maxRun of [1, 40]) jobs.push({ keys: runKeys(n, maxRun, ints, 17 * i + maxRun, 'u32'), compare: 'int', outputs: all });
        }
        // (The compare and the look-back's fallback come before the store these writes join: the test
        // above covers them.)
        jobs.push({ keys: runKeys(2 * TILE + 5, 7, ints, 7, 'u32'), compare: 'int', outputs: all, gpuCount: TILE + 3 });
        jobs.push({ keys: runKeys(2 * TILE + 5, 3, ints, 8, 'u32'), compare: 'int', outputs: all, gpuCount: 0 });
        jobs.push({
          keys: runKeys(TILE + 9, 4, ints, 9, 'u32'),
          compare: 'int',
          outputs: { indices: true, lengths: false, companion: false },
        });
        jobs.push({
          keys: runKeys(TILE + 9, 4, ints, 10, 'u32'),
          compare: 'int',
          outputs: { indices: false, lengths: false, companion: true },
        });
        const plans = jobs.map((j) =>
          createRunHeadsPackPlan(ctx, {
            compare: j.compare,
            tuning: { forceFallback: j.forceFallback ?? false },
            ...(j.gpuCount === undefined ? {} : { maxCount: j.keys.length }),
            names: {
              input: 'keys',
              output: 'heads',
              count: 'runCount',
              ...(j.outputs.indices ? { indices: 'offsets' } : {}),
              ...(j.outputs.lengths ? { lengths: 'lengths' } : {}),
              ...(j.outputs.companion ? { companion: 'values', companionOut: 'firstValues' } : {}),
            },
          }),
        );
        // The companion: a word unlike any key, so a key moved in its place shows.
        const companionOf = (n: number) => Uint32Array.from({ length: n }, (_, i) => (0x9e3779b9 * (i + 1)) >>> 0);
        const results = await runBatch(
          ctx,
          jobs.map((j, i) => ({
            record(encoder) {
              const n = j.keys.length;
              const outs = {
                heads: poisoned(ctx, 4 * n),
                offsets: poisoned(ctx, 4 * n),
                lengths: poisoned(ctx, 4 * n),
                firstValues: poisoned(ctx, 4 * n),
              };
              const runCount = poisoned(ctx, 4);
              const args = {
                keys: bufferOf(ctx, j.keys),
                heads: outs.heads,
                runCount,
                ...(j.outputs.indices ? { offsets: outs.offsets } : {}),
                ...(j.outputs.lengths ? { lengths: outs.lengths } : {}),
                ...(j.outputs.companion ? { values: bufferOf(ctx, companionOf(n)), firstValues: outs.firstValues } : {}),
              };
              if (j.gpuCount === undefined) plans[i]!.encode(encoder, { ...args, count: n } as never);
              else plans[i]!.encode(encoder, { ...args, countBuffer: bufferOf(ctx, new Uint32Array([j.gpuCount])) } as never);
              return [outs.heads, outs.offsets, outs.lengths, outs.firstValues, runCount].map((buffer) => ({ buffer, bytes: buffer.size }));
            },
          })),
          plans,
        );
        jobs.forEach((j, i) => {
          const keys = j.keys.subarray(0, j.gpuCount ?? j.keys.length);
          const starts = [...keys.keys()].filter((e) => e === 0 || keys[e] !== keys[e - 1]);
          const companion = companionOf(j.keys.length);
          const want = {
            heads: runHeads(keys),
            offsets: Uint32Array.from(starts),
            lengths: Uint32Array.from(starts, (e, r) => (starts[r + 1] ?? keys.length) - e),
            firstValues: Uint32Array.from(starts, (e) => companion[e] as number),
          };
          const label = `heads ${j.compare} n=${j.keys.length} ${JSON.stringify(j.outputs)}${j.forceFallback ? ' forced fallback' : ''}${j.gpuCount === undefined ? '' : ` GPU count ${j.gpuCount}`}`;
          const [heads, offsets, lengths, firstValues, count] = results[i]!.map((b) => new Uint32Array(b!));
          expect(count![0], `${label} count`).toBe(starts.length);
          const written = { heads: true, offsets: j.outputs.indices, lengths: j.outputs.lengths, firstValues: j.outputs.companion };
          for (const [name, got] of [
            ['heads', heads],
            ['offsets', offsets],
            ['lengths', lengths],
            ['firstValues', firstValues],
          ] as const) {
            if (written[name]) expectEqualArrays(got!.subarray(0, starts.length), want[name], `${label} ${name}`);
            const from = written[name] ? starts.length : 0;
            expect(
              got!.subarray(from).findIndex((w) => !isPoison(w)),
              `${label} ${name}: written past the count`,
            ).toBe(-1);
          }
        });
        const names = { input: 'keys', output: 'heads', count: 'runCount' };
        for (const [bad, argument] of [
          [{ ...names, lengths: 'lengths' }, 'options.names.lengths'],
          [{ ...names, companion: 'values' }, 'options.names.companionOut'],
          [{ ...names, indices: 'keys' }, 'options.names'],
          [{ input: 'keys', output: 'heads' }, 'options.names.count'],
          [{ ...names, indices: 3 }, 'options.names.indices'],
        ] as const) {
          expect(() => createRunHeadsPackPlan(ctx, { names: bad as never }), argument).toThrow(
            expect.objectContaining({ code: 'INVALID_ARGUMENT', argument }),
          );
        }
      },
    );
  });
}

describe('dispatch arguments from a count on the GPU', () => {
  it('pack, then the indirect arguments of a pass over the kept elements', async () => {
    const ctx = await getTestContext();
    const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
    const data = randomData('u32', 10_000, 4);
    const flags = randomFlags(10_000, 5, 0.3);
    const kept = cpu.pack(data, flags).length;
    const pack = createPackPlan(ctx);
    const sizing = createDispatchArgsPlan(ctx, { elementsPerWorkgroup: 64 });
    const counts = [0, 1, 64, 65, 64 * maxDim, 64 * maxDim + 1, 2 ** 32 - 1];
    const results = await runBatch(
      ctx,
      [
        {
          record(encoder) {
            const packed = poisoned(ctx, 4);
            const args = poisoned(ctx, 12);
            pack.encode(encoder, {
              input: bufferOf(ctx, data),
              flags: bufferOf(ctx, flags),
              output: poisoned(ctx, 40_000),
              count: 10_000,
              packedCount: packed,
            });
            sizing.encode(encoder, { countBuffer: packed, args });
            return [{ buffer: args, bytes: 12 }];
          },
        },
        ...counts.map((c) => ({
          record(encoder: GPUCommandEncoder) {
            const args = poisoned(ctx, 12);
            // The count at byte 260 of its buffer: offsets past one 256-byte alignment step work too.
            const words = new Uint32Array(80);
            words[65] = c;
            sizing.encode(encoder, { countBuffer: bufferOf(ctx, words), countOffset: 260, args });
            return [{ buffer: args, bytes: 12 }];
          },
        })),
      ],
      [pack, sizing],
    );
    const check = (args: ArrayBuffer, count: number) => {
      const [x, y, z] = new Uint32Array(args);
      const groups = Math.ceil(count / 64);
      expect(z, `z for ${count}`).toBe(1);
      expect(x! <= maxDim && y! <= maxDim, `x, y within the limit for ${count}`).toBe(true);
      expect(x! * y! >= groups, `x·y covers ${groups} workgroups`).toBe(true);
      expect((x! - 1) * y! < groups || groups === 0, `no whole spare column for ${count}`).toBe(true);
    };
    check(results[0]![0]!, kept);
    counts.forEach((c, i) => check(results[i + 1]![0]!, c));
  });
});

describe('split, pack and packIf on typed arrays, and their errors', () => {
  async function rejectsWith(work: () => Promise<unknown>, code: string, text: RegExp) {
    const e = await work().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e, `expected a ScanError ${code}`).toBeInstanceOf(ScanError);
    expect((e as ScanError).code).toBe(code);
    expect((e as ScanError).message).toMatch(text);
  }

  it('u8 flags go up as bytes (any length), u32 flags as words; packIf compares in the element type', async () => {
    const ctx = await getTestContext();
    for (const n of [0, 1, 6, 8193]) {
      const data = randomData('f32', n, n + 1, 'extreme');
      const words = randomFlags(n, n + 2, 0.4);
      const bytes = Uint8Array.from(words);
      expectEqualArrays(await pack(ctx, data, bytes), cpu.pack(data, words), `pack u8 n=${n}`);
      const s8 = await split(ctx, data, bytes);
      const want = cpu.split(data, words);
      expectEqualArrays(s8.output, want.output, `split u8 n=${n}`);
      expect(s8.falseCount).toBe(want.falseCount);
      expectEqualArrays((await split(ctx, data, words)).output, want.output, `split u32 n=${n}`);
      expectEqualArrays(await packIf(ctx, data, { op: 'ge', value: 0 }), cpu.packIf(data, { op: 'ge', value: 0 }), `packIf n=${n}`);
    }
    expectEqualArrays(await packIf(ctx, new Uint32Array([0, 3, 0, 5]), { op: 'ne', value: 0 }), [3, 5], 'packIf ne 0');
    expectEqualArrays(await packIf(ctx, new Int32Array([-2, 5, 0, 7]), { op: 'lt', value: 0 }), [-2], 'packIf i32 lt 0');
  });

  it('bad arguments get a ScanError naming the argument and value', async () => {
    const ctx = await getTestContext();
    await rejectsWith(() => pack(ctx, new Uint32Array(3), new Uint8Array([1, 2, 0])), 'INVALID_ARGUMENT', /flags\[1\] = 2/);
    await rejectsWith(() => split(ctx, new Uint32Array(3), new Uint8Array(4)), 'INVALID_ARGUMENT', /flags/);
    await rejectsWith(() => packIf(ctx, new Uint32Array(3), { op: 'gte' as 'ge', value: 1 }), 'INVALID_ARGUMENT', /options\.op = "gte"/);
    await rejectsWith(() => packIf(ctx, new Uint32Array(3), { op: 'gt', value: -1 }), 'INVALID_ARGUMENT', /options\.value = -1/);
    await rejectsWith(() => packIf(ctx, new Int32Array(0), { op: 'gt', value: 0.5 }), 'INVALID_ARGUMENT', /options\.value = 0\.5/);
    await rejectsWith(
      () => packIf(ctx, new Float32Array(2), { op: 'gt', value: 0.1 }),
      'INVALID_ARGUMENT',
      /not exactly representable as f32/,
    );
    await rejectsWith(() => packIf(ctx, new Float32Array(2), undefined as never), 'INVALID_ARGUMENT', /options = undefined/);
    await rejectsWith(
      () => packIf(ctx, new Float32Array(2), { op: 'gt', value: 0, flags: 'u8' } as never),
      'INVALID_ARGUMENT',
      /options\.flags/,
    );
    expect(() => cpu.packIf(new Uint32Array(1), { op: 'eq', value: 2 ** 32 })).toThrow(/options\.value = 4294967296/);
    expect(() => createPackPlan(ctx, { flags: 'u16' as 'u8' })).toThrow(/options\.flags = "u16"/);
    expect(() => createSplitPlan(ctx, { algorithm: 'blelloch' as 'auto' })).toThrow(/options\.algorithm = "blelloch"/);
    expect(() => createPackPlan(ctx, { flags: 'u8', algorithm: 'scan-then-scatter' })).toThrow(/u8.*single-pass/);
    expect(() => createPackIfPlan(ctx, { op: 'gt' } as never)).toThrow(/options\.value = undefined/);
    expect(() => createDispatchArgsPlan(ctx, { elementsPerWorkgroup: 0 })).toThrow(/elementsPerWorkgroup = 0/);
    // The unstable tuning: one object, checked key by key; its keys are no top-level options.
    expect(() => createPackPlan(ctx, { tuning: { elementsPerThread: 33 } })).toThrow(
      /^options\.tuning\.elementsPerThread = 33: expected an integer in \[1, 32\]$/,
    );
    expect(() => createSplitPlan(ctx, { tuning: { maxSpin: 0 } })).toThrow(/^options\.tuning\.maxSpin = 0: expected a positive integer$/);
    expect(() => createPackIfPlan(ctx, { op: 'gt', value: 0, tuning: { forceFallback: 1 as never } })).toThrow(
      /^options\.tuning\.forceFallback = 1: expected true or false$/,
    );
    expect(() => createPackPlan(ctx, { algorithm: 'scan-then-scatter', tuning: { elementsPerTread: 8 } as never })).toThrow(
      /^options\.tuning\.elementsPerTread = 8: unknown option/,
    );
    expect(() => createPackPlan(ctx, { elementsPerThread: 8 } as never)).toThrow(/^options\.elementsPerThread = 8: unknown option/);
    const plan = createPackPlan(ctx, { flags: 'u8' });
    const encoder = ctx.device.createCommandEncoder();
    const big = poisoned(ctx, 64);
    // u8 flags are read a word at a time: 9 flags need 12 bytes.
    const tiny = ctx.device.createBuffer({ size: 8, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
    expect(() =>
      plan.encode(encoder, { input: big, flags: tiny, output: poisoned(ctx, 64), count: 9, packedCount: poisoned(ctx, 4) }),
    ).toThrow(/args\.flags has 8 bytes, needs 12/);
    expect(() =>
      plan.encode(encoder, { input: big, flags: poisoned(ctx, 16), output: big, count: 4, packedCount: poisoned(ctx, 4) }),
    ).toThrow(/same buffer/);
    plan.destroy();
    tiny.destroy();
  });

  it('count 0 writes a zero count and nothing else', async () => {
    const ctx = await getTestContext();
    const plan = createSplitPlan(ctx, { flags: 'u8' });
    const [[out, count]] = (await runBatch(ctx, [
      {
        record(encoder) {
          const output = poisoned(ctx, 16);
          const falseCount = poisoned(ctx, 4);
          plan.encode(encoder, { input: poisoned(ctx, 16), flags: poisoned(ctx, 16), output, count: 0, falseCount });
          return [
            { buffer: output, bytes: 16 },
            { buffer: falseCount, bytes: 4 },
          ];
        },
      },
    ])) as [[ArrayBuffer, ArrayBuffer]];
    plan.destroy();
    expect(new Uint32Array(count)[0]).toBe(0);
    expect([...new Uint32Array(out)].every(isPoison)).toBe(true);
  });
});
