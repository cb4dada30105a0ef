import type { ScanContext } from '@scan/core';
import { setVerifyKernelKeys } from '@scan/core/kit';
import { createNodeContext } from '@scan/core/node';

// As in the browser tests (device.ts): every kernel key is held to its WGSL; a cache hit whose generator now gives other WGSL fails.
setVerifyKernelKeys(true);

/** Options of {@link getNodeTestContext}: those of `createNodeContext`. */
export type NodeTestContextOptions = Parameters<typeof createNodeContext>[0];

// Dawn in Node is expensive to start (SwiftShader compiles every pipeline again), so tests without
// options share one context per process.
let shared: Promise<ScanContext> | undefined;

/**
 * A `ScanContext` for Node tests through `createNodeContext` (Dawn via the `webgpu` package,
 * SwiftShader when there is no GPU). Without options, one context is shared per test process;
 * with options, a new one is created (destroy it when done).
 *
 * @example
 * ```ts
 * const ctx = await getNodeTestContext();
 * const toggled = await getNodeTestContext({ toggles: ['disable_timestamp_quantization'] });
 * ```
 */
export async function getNodeTestContext(options?: NodeTestContextOptions): Promise<ScanContext> {
  if (options !== undefined) return createNodeContext(options);
  if (!shared) {
    const pending = createNodeContext();
    shared = pending;
    pending.catch(() => {
      if (shared === pending) shared = undefined;
    });
  }
  return shared;
}
