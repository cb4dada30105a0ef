/**
 * What the pipeline cache needs of a kernel: the key that identifies it and a generator of its
 * WGSL. Every kernel is a `defineKernel` kernel, whose key is derived from its family name and
 * specialization (`core/scan-decoupled-fallback|backward=false,…`), so it names everything the
 * generator depends on.
 */
export interface KernelSpec {
  /** Unique per distinct WGSL. */
  readonly key: string;
  /** Produces the WGSL source; called only on a cache miss. */
  readonly wgsl: () => string;
  /** Entry point (default `main`). */
  readonly entryPoint?: string;
}
