import { assertUsable, type ScanContext } from './context.js';
import { ScanError } from './errors.js';
import { subgroupVerdict } from './subgroup-probe.js';
import { subgroupsChecked } from './subgroups-checked.js';

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
  if (subgroupVerdict(ctx.device) === undefined) {
    // The work picks its kernels from ctx.caps: let the device's subgroup probe settle first (only
    // the first calls on a device wait; the probe is one small shader module).
    await subgroupsChecked(ctx);
    assertUsable(ctx);
  }
  const device = ctx.device;
  const lostBefore = lostBeforeStart(device);
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
    if (ctx.lostReason !== undefined) throw await lossError(ctx, what, lostBefore, e);
  }
  const scopes =
    ctx.lostReason === undefined ? await Promise.all([device.popErrorScope(), device.popErrorScope(), device.popErrorScope()]) : [];
  const [validation, oom, internal] = scopes;
  if (validation || internal) await settleLoss(ctx);
  if (ctx.lostReason !== undefined) throw await lossError(ctx, what, lostBefore, thrown ?? validation ?? internal);
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

/** Devices whose `lost` promise has settled, as seen by {@link lostBeforeStart}'s watcher. */
const lostDevices = new WeakSet<GPUDevice>();
const watchedDevices = new WeakSet<GPUDevice>();

/**
 * Whether `device` was lost before a call began, for a call beginning now. `device.destroy()` settles
 * `device.lost` only later (after a round trip to Chrome's GPU process, a task in Deno), so
 * `ctx.lostReason` is not set yet when a call follows it at once. But the device reports the loss
 * before it answers a request made after it (seen in Chrome, Dawn in Node and Deno): so the call
 * asks for `onSubmittedWorkDone` as it starts, and the answer is whether `lost` had settled by the
 * time that resolved. A device destroyed within that round trip after the call began counts as
 * lost before it. One watcher per device, not per call, so calls leave nothing attached to `lost`.
 */
function lostBeforeStart(device: GPUDevice): Promise<boolean> {
  if (!watchedDevices.has(device) && typeof device.lost?.then === 'function') {
    watchedDevices.add(device);
    device.lost.then(
      () => lostDevices.add(device),
      () => undefined,
    );
  }
  if (typeof device.queue?.onSubmittedWorkDone !== 'function') return Promise.resolve(false);
  const seen = () => lostDevices.has(device);
  return device.queue.onSubmittedWorkDone().then(seen, seen);
}

/**
 * The `DEVICE_LOST` error of a call whose context is no longer usable: in the form of the checks
 * at the start (`ctx: <reason>`, argument `ctx`) when the device was lost before the call began
 * (so it never ran), else `<call>: <reason>` (errors guide, "Device loss").
 */
async function lossError(ctx: ScanContext, what: string, lostBefore: Promise<boolean>, cause: unknown): Promise<ScanError> {
  // A lost device answers at once; the bound is for an implementation that never does.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), 100);
  });
  const before = await Promise.race([lostBefore, timeout]);
  clearTimeout(timer);
  if (before) return new ScanError('DEVICE_LOST', `ctx: ${ctx.lostReason}`, { argument: 'ctx', cause });
  return new ScanError('DEVICE_LOST', `${what}: ${ctx.lostReason}`, { cause });
}
