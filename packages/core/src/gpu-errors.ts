import { assertUsable, type ScanContext } from './context.js';
import { ScanError } from './errors.js';

/**
 * Runs `work` inside validation, out-of-memory and internal error scopes and turns what they catch
 * into a rejected {@link ScanError} (`GPU_ERROR`, or `TOO_LARGE` for out-of-memory). A lost device
 * rejects with `DEVICE_LOST` instead of leaving the promise pending.
 *
 * @example
 * ```ts
 * const out = await runGuarded(ctx, 'scan', async () => {
 *   // encode, submit, read back; return the result
 * });
 * ```
 */
export async function runGuarded<T>(ctx: ScanContext, what: string, work: () => Promise<T>): Promise<T> {
  assertUsable(ctx);
  const device = ctx.device;
  device.pushErrorScope('internal');
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  let result: T | undefined;
  let thrown: unknown;
  let failed = false;
  try {
    result = await Promise.race([work(), ctx.lost]);
  } catch (e) {
    failed = true;
    thrown = e;
    await settleLoss(ctx);
    if (ctx.lostReason !== undefined) throw new ScanError('DEVICE_LOST', `${what}: ${ctx.lostReason}`, { cause: e });
  }
  const scopes =
    ctx.lostReason === undefined ? await Promise.all([device.popErrorScope(), device.popErrorScope(), device.popErrorScope()]) : [];
  const [validation, oom, internal] = scopes;
  if (validation || internal) await settleLoss(ctx);
  if (ctx.lostReason !== undefined)
    throw new ScanError('DEVICE_LOST', `${what}: ${ctx.lostReason}`, { cause: thrown ?? validation ?? internal });
  if (oom) throw new ScanError('TOO_LARGE', `${what}: the device ran out of memory: ${oom.message}`, { cause: oom });
  if (validation) throw new ScanError('GPU_ERROR', `${what}: WebGPU validation error: ${validation.message}`, { cause: validation });
  if (internal) throw new ScanError('GPU_ERROR', `${what}: WebGPU internal error: ${internal.message}`, { cause: internal });
  if (failed) {
    if (thrown instanceof ScanError) throw thrown;
    throw new ScanError('GPU_ERROR', `${what}: ${thrown instanceof Error ? thrown.message : String(thrown)}`, { cause: thrown });
  }
  return result as T;
}

/**
 * A destroyed or lost device aborts pending maps and fails commands before its `lost` promise
 * settles. After a failure, give that promise a moment, so the caller is told the cause
 * (DEVICE_LOST) rather than the symptom.
 */
async function settleLoss(ctx: ScanContext): Promise<void> {
  if (ctx.lostReason !== undefined) return;
  await Promise.race([ctx.lost.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 100))]);
}
