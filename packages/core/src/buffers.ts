import type { ScanContext } from './context.js';
import { invalidArgument, ScanError } from './errors.js';
import { releaseReadStaging, takeReadStaging, writeToBuffer } from './staging.js';

/**
 * `GPUBufferUsage` flags, defined here because Node has the global only after `webgpu` loads and
 * this module must load first. The values are fixed by the WebGPU specification.
 */
export const BufferUsage = {
  MAP_READ: 0x0001,
  MAP_WRITE: 0x0002,
  COPY_SRC: 0x0004,
  COPY_DST: 0x0008,
  UNIFORM: 0x0040,
  STORAGE: 0x0080,
  INDIRECT: 0x0100,
  QUERY_RESOLVE: 0x0200,
} as const;

/** Usage of buffers the kernels read and write. */
export const STORAGE_USAGE = BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST;

/**
 * A storage buffer of at least `byteLength` bytes (rounded up to 16, never 0), usable as a kernel
 * input/output and as a copy source and destination.
 *
 * @example
 * ```ts
 * const out = createStorageBuffer(ctx, 4 * n, 'scan output');
 * ```
 */
export function createStorageBuffer(ctx: ScanContext, byteLength: number, label?: string): GPUBuffer {
  if (!Number.isSafeInteger(byteLength) || byteLength < 0) invalidArgument('byteLength', byteLength, 'expected a non-negative integer');
  return allocateStorage(ctx, byteLength, label, 'byteLength');
}

/** `createStorageBuffer` once the length is known to be valid; a buffer too large names `argument`. */
function allocateStorage(ctx: ScanContext, byteLength: number, label: string | undefined, argument: string): GPUBuffer {
  const size = Math.max(16, Math.ceil(byteLength / 16) * 16);
  checkBufferSize(ctx, size, label ?? 'buffer', argument);
  return ctx.device.createBuffer({ size, usage: STORAGE_USAGE, ...(label ? { label } : {}) });
}

/**
 * Throws `TOO_LARGE` naming `argument` (the caller's argument the size comes from) when a buffer of
 * `size` bytes is past the device's `maxBufferSize`.
 */
export function checkBufferSize(ctx: ScanContext, size: number, what: string, argument: string): void {
  if (size > ctx.caps.limits.maxBufferSize) {
    throw new ScanError(
      'TOO_LARGE',
      `${what}: ${argument} needs ${size} bytes, past the device's maxBufferSize (${ctx.caps.limits.maxBufferSize})`,
      { argument },
    );
  }
}

/**
 * Uploads a typed array of any byte length into a new storage buffer (padded with zeros to 16
 * bytes). Large arrays go through a staging buffer that the device keeps for the next upload (see
 * `staging.ts`: 4–5× faster than `writeBuffer` in Node on the lent H100); like `writeBuffer`, the
 * data is in place for any later submission.
 *
 * @example
 * ```ts
 * const input = uploadArray(ctx, new Uint32Array([1, 2, 3]), 'input');
 * ```
 */
export function uploadArray(ctx: ScanContext, data: ArrayBufferView, label?: string): GPUBuffer {
  if (!ArrayBuffer.isView(data)) invalidArgument('data', data, 'expected a typed array or DataView');
  const buffer = allocateStorage(ctx, data.byteLength, label, 'data');
  // WebGPU writes whole words: the last partial word (bytes of a Uint8Array, say) goes up zero-padded.
  const whole = data.byteLength - (data.byteLength % 4);
  if (whole > 0) writeToBuffer(ctx.device, buffer, 0, new Uint8Array(data.buffer, data.byteOffset, whole));
  if (whole < data.byteLength) {
    const tail = new Uint8Array(4);
    tail.set(new Uint8Array(data.buffer, data.byteOffset + whole, data.byteLength - whole));
    ctx.device.queue.writeBuffer(buffer, whole, tail);
  }
  return buffer;
}

/**
 * Encodes a copy of `byteLength` bytes of `source` into a mappable buffer (a large one reused from
 * the device's staging pool) and returns a function that, after the encoder is submitted, maps it
 * and resolves to a copy of the bytes: all of them, or the first `take` when the caller learnt
 * from another read-back how many it needs (a compaction's kept count), so that only those are
 * copied out of the mapping.
 *
 * @example
 * ```ts
 * const read = encodeReadback(ctx, encoder, output, 0, 4 * n);
 * ctx.device.queue.submit([encoder.finish()]);
 * const bytes = await read();        // 4·n bytes
 * const kept = await read(4 * count); // or only the first 4·count
 * ```
 */
export function encodeReadback(
  ctx: ScanContext,
  encoder: GPUCommandEncoder,
  source: GPUBuffer,
  byteOffset: number,
  byteLength: number,
): (take?: number) => Promise<ArrayBuffer> {
  if (byteLength === 0) return async () => new ArrayBuffer(0);
  const size = Math.ceil(byteLength / 4) * 4;
  const device = ctx.device;
  const staging = takeReadStaging(device, size);
  encoder.copyBufferToBuffer(source, byteOffset, staging, 0, size);
  return async (take = byteLength) => {
    let read = false;
    try {
      await staging.mapAsync(0x0001 /* GPUMapMode.READ */, 0, size);
      // The one host copy of the path: the mapping is gone after unmap, the copy stays.
      const bytes = staging.getMappedRange(0, size).slice(0, Math.min(take, byteLength));
      read = true;
      return bytes;
    } finally {
      releaseReadStaging(device, staging, read);
    }
  };
}
