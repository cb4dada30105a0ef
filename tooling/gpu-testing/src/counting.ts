/** GPU objects a device made while it was counted. */
export interface DeviceCounts {
  buffers: number;
  bindGroups: number;
  /** `createComputePipeline` and `createComputePipelineAsync` calls together. */
  pipelines: number;
}

/** A device whose object creations are being counted; see {@link countDeviceCalls}. */
export interface CountedDevice {
  /** What was created since the last `reset` (or since counting started). */
  readonly counts: DeviceCounts;
  /** Buffers created while counting and not destroyed yet. */
  readonly live: ReadonlySet<GPUBuffer>;
  /** Starts the counts (not the live set) from zero. */
  reset(): void;
  /** Puts the device's own methods back. */
  restore(): void;
}

type Creator = (...args: never[]) => unknown;

/**
 * Counts the buffers, bind groups and compute pipelines `device` creates until `restore()`, and
 * keeps the buffers created meanwhile that are not destroyed yet (`live`). It replaces the methods
 * on the device object itself (own properties), so code that holds the device — and the pipeline
 * cache keyed by it — is counted too. Tests use it to hold plans to "no allocation per frame" and
 * to "`destroy()` frees everything".
 *
 * @example
 * ```ts
 * const counted = countDeviceCalls(ctx.device);
 * try {
 *   plan.encode(encoder, { input, output, count: 100 });
 *   expect(counted.counts.buffers).toBe(0);
 * } finally {
 *   counted.restore();
 * }
 * ```
 */
export function countDeviceCalls(device: GPUDevice): CountedDevice {
  const counts: DeviceCounts = { buffers: 0, bindGroups: 0, pipelines: 0 };
  const live = new Set<GPUBuffer>();
  const target = device as unknown as Record<string, Creator>;
  const replaced: string[] = [];
  const wrap = (name: string, after: (result: unknown) => void) => {
    const original = target[name] as Creator;
    replaced.push(name);
    target[name] = ((...args: never[]) => {
      const result = original.apply(device, args);
      after(result);
      return result;
    }) as Creator;
  };
  wrap('createBuffer', (result) => {
    counts.buffers++;
    const buffer = result as GPUBuffer;
    live.add(buffer);
    const destroy = buffer.destroy.bind(buffer);
    (buffer as { destroy: () => void }).destroy = () => {
      live.delete(buffer);
      destroy();
    };
  });
  wrap('createBindGroup', () => {
    counts.bindGroups++;
  });
  wrap('createComputePipeline', () => {
    counts.pipelines++;
  });
  wrap('createComputePipelineAsync', () => {
    counts.pipelines++;
  });
  return {
    counts,
    live,
    reset() {
      counts.buffers = 0;
      counts.bindGroups = 0;
      counts.pipelines = 0;
    },
    restore() {
      // The originals live on the prototype: removing the own properties brings them back.
      for (const name of replaced) delete target[name];
    },
  };
}
