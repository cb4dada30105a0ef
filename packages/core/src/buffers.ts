import type { ScanContext } from './context.js';
import { ScanError } from './errors.js';

/**
 * `GPUBufferUsage` flags, defined here because Node has the global only after `webgpu` loads and
 * this module must load first. The values are fixed by the WebGPU specification.
 */
export const BufferUsage = {
  MAP_READ: 0x0001,
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
  const size = Math.max(16, Math.ceil(byteLength / 16) * 16);
  checkBufferSize(ctx, size, label ?? 'buffer');
  return ctx.device.createBuffer({ size, usage: STORAGE_USAGE, ...(label ? { label } : {}) });
}

/** Throws `TOO_LARGE` when a buffer of `size` bytes is past the device's `maxBufferSize`. */
export function checkBufferSize(ctx: ScanContext, size: number, what: string): void {
  if (size > ctx.caps.limits.maxBufferSize) {
    throw new ScanError('TOO_LARGE', `${what}: ${size} bytes is past the device's maxBufferSize (${ctx.caps.limits.maxBufferSize})`);
  }
}

/**
 * Uploads a typed array into a new storage buffer (padded to 16 bytes).
 *
 * @example
 * ```ts
 * const input = uploadArray(ctx, new Uint32Array([1, 2, 3]), 'input');
 * ```
 */
export function uploadArray(ctx: ScanContext, data: ArrayBufferView, label?: string): GPUBuffer {
  const buffer = createStorageBuffer(ctx, data.byteLength, label);
  if (data.byteLength > 0) {
    ctx.device.queue.writeBuffer(buffer, 0, data.buffer, data.byteOffset, data.byteLength);
  }
  return buffer;
}

/**
 * Encodes a copy of `byteLength` bytes of `source` into a new mappable buffer and returns a
 * function that, after the encoder is submitted, maps it and resolves to a copy of the bytes.
 *
 * @example
 * ```ts
 * const read = encodeReadback(ctx, encoder, output, 0, 4 * n);
 * ctx.device.queue.submit([encoder.finish()]);
 * const bytes = await read();
 * ```
 */
export function encodeReadback(
  ctx: ScanContext,
  encoder: GPUCommandEncoder,
  source: GPUBuffer,
  byteOffset: number,
  byteLength: number,
): () => Promise<ArrayBuffer> {
  if (byteLength === 0) return async () => new ArrayBuffer(0);
  const size = Math.ceil(byteLength / 4) * 4;
  const staging = ctx.device.createBuffer({ size, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST, label: 'readback' });
  encoder.copyBufferToBuffer(source, byteOffset, staging, 0, size);
  return async () => {
    try {
      await staging.mapAsync(0x0001 /* GPUMapMode.READ */);
      return staging.getMappedRange().slice(0, byteLength);
    } finally {
      staging.destroy();
    }
  };
}
