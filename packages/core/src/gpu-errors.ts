import { assertUsable, type ScanContext } from './context.js';
import { ScanError } from './errors.js';

/**
 * Runs `work` inside validation, out-of-memory and internal error scopes and turns what they catch
 * into a rejected {@link ScanError} (`GPU_ERROR`, or `TOO_LARGE` for out-of-memory). A lost device
 * rejects with `DEVICE_LOST` instead of leaving the promise pending.
 *
 * @example
 * ```ts
 * const out = await runGuarded(ctx, 'scan', async () => { ...encode, submit, read back... });
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
  }
  const scopes =
    ctx.lostReason === undefined ? await Promise.all([device.popErrorScope(), device.popErrorScope(), device.popErrorScope()]) : [];
  const [validation, oom, internal] = scopes;
  if (oom) throw new ScanError('TOO_LARGE', `${what}: the device ran out of memory: ${oom.message}`, { cause: oom });
  if (validation) throw new ScanError('GPU_ERROR', `${what}: WebGPU validation error: ${validation.message}`, { cause: validation });
  if (internal) throw new ScanError('GPU_ERROR', `${what}: WebGPU internal error: ${internal.message}`, { cause: internal });
  if (failed) {
    if (thrown instanceof ScanError) throw thrown;
    throw new ScanError('GPU_ERROR', `${what}: ${thrown instanceof Error ? thrown.message : String(thrown)}`, { cause: thrown });
  }
  return result as T;
}
