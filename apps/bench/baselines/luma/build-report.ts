import { execFileSync } from 'node:child_process';
import type { LumaDeviceContext } from './device.js';
import type { LumaOptions } from './options.js';
import { LUMA_LIBRARY, LUMA_REPORT_SCHEMA, type LumaRecord, type LumaReport } from './report.js';

/** `git rev-parse HEAD` in the working directory, or null where git is missing (the lent GPU machine). */
export function currentCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'], encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/**
 * The report of a run: date, commit, host, the device as the bench's context saw it, the Dawn
 * toggles, the options and the records.
 *
 * @example
 * ```ts
 * const report = buildLumaReport(dev, options, records);
 * ```
 */
export function buildLumaReport(dev: LumaDeviceContext, options: LumaOptions, records: readonly LumaRecord[]): LumaReport {
  const caps = dev.ctx.caps;
  return {
    schema: LUMA_REPORT_SCHEMA,
    library: LUMA_LIBRARY,
    date: new Date().toISOString(),
    commit: options.commit ?? currentCommit(),
    host: { node: process.version, platform: process.platform, arch: process.arch },
    device: {
      ...caps.adapter,
      features: [...dev.ctx.device.features].sort(),
      subgroupMinSize: caps.subgroupMinSize,
      subgroupMaxSize: caps.subgroupMaxSize,
    },
    toggles: dev.toggles,
    options: {
      sizes: options.sizes,
      only: options.only,
      runs: options.runs,
      warmup: options.warmup,
      heatMs: options.heatMs ?? 0,
      seed: options.seed,
    },
    results: records,
  };
}
