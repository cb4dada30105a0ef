import type { ScanContext } from '../context.js';
import { checkHostArray, type HostArray, hostArrayOver, readRecord } from '../operators/host-records.js';
import { checkOperatorCompiles } from '../operators/operator-compile-check.js';
import type { Operator } from '../operators/operator-type.js';
import { recordBytes } from '../plans/operator-ranges.js';
import { createOperatorReducePlan } from '../plans/operator-reduce-plan.js';
import { createOperatorScanPlan } from '../plans/operator-scan-plan.js';
import { withSession } from './session.js';

/**
 * `scan` with a user-defined operator: the records of `data` (its typed-array class and layout,
 * `op.bytes` each) scanned on the GPU in array order, resolving to the same class.
 *
 * @example
 * ```ts
 * const out = await operatorScan(ctx, new Float32Array([2, 1, 3, 4]), affine, { inclusive: true, backward: false });
 * ```
 */
export async function operatorScan<A extends HostArray>(
  ctx: ScanContext,
  data: A,
  op: Operator<unknown>,
  options: { inclusive: boolean; backward: boolean },
): Promise<A> {
  const n = checkHostArray(op, data, 'data');
  await checkOperatorCompiles(ctx, op, 'options.op');
  const bytes = n * op.bytes;
  if (n === 0) return hostArrayOver(data, new ArrayBuffer(0), 0);
  return withSession(ctx, 'scan', async (s) => {
    const plan = await s.plan(
      createOperatorScanPlan(ctx, { op, ...options, maxCount: undefined, maxChunkRecords: undefined, forceFallback: false }),
    );
    const input = s.upload(data, 'scan input');
    const output = s.buffer(recordBytes(n, op.bytes), 'scan output');
    plan.encode(s.encoder, { input, output, count: n });
    const read = s.readback(output, recordBytes(n, op.bytes));
    s.submit();
    return hostArrayOver(data, await read(), bytes);
  });
}

/**
 * `reduce` with a user-defined operator: `x0 ⊕ … ⊕ x(n−1)` in array order on the GPU, resolving to
 * a host value of the operator's type (a number, a `number[]` for vectors, an object for records);
 * the identity for no records.
 *
 * @example
 * ```ts
 * const best = await operatorReduce(ctx, new Float32Array([3, 0, 9, 1]), argmax); // { value: 9, index: 1 } as bits
 * ```
 */
export async function operatorReduce<T>(ctx: ScanContext, data: HostArray, op: Operator<T>): Promise<T> {
  const n = checkHostArray(op, data, 'data');
  await checkOperatorCompiles(ctx, op as Operator<unknown>, 'options.op');
  return withSession(ctx, 'reduce', async (s) => {
    const plan = await s.plan(createOperatorReducePlan(ctx, { op, maxCount: undefined, maxChunkRecords: undefined }));
    const input = s.upload(n === 0 ? new Uint32Array(1) : data, 'reduce input');
    const output = s.buffer(recordBytes(1, op.bytes), 'reduce output');
    plan.encode(s.encoder, { input, output, count: n });
    const read = s.readback(output, recordBytes(1, op.bytes));
    s.submit();
    const one = hostArrayOver(data, await read(), op.bytes);
    return readRecord(op, one, 0);
  });
}
