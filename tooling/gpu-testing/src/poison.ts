// Outputs are filled with a sentinel before each GPU run, so an element a kernel forgot to write
// keeps a recognisable value instead of a stale zero that might happen to be right.

/** The sentinel written into outputs before a GPU run. */
export const POISON_U32 = 0xdeadbeef;

/** Largest piece written at once, so poisoning a big buffer does not need one huge host array. */
const CHUNK_BYTES = 1 << 24;

/**
 * Fills the first `byteLength` bytes of `buffer` (rounded up to whole 32-bit words) with
 * {@link POISON_U32} through `queue.writeBuffer`; the buffer needs `COPY_DST` usage. Queue order
 * puts the fill before any later submitted work.
 *
 * @example
 * ```ts
 * const output = createStorageBuffer(ctx, 4 * n);
 * poisonBuffer(ctx, output, 4 * n);
 * plan.encode(encoder, { input, output, count: n });
 * ```
 */
export function poisonBuffer(ctx: { readonly device: GPUDevice }, buffer: GPUBuffer, byteLength: number): void {
  const total = Math.min(Math.ceil(byteLength / 4) * 4, buffer.size);
  if (total <= 0) return;
  const pattern = new Uint32Array(Math.min(total, CHUNK_BYTES) / 4).fill(POISON_U32);
  for (let offset = 0; offset < total; offset += CHUNK_BYTES) {
    const size = Math.min(CHUNK_BYTES, total - offset);
    ctx.device.queue.writeBuffer(buffer, offset, pattern.buffer, 0, size);
  }
}

/**
 * Whether a 32-bit word is the poison sentinel (pass the bits: for f32 data read them through a
 * `Uint32Array` view, since the sentinel is a float like any other).
 *
 * @example
 * ```ts
 * const words = new Uint32Array(result.buffer, result.byteOffset, result.length);
 * const unwritten = words.findIndex(isPoison);
 * ```
 */
export function isPoison(bits: number): boolean {
  return bits >>> 0 === POISON_U32;
}
