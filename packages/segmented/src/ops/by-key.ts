import type { HostArray, Operator, ScanContext, ScanTypedArray } from '@scan/core';
import {
  assertUsable,
  checkArrayLength,
  checkBoolean,
  checkOperatorCompiles,
  checkOptions,
  type GpuSession,
  hostArrayOver,
  newHostArray,
  recordBytes,
  typedArrayFor,
  typedArrayOver,
  withSession,
} from '@scan/core/kit';
import { checkKeys, checkValuesOfKeys, valuesOperator } from '../by-key-args.js';
import type { ReduceByKeyOptions, ReduceByKeyResult, RunLengthEncodeResult, ScanByKeyOptions, UniqueByKeyResult } from '../cpu/by-key.js';
import {
  createReduceByKeyPlan,
  createRunLengthEncodePlan,
  createScanByKeyPlan,
  createUniqueByKeyPlan,
  createUniquePlan,
} from '../plans/by-key-plan.js';

/** Reads the run count the plan wrote, then the first `runs` words of each output. */
async function readRuns(s: GpuSession, runCount: GPUBuffer, outputs: readonly { buffer: GPUBuffer; bytes: number; recordBytes: number }[]) {
  const count = s.readback(runCount, 4);
  const reads = outputs.map((o) => ({ read: s.readback(o.buffer, o.bytes), recordBytes: o.recordBytes }));
  s.submit();
  const runs = new Uint32Array(await count())[0] as number;
  return { runs, data: await Promise.all(reads.map((r) => r.read(runs * r.recordBytes))) };
}

/**
 * Reduce-by-key on the GPU: for each run of equal consecutive keys (compared with `==`, as in CUB:
 * NaN keys are runs of their own, -0 and +0 one run; sort first for a group-by), its first key and
 * its values combined in array order with `op` (a built-in name or an `Operator`, default `'add'`),
 * and the number of runs. One pass over keys and values. Outputs keep the inputs' classes.
 *
 * @example
 * ```ts
 * const { keys, values, count } = await reduceByKey(ctx, new Uint32Array([4, 4, 9, 4]), new Float32Array([1, 2, 3, 4]));
 * // keys Uint32Array [4, 9, 4], values Float32Array [3, 3, 4], count 3
 * ```
 */
export async function reduceByKey<K extends ScanTypedArray, V extends ScanTypedArray | HostArray>(
  ctx: ScanContext,
  keys: K,
  values: V,
  options?: ReduceByKeyOptions,
): Promise<ReduceByKeyResult<K, V>> {
  assertUsable(ctx);
  const keyType = checkKeys(keys);
  const o = checkOptions(options, ['op']);
  const op = valuesOperator(values, keys.length, o['op']);
  await checkOperatorCompiles(ctx, op, 'options.op');
  const n = keys.length;
  // Each run's outputs are written at its ordinal: every output lies in one binding.
  checkArrayLength(ctx, n, 'keys');
  checkArrayLength(ctx, Math.ceil((n * op.bytes) / 4), 'values');
  if (n === 0) return { keys: typedArrayFor(keyType, 0) as K, values: newHostArray(op, values as HostArray, 0) as V, count: 0 };
  return withSession(ctx, 'reduceByKey', async (s) => {
    const plan = await s.plan(createReduceByKeyPlan(ctx, { keyType, op: op as Operator<unknown> }));
    const outKeys = s.buffer(4 * n, 'reduce-by-key keys');
    const outValues = s.buffer(recordBytes(n, op.bytes), 'reduce-by-key values');
    const runCount = s.buffer(4, 'reduce-by-key run count');
    plan.encode(s.encoder, {
      keys: s.upload(keys, 'reduce-by-key input keys'),
      values: s.upload(values, 'reduce-by-key input values'),
      outKeys,
      outValues,
      runCount,
      count: n,
    });
    const { runs, data } = await readRuns(s, runCount, [
      { buffer: outKeys, bytes: 4 * n, recordBytes: 4 },
      { buffer: outValues, bytes: n * op.bytes, recordBytes: op.bytes },
    ]);
    return {
      keys: typedArrayOver(keys, data[0] as ArrayBuffer),
      values: hostArrayOver(values as HostArray, data[1] as ArrayBuffer, runs * op.bytes) as V,
      count: runs,
    };
  });
}

/**
 * Scan-by-key on the GPU: a scan of the values with `op` (default `'add'`) that restarts at each
 * run of equal consecutive keys; exclusive (each run starts at the identity) unless `inclusive`.
 * One pass over keys and values; the result keeps the values' class.
 *
 * @example
 * ```ts
 * await scanByKey(ctx, new Int32Array([1, 1, 2]), new Uint32Array([5, 6, 7]), { inclusive: true }); // Uint32Array [5, 11, 7]
 * ```
 */
export async function scanByKey<V extends ScanTypedArray | HostArray>(
  ctx: ScanContext,
  keys: ScanTypedArray,
  values: V,
  options?: ScanByKeyOptions,
): Promise<V> {
  assertUsable(ctx);
  const keyType = checkKeys(keys);
  const o = checkOptions(options, ['op', 'inclusive']);
  const op = valuesOperator(values, keys.length, o['op']);
  const inclusive = checkBoolean(o['inclusive'], 'options.inclusive', false);
  await checkOperatorCompiles(ctx, op, 'options.op');
  const n = keys.length;
  checkArrayLength(ctx, n, 'keys', 'buffer');
  checkArrayLength(ctx, Math.ceil((n * op.bytes) / 4), 'values', 'buffer');
  if (n === 0) return hostArrayOver(values as HostArray, new ArrayBuffer(0), 0) as V;
  return withSession(ctx, 'scanByKey', async (s) => {
    const plan = await s.plan(createScanByKeyPlan(ctx, { keyType, op: op as Operator<unknown>, inclusive }));
    const output = s.buffer(recordBytes(n, op.bytes), 'scan-by-key output');
    plan.encode(s.encoder, {
      keys: s.upload(keys, 'scan-by-key keys'),
      values: s.upload(values, 'scan-by-key values'),
      output,
      count: n,
    });
    const read = s.readback(output, n * op.bytes);
    s.submit();
    return hostArrayOver(values as HostArray, await read(), n * op.bytes) as V;
  });
}

/**
 * Unique on the GPU: the first key of each run of equal consecutive keys (`==`; sort first for
 * distinct keys overall). One pass over the keys; the result keeps their class.
 *
 * @example
 * ```ts
 * await unique(ctx, new Uint32Array([1, 1, 2, 1])); // Uint32Array [1, 2, 1]
 * ```
 */
export async function unique<K extends ScanTypedArray>(ctx: ScanContext, keys: K): Promise<K> {
  assertUsable(ctx);
  const keyType = checkKeys(keys);
  const n = keys.length;
  checkArrayLength(ctx, n, 'keys');
  if (n === 0) return typedArrayFor(keyType, 0) as K;
  return withSession(ctx, 'unique', async (s) => {
    const plan = await s.plan(createUniquePlan(ctx, { keyType }));
    const outKeys = s.buffer(4 * n, 'unique keys');
    const runCount = s.buffer(4, 'unique run count');
    plan.encode(s.encoder, { keys: s.upload(keys, 'unique input'), outKeys, runCount, count: n });
    const { data } = await readRuns(s, runCount, [{ buffer: outKeys, bytes: 4 * n, recordBytes: 4 }]);
    return typedArrayOver(keys, data[0] as ArrayBuffer);
  });
}

/**
 * Unique-by-key on the GPU: the first key and the first value of each run of equal consecutive
 * keys (values: one `Uint32Array`, `Int32Array` or `Float32Array` element per key). One pass.
 *
 * @example
 * ```ts
 * const { keys, values } = await uniqueByKey(ctx, new Uint32Array([1, 1, 2]), new Float32Array([0.5, 0.25, 2]));
 * // keys Uint32Array [1, 2], values Float32Array [0.5, 2]
 * ```
 */
export async function uniqueByKey<K extends ScanTypedArray, V extends ScanTypedArray>(
  ctx: ScanContext,
  keys: K,
  values: V,
): Promise<UniqueByKeyResult<K, V>> {
  assertUsable(ctx);
  const keyType = checkKeys(keys);
  checkValuesOfKeys(values, keys.length);
  const n = keys.length;
  checkArrayLength(ctx, n, 'keys');
  if (n === 0) return { keys: typedArrayFor(keyType, 0) as K, values: new (values.constructor as new (n: number) => V)(0) };
  return withSession(ctx, 'uniqueByKey', async (s) => {
    const plan = await s.plan(createUniqueByKeyPlan(ctx, { keyType }));
    const outKeys = s.buffer(4 * n, 'unique-by-key keys');
    const outValues = s.buffer(4 * n, 'unique-by-key values');
    const runCount = s.buffer(4, 'unique-by-key run count');
    plan.encode(s.encoder, {
      keys: s.upload(keys, 'unique-by-key input keys'),
      values: s.upload(values, 'unique-by-key input values'),
      outKeys,
      outValues,
      runCount,
      count: n,
    });
    const { data } = await readRuns(s, runCount, [
      { buffer: outKeys, bytes: 4 * n, recordBytes: 4 },
      { buffer: outValues, bytes: 4 * n, recordBytes: 4 },
    ]);
    return { keys: typedArrayOver(keys, data[0] as ArrayBuffer), values: typedArrayOver(values, data[1] as ArrayBuffer) };
  });
}

/**
 * Run-length encode on the GPU: each run of equal consecutive elements (`==`) as its value, its
 * length and its first index. One pass over the data; `values` keeps the data's class.
 *
 * @example
 * ```ts
 * const { values, lengths, offsets } = await runLengthEncode(ctx, new Int32Array([5, 5, 5, -1, 5]));
 * // values Int32Array [5, -1, 5], lengths Uint32Array [3, 1, 1], offsets Uint32Array [0, 3, 4]
 * ```
 */
export async function runLengthEncode<K extends ScanTypedArray>(ctx: ScanContext, data: K): Promise<RunLengthEncodeResult<K>> {
  assertUsable(ctx);
  const keyType = checkKeys(data, 'data');
  const n = data.length;
  checkArrayLength(ctx, n, 'data');
  if (n === 0) return { values: typedArrayFor(keyType, 0) as K, lengths: new Uint32Array(0), offsets: new Uint32Array(0) };
  return withSession(ctx, 'runLengthEncode', async (s) => {
    const plan = await s.plan(createRunLengthEncodePlan(ctx, { keyType }));
    const outKeys = s.buffer(4 * n, 'run-length encode values');
    const lengths = s.buffer(4 * n, 'run-length encode lengths');
    const offsets = s.buffer(4 * n, 'run-length encode offsets');
    const runCount = s.buffer(4, 'run-length encode run count');
    plan.encode(s.encoder, { keys: s.upload(data, 'run-length encode input'), outKeys, lengths, offsets, runCount, count: n });
    const { data: out } = await readRuns(s, runCount, [
      { buffer: outKeys, bytes: 4 * n, recordBytes: 4 },
      { buffer: lengths, bytes: 4 * n, recordBytes: 4 },
      { buffer: offsets, bytes: 4 * n, recordBytes: 4 },
    ]);
    return {
      values: typedArrayOver(data, out[0] as ArrayBuffer),
      lengths: new Uint32Array(out[1] as ArrayBuffer),
      offsets: new Uint32Array(out[2] as ArrayBuffer),
    };
  });
}
