/**
 * The gridwise baseline's command line: `node apps/bench/dist-gridwise/gridwise.js --sizes 20,24 --out gridwise.json`
 * (see README.md). Times gridwise's OneSweep sort (u32 and u64 keys, keys only) on this machine's
 * WebGPU device (Dawn in Node, as the bench) and writes the bench's report (`scan-bench/1`,
 * `baseline: 'webgpu'`). Exit status 1 when a case failed or threw, 2 on bad arguments or no device.
 * @module
 */
import { createNodeContext, DAWN_TOGGLES_ENV, parseDawnToggles } from '@scan/core/node';
import { deviceInfo } from '../../src/child/device-info.js';
import type { BenchReport, CaseResult } from '../../src/report.js';
import { REPORT_SCHEMA } from '../../src/report.js';
import { currentCommit } from '../luma/build-report.js';
import { resolveHeatMs } from '../luma/heat.js';
import { runBaselineCli, writeReport } from '../shared/cli.js';
import { type BaselineOptions, parseBaselineArgs } from '../shared/options.js';
import { GRIDWISE_KEY_TYPES, type GridwiseKeyType } from './check.js';
import { GRIDWISE_LIBRARY, runGridwise } from './run.js';

const USAGE = `${GRIDWISE_LIBRARY} baseline: times gridwise's OneSweepSort (keys only, ascending, all key bits) on u32
and u64 keys on this machine's WebGPU device (Dawn in Node), each output checked (no descents, same checksum).

  --sizes 16,20           log2 of the key counts (2…30; 2^k also accepted)
  --types u32,u64         key types (gridwise: u32 four 8-bit passes, u64 eight)
  --runs 50               timed runs per case
  --warmup 10             untimed runs before them
  --heat-ms N             copies before each measurement (default 500 on a GPU, 0 on a software adapter)
  --no-subgroups          gridwise's kernels without subgroup builtins (disableSubgroups)
  --out FILE              write the report (scan-bench/1, baseline "webgpu")
  --commit SHA            commit to record (default: git rev-parse HEAD where git works)
  --seed 1                input seed
  --help`;

type Options = BaselineOptions & { readonly types: readonly GridwiseKeyType[]; readonly disableSubgroups: boolean };

/** One `--sizes` entry: `16` or `2^16`, in 2…30. */
function parseSize(s: string): number {
  const k = Number(s.trim().replace(/^2\^/, ''));
  if (!Number.isInteger(k) || k < 2 || k > 30) throw new Error(`--sizes: "${s}" is not a log2 size in 2…30`);
  return k;
}

/** `--types u32,u64`: known key types, in GRIDWISE_KEY_TYPES order. */
function parseTypes(value: string): GridwiseKeyType[] {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const t of names)
    if (!(GRIDWISE_KEY_TYPES as readonly string[]).includes(t))
      throw new Error(`--types: unknown key type "${t}" (expected ${GRIDWISE_KEY_TYPES.join(', ')})`);
  if (names.length === 0) throw new Error('--types: expected at least one key type');
  return GRIDWISE_KEY_TYPES.filter((t) => names.includes(t));
}

/**
 * Parses the command line: the shared flags (baselines/shared/options.ts), `--types` and
 * `--no-subgroups`. Throws an Error naming the flag on anything it does not understand.
 *
 * @example
 * ```ts
 * parseGridwiseArgs(['--sizes', '20,2^24', '--types=u64']).types; // ['u64']
 * ```
 */
export function parseGridwiseArgs(argv: readonly string[]): Options {
  const { options, values, switches } = parseBaselineArgs(argv, {
    sizes: [16, 20],
    parseSize,
    values: { types: parseTypes },
    switches: ['no-subgroups'],
  });
  return { ...options, types: values.types ?? [...GRIDWISE_KEY_TYPES], disableSubgroups: switches['no-subgroups'] };
}

runBaselineCli(parseGridwiseArgs, USAGE, async (options) => {
  const started = new Date();
  const toggles = parseDawnToggles(process.env[DAWN_TOGGLES_ENV]);
  let ctx: Awaited<ReturnType<typeof createNodeContext>>;
  try {
    ctx = await createNodeContext({ toggles });
  } catch (error) {
    console.error(`no WebGPU device: ${(error as Error).message}`);
    return 2;
  }
  try {
    const caps = ctx.caps;
    const heatMs = resolveHeatMs(options.heatMs, caps.adapter);
    console.log(
      `${GRIDWISE_LIBRARY} OneSweepSort on ${caps.adapter.description || caps.adapter.vendor} (timestamp-query ${caps.features.timestampQuery ? 'yes' : 'no'}, ` +
        `subgroups ${caps.features.subgroups && !options.disableSubgroups ? `${caps.subgroupMinSize}–${caps.subgroupMaxSize}` : 'no'}, ` +
        `maxComputeWorkgroupStorageSize ${ctx.device.limits.maxComputeWorkgroupStorageSize}); ${options.runs} runs after ${options.warmup} warm-ups${heatMs > 0 ? ` and ${heatMs} ms of copies` : ''}`,
    );
    if (caps.features.subgroups && !options.disableSubgroups && (caps.subgroupMinSize ?? 0) < 16)
      console.log(
        `  note: gridwise's OneSweep ranks keys with a warp-level multisplit (one 32-bit ballot and one histogram per subgroup) written for subgroups of 16–32 lanes; ` +
          `this adapter's are ${caps.subgroupMinSize}–${caps.subgroupMaxSize}, where it sorts wrongly (SwiftShader, 2026-12-07): such a case is recorded as failed.`,
      );
    if (options.disableSubgroups)
      console.log(
        '  note: without subgroups gridwise emulates them in workgroup memory; on SwiftShader its sort did not finish 2^10 in 5 minutes (2026-12-07): run it under a timeout.',
      );
    const report = (results: readonly CaseResult[]): BenchReport => ({
      schema: REPORT_SCHEMA,
      date: started.toISOString(),
      commit: options.commit ?? currentCommit(),
      host: { node: process.version, platform: process.platform, arch: process.arch },
      options: {
        sizes: options.sizes.map((k) => 2 ** k),
        runs: options.runs,
        warmup: options.warmup,
        seed: options.seed,
        density: 0.5,
        timeoutS: 0,
        only: ['sort'],
        types: [...options.types] as NonNullable<BenchReport['options']['types']>,
        ...(toggles.length ? { dawnToggles: toggles.join(' ') } : {}),
        heatMs,
      },
      device: deviceInfo(ctx),
      baseline: 'webgpu',
      notes: [
        `${GRIDWISE_LIBRARY} built from source (gridwise is not on npm); keys only, ascending; timed with the bench's GPU timestamps around gridwise's recorded work; the input restored before each run, untimed.`,
      ],
      results,
    });
    const done: CaseResult[] = [];
    await runGridwise(ctx, { ...options, heatMs }, (r) => {
      const ms = r.measurement?.medianMs;
      console.log(
        `  sort ${r.case['type']} 2^${Math.log2(r.case.n)}: ${r.status}${ms === undefined ? '' : ` ${(ms * 1000).toFixed(2)} µs`}` +
          `${r.ratioCopy === undefined ? '' : ` (${r.ratioCopy.toFixed(3)}× copy)`}${r.message ? ` (${r.message})` : ''}` +
          `${r.verification?.detail ? ` [${r.verification.detail}]` : ''}`,
      );
      // Rewritten after every case, so a run killed by a timeout keeps the cases it finished.
      done.push(r);
      if (options.out) writeReport(options.out, report(done));
    });
    if (options.out) console.log(`report: ${options.out}`);
    return done.every((r) => r.status === 'ok') ? 0 : 1;
  } finally {
    ctx.destroy();
  }
});
