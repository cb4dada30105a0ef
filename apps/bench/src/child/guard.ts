import type { ScanContext } from '@scan/core';

/**
 * Runs `work` inside validation, out-of-memory and internal error scopes and rejects with the first
 * GPU error they caught, or with the device-lost reason if the device goes away meanwhile — a GPU
 * error must turn the case into an `error` row, never into a timing of garbage.
 *
 * @example
 * ```ts
 * const w = await guarded(ctx, 'setup', () => factory(ctx, c));
 * ```
 */
export async function guarded<T>(ctx: ScanContext, what: string, work: () => Promise<T>): Promise<T> {
  const device = ctx.device;
  device.pushErrorScope('internal');
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  const lost = device.lost.then((info) => {
    throw new Error(`${what}: device lost (${info.reason}): ${info.message}`);
  });
  // Nobody awaits `lost` once `work` is done; keep its rejection from ending the process.
  lost.catch(() => undefined);
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await Promise.race([work(), lost]) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  // A GPU error explains a failed or garbage result better than anything `work` saw: report it first.
  const errors = await Promise.race([Promise.all([device.popErrorScope(), device.popErrorScope(), device.popErrorScope()]), lost]);
  const first = errors.find((e) => e !== null);
  if (first) throw new Error(`${what}: GPU ${first.constructor.name}: ${first.message}`);
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
