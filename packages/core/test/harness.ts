// Core's test helpers: the shared batch helpers of @scan/gpu-testing (buffers with data, poisoned
// outputs, many plan encodes in one submission), and a typed view of a read-back.
import type { ScanTypedArray } from '../src/element-types.js';

export { bufferOf, type Job, POISON_U32, poisoned, runBatch } from '@scan/gpu-testing';

/** A typed array like `like` over `bytes`. */
export function asTyped<A extends ScanTypedArray>(like: A, bytes: ArrayBuffer): A {
  return new (like.constructor as new (b: ArrayBuffer) => A)(bytes);
}
