import type { HostArray, Operator, ScanContext } from '@scan/core';
import { checkHostArray, checkOperatorCompiles, hostArrayOver, newHostArray, recordBytes, withSession, writeRecord } from '@scan/core/kit';
import { packHeadFlags } from '../cpu/pack-head-flags.js';
import { createOperatorSegmentedPlan } from '../plans/operator-segmented-plan.js';
import type { HeadFlags } from '../types.js';

/**
 * `segmentedScan` with a user-defined operator: the records of `data` scanned within each segment
 * on the GPU, in array order, resolving to the same typed-array class. `headFlags` has one flag per
 * record (checked by the caller).
 *
 * @example
 * ```ts
 * const out = await operatorSegmentedScan(ctx, balances, new Uint8Array([1, 0, 1, 0]), account, { inclusive: true, backward: false });
 * ```
 */
export async function operatorSegmentedScan<A extends HostArray>(
  ctx: ScanContext,
  data: A,
  headFlags: HeadFlags,
  op: Operator<unknown>,
  options: { inclusive: boolean; backward: boolean },
): Promise<A> {
  const n = checkHostArray(op, data, 'data');
  await checkOperatorCompiles(ctx, op, 'options.op');
  const bytes = n * op.bytes;
  if (n === 0) return hostArrayOver(data, new ArrayBuffer(0), 0);
  return withSession(ctx, 'segmentedScan', async (s) => {
    const plan = await s.plan(
      createOperatorSegmentedPlan(ctx, {
        op,
        mode: 'scan',
        ...options,
        maxCount: undefined,
        maxChunkRecords: undefined,
        forceFallback: false,
      }),
    );
    const input = s.upload(data, 'segmented scan input');
    const headBits = s.upload(packHeadFlags(headFlags), 'segmented scan head bits');
    const output = s.buffer(recordBytes(n, op.bytes), 'segmented scan output');
    plan.encode(s.encoder, { input, headBits, output, count: n });
    const read = s.readback(output, recordBytes(n, op.bytes));
    s.submit();
    return hostArrayOver(data, await read(), bytes);
  });
}

/**
 * `segmentedReduce` with a user-defined operator: one record per segment (head flags, or offsets
 * whose empty segments get the identity), combined in array order on the GPU, in the input's
 * typed-array class. `headFlags` are the non-empty segments' heads, `offsets` (when given) the
 * segments the caller asked for.
 *
 * @example
 * ```ts
 * const totals = await operatorSegmentedReduce(ctx, data, heads, undefined, matrix);
 * ```
 */
export async function operatorSegmentedReduce<A extends HostArray>(
  ctx: ScanContext,
  data: A,
  headFlags: HeadFlags,
  offsets: Uint32Array | undefined,
  op: Operator<unknown>,
): Promise<A> {
  const n = checkHostArray(op, data, 'data');
  await checkOperatorCompiles(ctx, op, 'options.op');
  let nonEmpty = 0;
  for (let i = 0; i < n; i++) nonEmpty += headFlags[i] === 1 || i === 0 ? 1 : 0;
  const compact =
    n === 0
      ? newHostArray(op, data, 0)
      : await withSession(ctx, 'segmentedReduce', async (s) => {
          const plan = await s.plan(
            createOperatorSegmentedPlan(ctx, {
              op,
              mode: 'reduce',
              inclusive: true,
              backward: false,
              maxCount: undefined,
              maxChunkRecords: undefined,
              forceFallback: false,
            }),
          );
          const input = s.upload(data, 'segmented reduce input');
          const headBits = s.upload(packHeadFlags(headFlags), 'segmented reduce head bits');
          const output = s.buffer(recordBytes(nonEmpty, op.bytes), 'segmented reduce output');
          plan.encode(s.encoder, { input, headBits, output, count: n, segments: nonEmpty });
          const read = s.readback(output, recordBytes(nonEmpty, op.bytes));
          s.submit();
          return hostArrayOver(data, await read(), nonEmpty * op.bytes);
        });
  if (!offsets) return compact;
  // Offsets may hold empty segments: the non-empty ones' results in order, the identity between.
  const segments = offsets.length - 1;
  const out = newHostArray(op, data, segments);
  const bytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  const from = new Uint8Array(compact.buffer, compact.byteOffset, compact.byteLength);
  for (let k = 0, j = 0; k < segments; k++) {
    if ((offsets[k + 1] as number) > (offsets[k] as number)) {
      bytes.set(from.subarray(j * op.bytes, (j + 1) * op.bytes), k * op.bytes);
      j++;
    } else {
      writeRecord(op, out, k, op.identity);
    }
  }
  return out;
}
