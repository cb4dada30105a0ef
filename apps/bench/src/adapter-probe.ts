import type { CopyCase } from './primitives/copy.js';
import type { DeviceInfo } from './report.js';
import { type ChildSpec, runCaseInChild } from './run-case.js';

// The parent never creates a GPU device (a Dawn crash may take only a child with it), so it asks a
// child which adapter the cases will get: the smallest copy case, whose result is thrown away.

/** The case a probe runs: a copy of 1024 words, 10 runs, no warm-up (well under a second on SwiftShader). */
const PROBE_CASE: CopyCase = {
  id: 'copy u32@1024',
  series: 'copy u32',
  primitive: 'copy',
  type: 'u32',
  n: 1024,
  seed: 1,
  runs: 10,
  warmup: 0,
};

/**
 * The adapter the children of `script` get, as a child reports it; null when two tries gave none
 * (then the run keeps the GPU defaults, and its cases will show what went wrong).
 *
 * @example
 * ```ts
 * const device = await probeAdapter({ script, env: process.env, timeoutS: 120 });
 * isSoftwareAdapter(device); // true on SwiftShader
 * ```
 */
export async function probeAdapter(spec: ChildSpec): Promise<DeviceInfo | null> {
  // Dawn in Node now and then crashes at start-up; one more try costs a second.
  for (let attempt = 0; attempt < 2; attempt++) {
    const { device } = await runCaseInChild(PROBE_CASE, spec);
    if (device) return device;
  }
  return null;
}
