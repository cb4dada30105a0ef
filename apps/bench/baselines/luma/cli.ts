/**
 * The luma.gl baseline's command line: `node apps/bench/dist-luma/luma.js --sizes 10,12,14,16 --out luma.json`
 * (see README.md). Writes the bench's report (`scan-bench/1`, `baseline: 'webgpu'`). Exit status 1
 * when a case failed or threw, 2 on bad arguments, no device or a file `--convert` cannot read.
 * @module
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { BenchReport } from '../../src/report.js';
import { runBaselineCli, writeReport as write } from '../shared/cli.js';
import { buildLumaReport } from './build-report.js';
import { createLumaDevice } from './device.js';
import { resolveHeatMs } from './heat.js';
import { convertLegacyLumaReport } from './legacy.js';
import { LUMA_USAGE, type LumaOptions, parseLumaArgs } from './options.js';
import { caseNameOf, LUMA_LIBRARY, type LumaRecord } from './report.js';
import { runLumaBaseline } from './run.js';
import { formatLumaTable } from './table.js';

/** Writes `report` as JSON to `path`, making its folder; says so when `say`. */
function writeReport(path: string, report: BenchReport, say = true): void {
  write(path, report);
  if (say) console.log(`report: ${path}`);
}

/** `--convert`: an old report to the bench's schema; nothing is measured. */
function convert(options: LumaOptions & { convert: string; out: string }): number {
  const report = convertLegacyLumaReport(JSON.parse(readFileSync(options.convert, 'utf8')), {
    source: basename(options.convert),
    ...(options.deviceName ? { deviceName: options.deviceName } : {}),
    ...(options.note ? { note: options.note } : {}),
  });
  writeReport(options.out, report);
  return 0;
}

/** Measures on this machine's device, writes the report, prints the table. */
async function measure(options: LumaOptions): Promise<number> {
  const started = new Date();
  const dev = await createLumaDevice();
  try {
    const caps = dev.ctx.caps;
    const heatMs = resolveHeatMs(options.heatMs, caps.adapter);
    console.log(
      `${LUMA_LIBRARY} on ${caps.adapter.description || caps.adapter.vendor} (timestamp-query ${caps.features.timestampQuery ? 'yes' : 'no'}, ` +
        `subgroups ${caps.features.subgroups ? `${caps.subgroupMinSize}–${caps.subgroupMaxSize}` : 'no'}); ${options.runs} runs after ${options.warmup} warm-ups${heatMs > 0 ? ` and ${heatMs} ms of copies` : ''}`,
    );
    const done: LumaRecord[] = [];
    const records = await runLumaBaseline(dev, { ...options, heatMs }, (r) => {
      console.log(
        `  ${caseNameOf(r)} 2^${r.log2n}: ${r.status}${r.medianMs === null ? '' : ` ${(r.medianMs * 1000).toFixed(2)} µs`}${r.message ? ` (${r.message})` : ''}`,
      );
      // The report is rewritten after every case, so a run killed by a timeout (or a crash of Dawn
      // at 2^28) still leaves the cases it finished.
      done.push(r);
      if (options.out) writeReport(options.out, buildLumaReport(dev, { ...options, heatMs }, done, started), false);
    });
    if (options.out) writeReport(options.out, buildLumaReport(dev, { ...options, heatMs }, records, started));
    console.log(`\n${formatLumaTable(records)}`);
    return records.every((r) => r.status === 'ok') ? 0 : 1;
  } finally {
    dev.destroy();
  }
}

// Parses, then converts or measures.
runBaselineCli(parseLumaArgs, LUMA_USAGE, async (options) => {
  if (options.convert !== undefined && options.out !== undefined) {
    try {
      return convert({ ...options, convert: options.convert, out: options.out });
    } catch (error) {
      console.error((error as Error).message);
      return 2;
    }
  }
  return measure(options);
});
