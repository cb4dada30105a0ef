// The histogram against the CPU reference: every sample type, even bins through each binning
// (shift, exact 64-bit quotient, f32) and edges (in workgroup and in global memory), the private
// path (one window and several) and the global path, sizes that are no multiple of 4 and one past
// 2^16, NaN, ±0, ±∞ and out-of-range samples, accumulation, and every error. Histograms are
// poisoned before each run: the plan must clear them.
import { expectEqualArrays, getTestContext, poisoned, randomData } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import type { ScanContext } from '../src/context.js';
import * as cpu from '../src/cpu/index.js';
import type { ScanTypedArray } from '../src/element-types.js';
import { ScanError } from '../src/errors.js';
import { binOf, type HistogramOptions, histogramBinning } from '../src/histogram-binning.js';
import { histogram } from '../src/ops/histogram.js';
import { createHistogramPlan, type HistogramTuning } from '../src/plans/histogram-plan.js';
import { bufferOf, runBatch } from './harness.js';

interface Case {
  readonly samples: ScanTypedArray;
  readonly options: HistogramOptions;
  readonly tuning?: HistogramTuning;
  readonly label: string;
}

function typeOf(a: ScanTypedArray): 'u32' | 'i32' | 'f32' {
  return a instanceof Uint32Array ? 'u32' : a instanceof Int32Array ? 'i32' : 'f32';
}

/** Runs every case through its own plan in one submission and compares with the CPU reference. */
async function check(ctx: ScanContext, cases: readonly Case[]): Promise<void> {
  const plans = cases.map((c) => createHistogramPlan(ctx, { type: typeOf(c.samples), ...c.options, tuning: c.tuning }));
  await Promise.all(plans.map((p) => p.ready));
  const results = await runBatch(
    ctx,
    cases.map((c, i) => ({
      record(encoder) {
        const plan = plans[i]!;
        const histogram = poisoned(ctx, 4 * plan.bins);
        plan.encode(encoder, { samples: bufferOf(ctx, c.samples), histogram, count: c.samples.length });
        return [{ buffer: histogram, bytes: 4 * plan.bins }];
      },
    })),
    plans,
  );
  cases.forEach((c, i) => {
    expectEqualArrays(
      new Uint32Array(results[i]![0]!),
      cpu.histogram(c.samples, c.options),
      `${c.label} ${JSON.stringify(c.tuning ?? {})}`,
    );
  });
}

const SIZES = [0, 1, 2, 3, 5, 1023, 2049, 7 * 1024 + 3];

/** f32 samples with NaN, ±0, ±∞, the bounds and values just around them mixed in. */
function f32Samples(n: number, seed: number): Float32Array {
  const s = randomData('f32', n, seed);
  const special = [Number.NaN, -0, 0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1, 1, 0.5, Math.fround(1 - 2 ** -24), 3e38];
  for (let i = 0; i < n; i += 7) s[i] = special[(i / 7) % special.length]!;
  return s;
}

/** Even-bin cases of every type at `sizes` (one binning per case, cycling). */
function evenCases(sizes: readonly number[], seed: number): Case[] {
  const cases: Case[] = [];
  for (const [j, n] of sizes.entries()) {
    const u = randomData('u32', n, seed + n);
    const small = randomData('u32', n, seed + n + 1, 'small');
    const i = randomData('i32', n, seed + n + 2);
    if (n > 4) i.set([-0x80000000, 0x7fffffff, -1, 0]);
    if (n > 4) u.set([0, 0xffffffff, 999, 1000]);
    const f = f32Samples(n, seed + n + 3);
    const pick = <T>(xs: readonly T[]): T => xs[j % xs.length]!;
    cases.push(
      {
        samples: u,
        options: pick([
          { bins: 256, range: [0, 2 ** 32] },
          { bins: 100, range: [1000, 3e9] },
        ]),
        label: `u32 n=${n}`,
      },
      { samples: small, options: { bins: 16, range: [0, 16] }, label: `u32 small n=${n}` },
      {
        samples: i,
        options: pick([
          { bins: 256, range: [-(2 ** 31), 2 ** 31] },
          { bins: 77, range: [-1e9, 1.5e9] },
        ]),
        label: `i32 n=${n}`,
      },
      {
        samples: f,
        options: pick([
          { bins: 100, range: [-1, 1] },
          { bins: 7, range: [-0.3, 0.9] },
          { bins: 1, range: [0, 1] },
        ]),
        label: `f32 n=${n}`,
      },
    );
  }
  return cases;
}

describe('histogram CPU reference', () => {
  it('computes the exact integer bin (against BigInt)', () => {
    const b = histogramBinning('u32', { bins: 977, range: [3, 2 ** 32] });
    const bb = histogramBinning('i32', { bins: (1 << 20) - 1, range: [-(2 ** 31), 2 ** 31 - 5] });
    const words = randomData('u32', 20000, 4);
    words.set([3, 2, 0xffffffff, 0xfffffffe, 4]);
    for (const w of words) {
      const d = BigInt(w) - 3n;
      const want = d < 0n ? -1 : Number((d * 977n) / (2n ** 32n - 3n));
      expect(binOf('u32', b, w), `u32 ${w}`).toBe(want);
      const x = BigInt(w | 0) + 2n ** 31n;
      const width = 2n ** 32n - 5n;
      const wantI = x >= width ? -1 : Number((x * BigInt((1 << 20) - 1)) / width);
      expect(binOf('i32', bb, w), `i32 ${w | 0}`).toBe(wantI);
    }
  });

  it('bins the documented examples', () => {
    expect([...cpu.histogram(new Float32Array([0.5, 1.5, 1.7, 9]), { bins: 4, range: [0, 4] })]).toEqual([1, 2, 0, 0]);
    expect([...cpu.histogram(new Uint32Array([1, 5, 20]), { edges: new Uint32Array([0, 4, 16]) })]).toEqual([1, 1]);
    expect([...cpu.histogram(new Float32Array([-0, 0, Number.NaN, -1e-3]), { edges: new Float32Array([0, 1]) })]).toEqual([2]);
    expect([...cpu.histogram(new Float32Array([]), { bins: 3, range: [0, 1] })]).toEqual([0, 0, 0]);
  });
});

for (const subgroups of [true, false]) {
  describe(`histogram (${subgroups ? 'subgroups' : 'no subgroups'})`, () => {
    it('even bins: every type and binning, edge sizes', async () => {
      const ctx = await getTestContext({ subgroups });
      await check(ctx, evenCases(SIZES, subgroups ? 1 : 2));
    });

    it('edges in workgroup and in global memory', async () => {
      const ctx = await getTestContext({ subgroups });
      const cases: Case[] = [];
      // Edges in global memory once, for f32 (the search is the same code), in workgroup memory in both modes.
      for (const edges of subgroups ? (['workgroup', 'global'] as const) : (['workgroup'] as const)) {
        for (const n of [3, 1029, 5000]) {
          const f = f32Samples(n, n);
          const e = new Float64Array([-1, -0.5, -1e-3, 0, 1e-3, 0.25, 0.5, 0.75, 1 - 2 ** -24].map(Math.fround));
          cases.push({ samples: f, options: { edges: e }, tuning: { edges }, label: `f32 edges n=${n}` });
          if (edges === 'global') continue;
          const i = randomData('i32', n, n + 1, 'small');
          cases.push({
            samples: i,
            options: { edges: new Int32Array([-8, -3, 0, 1, 2, 7]) },
            tuning: { edges },
            label: `i32 edges n=${n}`,
          });
          const u = randomData('u32', n, n + 2);
          const ue = Uint32Array.from({ length: 201 }, (_, k) => k * 21_000_000 + (k === 200 ? 1 : 0));
          cases.push({ samples: u, options: { edges: ue }, tuning: { edges }, label: `u32 200 edges n=${n}` });
        }
      }
      await check(ctx, cases);
    });

    it('all-equal and sorted samples, and one size past 2^16', async () => {
      const ctx = await getTestContext({ subgroups });
      const big = (1 << 16) + 4093;
      await check(ctx, [
        { samples: new Uint32Array(5003).fill(77), options: { bins: 256, range: [0, 256] }, label: 'all equal' },
        { samples: new Float32Array(4099).fill(-0), options: { bins: 3, range: [-1, 1] }, label: 'all -0' },
        { samples: randomData('i32', 6001, 3, 'sorted'), options: { bins: 64, range: [-(2 ** 31), 2 ** 31] }, label: 'sorted' },
        { samples: randomData('u32', big, 5), options: { bins: 256, range: [0, 2 ** 32] }, label: `u32 n=${big}` },
        { samples: f32Samples(big, 6), options: { bins: 1000, range: [-1, 1] }, tuning: { path: 'global' }, label: `f32 global n=${big}` },
      ]);
    });
  });
}

describe('histogram paths', () => {
  // The paths differ in where counts go, not in the subgroup aggregation: one device mode.
  it('private windows and the global path, around the workgroup-memory limit', async () => {
    const ctx = await getTestContext();
    const words = Math.floor(ctx.caps.limits.maxComputeWorkgroupStorageSize / 4);
    const n = 9001;
    const u = randomData('u32', n, 31);
    const cases: Case[] = [];
    for (const bins of [words, words + 1]) {
      const options = { bins, range: [0, 2 ** 32] as const };
      cases.push({ samples: u, options, label: `bins=${bins} default` });
      cases.push({ samples: u, options, tuning: { path: 'global' }, label: `bins=${bins}` });
    }
    cases.push({
      samples: u,
      options: { bins: 300, range: [5, 2 ** 32 - 7] },
      tuning: { privateBins: 64, copies: 2, maxWindows: 8 },
      label: '5 windows',
    });
    cases.push({
      samples: u,
      options: { bins: 256, range: [0, 2 ** 32] },
      tuning: { workgroups: 3 },
      label: '3 workgroups, many rounds',
    });
    cases.push({ samples: u, options: { bins: 1 << 20, range: [0, 2 ** 32] }, label: '2^20 bins (global by default)' });
    const f = f32Samples(n, 32);
    cases.push({ samples: f, options: { bins: 5000, range: [-1, 1] }, tuning: { path: 'global' }, label: 'f32 global' });
    // A range wider than the largest f32: x − lower overflows to +∞ near the top.
    const wide = Float32Array.from([-3e38, 3e38, 3.4e38, -3.4e38, 1e38, 0, -0, Number.NaN, 2e38, 3.3e38]);
    cases.push({ samples: wide, options: { bins: 256, range: [-3.4e38, 3.4e38] }, label: 'f32 range past the largest f32' });
    await check(ctx, cases);
  });
});

describe('histogram at the array level', () => {
  it('bins typed arrays, n = 0 included, and leaves the samples alone', async () => {
    const ctx = await getTestContext();
    const f = f32Samples(1001, 9);
    const copy = f.slice();
    expectEqualArrays(await histogram(ctx, f, { bins: 10, range: [-1, 1] }), cpu.histogram(f, { bins: 10, range: [-1, 1] }), 'f32');
    expect(new Uint32Array(copy.buffer)).toEqual(new Uint32Array(f.buffer));
    const i = new Int32Array([-5, 0, 3, 40]);
    expect([...(await histogram(ctx, i, { edges: new Int32Array([-10, 0, 10]) }))]).toEqual([1, 2]);
    expect([...(await histogram(ctx, new Uint32Array(0), { bins: 3, range: [0, 3] }))]).toEqual([0, 0, 0]);
  });

  it('accumulates into the histogram when asked', async () => {
    const ctx = await getTestContext();
    const plan = createHistogramPlan(ctx, { bins: 8, range: [0, 16], accumulate: true });
    const a = randomData('u32', 1001, 1, 'small');
    const b = randomData('u32', 77, 2, 'small');
    const start = Uint32Array.from({ length: 8 }, (_, k) => k * 1000);
    const results = await runBatch(
      ctx,
      [
        {
          record(encoder) {
            const histogram = bufferOf(ctx, start);
            plan.encode(encoder, { samples: bufferOf(ctx, a), histogram, count: a.length });
            plan.encode(encoder, { samples: bufferOf(ctx, b), histogram, count: b.length });
            return [{ buffer: histogram, bytes: 32 }];
          },
        },
      ],
      [plan],
    );
    const out = results[0]![0]!;
    const want = cpu.histogram(a, { bins: 8, range: [0, 16] });
    const wantB = cpu.histogram(b, { bins: 8, range: [0, 16] });
    expect([...new Uint32Array(out)]).toEqual([...want].map((c, k) => c + wantB[k]! + start[k]!));
  });

  it('takes a count the GPU wrote (countBuffer), at most maxCount', async () => {
    const ctx = await getTestContext();
    const samples = randomData('u32', 5000, 12);
    const options = { bins: 100, range: [0, 2 ** 32] } as const;
    const plan = createHistogramPlan(ctx, { ...options, maxCount: 5000 });
    await plan.ready;
    const results = await runBatch(
      ctx,
      [3001, 9999, 0].map((gpuCount) => ({
        record(encoder: GPUCommandEncoder) {
          const histogram = poisoned(ctx, 400);
          const countBuffer = bufferOf(ctx, new Uint32Array([7, 7, gpuCount, 7]));
          plan.encode(encoder, { samples: bufferOf(ctx, samples), histogram, countBuffer, countOffset: 8 });
          return [{ buffer: histogram, bytes: 400 }];
        },
      })),
      [plan],
    );
    [3001, 5000, 0].forEach((n, i) => {
      expectEqualArrays(new Uint32Array(results[i]![0]!), cpu.histogram(samples.subarray(0, n), options), `GPU count ${n}`);
    });
    const other = createHistogramPlan(ctx, options);
    const encoder = ctx.device.createCommandEncoder();
    const b = bufferOf(ctx, new Uint32Array(4));
    expect(() => other.encode(encoder, { samples: b, histogram: poisoned(ctx, 400), countBuffer: b })).toThrow(/maxCount/);
    other.destroy();
  });

  it('rejects bad options, naming them', async () => {
    const ctx = await getTestContext();
    const u = new Uint32Array(4);
    const f = new Float32Array(4);
    const cases: [() => Promise<unknown>, string, string][] = [
      [() => histogram(ctx, u, { bins: 0, range: [0, 1] }), 'INVALID_ARGUMENT', 'options.bins = 0'],
      [() => histogram(ctx, u, { bins: 2.5, range: [0, 1] }), 'INVALID_ARGUMENT', 'options.bins'],
      [() => histogram(ctx, u, { bins: 2 ** 20 + 1, range: [0, 1] }), 'TOO_LARGE', 'options.bins = 1048577'],
      [() => histogram(ctx, u, { bins: 4, range: [5, 5] }), 'INVALID_ARGUMENT', 'options.range'],
      [() => histogram(ctx, u, { bins: 4, range: [0, 2 ** 32 + 1] }), 'INVALID_ARGUMENT', 'options.range'],
      [() => histogram(ctx, u, { bins: 4, range: [0.5, 3] }), 'INVALID_ARGUMENT', 'options.range'],
      [() => histogram(ctx, f, { bins: 4, range: [0, Number.POSITIVE_INFINITY] }), 'INVALID_ARGUMENT', 'options.range'],
      [() => histogram(ctx, f, { bins: 4, range: [1, Number.NaN] }), 'INVALID_ARGUMENT', 'options.range'],
      [() => histogram(ctx, f, { bins: 4, range: [1, 1 + 1e-9] }), 'INVALID_ARGUMENT', 'options.range'],
      [() => histogram(ctx, f, { bins: 4 } as unknown as HistogramOptions), 'INVALID_ARGUMENT', 'options.range'],
      [() => histogram(ctx, f, { edges: new Float32Array([1]) }), 'INVALID_ARGUMENT', 'options.edges'],
      [() => histogram(ctx, f, { edges: new Float32Array([0, 1, 1]) }), 'INVALID_ARGUMENT', 'options.edges[2] = 1'],
      [() => histogram(ctx, f, { edges: new Float32Array([-0, 0]) }), 'INVALID_ARGUMENT', 'options.edges[1]'],
      [() => histogram(ctx, f, { edges: new Float32Array([0, Number.NaN]) }), 'INVALID_ARGUMENT', 'options.edges[1]'],
      [() => histogram(ctx, f, { edges: new Float64Array([0, 0.1]) }), 'INVALID_ARGUMENT', 'options.edges[1] = 0.1'],
      [() => histogram(ctx, u, { edges: new Int32Array([-1, 3]) }), 'INVALID_ARGUMENT', 'options.edges[0] = -1'],
      [() => histogram(ctx, u, { edges: [0, 1] as unknown as Uint32Array }), 'INVALID_ARGUMENT', 'options.edges'],
      [
        () => histogram(ctx, u, { edges: new Uint32Array([0, 1]), bins: 2 } as unknown as HistogramOptions),
        'INVALID_ARGUMENT',
        'options.edges',
      ],
      [() => histogram(ctx, [1, 2] as unknown as Uint32Array, { bins: 2, range: [0, 2] }), 'INVALID_ARGUMENT', 'samples'],
      [() => histogram(ctx, u, undefined as unknown as HistogramOptions), 'INVALID_ARGUMENT', 'options'],
    ];
    for (const [run, code, text] of cases) {
      const error = await run().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, text).toBeInstanceOf(ScanError);
      expect((error as ScanError).code, text).toBe(code);
      expect((error as ScanError).message, text).toContain(text);
    }
    expect(() => createHistogramPlan(ctx, { bins: 4, range: [0, 4], tuning: { path: 'fast' as 'global' } })).toThrow(/options.tuning.path/);
    expect(() => createHistogramPlan(ctx, { type: 'u64' as 'u32', bins: 4, range: [0, 4] })).toThrow(/options.type/);
    const plan = createHistogramPlan(ctx, { bins: 4, range: [0, 4] });
    const samples = bufferOf(ctx, new Uint32Array(8));
    const small = ctx.device.createBuffer({ size: 8, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    const noCopy = ctx.device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE });
    const encoder = ctx.device.createCommandEncoder();
    expect(() => plan.encode(encoder, { samples, histogram: small, count: 8 })).toThrow(/args.histogram has 8 bytes/);
    expect(() => plan.encode(encoder, { samples, histogram: noCopy, count: 8 })).toThrow(/COPY_DST/);
    expect(() => plan.encode(encoder, { samples, histogram: noCopy, count: 9 })).toThrow(/args.samples/);
    plan.destroy();
    for (const b of [samples, small, noCopy]) b.destroy();
  });
});
