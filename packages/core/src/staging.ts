// Reused staging buffers for host ↔ GPU transfers. Measured on the lent H100 in Node (2026-11-25,
// 64 MiB, tooling/node-suite's --transfer): `writeBuffer` ran at 1.1 GB/s and a new mappable buffer
// per read-back at 0.9 GB/s, while the same copies through a mappable buffer used before ran at
// 5.2 GB/s. Fresh host-visible memory pays a page fault per 4 KiB on first touch, which dominates
// on that host; a buffer already written once does not. So large transfers go through buffers kept
// per device, and small ones stay with writeBuffer and one-off buffers.

/** Transfers below this many bytes do not use the pool: page faults do not matter there. */
export const STAGING_MIN_BYTES = 1 << 20;
/** Idle staging kept per device and direction; larger buffers are destroyed after use. */
export const STAGING_IDLE_BYTES = 1 << 28;

const MAP_READ = 0x0001;
const MAP_WRITE = 0x0002;
const COPY_SRC = 0x0004;
const COPY_DST = 0x0008;

/** Idle staging buffers of one device, by direction: write ones are mapped, read ones are not. */
interface Pool {
  readonly write: GPUBuffer[];
  readonly read: GPUBuffer[];
}

const pools = new WeakMap<GPUDevice, Pool>();

function poolOf(device: GPUDevice): Pool {
  let pool = pools.get(device);
  if (!pool) {
    pool = { write: [], read: [] };
    pools.set(device, pool);
  }
  return pool;
}

/**
 * Power-of-two sizes from 1 MiB, so a buffer serves every transfer up to twice as small; never past
 * the device's `maxBufferSize` (a transfer that fits a buffer always fits its staging).
 */
function stagingSize(device: GPUDevice, bytes: number): number {
  const rounded = Math.max(STAGING_MIN_BYTES, 2 ** Math.ceil(Math.log2(bytes)));
  return Math.max(bytes, Math.min(rounded, Math.floor(device.limits.maxBufferSize / 4) * 4));
}

/** Takes the smallest idle buffer of at least `bytes` from `idle`, if any. */
function take(idle: GPUBuffer[], bytes: number): GPUBuffer | undefined {
  let best = -1;
  for (let i = 0; i < idle.length; i++) {
    if (idle[i]!.size >= bytes && (best < 0 || idle[i]!.size < idle[best]!.size)) best = i;
  }
  return best < 0 ? undefined : idle.splice(best, 1)[0];
}

/** Keeps `buffer` for reuse while the idle bytes stay under {@link STAGING_IDLE_BYTES}. */
function keep(idle: GPUBuffer[], buffer: GPUBuffer): void {
  const idleBytes = idle.reduce((sum, b) => sum + b.size, 0);
  if (idleBytes + buffer.size <= STAGING_IDLE_BYTES) idle.push(buffer);
  else buffer.destroy();
}

/**
 * Writes `data` into `target` at `offset` (a multiple of 4; `data.byteLength` too) on the queue,
 * before any later submission, as `queue.writeBuffer` does: large writes through a reused mapped
 * staging buffer and a copy, small ones through `writeBuffer`.
 *
 * @example
 * ```ts
 * writeToBuffer(device, input, 0, hostArray);
 * ```
 */
export function writeToBuffer(device: GPUDevice, target: GPUBuffer, offset: number, data: ArrayBufferView): void {
  const bytes = data.byteLength;
  if (bytes < STAGING_MIN_BYTES) {
    device.queue.writeBuffer(target, offset, data.buffer, data.byteOffset, bytes);
    return;
  }
  const pool = poolOf(device);
  const staging =
    take(pool.write, bytes) ??
    device.createBuffer({ size: stagingSize(device, bytes), usage: MAP_WRITE | COPY_SRC, mappedAtCreation: true, label: 'upload staging' });
  new Uint8Array(staging.getMappedRange(0, bytes)).set(new Uint8Array(data.buffer, data.byteOffset, bytes));
  staging.unmap();
  const encoder = device.createCommandEncoder({ label: 'upload' });
  encoder.copyBufferToBuffer(staging, 0, target, offset, bytes);
  device.queue.submit([encoder.finish()]);
  // Mapping again waits for the copy; the buffer is idle (and mapped, ready to write) after it.
  staging.mapAsync(MAP_WRITE).then(
    () => keep(pool.write, staging),
    () => staging.destroy(),
  );
}

/**
 * A mappable buffer of at least `bytes` to copy GPU data into for reading: an idle one of the
 * device's pool for large transfers, else a new one. Hand it back with {@link releaseReadStaging}.
 *
 * @example
 * ```ts
 * const staging = takeReadStaging(device, 4 * n);
 * encoder.copyBufferToBuffer(output, 0, staging, 0, 4 * n);
 * ```
 */
export function takeReadStaging(device: GPUDevice, bytes: number): GPUBuffer {
  if (bytes < STAGING_MIN_BYTES) return device.createBuffer({ size: bytes, usage: MAP_READ | COPY_DST, label: 'readback' });
  return (
    take(poolOf(device).read, bytes) ??
    device.createBuffer({ size: stagingSize(device, bytes), usage: MAP_READ | COPY_DST, label: 'readback staging' })
  );
}

/**
 * Returns a read staging buffer after its mapping was read: unmapped and kept for reuse when it is
 * a pooled size and the read succeeded, destroyed otherwise.
 *
 * @example
 * ```ts
 * try { await staging.mapAsync(GPUMapMode.READ); bytes = staging.getMappedRange().slice(0); }
 * finally { releaseReadStaging(device, staging, ok); }
 * ```
 */
export function releaseReadStaging(device: GPUDevice, staging: GPUBuffer, reusable: boolean): void {
  if (!reusable || staging.size < STAGING_MIN_BYTES) {
    staging.destroy();
    return;
  }
  staging.unmap();
  keep(poolOf(device).read, staging);
}

/**
 * Bytes of idle staging the device keeps, by direction (for tests and diagnostics).
 *
 * @example
 * ```ts
 * idleStagingBytes(ctx.device); // { write: 4194304, read: 0 } after one 3 MiB upload
 * ```
 */
export function idleStagingBytes(device: GPUDevice): { write: number; read: number } {
  const pool = pools.get(device);
  const sum = (buffers: readonly GPUBuffer[] | undefined) => (buffers ?? []).reduce((total, b) => total + b.size, 0);
  return { write: sum(pool?.write), read: sum(pool?.read) };
}
