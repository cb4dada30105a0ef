import { Buffer } from '@luma.gl/core';
import { type CompiledGPUCommandGraph, GPUCommandGraph, type GraphDataView } from '@luma.gl/gpgpu/gpu-core';
import type { WebGPUBuffer, WebGPUDevice } from '@luma.gl/webgpu';

/** Usage of every caller-owned array: bound as storage, written from the host, read back. */
const ARRAY_USAGE = Buffer.STORAGE | Buffer.COPY_SRC | Buffer.COPY_DST;

/** The 32-bit formats the harness's arrays take (luma's names). */
export type ArrayFormat = 'uint32' | 'float32';

/** A caller-owned u32 (or f32) array: luma's buffer, its `GPUBuffer`, and the graph's view of it. */
export interface GraphArray<F extends ArrayFormat = 'uint32'> {
  readonly buffer: WebGPUBuffer;
  readonly gpu: GPUBuffer;
  readonly view: GraphDataView<F>;
  readonly length: number;
}

/**
 * Creates a u32 (`format` `'float32'`: f32) array of `length` rows on luma's device and imports it
 * into `graph` as a caller-owned buffer (the graph never frees it) with a packed view over it.
 *
 * @example
 * ```ts
 * const input = importArray(graph, luma, 'input', n);
 * const values = importArray(graph, luma, 'values', n, 'float32');
 * ```
 */
export function importArray<F extends ArrayFormat = 'uint32'>(
  graph: GPUCommandGraph,
  luma: WebGPUDevice,
  id: string,
  length: number,
  format: F = 'uint32' as F,
): GraphArray<F> {
  const byteLength = Math.max(16, 4 * length);
  const buffer = luma.createBuffer({ id, byteLength, usage: ARRAY_USAGE }) as WebGPUBuffer;
  const handle = graph.importBuffer({ id, byteLength, usage: ARRAY_USAGE }, buffer);
  const view = graph.createDataView(handle, { format, length }) as GraphDataView<F>;
  return { buffer, gpu: buffer.handle, view, length };
}

/**
 * luma's compiled graph, recorded into a caller-owned `GPUCommandEncoder` through a luma command
 * encoder that borrows it (`createCommandEncoder({ handle })`). luma records its passes only: it
 * never finishes or submits the encoder. Staging buffers luma may attach to the encoder for uploads
 * ordered with its passes are kept until the next `encode` (the caller waits for each run) and
 * counted in {@link LumaGraph.stagingUploads}.
 */
export class LumaGraph {
  private pendingUploads: WebGPUBuffer[] = [];
  /** Staging uploads luma recorded into the encoder over all runs (0 for the primitives timed here so far). */
  stagingUploads = 0;

  constructor(
    private readonly luma: WebGPUDevice,
    readonly compiled: CompiledGPUCommandGraph,
  ) {}

  /** Number of compute passes and graph nodes luma recorded in the last `encode`. */
  lastPasses = 0;
  lastNodes = 0;

  encode(encoder: GPUCommandEncoder): void {
    this.releaseUploads();
    const lumaEncoder = this.luma.createCommandEncoder({ id: 'luma-baseline encoder', handle: encoder });
    const encoding = this.compiled.encode(lumaEncoder, { parameters: undefined });
    const uploads = lumaEncoder.takeTransientUploadBuffers();
    this.stagingUploads += uploads.length;
    this.pendingUploads.push(...uploads);
    this.lastPasses = encoding.stats.computePassCount;
    this.lastNodes = encoding.stats.nodeCount;
    // Only drops luma's bookkeeping of the borrowed encoder; the GPUCommandEncoder stays open.
    lumaEncoder.destroy();
  }

  /**
   * The kernels luma chose, from its compiled graph's preflight report: each node's declared
   * `operation/variant` (e.g. `GPUScan/subgroups`, `GPUScan/portable`) with its count.
   */
  kernels(): string {
    const counts = new Map<string, number>();
    for (const node of this.compiled.preflight.nodes) {
      const name = [node.operation, node.variant].filter(Boolean).join('/') || node.type;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    return [...counts].map(([name, count]) => (count > 1 ? `${name} ×${count}` : name)).join(', ');
  }

  /** Compute passes and graph nodes of the last recording, staging uploads of all of them, the kernels. */
  stats(): Readonly<Record<string, string | number>> {
    return { computePasses: this.lastPasses, graphNodes: this.lastNodes, stagingUploads: this.stagingUploads, kernels: this.kernels() };
  }

  private releaseUploads(): void {
    for (const b of this.pendingUploads.splice(0)) b.destroy();
  }

  destroy(): void {
    this.releaseUploads();
    this.compiled.destroy();
  }
}

/**
 * Builds a one-shot command graph: `add` imports the arrays and adds luma's primitive; the graph
 * is compiled (pipelines, scratch buffers) before the first run.
 *
 * @example
 * ```ts
 * const { graph, arrays } = buildGraph(luma, 'scan', (g) => { ... });
 * ```
 */
export function buildGraph<T>(luma: WebGPUDevice, id: string, add: (graph: GPUCommandGraph) => T): { graph: LumaGraph; built: T } {
  const graph = new GPUCommandGraph(luma, { id });
  const built = add(graph);
  return { graph: new LumaGraph(luma, graph.compile()), built };
}
