import type { ScanContext } from '@scan/core';
import type { DeviceInfo } from '../report.js';

/**
 * The device as a report records it: the context's capabilities, with the device name from the
 * adapter info when the implementation has one (Dawn in Node does; `caps.adapter` has no name, and
 * its description is often the driver). Shared by the Node child and the dashboard's live runs.
 *
 * @example
 * ```ts
 * const report = { ...rest, device: deviceInfo(ctx) };
 * ```
 */
export function deviceInfo(ctx: ScanContext): DeviceInfo {
  const caps = ctx.caps;
  const name = (ctx.device as { adapterInfo?: { device?: string } }).adapterInfo?.device;
  return {
    adapter: { ...caps.adapter, ...(name ? { device: name } : {}) },
    features: { ...caps.features },
    ...(caps.subgroupMinSize !== undefined ? { subgroupMinSize: caps.subgroupMinSize } : {}),
    ...(caps.subgroupMaxSize !== undefined ? { subgroupMaxSize: caps.subgroupMaxSize } : {}),
    limits: { ...caps.limits },
  };
}
