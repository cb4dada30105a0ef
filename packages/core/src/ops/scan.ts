import type { ScanContext } from '../context.js';
import { assertUsable } from '../context.js';
import { type ScanTypedArray, typedArrayFor, typedArrayOver } from '../element-types.js';
import type { HostArray } from '../operators/host-records.js';
import type { Operator } from '../operators/operator-type.js';
import { builtinNameOf, checkOperatorAlgorithm, userOperatorOf } from '../operators/user-operator.js';
import { createScanPlan } from '../plans/scan-plan.js';
import type { ScanAlgorithm } from '../plans/types.js';
import { checkArrayLength, checkData, checkOptions, normalizeScanOptions } from '../validate.js';
import { operatorScan } from './operator-ops.js';
import { withSession } from './session.js';

/** Options of {@link scan}. */
export interface ScanOptions {
  /**
   * Operator (default `'add'`): a built-in name (`and`/`or`/`xor` need integer data) or an
   * `Operator` from `defineOperator`, whose records the data holds.
   */
  // biome-ignore lint/suspicious/noExplicitAny: any operator's record type
  op?: 'add' | 'min' | 'max' | 'mul' | 'and' | 'or' | 'xor' | Operator<any>;
  /** Include each element in its own result (default false: exclusive, starting at the identity). */
  inclusive?: boolean;
  /** Scan from the last element to the first. */
  backward?: boolean;
  /** Algorithm (default `'auto'`, which is `'decoupled-fallback'`). */
  algorithm?: ScanAlgorithm;
}

/**
 * Prefix scan on the GPU: resolves to a new array of the same type. Exclusive by default
 * (`out[0]` is the identity, `out[i] = data[0] ⊕ … ⊕ data[i-1]`); integer arithmetic wraps.
 * `data` is not modified.
 *
 * @example
 * ```ts
 * await scan(ctx, new Uint32Array([3, 1, 7, 0, 4]));                      // [0, 3, 4, 11, 11]
 * await scan(ctx, new Int32Array([3, 1, 7]), { op: 'max', inclusive: true }); // [3, 3, 7]
 * await scan(ctx, new Float32Array([1, 2, 3]), { backward: true });        // [5, 3, 0]
 * ```
 */
export async function scan<A extends ScanTypedArray | HostArray>(ctx: ScanContext, data: A, options?: ScanOptions): Promise<A> {
  assertUsable(ctx);
  const given = checkOptions(options, ['op', 'inclusive', 'backward', 'algorithm']);
  const user = userOperatorOf(given['op'], undefined);
  if (user) {
    // A user-defined operator: its own single-pass kernel over the records (operator-scan.ts).
    const { inclusive, backward, algorithm } = normalizeScanOptions({ ...given, op: undefined }, 'u32');
    checkOperatorAlgorithm(algorithm, user);
    return operatorScan(ctx, data as HostArray, user, { inclusive, backward }) as Promise<A>;
  }
  const type = checkData(data, 'data');
  checkArrayLength(ctx, data.length, 'data', 'buffer');
  userOperatorOf(given['op'], type);
  const opts = normalizeScanOptions({ ...given, op: builtinNameOf(given['op']) }, type);
  const n = data.length;
  if (n === 0) return typedArrayFor(type, 0) as A;
  return withSession(ctx, 'scan', async (s) => {
    const plan = await s.plan(createScanPlan(ctx, { type, ...opts }));
    const input = s.upload(data, 'scan input');
    const output = s.buffer(4 * n, 'scan output');
    plan.encode(s.encoder, { input, output, count: n });
    const read = s.readback(output, 4 * n);
    s.submit();
    return typedArrayOver(data as ScanTypedArray, await read()) as A;
  });
}
