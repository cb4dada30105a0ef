/**
 * The luma.gl baseline's command line: `node apps/bench/dist-luma/luma.js --sizes 10,12,14,16 --out luma.json`
 * (see README.md). Exit status 1 when a case failed or threw, 2 on bad arguments or no device.
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildLumaReport } from './build-report.js';
import { createLumaDevice } from './device.js';
import { resolveHeatMs } from './heat.js';
import { LUMA_USAGE, parseLumaArgs } from './options.js';
import { LUMA_LIBRARY } from './report.js';
import { runLumaBaseline } from './run.js';
import { formatLumaTable } from './table.js';

/** Parses, runs, writes the report, prints the table; resolves to the exit status. */
async function main(argv: readonly string[]): Promise<number> {
  let options: ReturnType<typeof parseLumaArgs>;
  try {
    options = parseLumaArgs(argv);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${LUMA_USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(LUMA_USAGE);
    return 0;
  }
  const dev = await createLumaDevice();
  try {
    const caps = dev.ctx.caps;
    const heatMs = resolveHeatMs(options.heatMs, caps.adapter);
    console.log(
      `${LUMA_LIBRARY} on ${caps.adapter.description || caps.adapter.vendor} (timestamp-query ${caps.features.timestampQuery ? 'yes' : 'no'}, ` +
        `subgroups ${caps.features.subgroups ? `${caps.subgroupMinSize}–${caps.subgroupMaxSize}` : 'no'}); ${options.runs} runs after ${options.warmup} warm-ups${heatMs > 0 ? ` and ${heatMs} ms of copies` : ''}`,
    );
    const records = await runLumaBaseline(dev, { ...options, heatMs }, (r) =>
      console.log(`  ${r.primitive} 2^${r.log2n}: ${r.status}${r.medianMs === null ? '' : ` ${(r.medianMs * 1000).toFixed(2)} µs`}`),
    );
    const report = buildLumaReport(dev, { ...options, heatMs }, records);
    if (options.out) {
      mkdirSync(dirname(options.out), { recursive: true });
      writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
      console.log(`report: ${options.out}`);
    }
    console.log(`\n${formatLumaTable(records)}`);
    return records.every((r) => r.status === 'ok') ? 0 : 1;
  } finally {
    dev.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error((error as Error)?.stack ?? error);
    process.exitCode = 2;
  },
);
