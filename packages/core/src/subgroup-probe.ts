// Whether a device's shader compiler takes the `subgroups` extension. The feature bit alone is not
// enough: Deno's wgpu grants `subgroups` in `requestDevice` and lists it in `device.features`, yet
// naga rejects `enable subgroups;` ("not yet supported"), so every subgroup kernel would fail with
// GPU_ERROR. One small module, compiled once per device, tells the two apart; `ScanCaps` reads the
// verdict, so every package follows it through `ctx.caps.features.subgroups`.

/**
 * The probe's WGSL: the extension and the subgroup built-ins the kernels use, in one entry point
 * with no bindings (only the module is made: parsing and validation is where naga refuses, and a
 * pipeline would cost a backend compile on every device).
 */
export const SUBGROUP_PROBE_WGSL = `enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) size: u32) {
  let sum = subgroupAdd(lane) + subgroupExclusiveAdd(size) + subgroupShuffle(lane, 0u) + subgroupBroadcastFirst(lane);
  let ballot = subgroupBallot(lane == 0u);
  _ = sum + ballot.x;
}
`;

const probes = new WeakMap<GPUDevice, Promise<boolean>>();
const verdicts = new WeakMap<GPUDevice, boolean>();

/**
 * Starts the subgroup probe of `device` (once per device; later calls return the same promise):
 * the probe module is created inside a `validation` error scope, synchronously, and the promise
 * resolves to whether it compiled. Call it only for a device that lists `subgroups`. A device that
 * is lost meanwhile counts as passing: its calls fail with `DEVICE_LOST`, which says more.
 *
 * @example
 * ```ts
 * if (device.features.has('subgroups') && !(await probeSubgroups(device))) console.log('subgroups are listed but do not compile');
 * ```
 */
export function probeSubgroups(device: GPUDevice): Promise<boolean> {
  let probe = probes.get(device);
  if (probe) return probe;
  if (typeof device.pushErrorScope !== 'function' || typeof device.popErrorScope !== 'function') {
    // A stand-in device without error scopes (a test double) cannot be probed: trust its features.
    probe = Promise.resolve(true);
  } else {
    let threw = false;
    device.pushErrorScope('validation');
    try {
      device.createShaderModule({ label: 'scan: subgroups probe', code: SUBGROUP_PROBE_WGSL });
    } catch {
      threw = true; // an implementation that throws instead of reporting to the scope
    }
    probe = device.popErrorScope().then(
      (error) => !threw && !error,
      () => !threw,
    );
  }
  probes.set(device, probe);
  void probe.then((ok) => verdicts.set(device, ok));
  return probe;
}

/**
 * What the probe of `device` found: `true` or `false` once it has settled, `undefined` while it
 * runs or where none was started. `ScanCaps` counts `undefined` as usable (the device says so), so
 * plans made before the verdict on Chrome or Node (where the extension compiles) need not wait.
 *
 * @example
 * ```ts
 * subgroupVerdict(ctx.device); // true on Chrome and Dawn in Node, false under Deno's wgpu
 * ```
 */
export function subgroupVerdict(device: GPUDevice): boolean | undefined {
  return verdicts.get(device);
}

/**
 * The probe of `device` started by {@link probeSubgroups}, or `undefined` where none was (a device
 * that does not list `subgroups`, or a context told `subgroups: false`).
 *
 * @example
 * ```ts
 * await subgroupProbe(ctx.device); // settled: ctx.caps.features.subgroups is final
 * ```
 */
export function subgroupProbe(device: GPUDevice): Promise<boolean> | undefined {
  return probes.get(device);
}
