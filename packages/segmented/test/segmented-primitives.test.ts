// Segmented distribute, enumerate and split-and-segment on the GPU against the CPU references:
// edge sizes, segment lengths (all 1, ~3, ~30, ~3000, one segment), every element type (f32 NaN
// payloads and -0 bit-exact), flag densities 0 / 0.5 / 1, both directions, with and without
// subgroups, chunked, poisoned outputs; the paper's examples; argument validation.
import { ELEMENT_TYPES, type ElementType, type Plan, type ScanContext, ScanError, type ScanTypedArray } from '@scan/core';
import { expectEqualArrays, getTestContext, poisonBuffer, randomData, randomFlags, randomSegmentFlags } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { segmentedDistribute, segmentedEnumerate, splitAndSegment } from '../src/ops/segmented-primitives.js';
import {
  createSegmentedDistributePlan,
  createSegmentedEnumeratePlan,
  createSplitAndSegmentPlan,
} from '../src/plans/segmented-primitives.js';
import { packedFlagWords } from '../src/types.js';

const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
const SIZES = [0, 1, 2, 3, 4, 5, 33, 1025, 4097, 3 * 4096 + 7];
const BIG = (1 << 20) + 3;
/** Mean segment lengths: 1 = every element a head, 1e9 = one segment. */
const MEANS = [1, 3, 30, 3000, 1e9];
const DENSITIES = [0, 0.5, 1];

/** The 32-bit words of a typed array, for bit-exact comparison (NaN payloads, -0). */
const wordsOf = (a: ScanTypedArray): Uint32Array => new Uint32Array(a.buffer, a.byteOffset, a.length);

/** Data of `type`; f32 gets NaNs with payloads, signalling NaNs, ±0 and infinities mixed in. */
function dataOf(type: ElementType, n: number, seed: number): ScanTypedArray {
  const data = randomData(type, n, seed, type === 'f32' ? 'nan' : 'random');
  if (type === 'f32') {
    const special = [0x80000000, 0x7fc00001, 0xffc12345, 0x7f800001, 0xff800000, 0x00000000];
    const words = wordsOf(data);
    for (let i = 0; i < n; i += 3) words[i] = special[(i / 3) % special.length]!;
  }
  return data;
}

/** One case of a batch: the words of each input buffer, the byte size of each output buffer. */
interface Case {
  count: number;
  inputs: Record<string, Uint32Array>;
  outputs: Record<string, number>;
}

/**
 * Encodes every case through one plan into one encoder (several counts in one submission, so
 * scratch reuse and growth are exercised), outputs poisoned first; returns each output as words.
 */
async function runBatch<Args>(ctx: ScanContext, plan: Plan<Args>, cases: Case[]): Promise<Record<string, Uint32Array>[]> {
  const device = ctx.device;
  const owned: GPUBuffer[] = [];
  const make = (bytes: number) => {
    const b = device.createBuffer({ size: Math.max(16, Math.ceil(bytes / 16) * 16), usage: USAGE });
    owned.push(b);
    return b;
  };
  device.pushErrorScope('validation');
  const encoder = device.createCommandEncoder();
  const reads: Record<string, { staging: GPUBuffer; bytes: number }>[] = [];
  for (const c of cases) {
    const args: Record<string, GPUBuffer | number> = { count: c.count };
    for (const [name, words] of Object.entries(c.inputs)) {
      const b = make(words.byteLength);
      if (words.byteLength > 0) device.queue.writeBuffer(b, 0, words.buffer, words.byteOffset, words.byteLength);
      args[name] = b;
    }
    const read: Record<string, { staging: GPUBuffer; bytes: number }> = {};
    for (const [name, bytes] of Object.entries(c.outputs)) {
      const b = make(bytes);
      poisonBuffer(ctx, b, b.size);
      args[name] = b;
      const staging = device.createBuffer({ size: Math.max(16, bytes), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      read[name] = { staging, bytes };
    }
    plan.encode(encoder, args as Args);
    for (const [name, { staging, bytes }] of Object.entries(read)) {
      if (bytes > 0) encoder.copyBufferToBuffer(args[name] as GPUBuffer, 0, staging, 0, bytes);
    }
    reads.push(read);
  }
  device.queue.submit([encoder.finish()]);
  const error = await device.popErrorScope();
  if (error) throw new Error(error.message);
  const out: Record<string, Uint32Array>[] = [];
  for (const read of reads) {
    const words: Record<string, Uint32Array> = {};
    for (const [name, { staging, bytes }] of Object.entries(read)) {
      await staging.mapAsync(GPUMapMode.READ);
      words[name] = new Uint32Array(staging.getMappedRange().slice(0, bytes));
      staging.destroy();
    }
    out.push(words);
  }
  plan.destroy();
  for (const b of owned) b.destroy();
  return out;
}

/** Sizes × segment lengths (the big size once), each with its head flags. */
function segmentCases(withBig: boolean): { n: number; mean: number; heads: Uint8Array; seed: number }[] {
  const cases = SIZES.flatMap((n, i) => MEANS.map((mean, j) => ({ n, mean, seed: 100 * i + j })));
  if (withBig) cases.push({ n: BIG, mean: 30, seed: 9999 });
  return cases.map((c) => ({ ...c, heads: randomSegmentFlags(c.n, c.mean, c.seed) }));
}

const label = (what: string, c: { n: number; mean: number }) => `${what} n=${c.n} mean=${c.mean}`;

for (const subgroups of [true, false]) {
  describe(`segmented primitives (${subgroups ? 'subgroups' : 'workgroup memory'})`, () => {
    it('distribute: every type, both directions, bit-exact (NaN payloads, -0)', async () => {
      const ctx = await getTestContext({ subgroups });
      for (const type of ELEMENT_TYPES) {
        for (const backward of [false, true]) {
          const cases = segmentCases(type === 'f32' && !backward).map((c) => ({ ...c, data: dataOf(type, c.n, c.seed + 7) }));
          const got = await runBatch(
            ctx,
            createSegmentedDistributePlan(ctx, { type, backward }),
            cases.map((c) => ({
              count: c.n,
              inputs: { input: wordsOf(c.data), headBits: cpu.packHeadFlags(c.heads) },
              outputs: { output: 4 * c.n },
            })),
          );
          cases.forEach((c, i) => {
            const expected = wordsOf(cpu.segmentedDistribute(c.data, c.heads, { backward }));
            expectEqualArrays(got[i]!.output!, expected, label(`distribute ${type} ${backward ? 'bwd' : 'fwd'}`, c));
          });
        }
      }
    });

    it('enumerate: flag densities 0, 0.5, 1, both directions', async () => {
      const ctx = await getTestContext({ subgroups });
      for (const backward of [false, true]) {
        // Past 2^20 at density 0.5 only; densities 0 and 1 run at every other size.
        const cases = segmentCases(backward).flatMap((c) =>
          DENSITIES.filter((d) => c.n !== BIG || d === 0.5).map((d) => ({ ...c, density: d, flags: randomFlags(c.n, c.seed + 3, d) })),
        );
        const got = await runBatch(
          ctx,
          createSegmentedEnumeratePlan(ctx, { backward }),
          cases.map((c) => ({
            count: c.n,
            inputs: { flags: c.flags, headBits: cpu.packHeadFlags(c.heads) },
            outputs: { output: 4 * c.n },
          })),
        );
        cases.forEach((c, i) =>
          expectEqualArrays(
            got[i]!.output!,
            cpu.segmentedEnumerate(c.flags, c.heads, { backward }),
            label(`enumerate ${backward ? 'bwd' : 'fwd'} density=${c.density}`, c),
          ),
        );
      }
    });

    it('split-and-segment: every type, flag densities 0, 0.5, 1; data and head bits', async () => {
      const ctx = await getTestContext({ subgroups });
      for (const type of ELEMENT_TYPES) {
        // Past 2^20 at density 0.5 only; densities 0 and 1 run at every other size.
        // The kernels move raw words whatever the type: u32 and f32 (NaN payloads, -0) run every
        // size, i32 one size of each kind (a few elements, past one tile, several tiles).
        const cases = segmentCases(type === 'u32')
          .filter((c) => type !== 'i32' || [5, 33, 4097, 3 * 4096 + 7].includes(c.n))
          .flatMap((c) =>
            DENSITIES.filter((d) => c.n !== BIG || d === 0.5).map((d) => ({
              ...c,
              density: d,
              data: dataOf(type, c.n, c.seed + 1),
              flags: randomFlags(c.n, c.seed + 5, d),
            })),
          );
        const got = await runBatch(
          ctx,
          createSplitAndSegmentPlan(ctx, { type }),
          cases.map((c) => ({
            count: c.n,
            inputs: { input: wordsOf(c.data), flags: c.flags, headBits: cpu.packHeadFlags(c.heads) },
            outputs: { output: 4 * c.n, outputHeadBits: 4 * packedFlagWords(c.n) },
          })),
        );
        cases.forEach((c, i) => {
          const expected = cpu.splitAndSegment(c.data, c.flags, c.heads);
          const what = label(`split-and-segment ${type} density=${c.density}`, c);
          expectEqualArrays(got[i]!.output!, wordsOf(expected.output), what);
          // Every output word is written: bits past the end are 0, not poison.
          expectEqualArrays(got[i]!.outputHeadBits!, cpu.packHeadFlags(expected.headFlags), `${what} head bits`);
        });
      }
    });
  });
}

describe('segmented primitives: chunks, tree scans, plan reuse', () => {
  it('distribute and enumerate in chunks of 4096 and over the tree scan; a plan reused across encodes', async () => {
    const ctx = await getTestContext();
    const sizes = [20_003, 8192, 4097, 5];
    for (const extra of [{ maxChunkElements: 4096 }, { algorithm: 'tree' as const }]) {
      for (const backward of [false, true]) {
        const cases = sizes.flatMap((n) =>
          [3, 3000, 1e9].map((mean) => ({ n, mean, heads: randomSegmentFlags(n, mean, n + mean), data: dataOf('f32', n, n) })),
        );
        const dist = await runBatch(
          ctx,
          createSegmentedDistributePlan(ctx, { type: 'f32', backward, ...extra }),
          cases.map((c) => ({
            count: c.n,
            inputs: { input: wordsOf(c.data), headBits: cpu.packHeadFlags(c.heads) },
            outputs: { output: 4 * c.n },
          })),
        );
        const flags = cases.map((c) => randomFlags(c.n, c.n + 1, 0.5));
        const enumerated = await runBatch(
          ctx,
          createSegmentedEnumeratePlan(ctx, { backward, ...extra }),
          cases.map((c, i) => ({
            count: c.n,
            inputs: { flags: flags[i]!, headBits: cpu.packHeadFlags(c.heads) },
            outputs: { output: 4 * c.n },
          })),
        );
        cases.forEach((c, i) => {
          const what = label(`${JSON.stringify(extra)} ${backward ? 'bwd' : 'fwd'}`, c);
          expectEqualArrays(dist[i]!.output!, wordsOf(cpu.segmentedDistribute(c.data, c.heads, { backward })), `distribute ${what}`);
          expectEqualArrays(enumerated[i]!.output!, cpu.segmentedEnumerate(flags[i]!, c.heads, { backward }), `enumerate ${what}`);
        });
      }
    }
    // Split over the tree scans, and head bits with junk past the end and element 0's bit clear.
    const n = 1000;
    const heads = randomSegmentFlags(n, 30, 5);
    const bits = cpu.packHeadFlags(heads);
    bits[0]! &= ~1;
    bits[bits.length - 1]! |= 0xff000000;
    const data = dataOf('i32', n, 3);
    const f = randomFlags(n, 4, 0.5);
    const [got] = await runBatch(ctx, createSplitAndSegmentPlan(ctx, { type: 'i32', algorithm: 'tree', maxCount: n }), [
      { count: n, inputs: { input: wordsOf(data), flags: f, headBits: bits }, outputs: { output: 4 * n, outputHeadBits: 4 * bits.length } },
    ]);
    const expected = cpu.splitAndSegment(data, f, heads);
    expectEqualArrays(got!.output!, wordsOf(expected.output), 'split tree');
    expectEqualArrays(got!.outputHeadBits!, cpu.packHeadFlags(expected.headFlags), 'split tree head bits');
  });
});

describe('segmented primitives (array level)', () => {
  it("matches the paper's examples and the references' examples", async () => {
    const ctx = await getTestContext();
    // distribute([a b c][d e]) = [a a a][d d], with a..e = 1..5.
    const heads = new Uint8Array([1, 0, 0, 1, 0]);
    expect([...(await segmentedDistribute(ctx, new Uint32Array([1, 2, 3, 4, 5]), heads))]).toEqual([1, 1, 1, 4, 4]);
    expect([...(await segmentedDistribute(ctx, new Uint32Array([1, 2, 3, 4, 5]), heads, { backward: true }))]).toEqual([3, 3, 3, 5, 5]);
    const floats = await segmentedDistribute(ctx, new Float32Array([-0, 1, Number.NaN, 2]), new Uint32Array([1, 0, 1, 0]));
    expect(floats).toBeInstanceOf(Float32Array);
    expect(Object.is(floats[1], -0)).toBe(true);
    expect(Number.isNaN(floats[3])).toBe(true);
    // enumerate([t f f t f t t]), cut into [t f f][t f t t].
    const tf = new Uint8Array([1, 0, 0, 1, 0, 1, 1]);
    const cut = new Uint8Array([1, 0, 0, 1, 0, 0, 0]);
    expect([...(await segmentedEnumerate(ctx, tf, cut))]).toEqual([0, 1, 1, 0, 1, 1, 2]);
    expect([...(await segmentedEnumerate(ctx, Uint32Array.from(tf), cut, { backward: true }))]).toEqual([0, 0, 0, 2, 2, 1, 0]);
    // split-and-segment([at bf ct][df et ff]) = [bf][at ct][df ff][et], with a..f = 1..6.
    const split = await splitAndSegment(
      ctx,
      new Uint32Array([1, 2, 3, 4, 5, 6]),
      new Uint8Array([1, 0, 1, 0, 1, 0]),
      new Uint8Array([1, 0, 0, 1, 0, 0]),
    );
    expect(split.output).toBeInstanceOf(Uint32Array);
    expect([...split.output]).toEqual([2, 1, 3, 4, 6, 5]);
    expect(split.headFlags).toBeInstanceOf(Uint8Array);
    expect([...split.headFlags]).toEqual([1, 1, 0, 1, 0, 1]);
    // Head flags come back in the input's array type; a 0 first head flag still starts a segment.
    const split32 = await splitAndSegment(ctx, new Float32Array([1, 2, 3]), new Uint32Array([1, 1, 0]), new Uint32Array([0, 0, 0]));
    expect(split32.headFlags).toBeInstanceOf(Uint32Array);
    expect([...split32.output]).toEqual([3, 1, 2]);
    expect([...split32.headFlags]).toEqual([1, 1, 0]);
  });

  it('matches the references on random data, Uint8 and Uint32 flags, and empty arrays', async () => {
    const ctx = await getTestContext();
    const n = 5000;
    const heads = randomSegmentFlags(n, 10, 1);
    const heads32 = Uint32Array.from(heads);
    const flags = Uint8Array.from(randomFlags(n, 2, 0.3));
    const data = dataOf('f32', n, 3) as Float32Array;
    expectEqualArrays(wordsOf(await segmentedDistribute(ctx, data, heads32)), wordsOf(cpu.segmentedDistribute(data, heads)), 'distribute');
    expectEqualArrays(
      await segmentedEnumerate(ctx, flags, heads32, { backward: true }),
      cpu.segmentedEnumerate(flags, heads, { backward: true }),
      'enumerate',
    );
    const got = await splitAndSegment(ctx, data, flags, heads32);
    const expected = cpu.splitAndSegment(data, flags, heads32);
    expectEqualArrays(wordsOf(got.output), wordsOf(expected.output), 'split-and-segment');
    expectEqualArrays(got.headFlags, expected.headFlags, 'split-and-segment head flags');
    expect((await segmentedDistribute(ctx, new Int32Array(0), new Uint8Array(0))).length).toBe(0);
    expect((await segmentedEnumerate(ctx, new Uint8Array(0), new Uint8Array(0))).length).toBe(0);
    const empty = await splitAndSegment(ctx, new Float32Array(0), new Uint8Array(0), new Uint32Array(0));
    expect(empty.output).toBeInstanceOf(Float32Array);
    expect(empty.headFlags).toBeInstanceOf(Uint32Array);
    expect(empty.headFlags.length).toBe(0);
  });

  it('rejects bad arguments with ScanErrors that name them', async () => {
    const ctx = await getTestContext();
    const data = new Uint32Array([1, 2, 3]);
    const ok = new Uint8Array([1, 0, 1]);
    const rejects = (p: Promise<unknown>, pattern: RegExp) => expect(p).rejects.toThrow(pattern);
    await rejects(segmentedDistribute(ctx, data, new Uint8Array(2)), /headFlags = Uint8Array\(2\)/);
    await rejects(segmentedDistribute(ctx, data, new Uint8Array([1, 2, 0])), /headFlags\[1\] = 2/);
    await rejects(segmentedDistribute(ctx, [1, 2, 3] as unknown as Uint32Array, ok), /data = Array\(3\)/);
    await rejects(segmentedDistribute(ctx, data, ok, { backwards: true } as never), /options\.backwards/);
    await rejects(segmentedEnumerate(ctx, new Uint32Array([0, 3, 1]), ok), /flags\[1\] = 3/);
    await rejects(segmentedEnumerate(ctx, new Uint32Array([0, 1]), ok), /headFlags = Uint8Array\(3\)/);
    await rejects(segmentedEnumerate(ctx, ok, ok, { backward: 1 } as never), /options\.backward/);
    await rejects(splitAndSegment(ctx, data, new Uint8Array(4), ok), /flags = Uint8Array\(4\)/);
    await rejects(splitAndSegment(ctx, data, ok, new Uint32Array([1, 0, 5])), /headFlags\[2\] = 5/);
    await expect(splitAndSegment(ctx, data, ok, new Uint8Array(1))).rejects.toBeInstanceOf(ScanError);

    // Buffer level.
    const b = (bytes: number, usage = USAGE) => ctx.device.createBuffer({ size: bytes, usage });
    const [input, headBits, output, outBits] = [b(16), b(16), b(16), b(16)];
    expect(() => createSegmentedDistributePlan(ctx, { type: 'f64' as never })).toThrow(/options\.type/);
    expect(() => createSegmentedEnumeratePlan(ctx, { inclusive: true } as never)).toThrow(/options\.inclusive/);
    expect(() => createSplitAndSegmentPlan(ctx, { algorithm: 'fast' as never })).toThrow(/options\.algorithm/);
    const dist = createSegmentedDistributePlan(ctx);
    const enc = ctx.device.createCommandEncoder();
    expect(() => dist.encode(enc, { input, headBits, output, count: 5 })).toThrow(/args\.input has 16 bytes, needs 20/);
    expect(() => dist.encode(enc, { input, headBits, output: input, count: 4 })).toThrow(/same buffer/);
    expect(() => dist.encode(enc, { input, headBits: undefined as never, output, count: 4 })).toThrow(/args\.headBits/);
    const noCopy = b(16, GPUBufferUsage.STORAGE);
    expect(() => dist.encode(enc, { input, headBits, output: noCopy, count: 3 })).toThrow(
      /segmented distribute plan: args\.output needs GPUBufferUsage\.COPY_DST/,
    );
    const en = createSegmentedEnumeratePlan(ctx);
    expect(() => en.encode(enc, { flags: noCopy, headBits, output, count: 3 })).toThrow(
      /segmented enumerate plan: args\.flags needs GPUBufferUsage\.COPY_SRC/,
    );
    expect(() => en.encode(enc, { flags: input, headBits, output, count: -1 })).toThrow(/args\.count/);
    const split = createSplitAndSegmentPlan(ctx);
    expect(() => split.encode(enc, { input, flags: output, headBits, output: outBits, outputHeadBits: outBits, count: 4 })).toThrow(
      /same buffer/,
    );
    // Past one binding: caught before anything touches the GPU (buffers are checked by shape).
    const huge = { size: 2 ** 40, usage: USAGE, destroy() {} } as unknown as GPUBuffer;
    const huge2 = { ...huge } as GPUBuffer;
    const count = ctx.caps.limits.maxStorageBufferBindingSize / 4 + 1;
    const bits = { size: 2 ** 40, usage: USAGE, destroy() {} } as unknown as GPUBuffer;
    const bits2 = { ...bits } as GPUBuffer;
    const bigOut = { ...huge } as GPUBuffer;
    expect(() => split.encode(enc, { input: huge, flags: huge2, headBits: bits, output: bigOut, outputHeadBits: bits2, count })).toThrow(
      /split-and-segment: count = \d+ is past one storage binding/,
    );
    for (const p of [dist, en, split]) p.destroy();
    expect(() => dist.encode(enc, { input, headBits, output, count: 4 })).toThrow(/destroyed/);
    for (const x of [input, headBits, output, outBits, noCopy]) x.destroy();
  });
});
