// How long a device spends creating compute pipelines, per package: the device's
// createComputePipeline (synchronous) and createComputePipelineAsync (until its promise settles)
// are wrapped as own properties of the one device object, and each creation is charged to the
// group set when it was asked for (the runners set the package of the case they run).

/** Milliseconds and pipelines per label prefix. */
export interface PipelineTimes {
  readonly byGroup: ReadonlyMap<string, { ms: number; pipelines: number }>;
  /** Charges later creations to `group` (a case's package). */
  setGroup(group: string): void;
  /** Puts the device's own methods back. */
  restore(): void;
}

/**
 * Starts timing the pipelines `device` creates.
 *
 * @example
 * ```ts
 * const times = timePipelines(ctx.device);
 * times.setGroup('sort');
 * await sort(ctx, keys);
 * times.byGroup.get('sort'); // { ms: 812, pipelines: 7 }
 * ```
 */
export function timePipelines(device: GPUDevice): PipelineTimes {
  const byGroup = new Map<string, { ms: number; pipelines: number }>();
  let group = 'other';
  const charge = (to: string, ms: number) => {
    const entry = byGroup.get(to) ?? { ms: 0, pipelines: 0 };
    entry.ms += ms;
    entry.pipelines++;
    byGroup.set(to, entry);
  };
  const own = device as unknown as Record<string, unknown>;
  const sync = device.createComputePipeline;
  const async = device.createComputePipelineAsync;
  own.createComputePipeline = (descriptor: GPUComputePipelineDescriptor) => {
    const start = performance.now();
    const pipeline = sync.call(device, descriptor);
    charge(group, performance.now() - start);
    return pipeline;
  };
  own.createComputePipelineAsync = (descriptor: GPUComputePipelineDescriptor) => {
    const start = performance.now();
    const charged = group;
    return async.call(device, descriptor).finally(() => charge(charged, performance.now() - start));
  };
  return {
    byGroup,
    setGroup(next) {
      group = next;
    },
    restore() {
      delete own.createComputePipeline;
      delete own.createComputePipelineAsync;
    },
  };
}

/**
 * One line per group: pipelines created and the milliseconds spent creating them.
 *
 * @example
 * ```ts
 * console.log(formatPipelineTimes(times));
 * ```
 */
export function formatPipelineTimes(times: PipelineTimes): string {
  return [...times.byGroup]
    .map(
      ([group, { ms, pipelines }]) =>
        `pipelines ${group}: ${pipelines} in ${ms.toFixed(0)} ms (${(ms / Math.max(1, pipelines)).toFixed(0)} ms each)`,
    )
    .join('\n');
}
