import { assertUsable, type ScanContext } from '../context.js';
import { typedArrayFor, typedArrayOver } from '../element-types.js';
import { invalidArgument } from '../errors.js';
import { createArgMaxPlan, createArgMinPlan } from '../plans/arg-extremum-plan.js';
import { checkArrayLength, checkData } from '../validate.js';
import { withSession } from './session.js';

/**
 * The least element of `data` and the lowest index where it occurs, on the GPU. Elements compare in
 * core's element order: u32 and i32 by value; f32 by −∞ < … < −0 < +0 < … < +∞ < NaN with every NaN
 * equal (the order of `Float32Array.prototype.sort` and of `@scan/sort`), so a NaN is the result only
 * when every element is NaN, and −0 is less than +0. An empty array has no least element: it is
 * rejected (`INVALID_ARGUMENT` naming `data`). One pass over the data (see `createArgMinPlan`).
 *
 * @example
 * ```ts
 * const { value, index } = await argMin(ctx, new Float32Array([3, -1, 7, -1])); // { value: -1, index: 1 }
 * ```
 */
export function argMin(ctx: ScanContext, data: Uint32Array | Int32Array | Float32Array): Promise<{ value: number; index: number }> {
  return argExtremum(ctx, data, 'min');
}

/**
 * The greatest element of `data` and the lowest index where it occurs, on the GPU, in core's
 * element order (f32: NaN is greatest, so the first NaN wins if there is one, as with
 * `torch.argmax`). An empty array is rejected (`INVALID_ARGUMENT` naming `data`).
 *
 * @example
 * ```ts
 * const { value, index } = await argMax(ctx, new Int32Array([3, 7, -1, 7])); // { value: 7, index: 1 }
 * ```
 */
export function argMax(ctx: ScanContext, data: Uint32Array | Int32Array | Float32Array): Promise<{ value: number; index: number }> {
  return argExtremum(ctx, data, 'max');
}

async function argExtremum(
  ctx: ScanContext,
  data: Uint32Array | Int32Array | Float32Array,
  which: 'min' | 'max',
): Promise<{ value: number; index: number }> {
  assertUsable(ctx);
  const type = checkData(data, 'data');
  checkArrayLength(ctx, data.length, 'data', 'buffer');
  if (data.length === 0) invalidArgument('data', data, `an empty array has no ${which === 'min' ? 'least' : 'greatest'} element`);
  return withSession(ctx, `arg${which}`, async (s) => {
    const plan = await s.plan((which === 'min' ? createArgMinPlan : createArgMaxPlan)(ctx, { type }));
    const input = s.upload(data, `arg${which} input`);
    const output = s.buffer(8, `arg${which} output`);
    plan.encode(s.encoder, { input, output, count: data.length });
    const read = s.readback(output, 8);
    s.submit();
    const bytes = await read();
    const index = new Uint32Array(bytes, 4, 1)[0] as number;
    const value = typedArrayOver(typedArrayFor(type, 0), bytes.slice(0, 4))[0] as number;
    return { value, index };
  });
}
