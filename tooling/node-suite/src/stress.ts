#!/usr/bin/env node
// scan-node-stress: every package's array-level functions on host arrays in Node, at sizes the
// Node test project cannot afford on SwiftShader (2^26 and beyond on a GPU), each result checked
// against the CPU reference; then, with --transfer, host ↔ GPU speeds. Exits 1 when any call
// failed. Run through scripts/node-stress (which builds it first and turns on --expose-gc).
import { parseArgs } from 'node:util';
import { createNodeContext } from '@scan/core/node';
import { NODE_CASES } from './cases/index.js';
import { formatPipelineTimes, timePipelines } from './pipeline-timing.js';
import { type CaseRun, runCase } from './run.js';
import { measureTransfers } from './transfer.js';

const USAGE = `usage: scan-node-stress [--sizes 22,26] [--rounds 2] [--only core.,sort.sort] [--transfer] [--transfer-log2 24] [--software] [--json FILE]
  --sizes           log2 of the element counts (default 26)
  --rounds          calls per case and size, each on new data (default 1)
  --only            comma-separated prefixes of case names (default: every case)
  --transfer        also measure host <-> GPU speed at 2^(--transfer-log2) u32 (default 24)
  --software        SwiftShader even where a GPU exists
  --json            write the runs and transfer rows as JSON
cases: ${NODE_CASES.map((c) => c.name).join(', ')}`;

function fail(message: string): never {
  console.error(`scan-node-stress: ${message}\n${USAGE}`);
  process.exit(2);
}

function positiveIntegers(text: string, what: string, max: number): number[] {
  const values = text.split(',').map((s) => Number(s.trim()));
  for (const v of values) if (!Number.isInteger(v) || v < 0 || v > max) fail(`${what}: '${text}' is not a list of integers in [0, ${max}]`);
  return values;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '26' },
      rounds: { type: 'string', default: '1' },
      only: { type: 'string' },
      transfer: { type: 'boolean', default: false },
      'transfer-log2': { type: 'string', default: '24' },
      software: { type: 'boolean', default: false },
      json: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const sizes = positiveIntegers(values.sizes, '--sizes', 31).map((l) => 2 ** l);
  const [rounds] = positiveIntegers(values.rounds, '--rounds', 1000);
  const [transferLog2] = positiveIntegers(values['transfer-log2'], '--transfer-log2', 30);
  const prefixes = values.only?.split(',').map((s) => s.trim()) ?? [''];
  const cases = NODE_CASES.filter((c) => prefixes.some((p) => c.name.startsWith(p)));
  if (cases.length === 0) fail(`--only ${values.only} matches no case`);

  const ctx = await createNodeContext({ software: values.software });
  const device = `${ctx.caps.adapter.description || ctx.caps.adapter.vendor} (${ctx.caps.adapter.architecture})`;
  console.log(`device: ${device}; node ${process.version}; gc between calls: ${typeof globalThis.gc === 'function'}`);
  const runs: CaseRun[] = [];
  // Pipeline creation per package (each kernel is compiled once per device, at its first call).
  const pipelines = timePipelines(ctx.device);
  try {
    for (const size of sizes) {
      for (const c of cases) {
        pipelines.setGroup(c.name.split('.')[0] as string);
        for (let round = 0; round < (rounds ?? 1); round++) {
          // Collect garbage between calls: what Dawn must survive (the instance-lifetime crash).
          globalThis.gc?.();
          const run = await runCase(ctx, c, size, 1 + round);
          runs.push(run);
          const status = run.error === undefined ? 'ok' : `FAILED: ${run.error}`;
          console.log(`${c.name.padEnd(30)} 2^${Math.log2(size)} round ${round + 1}: ${run.callMs.toFixed(1).padStart(9)} ms  ${status}`);
        }
      }
    }
    pipelines.restore();
    console.log(formatPipelineTimes(pipelines));
    const transfers = values.transfer ? await measureTransfers(ctx, 2 ** (transferLog2 ?? 24)) : [];
    for (const t of transfers)
      console.log(`${t.what.padEnd(48)} ${t.medianMs.toFixed(2).padStart(9)} ms  ${t.gbPerS.toFixed(2).padStart(7)} GB/s`);
    if (values.json) {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(
        values.json,
        `${JSON.stringify({ device, date: new Date().toISOString(), node: process.version, runs, transfers }, null, 2)}\n`,
      );
    }
  } finally {
    ctx.destroy();
  }
  const failed = runs.filter((r) => r.error !== undefined);
  console.log(`${runs.length - failed.length} of ${runs.length} calls correct`);
  if (failed.length > 0) process.exitCode = 1;
}

await main();
