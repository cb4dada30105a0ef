import type { BenchReport } from './report.js';

/**
 * The device name of a report: the adapter's device name, else its description, else vendor and
 * architecture; lower case with runs of other characters as `-`. A CUDA baseline report names its
 * software stack in `adapter.device`, so its description (the GPU) is used instead; a WebGPU
 * baseline report records its adapter as the bench does, so it is named as the bench's reports are.
 *
 * @example
 * ```ts
 * deviceName(report); // 'nvidia-h100-80gb-hbm3'
 * ```
 */
export function deviceName(report: BenchReport): string {
  const a = report.device?.adapter;
  if (!a) return 'unknown device';
  const raw = (report.baseline === 'cuda' ? a.description : a.device) || a.description || `${a.vendor} ${a.architecture}`;
  return (
    raw
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'unknown device'
  );
}
