import { assertUsable, type ScanContext } from '../context.js';
import { checkOp, elementTypeOf, type ScanTypedArray, typedArrayFor, typedArrayOver } from '../element-types.js';
import type { HostArray } from '../operators/host-records.js';
import type { Operator } from '../operators/operator-type.js';
import { builtinNameOf, userOperatorOf } from '../operators/user-operator.js';
import { createReducePlan } from '../plans/reduce-plan.js';
import { createPackIfPlan, createPackPlan, createSplitPlan } from '../plans/scatter-plans.js';
import { createDistributePlan, createEnumeratePlan } from '../plans/simple-plans.js';
import { type CompareOp, checkPredicate } from '../predicate.js';
import { checkArrayLength, checkBoolean, checkData, checkFlags, checkOptions, lengthOf } from '../validate.js';
import { operatorReduce } from './operator-ops.js';
import { withSession } from './session.js';

/**
 * The GPU part of split, pack and packIf: one plan, the data and flags up (bytes stay bytes), the
 * moved data and the count (falses or kept elements) back.
 */
async function scatterOnGpu<A extends ScanTypedArray>(
  ctx: ScanContext,
  mode: 'split' | 'pack' | 'packIf',
  data: A,
  flags: Uint32Array | Uint8Array | { op: CompareOp; value: number },
): Promise<{ output: ArrayBuffer; count: number }> {
  const type = elementTypeOf(data, 'data');
  const n = data.length;
  return withSession(ctx, mode, async (s) => {
    const input = s.upload(data, `${mode} input`);
    const output = s.buffer(4 * n, `${mode} output`);
    const counted = s.buffer(4, `${mode} count`);
    if (!ArrayBuffer.isView(flags)) {
      (await s.plan(createPackIfPlan(ctx, { type, ...flags }))).encode(s.encoder, { input, output, count: n, packedCount: counted });
    } else {
      const u8 = flags instanceof Uint8Array;
      const f = u8 ? s.uploadBytes(flags) : s.upload(flags, 'flags');
      const options = { type, flags: u8 ? ('u8' as const) : ('u32' as const) };
      if (mode === 'split') {
        (await s.plan(createSplitPlan(ctx, options))).encode(s.encoder, { input, flags: f, output, count: n, falseCount: counted });
      } else {
        (await s.plan(createPackPlan(ctx, options))).encode(s.encoder, { input, flags: f, output, count: n, packedCount: counted });
      }
    }
    const readOut = s.readback(output, 4 * n);
    const readCount = s.readback(counted, 4);
    s.submit();
    // Both copies are in one submission; the count comes first so that pack copies only the kept
    // elements out of the mapping (split keeps all n).
    const count = new Uint32Array(await readCount())[0] as number;
    return { output: await readOut(mode === 'split' ? 4 * n : 4 * count), count };
  });
}

/**
 * Reduces the whole array with `op` (default `'add'`) on the GPU; the identity for an empty array.
 * With an `Operator` from `defineOperator`, the data holds its records and the result is a value
 * of its type (a number, a `number[]` for vectors, an object for records), combined in array order.
 *
 * @example
 * ```ts
 * await reduce(ctx, new Uint32Array([3, 1, 7]));              // 11
 * await reduce(ctx, new Float32Array([3, -1, 7]), { op: 'min' }); // -1
 * ```
 */
export async function reduce<T = number>(
  ctx: ScanContext,
  data: ScanTypedArray | HostArray,
  options?: { op?: 'add' | 'min' | 'max' | 'mul' | 'and' | 'or' | 'xor' | Operator<T> },
): Promise<T> {
  assertUsable(ctx);
  const given = checkOptions(options, ['op']);
  const user = userOperatorOf(given['op'], undefined);
  if (user) return operatorReduce(ctx, data as HostArray, user as Operator<T>);
  const type = checkData(data, 'data');
  checkArrayLength(ctx, data.length, 'data', 'buffer');
  userOperatorOf(given['op'], type);
  const op = checkOp(builtinNameOf(given['op']), type);
  return withSession(ctx, 'reduce', async (s) => {
    const plan = await s.plan(createReducePlan(ctx, { type, op }));
    const input = s.upload(data, 'reduce input');
    const output = s.buffer(4, 'reduce output');
    plan.encode(s.encoder, { input, output, count: data.length });
    const read = s.readback(output, 4);
    s.submit();
    return typedArrayOver(typedArrayFor(type, 0), await read())[0] as T;
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
  checkArrayLength(ctx, lengthOf(flags), 'flags', 'buffer'); // u8 flags go up as u32
  checkFlags(flags, lengthOf(flags), 'flags');
  const backward = checkBoolean(checkOptions(options, ['backward']).backward, 'options.backward', false);
  const n = flags.length;
  if (n === 0) return new Uint32Array(0);
  return withSession(ctx, 'enumerate', async (s) => {
    const plan = await s.plan(createEnumeratePlan(ctx, { backward }));
    const input = s.uploadFlags(flags);
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
  checkArrayLength(ctx, data.length, 'data', 'buffer');
  const backward = checkBoolean(checkOptions(options, ['backward']).backward, 'options.backward', false);
  const n = data.length;
  if (n === 0) return typedArrayFor(type, 0) as A;
  return withSession(ctx, 'distribute', async (s) => {
    const plan = await s.plan(createDistributePlan(ctx, { type, backward }));
    const input = s.upload(data, 'distribute input');
    const output = s.buffer(4 * n, 'distribute output');
    plan.encode(s.encoder, { input, output, count: n });
    const read = s.readback(output, 4 * n);
    s.submit();
    return typedArrayOver(data, await read());
  });
}

/**
 * Stable split: the elements whose flag is 0, in order, then those whose flag is 1, in order, and
 * how many were 0. Flags must be 0 or 1 and as long as the data. The data must fit one storage
 * binding (`maxStorageBufferBindingSize`): longer data is a `TOO_LARGE` `ScanError` naming `data`,
 * thrown before any GPU work.
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
  checkArrayLength(ctx, data.length, 'data');
  checkFlags(flags, data.length, 'flags');
  const n = data.length;
  if (n === 0) return { output: typedArrayFor(type, 0) as A, falseCount: 0 };
  const { output, count } = await scatterOnGpu(ctx, 'split', data, flags);
  return { output: typedArrayOver(data, output), falseCount: count };
}

/**
 * Pack (stream compaction): a new array of the elements whose flag is 1, in order. The data must
 * fit one storage binding, as for {@link split}.
 *
 * @example
 * ```ts
 * await pack(ctx, new Float32Array([1.5, 2.5, 3.5]), new Uint8Array([1, 0, 1])); // [1.5, 3.5]
 * ```
 */
export async function pack<A extends ScanTypedArray>(ctx: ScanContext, data: A, flags: Uint32Array | Uint8Array): Promise<A> {
  assertUsable(ctx);
  const type = checkData(data, 'data');
  checkArrayLength(ctx, data.length, 'data');
  checkFlags(flags, data.length, 'flags');
  const n = data.length;
  if (n === 0) return typedArrayFor(type, 0) as A;
  const { output } = await scatterOnGpu(ctx, 'pack', data, flags);
  return typedArrayOver(data, output);
}

/**
 * Pack by a predicate: a new array of the elements `x` for which `x op value` holds, in order,
 * compared in the array's element type — no flags array needed. `value` must be exact in that type.
 * Comparisons with NaN are false (`'ne'`: true), as in JavaScript. The data must fit one storage
 * binding, as for {@link split}.
 *
 * @example
 * ```ts
 * await packIf(ctx, new Float32Array([0.2, 0.9, 0.7]), { op: 'gt', value: 0.5 }); // [0.9, 0.7]
 * await packIf(ctx, new Uint32Array([0, 3, 0, 5]), { op: 'ne', value: 0 });     // [3, 5]
 * ```
 */
export async function packIf<A extends ScanTypedArray>(ctx: ScanContext, data: A, options: { op: CompareOp; value: number }): Promise<A> {
  assertUsable(ctx);
  const type = checkData(data, 'data');
  checkArrayLength(ctx, data.length, 'data');
  const { op, value } = checkPredicate(options, type);
  const n = data.length;
  if (n === 0) return typedArrayFor(type, 0) as A;
  const { output } = await scatterOnGpu(ctx, 'packIf', data, { op, value });
  return typedArrayOver(data, output);
}
