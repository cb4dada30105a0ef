/**
 * The gridwise baseline's command line: `node apps/bench/dist-gridwise/gridwise.js --sizes 20,24 --out gridwise.json`
 * (see README.md). Times gridwise's OneSweep sort (u32 and u64 keys, keys only) on this machine's
 * WebGPU device (Dawn in Node, as the bench) and writes the bench's report (`scan-bench/1`,
 * `baseline: 'webgpu'`). Exit status 1 when a case failed or threw, 2 on bad arguments or no device.
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createNodeContext, DAWN_TOGGLES_ENV, parseDawnToggles } from '@scan/core/node';
import { deviceInfo } from '../../src/child/device-info.js';
import type { BenchReport, CaseResult } from '../../src/report.js';
import { REPORT_SCHEMA } from '../../src/report.js';
import { currentCommit } from '../luma/build-report.js';
import { resolveHeatMs } from '../luma/heat.js';
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

interface Options {
  sizes: number[];
  types: GridwiseKeyType[];
  runs: number;
  warmup: number;
  heatMs: number | undefined;
  disableSubgroups: boolean;
  out: string | undefined;
  commit: string | undefined;
  seed: number;
  help: boolean;
}

function count(flag: string, text: string, min: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min) throw new Error(`${flag}: expected an integer ≥ ${min}, got "${text}"`);
  return Number(text);
}

/** Parses the command line; throws an Error naming the flag on anything it does not understand. */
export function parseGridwiseArgs(argv: readonly string[]): Options {
  const o: Options = {
    sizes: [16, 20],
    types: [...GRIDWISE_KEY_TYPES],
    runs: 50,
    warmup: 10,
    heatMs: undefined,
    disableSubgroups: false,
    out: undefined,
    commit: undefined,
    seed: 1,
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      o.help = true;
      continue;
    }
    if (arg === '--no-subgroups') {
      o.disableSubgroups = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (!flag.startsWith('--')) throw new Error(`unexpected argument "${arg}" (see --help)`);
    if (value === undefined) throw new Error(`${flag}: missing value`);
    switch (flag) {
      case '--sizes':
        o.sizes = [
          ...new Set(
            value
              .split(',')
              .filter((s) => s.trim())
              .map((s) => {
                const k = Number(s.trim().replace(/^2\^/, ''));
                if (!Number.isInteger(k) || k < 2 || k > 30) throw new Error(`--sizes: "${s}" is not a log2 size in 2…30`);
                return k;
              }),
          ),
        ].sort((a, b) => a - b);
        if (o.sizes.length === 0) throw new Error('--sizes: expected at least one size');
        break;
      case '--types': {
        const names = value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        for (const t of names)
          if (!(GRIDWISE_KEY_TYPES as readonly string[]).includes(t))
            throw new Error(`--types: unknown key type "${t}" (expected ${GRIDWISE_KEY_TYPES.join(', ')})`);
        if (names.length === 0) throw new Error('--types: expected at least one key type');
        o.types = GRIDWISE_KEY_TYPES.filter((t) => names.includes(t));
        break;
      }
      case '--runs':
        o.runs = count(flag, value, 1);
        break;
      case '--warmup':
        o.warmup = count(flag, value, 0);
        break;
      case '--heat-ms':
        o.heatMs = count(flag, value, 0);
        break;
      case '--seed':
        o.seed = count(flag, value, 0);
        break;
      case '--out':
        o.out = value;
        break;
      case '--commit':
        o.commit = value;
        break;
      default:
        throw new Error(`unknown flag ${flag} (see --help)`);
    }
  }
  return o;
}

function writeReport(path: string, report: BenchReport): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
}

async function main(argv: readonly string[]): Promise<number> {
  let options: Options;
  try {
    options = parseGridwiseArgs(argv);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
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
