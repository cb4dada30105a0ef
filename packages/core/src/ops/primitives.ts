import { assertUsable, type ScanContext } from '../context.js';
import { checkOp, type ScanTypedArray, typedArrayFor } from '../element-types.js';
import { createReducePlan } from '../plans/reduce-plan.js';
import { createPackPlan, createSplitPlan } from '../plans/scatter-plans.js';
import { createDistributePlan, createEnumeratePlan } from '../plans/simple-plans.js';
import { checkBoolean, checkData, checkFlags, checkOptions, lengthOf } from '../validate.js';
import { type GpuSession, withSession } from './session.js';

function sameType<A extends ScanTypedArray>(like: A, bytes: ArrayBuffer): A {
  const Ctor = like.constructor as new (b: ArrayBuffer) => A;
  return new Ctor(bytes);
}

/** Uploads 0/1 flags as u32 words (Uint8Array flags are widened on the CPU first). */
function uploadFlags(s: GpuSession, flags: Uint32Array | Uint8Array): GPUBuffer {
  return s.upload(flags instanceof Uint32Array ? flags : Uint32Array.from(flags), 'flags');
}

/**
 * Reduces the whole array with `op` (default `'add'`) on the GPU; the identity for an empty array.
 *
 * @example
 * ```ts
 * await reduce(ctx, new Uint32Array([3, 1, 7]));              // 11
 * await reduce(ctx, new Float32Array([3, -1, 7]), { op: 'min' }); // -1
 * ```
 */
export async function reduce(
  ctx: ScanContext,
  data: ScanTypedArray,
  options?: { op?: 'add' | 'min' | 'max' | 'mul' | 'and' | 'or' | 'xor' },
): Promise<number> {
  assertUsable(ctx);
  const type = checkData(data, 'data');
  const op = checkOp(checkOptions(options, ['op']).op, type);
  return withSession(ctx, 'reduce', async (s) => {
    const plan = s.own(createReducePlan(ctx, { type, op }));
    const input = s.upload(data, 'reduce input');
    const output = s.buffer(4, 'reduce output');
    plan.encode(s.encoder, { input, output, count: data.length });
    const read = s.readback(output, 4);
    s.submit();
    return sameType(typedArrayFor(type, 0), await read())[0] as number;
  });
}

/**
 * Enumerate: for each element, how many of the flags before it are 1 (backward: after it).
 * Flags must be 0 or 1.
 *
 * @example
 * ```ts
 * await enumerate(ctx, new Uint32Array([1, 0, 0, 1, 0, 1, 1])); // [0, 1, 1, 1, 2, 2, 3]
 * ```
 */
export async function enumerate(ctx: ScanContext, flags: Uint32Array | Uint8Array, options?: { backward?: boolean }): Promise<Uint32Array> {
  assertUsable(ctx);
  checkFlags(flags, lengthOf(flags), 'flags');
  const backward = checkBoolean(checkOptions(options, ['backward']).backward, 'options.backward', false);
  const n = flags.length;
  if (n === 0) return new Uint32Array(0);
  return withSession(ctx, 'enumerate', async (s) => {
    const plan = s.own(createEnumeratePlan(ctx, { backward }));
    const input = uploadFlags(s, flags);
    const output = s.buffer(4 * n, 'enumerate output');
    plan.encode(s.encoder, { flags: input, output, count: n });
    const read = s.readback(output, 4 * n);
    s.submit();
    return new Uint32Array(await read());
  });
}

/**
 * Distribute: a new array with the first element (backward: the last) copied everywhere.
 *
 * @example
 * ```ts
 * await distribute(ctx, new Int32Array([5, 1, 2]));                     // [5, 5, 5]
 * await distribute(ctx, new Int32Array([5, 1, 2]), { backward: true }); // [2, 2, 2]
 * ```
 */
export async function distribute<A extends ScanTypedArray>(ctx: ScanContext, data: A, options?: { backward?: boolean }): Promise<A> {
  assertUsable(ctx);
  const type = checkData(data, 'data');
  const backward = checkBoolean(checkOptions(options, ['backward']).backward, 'options.backward', false);
  const n = data.length;
  if (n === 0) return typedArrayFor(type, 0) as A;
  return withSession(ctx, 'distribute', async (s) => {
    const plan = s.own(createDistributePlan(ctx, { type, backward }));
    const input = s.upload(data, 'distribute input');
    const output = s.buffer(4 * n, 'distribute output');
    plan.encode(s.encoder, { input, output, count: n });
    const read = s.readback(output, 4 * n);
    s.submit();
    return sameType(data, await read());
  });
}

/**
 * Stable split: the elements whose flag is 0, in order, then those whose flag is 1, in order, and
 * how many were 0. Flags must be 0 or 1 and as long as the data.
 *
 * @example
 * ```ts
 * await split(ctx, new Uint32Array([10, 11, 12, 13]), new Uint32Array([1, 0, 1, 0]));
 * // { output: [11, 13, 10, 12], falseCount: 2 }
 * ```
 */
export async function split<A extends ScanTypedArray>(
  ctx: ScanContext,
  data: A,
  flags: Uint32Array | Uint8Array,
): Promise<{ output: A; falseCount: number }> {
  assertUsable(ctx);
  const type = checkData(data, 'data');
  checkFlags(flags, data.length, 'flags');
  const n = data.length;
  if (n === 0) return { output: typedArrayFor(type, 0) as A, falseCount: 0 };
  return withSession(ctx, 'split', async (s) => {
    const plan = s.own(createSplitPlan(ctx, { type }));
    const input = s.upload(data, 'split input');
    const f = uploadFlags(s, flags);
    const output = s.buffer(4 * n, 'split output');
    const falseCount = s.buffer(4, 'split falseCount');
    plan.encode(s.encoder, { input, flags: f, output, count: n, falseCount });
    const readOut = s.readback(output, 4 * n);
    const readCount = s.readback(falseCount, 4);
    s.submit();
    const [out, count] = await Promise.all([readOut(), readCount()]);
    return { output: sameType(data, out), falseCount: new Uint32Array(count)[0] as number };
  });
}

/**
 * Pack (stream compaction): a new array of the elements whose flag is 1, in order.
 *
 * @example
 * ```ts
 * await pack(ctx, new Float32Array([1.5, 2.5, 3.5]), new Uint8Array([1, 0, 1])); // [1.5, 3.5]
 * ```
 */
export async function pack<A extends ScanTypedArray>(ctx: ScanContext, data: A, flags: Uint32Array | Uint8Array): Promise<A> {
  assertUsable(ctx);
  const type = checkData(data, 'data');
  checkFlags(flags, data.length, 'flags');
  const n = data.length;
  if (n === 0) return typedArrayFor(type, 0) as A;
  return withSession(ctx, 'pack', async (s) => {
    const plan = s.own(createPackPlan(ctx, { type }));
    const input = s.upload(data, 'pack input');
    const f = uploadFlags(s, flags);
    const output = s.buffer(4 * n, 'pack output');
    const packedCount = s.buffer(4, 'pack count');
    plan.encode(s.encoder, { input, flags: f, output, count: n, packedCount });
    const readOut = s.readback(output, 4 * n);
    const readCount = s.readback(packedCount, 4);
    s.submit();
    const [out, count] = await Promise.all([readOut(), readCount()]);
    const kept = new Uint32Array(count)[0] as number;
    return sameType(data, out.slice(0, 4 * kept));
  });
}
