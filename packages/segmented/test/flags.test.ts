// GPU conversions between segment representations (pack head flags, head bits → offsets, offsets →
// head bits) against the CPU references: edge sizes, flag densities, u8 and u32 flags, chunked and
// not, poisoned outputs, with and without subgroups; and the array-level functions.
import { type ScanContext, ScanError } from '@scan/core';
import { createRng, expectEqualArrays, getTestContext, POISON_U32, poisonBuffer } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { headFlagsToOffsets, offsetsToHeadFlags, packHeadFlags } from '../src/ops/flags.js';
import { createHeadFlagsToOffsetsPlan, createOffsetsToHeadFlagsPlan, createPackHeadFlagsPlan } from '../src/plans/flag-plans.js';
import { packedFlagWords } from '../src/types.js';

const SIZES = [0, 1, 2, 31, 32, 33, 63, 64, 65, 1000, (1 << 20) + 3];
const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

type Density = 'first-only' | 'all' | 'random' | 'sparse';
const DENSITIES: readonly Density[] = ['first-only', 'all', 'random', 'sparse'];

/** Head flags of a density; 'first-only' leaves even element 0 at 0, which must still read as a head. */
function headsOf(n: number, density: Density, seed: number): Uint8Array {
  const heads = new Uint8Array(n);
  if (density === 'all') return heads.fill(1);
  if (density === 'first-only') return heads;
  const rng = createRng(seed);
  const p = density === 'random' ? 0.5 : 0.01;
  for (let i = 0; i < n; i++) heads[i] = rng.float() < p ? 1 : 0;
  return heads;
}

/** A GPU buffer holding `data` (padded to 16 bytes, so a Uint8Array of any length fits). */
function bufferOf(ctx: ScanContext, data: ArrayBufferView): GPUBuffer {
  const b = ctx.device.createBuffer({ size: Math.max(16, Math.ceil(data.byteLength / 16) * 16), usage: USAGE });
  const whole = Math.floor(data.byteLength / 4) * 4;
  if (whole > 0) ctx.device.queue.writeBuffer(b, 0, data.buffer, data.byteOffset, whole);
  if (whole < data.byteLength) {
    const tail = new Uint8Array(4);
    tail.set(new Uint8Array(data.buffer, data.byteOffset + whole, data.byteLength - whole));
    ctx.device.queue.writeBuffer(b, whole, tail);
  }
  return b;
}

/** A buffer of `bytes` (rounded up to 16) filled with the poison sentinel. */
function poisoned(ctx: ScanContext, bytes: number): GPUBuffer {
  const b = ctx.device.createBuffer({ size: Math.max(16, Math.ceil(bytes / 16) * 16), usage: USAGE });
  poisonBuffer(ctx, b, b.size);
  return b;
}

/**
 * Records one encode and names the buffers to read back in full (their poisoned padding included);
 * `own` hands over input buffers to destroy after the submission.
 */
type Job = (encoder: GPUCommandEncoder, own: (buffer: GPUBuffer) => GPUBuffer) => GPUBuffer[];

/** Records every job into one encoder, submits once, reads every named buffer back as u32 words. */
async function runBatch(ctx: ScanContext, jobs: Job[]): Promise<Uint32Array[][]> {
  const device = ctx.device;
  device.pushErrorScope('validation');
  const encoder = device.createCommandEncoder();
  const owned: GPUBuffer[] = [];
  const own = (buffer: GPUBuffer) => {
    owned.push(buffer);
    return buffer;
  };
  const staged = jobs.map((job) =>
    job(encoder, own).map((buffer) => {
      const s = device.createBuffer({ size: buffer.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      encoder.copyBufferToBuffer(buffer, 0, s, 0, buffer.size);
      owned.push(buffer, s);
      return s;
    }),
  );
  device.queue.submit([encoder.finish()]);
  const error = await device.popErrorScope();
  if (error) throw new Error(`validation error: ${error.message}`);
  const results: Uint32Array[][] = [];
  for (const reads of staged) {
    const out: Uint32Array[] = [];
    for (const s of reads) {
      await s.mapAsync(GPUMapMode.READ);
      out.push(new Uint32Array(s.getMappedRange().slice(0)));
      s.unmap();
    }
    results.push(out);
  }
  for (const b of owned) b.destroy();
  return results;
}

/** Words past `from` are all still the poison sentinel (nothing was written past the result). */
function expectPoisonFrom(words: Uint32Array, from: number, label: string): void {
  const bad = words.subarray(from).findIndex((w) => w !== POISON_U32);
  expect(bad, `${label}: word ${from + bad} past the result was written`).toBe(-1);
}

for (const subgroups of [true, false]) {
  describe(`flag conversions on the GPU (${subgroups ? 'subgroups' : 'workgroup memory'})`, () => {
    it('pack head flags: u8 and u32 flags, every density, chunked and not', async () => {
      const ctx = await getTestContext({ subgroups });
      for (const flagType of ['u8', 'u32'] as const) {
        for (const maxChunkElements of [undefined, 2048]) {
          const plan = createPackHeadFlagsPlan(ctx, { flagType, maxChunkElements });
          // Chunked: sizes across a few 2048-element chunks rather than 513 of them.
          const sizes = maxChunkElements === undefined ? SIZES : [...SIZES.slice(0, -1), 3 * 2048 + 5];
          const cases = sizes.flatMap((n) => DENSITIES.map((density) => ({ n, density, heads: headsOf(n, density, n + 17) })));
          const results = await runBatch(
            ctx,
            cases.map(({ heads }) => (encoder, own) => {
              const n = heads.length;
              const flags = own(bufferOf(ctx, flagType === 'u8' ? heads : Uint32Array.from(heads)));
              const output = poisoned(ctx, 4 * packedFlagWords(n));
              plan.encode(encoder, { flags, output, count: n });
              return [output];
            }),
          );
          plan.destroy();
          cases.forEach(({ n, density, heads }, i) => {
            const label = `pack ${flagType} n=${n} ${density} chunk=${maxChunkElements}`;
            const got = results[i]![0]!;
            const words = packedFlagWords(n);
            expectEqualArrays(got.subarray(0, words), cpu.packHeadFlags(heads), label);
            expectPoisonFrom(got, words, label);
          });
        }
      }
    });

    it('head bits to offsets: every density, stray bits past the end ignored', async () => {
      const ctx = await getTestContext({ subgroups });
      const plan = createHeadFlagsToOffsetsPlan(ctx);
      const cases = SIZES.flatMap((n) => DENSITIES.map((density) => ({ n, density, heads: headsOf(n, density, n + 29) })));
      const results = await runBatch(
        ctx,
        cases.map(({ n, heads }) => (encoder, own) => {
          const bits = cpu.packHeadFlags(heads);
          // Element 0's bit cleared and every bit past the end set: the plan must not care.
          if (n > 0) {
            bits[0]! &= ~1;
            if (n % 32 !== 0) bits[bits.length - 1]! |= ~((1 << (n % 32)) - 1);
          }
          const headBits = own(bufferOf(ctx, bits));
          const output = poisoned(ctx, 4 * (n + 1));
          const segmentCount = poisoned(ctx, 4);
          plan.encode(encoder, { headBits, output, count: n, segmentCount });
          return [output, segmentCount];
        }),
      );
      plan.destroy();
      cases.forEach(({ n, density, heads }, i) => {
        const label = `offsets n=${n} ${density}`;
        const [out, count] = results[i]!;
        const want = cpu.headFlagsToOffsets(heads);
        expect(count![0], `${label} segmentCount`).toBe(want.length - 1);
        expectEqualArrays(out!.subarray(0, want.length), want, label);
        expectPoisonFrom(out!, want.length, label);
      });
    });

    it('offsets to head bits: empty segments, trailing empties, chunked and not', async () => {
      const ctx = await getTestContext({ subgroups });
      for (const maxChunkOffsets of [undefined, 64]) {
        const plan = createOffsetsToHeadFlagsPlan(ctx, { maxChunkOffsets });
        const cases = SIZES.flatMap((n) =>
          DENSITIES.map((density) => {
            const offsets = cpu.headFlagsToOffsets(headsOf(n, density, n + 41));
            // Repeat some offsets (empty segments), the first and the last among them.
            const rng = createRng(n + 43);
            const withEmpty: number[] = [];
            for (const o of offsets) {
              withEmpty.push(o);
              if (rng.float() < 0.2) withEmpty.push(o);
            }
            return { n, density, offsets: new Uint32Array(withEmpty) };
          }),
        );
        const results = await runBatch(
          ctx,
          cases.map(({ n, offsets }) => (encoder, own) => {
            const input = own(bufferOf(ctx, offsets));
            const output = poisoned(ctx, 4 * packedFlagWords(n));
            plan.encode(encoder, { offsets: input, segments: offsets.length - 1, output, count: n });
            return [output];
          }),
        );
        plan.destroy();
        cases.forEach(({ n, density, offsets }, i) => {
          const label = `offsets→bits n=${n} ${density} segments=${offsets.length - 1} chunk=${maxChunkOffsets}`;
          const words = packedFlagWords(n);
          const got = results[i]![0]!;
          expectEqualArrays(got.subarray(0, words), cpu.packHeadFlags(cpu.offsetsToHeadFlags(offsets)), label);
          expectPoisonFrom(got, words, label);
        });
      }
    });
  });
}

describe('array-level flag conversions', () => {
  it('match the CPU references', async () => {
    const ctx = await getTestContext();
    expect([...(await packHeadFlags(ctx, new Uint8Array([0, 0, 1, 0, 1])))]).toEqual([21]);
    expect([...(await headFlagsToOffsets(ctx, new Uint8Array([1, 0, 0, 1, 0])))]).toEqual([0, 3, 5]);
    expect([...(await headFlagsToOffsets(ctx, new Uint8Array(0)))]).toEqual([0]);
    expect([...(await offsetsToHeadFlags(ctx, new Uint32Array([0, 3, 3, 5, 5])))]).toEqual([1, 0, 0, 1, 0]);
    expect((await offsetsToHeadFlags(ctx, new Uint32Array([0]))).length).toBe(0);
    expect((await packHeadFlags(ctx, new Uint32Array(0))).length).toBe(0);
    for (const n of [1, 2, 33, 1000, 65_537]) {
      for (const density of DENSITIES) {
        const heads8 = headsOf(n, density, n);
        const heads32 = Uint32Array.from(heads8);
        const label = `n=${n} ${density}`;
        const packed = cpu.packHeadFlags(heads8);
        expectEqualArrays(await packHeadFlags(ctx, heads8), packed, `pack u8 ${label}`);
        expectEqualArrays(await packHeadFlags(ctx, heads32), packed, `pack u32 ${label}`);
        const offsets = cpu.headFlagsToOffsets(heads8);
        expectEqualArrays(await headFlagsToOffsets(ctx, heads8), offsets, `offsets u8 ${label}`);
        expectEqualArrays(await headFlagsToOffsets(ctx, heads32), offsets, `offsets u32 ${label}`);
        const back = await offsetsToHeadFlags(ctx, offsets);
        expect(back).toBeInstanceOf(Uint8Array);
        expectEqualArrays(back, cpu.offsetsToHeadFlags(offsets), `heads ${label}`);
      }
    }
  });

  it('reject bad input with ScanError before any GPU work', async () => {
    const ctx = await getTestContext();
    await expect(packHeadFlags(ctx, new Uint8Array([1, 2]))).rejects.toThrow(/^headFlags\[1\] = 2: expected 0 or 1/);
    await expect(headFlagsToOffsets(ctx, [1, 0] as unknown as Uint8Array)).rejects.toThrow(ScanError);
    await expect(offsetsToHeadFlags(ctx, new Uint32Array([0, 4, 2, 4]))).rejects.toThrow(/^offsets\[2\] = 2: less than offsets\[1\] = 4/);
    await expect(offsetsToHeadFlags(ctx, new Uint32Array([1, 4]))).rejects.toThrow(/^offsets\[0\] = 1/);
    expect(() => createPackHeadFlagsPlan(ctx, { flagType: 'u16' as never })).toThrow(
      /^options\.flagType = "u16": expected one of 'u8', 'u32'/,
    );
    const plan = createHeadFlagsToOffsetsPlan(ctx);
    const small = ctx.device.createBuffer({ size: 16, usage: USAGE });
    const encoder = ctx.device.createCommandEncoder();
    expect(() => plan.encode(encoder, { headBits: small, output: small, count: 10, segmentCount: small })).toThrow(
      /output has 16 bytes, needs 44/,
    );
    small.destroy();
    plan.destroy();
  });
});
