// The run-based functions (ops/by-key.ts through plans/by-key-plan.ts, one keyed single pass in
// kernels/operator-segmented.ts) against their CPU references: reduce-by-key, scan-by-key (inclusive
// and exclusive), unique, unique-by-key and run-length encode, on u32, i32 and f32 keys (NaN and ±0
// included), with built-in and non-commutative user operators, at sizes around the tile (3072
// records of one word), across ranges joined by carries and with the look-back forced to its
// fallback, with and without subgroups; the array-level functions' edge cases and errors.
import type { HostArray, Operator } from '@scan/core';
import { builtinOperator } from '@scan/core';
import { bufferOf, createRng, getTestContext, hashRecord, operatorData, poisoned, runBatch } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import {
  createReduceByKeyPlan,
  createRunLengthEncodePlan,
  createScanByKeyPlan,
  createUniqueByKeyPlan,
  createUniquePlan,
  reduceByKey,
  runLengthEncode,
  scanByKey,
  unique,
  uniqueByKey,
} from '../src/index.js';

type Keys = Uint32Array | Int32Array | Float32Array;
type KeyKind = 'equal' | 'distinct' | 'short' | 'tile' | 'mixed' | 'float';
const TILE = 3072;

/** Keys of one kind: runs of equal consecutive keys of the lengths the kind names. */
function keysOf(kind: KeyKind, type: 'u32' | 'i32' | 'f32', n: number, seed: number): Keys {
  const rng = createRng(seed);
  const out = type === 'u32' ? new Uint32Array(n) : type === 'i32' ? new Int32Array(n) : new Float32Array(n);
  if (kind === 'float') {
    // NaN (each its own run), -0 beside +0 (one run), infinities, and runs of ordinary keys.
    const pool = [Number.NaN, -0, 0, 1.5, -1.5, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
    for (let i = 0; i < n; ) {
      const k = pool[rng.int(0, pool.length - 1)] as number;
      for (let m = rng.int(1, 5); m > 0 && i < n; m--) out[i++] = k === 0 && rng.int(0, 1) ? -0 : k;
    }
    return out;
  }
  let key = rng.int(0, 1000);
  for (let i = 0; i < n; ) {
    const length =
      kind === 'equal'
        ? n
        : kind === 'distinct'
          ? 1
          : kind === 'short'
            ? rng.int(1, 3)
            : kind === 'tile'
              ? // Half a tile first, so the whole tiles' runs cross every tile edge.
                i === 0
                ? TILE / 2
                : TILE
              : rng.float() < 0.1
                ? rng.int(1, 5000)
                : rng.int(1, 8);
    key += rng.int(1, 3) * (rng.int(0, 1) ? 1 : -1);
    for (let m = 0; m < length && i < n; m++) out[i++] = key;
  }
  return out;
}

/** Small values of a built-in operator's type (exact f32 sums in any order). */
function valuesOf(op: Operator<unknown>, n: number, seed: number): HostArray {
  if (op === (hashRecord as Operator<unknown>)) return operatorData(op, n, seed);
  const rng = createRng(seed);
  const values = Array.from({ length: n }, () => rng.int(op.type === 'u32' ? 0 : -50, 50));
  return op.type === 'u32' ? Uint32Array.from(values) : op.type === 'i32' ? Int32Array.from(values) : Float32Array.from(values);
}

type Mode = 'reduce' | 'scan' | 'scan-inclusive' | 'unique' | 'uniqueByKey' | 'rle';
interface Job {
  mode: Mode;
  keyKind: KeyKind;
  keyType: 'u32' | 'i32' | 'f32';
  op: Operator<unknown>;
  n: number;
  forceFallback: boolean;
  maxChunkElements?: number;
}

/** What the CPU reference gives for a job, as the words of each output (and the run count). */
function expected(job: Job, keys: Keys, values: HostArray) {
  const words = (a: ArrayBufferView) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.byteLength / 4));
  const op = { op: job.op };
  switch (job.mode) {
    case 'reduce': {
      const r = cpu.reduceByKey(keys, values, op);
      return { count: r.count, outputs: [words(r.keys), words(r.values)] };
    }
    case 'scan':
    case 'scan-inclusive':
      return { count: undefined, outputs: [words(cpu.scanByKey(keys, values, { ...op, inclusive: job.mode === 'scan-inclusive' }))] };
    case 'unique': {
      const u = cpu.unique(keys);
      return { count: u.length, outputs: [words(u)] };
    }
    case 'uniqueByKey': {
      const u = cpu.uniqueByKey(keys, values as Uint32Array);
      return { count: u.keys.length, outputs: [words(u.keys), words(u.values)] };
    }
    case 'rle': {
      const r = cpu.runLengthEncode(keys);
      return { count: r.values.length, outputs: [words(r.values), words(r.lengths), words(r.offsets)] };
    }
  }
}

const u32Add = builtinOperator('add', 'u32') as Operator<unknown>;
const i32Min = builtinOperator('min', 'i32') as Operator<unknown>;
const f32Add = builtinOperator('add', 'f32') as Operator<unknown>;
const f32Max = builtinOperator('max', 'f32') as Operator<unknown>;
const hash = hashRecord as Operator<unknown>;

/**
 * The pipelines under test (a SwiftShader compile costs about 1.5 s each, so few of them, each run
 * on many contents): every mode, int and f32 keys, the fallback forced on about half.
 */
const PIPELINES: readonly { mode: Mode; keyType: 'u32' | 'i32' | 'f32'; op: Operator<unknown>; forceFallback: boolean }[] = [
  { mode: 'reduce', keyType: 'u32', op: u32Add, forceFallback: true },
  // A built-in whose f32 identity (−∞) is no WGSL constant.
  { mode: 'reduce', keyType: 'f32', op: f32Max, forceFallback: false },
  { mode: 'scan', keyType: 'i32', op: i32Min, forceFallback: true },
  { mode: 'scan-inclusive', keyType: 'f32', op: f32Add, forceFallback: false },
  { mode: 'unique', keyType: 'u32', op: u32Add, forceFallback: false },
  { mode: 'unique', keyType: 'f32', op: u32Add, forceFallback: true },
  { mode: 'uniqueByKey', keyType: 'u32', op: u32Add, forceFallback: false },
  { mode: 'rle', keyType: 'i32', op: u32Add, forceFallback: false },
  { mode: 'rle', keyType: 'f32', op: u32Add, forceFallback: true },
  // A non-commutative record (three words: runs of 4 records, a vec4 tail).
  { mode: 'reduce', keyType: 'u32', op: hash, forceFallback: false },
  { mode: 'scan', keyType: 'f32', op: hash, forceFallback: true },
];

/** Every pipeline over the contents the issue names, at sizes around the tile, across ranges, and one past 2^16. */
function jobsOf(subgroups: boolean): Job[] {
  const contents: [KeyKind, number, number | undefined][] = [
    ['equal', 1, undefined],
    ['distinct', 2, undefined],
    ['short', 3, undefined],
    ['equal', TILE + 1, 512],
    ['distinct', TILE - 1, undefined],
    ['short', 7001, 1024],
    ['tile', 4 * TILE + 5, undefined],
    ['mixed', 9001, 2048],
    ['mixed', 70_001, undefined],
  ];
  // Without subgroups, the portable block scan: one pipeline of each kind of record and key.
  const pipelines = subgroups ? PIPELINES : PIPELINES.filter((_, i) => i === 0 || i === 3);
  return pipelines.flatMap((p, j) => [
    ...contents
      .filter((_, c) => subgroups || c % 2 === j % 2 || c === contents.length - 1)
      .map(([keyKind, n, maxChunkElements]) => ({ ...p, keyKind, n, maxChunkElements })),
    ...(p.keyType === 'f32' ? [{ ...p, keyKind: 'float' as const, n: 5000, maxChunkElements: 1024 }] : []),
  ]);
}

describe('by-key functions (GPU plans)', () => {
  for (const subgroups of [true, false]) {
    it(`match the CPU references: every mode, key type and content, ranges, fallback (${subgroups ? 'subgroups' : 'no subgroups'})`, async () => {
      const ctx = await getTestContext({ subgroups });
      const jobs = jobsOf(subgroups);
      const inputs = jobs.map((job, i) => {
        const keys = keysOf(job.keyKind, job.keyType, job.n, 100 + i);
        const values = valuesOf(job.op, job.n, 200 + i);
        return { keys, values };
      });
      const owned: { destroy(): void }[] = [];
      const results = await runBatch(
        ctx,
        jobs.map((job, i) => ({
          record: (encoder: GPUCommandEncoder) => {
            const { keys: k, values: v } = inputs[i]!;
            const hooks = { keyType: job.keyType, forceFallback: job.forceFallback, maxChunkElements: job.maxChunkElements };
            const n = job.n;
            const keys = bufferOf(ctx, k);
            const values = bufferOf(ctx, v);
            const recordBytes = n * job.op.bytes;
            const runCount = poisoned(ctx, 4);
            owned.push(keys, values);
            const out = (bytes: number) => poisoned(ctx, bytes);
            switch (job.mode) {
              case 'reduce': {
                const plan = createReduceByKeyPlan(ctx, { ...hooks, op: job.op } as never);
                const [outKeys, outValues] = [out(4 * n), out(recordBytes)];
                owned.push(plan);
                plan.encode(encoder, { keys, values, outKeys, outValues, runCount, count: n });
                return [
                  { buffer: runCount, bytes: 4 },
                  { buffer: outKeys, bytes: 4 * n },
                  { buffer: outValues, bytes: recordBytes },
                ];
              }
              case 'scan':
              case 'scan-inclusive': {
                const plan = createScanByKeyPlan(ctx, { ...hooks, op: job.op, inclusive: job.mode === 'scan-inclusive' } as never);
                const output = out(recordBytes);
                owned.push(plan, runCount);
                plan.encode(encoder, { keys, values, output, count: n });
                return [{ buffer: output, bytes: recordBytes }];
              }
              case 'unique': {
                const plan = createUniquePlan(ctx, hooks as never);
                const outKeys = out(4 * n);
                owned.push(plan);
                plan.encode(encoder, { keys, outKeys, runCount, count: n });
                return [
                  { buffer: runCount, bytes: 4 },
                  { buffer: outKeys, bytes: 4 * n },
                ];
              }
              case 'uniqueByKey': {
                const plan = createUniqueByKeyPlan(ctx, hooks as never);
                const [outKeys, outValues] = [out(4 * n), out(4 * n)];
                owned.push(plan);
                plan.encode(encoder, { keys, values, outKeys, outValues, runCount, count: n });
                return [
                  { buffer: runCount, bytes: 4 },
                  { buffer: outKeys, bytes: 4 * n },
                  { buffer: outValues, bytes: 4 * n },
                ];
              }
              case 'rle': {
                const plan = createRunLengthEncodePlan(ctx, hooks as never);
                const [outKeys, lengths, offsets] = [out(4 * n), out(4 * n), out(4 * n)];
                owned.push(plan);
                plan.encode(encoder, { keys, outKeys, lengths, offsets, runCount, count: n });
                return [
                  { buffer: runCount, bytes: 4 },
                  { buffer: outKeys, bytes: 4 * n },
                  { buffer: lengths, bytes: 4 * n },
                  { buffer: offsets, bytes: 4 * n },
                ];
              }
            }
          },
        })),
        owned,
      );
      jobs.forEach((job, i) => {
        const { keys, values } = inputs[i]!;
        const want = expected(job, keys, values);
        const got = results[i]!.map((b) => Array.from(new Uint32Array(b)));
        const what = { ...job, op: job.op.name };
        if (want.count === undefined) {
          expect({ what, got: got[0] }).toEqual({ what, got: want.outputs[0] });
          return;
        }
        const count = got[0]![0];
        // Each output's words of the runs written (the rest of the output is not the plan's).
        const outputs = got.slice(1).map((words, o) => words.slice(0, (want.outputs[o] as number[]).length));
        expect({ what, count, outputs }).toEqual({ what, count: want.count, outputs: want.outputs });
      });
    });
  }
});

describe('by-key functions (array level)', () => {
  it('resolve to the CPU references, keep the classes, and take n = 0 and 1', async () => {
    // The pipelines of the batch above (each compile is costly on SwiftShader).
    const ctx = await getTestContext();
    const keys = new Float32Array([Number.NaN, Number.NaN, -0, 0, 2, 2, 2, 5]);
    const values = new Uint32Array([1, 2, 3, 4, 5, 6, 7, 8]);
    const r = await reduceByKey(ctx, keys, values);
    expect(r.count).toBe(5);
    expect(r.keys).toBeInstanceOf(Float32Array);
    expect(r.values).toBeInstanceOf(Uint32Array);
    expect(r).toEqual(cpu.reduceByKey(keys, values));
    expect(r.values).toEqual(new Uint32Array([1, 2, 7, 18, 8]));
    expect(Object.is(r.keys[2], -0)).toBe(true);
    const s = await scanByKey(ctx, keys, new Float32Array(values), { op: builtinOperator('add', 'f32'), inclusive: true });
    expect(s).toEqual(new Float32Array([1, 2, 3, 7, 5, 11, 18, 8]));
    const h = operatorData(hashRecord, 8, 3) as Uint32Array;
    const hk = new Uint32Array([1, 1, 1, 2, 2, 3, 1, 1]);
    expect(await reduceByKey(ctx, hk, h, { op: hashRecord })).toEqual(cpu.reduceByKey(hk, h, { op: hashRecord }));
    const data = new Uint32Array([7, 7, 1, 7]);
    expect(await unique(ctx, data)).toEqual(new Uint32Array([7, 1, 7]));
    expect(await uniqueByKey(ctx, data, new Float32Array([0.5, 1, 2, 3]))).toEqual({
      keys: new Uint32Array([7, 1, 7]),
      values: new Float32Array([0.5, 2, 3]),
    });
    expect(await runLengthEncode(ctx, data)).toEqual({
      values: new Uint32Array([7, 1, 7]),
      lengths: new Uint32Array([2, 1, 1]),
      offsets: new Uint32Array([0, 2, 3]),
    });
    for (const n of [0, 1]) {
      const fk = new Float32Array(n).fill(-3);
      const ik = new Int32Array(n).fill(-3);
      const v = new Float32Array(n).fill(1.5);
      const u = new Uint32Array(n).fill(9);
      expect(await reduceByKey(ctx, fk, u)).toEqual(cpu.reduceByKey(fk, u));
      expect(await scanByKey(ctx, fk, v, { inclusive: true })).toEqual(cpu.scanByKey(fk, v, { inclusive: true }));
      expect(await unique(ctx, ik)).toEqual(cpu.unique(ik));
      expect(await uniqueByKey(ctx, ik, v)).toEqual(cpu.uniqueByKey(ik, v));
      expect(await runLengthEncode(ctx, ik)).toEqual(cpu.runLengthEncode(ik));
    }
    // Inputs are not modified.
    expect(data).toEqual(new Uint32Array([7, 7, 1, 7]));
  });

  it('reject bad arguments with ScanErrors naming them, on the GPU and the CPU alike', async () => {
    const ctx = await getTestContext();
    const k = new Uint32Array(4);
    const cases: [string, () => unknown, () => unknown][] = [
      ['keys', () => reduceByKey(ctx, [1, 2] as never, k), () => cpu.reduceByKey([1, 2] as never, k)],
      ['values', () => reduceByKey(ctx, k, new Uint32Array(3)), () => cpu.reduceByKey(k, new Uint32Array(3))],
      ['values', () => scanByKey(ctx, k, new Float32Array(5)), () => cpu.scanByKey(k, new Float32Array(5))],
      [
        'values',
        () => reduceByKey(ctx, k, new Uint32Array(4), { op: hashRecord }),
        () => cpu.reduceByKey(k, new Uint32Array(4), { op: hashRecord }),
      ],
      [
        'options.op',
        () => reduceByKey(ctx, k, new Float32Array(4), { op: 'xor' }),
        () => cpu.reduceByKey(k, new Float32Array(4), { op: 'xor' }),
      ],
      [
        'options.op',
        () => scanByKey(ctx, k, k, { op: builtinOperator('add', 'f32') }),
        () => cpu.scanByKey(k, k, { op: builtinOperator('add', 'f32') }),
      ],
      ['options.inclusive', () => scanByKey(ctx, k, k, { inclusive: 1 as never }), () => cpu.scanByKey(k, k, { inclusive: 1 as never })],
      ['options.backward', () => scanByKey(ctx, k, k, { backward: true } as never), () => cpu.scanByKey(k, k, { backward: true } as never)],
      ['keys', () => unique(ctx, new Float64Array(2) as never), () => cpu.unique(new Float64Array(2) as never)],
      ['values', () => uniqueByKey(ctx, k, new Uint32Array(2)), () => cpu.uniqueByKey(k, new Uint32Array(2))],
      ['data', () => runLengthEncode(ctx, new Uint8Array(2) as never), () => cpu.runLengthEncode(new Uint8Array(2) as never)],
    ];
    for (const [argument, gpu, host] of cases) {
      await expect(Promise.resolve().then(gpu), argument).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument });
      await expect(Promise.resolve().then(gpu)).rejects.toThrow(argument);
      expect(host).toThrow(argument);
    }
    // A plan's encode names a short buffer and its options.
    expect(() => createUniquePlan(ctx, { keyType: 'f64' as never })).toThrow('options.keyType');
    expect(() => createReduceByKeyPlan(ctx, { op: hashRecord, type: 'u32' })).toThrow('options.type');
    const plan = createRunLengthEncodePlan(ctx);
    const small = bufferOf(ctx, new Uint32Array(4));
    const big = bufferOf(ctx, new Uint32Array(64));
    const enc = ctx.device.createCommandEncoder();
    expect(() =>
      plan.encode(enc, {
        keys: big,
        outKeys: small,
        lengths: bufferOf(ctx, k),
        offsets: bufferOf(ctx, k),
        runCount: bufferOf(ctx, k),
        count: 64,
      }),
    ).toThrow('args.outKeys');
    plan.destroy();
  });
});
