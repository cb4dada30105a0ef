import { parseBaselineArgs } from '../shared/options.js';
import { LUMA_PRIMITIVES, LUMA_TOOLBOX_PRIMITIVES, type LumaPrimitive } from './workload.js';

/** Options of the luma.gl baseline run. */
export interface LumaOptions {
  /** log2 of the element counts. */
  readonly sizes: readonly number[];
  readonly only: readonly LumaPrimitive[];
  readonly runs: number;
  readonly warmup: number;
  /** JSON report path, or undefined for none. */
  readonly out: string | undefined;
  /** Commit recorded in the report (the GPU machine has no git). */
  readonly commit: string | undefined;
  readonly seed: number;
  /** Milliseconds of the heater's copies before each measurement; undefined: 500 on hardware, 0 on a software adapter. */
  readonly heatMs: number | undefined;
  /** `--convert FILE`: write FILE (a report of the old schema) as a bench report instead of measuring. */
  readonly convert: string | undefined;
  /** `--device-name`: the device name a converted report gets (the old schema did not record it). */
  readonly deviceName: string | undefined;
  /** `--note`: why that name is right, kept in the converted report's notes. */
  readonly note: string | undefined;
  readonly help: boolean;
}

/**
 * Defaults: the small sizes the comparison is about; the primitives other than the toolbox's (those
 * run when named); ≥ 20 runs after ≥ 5 warm-ups.
 */
export const DEFAULT_LUMA_OPTIONS: LumaOptions = {
  sizes: [10, 12, 14, 16],
  only: LUMA_PRIMITIVES.filter((p) => !LUMA_TOOLBOX_PRIMITIVES.includes(p)),
  runs: 50,
  warmup: 10,
  out: undefined,
  commit: undefined,
  seed: 1,
  heatMs: undefined,
  convert: undefined,
  deviceName: undefined,
  note: undefined,
  help: false,
};

/**
 * Largest log2 size accepted: 2^28, the bench's largest (`--large`). A u32 array of 2^28 is 1 GiB,
 * on the GPU and, for the inputs and the CPU check, on the host (typed arrays, off the JS heap);
 * where luma or the device cannot go that far the case is an error record, not a crash.
 */
export const MAX_LOG2_SIZE = 28;

/**
 * Names `--only` accepts besides {@link LUMA_PRIMITIVES}: `sort`, this harness's earlier name of the
 * key–value sort; `toolbox`, the toolbox primitives; `all`, every primitive.
 */
const ALIASES: Readonly<Record<string, readonly LumaPrimitive[]>> = {
  sort: ['sort-pairs'],
  toolbox: LUMA_TOOLBOX_PRIMITIVES,
  all: LUMA_PRIMITIVES,
};

/** The `--help` text. */
export const LUMA_USAGE = `luma.gl 9.4.2 baseline: times luma.gl's GPUScan, GPUReduction, GPUCompaction, GPUSort and, for
the toolbox, GPUHistogram (256 and 65536 bins), GPUGallopingSearch, GPUGroupAggregation and a segmented GPUScan on this
machine's WebGPU device (Dawn in Node), each verified on the CPU first.

  --sizes 10,12,14,16     log2 of the element counts (1…${MAX_LOG2_SIZE}; 2^k and plain counts of powers of two also accepted)
  --only scan,reduce,pack,sort-pairs   the default; also histogram, lower-bound, reduce-by-key, scan-by-key
                          (toolbox: those four; all: every primitive; sort: the same as sort-pairs)
  --runs 50               timed runs per case (median, p10, p90, min, max)
  --warmup 10             untimed runs before them
  --out FILE              write the report there (the bench's schema, scan-bench/1, with baseline "webgpu")
  --commit SHA            commit to record (default: git rev-parse HEAD where git works)
  --seed 1                input seed
  --heat-ms N             back-to-back copies before each measurement, so the GPU is timed at load clocks
                          (default 500 on a GPU, 0 on a software adapter)
  --convert FILE          no measuring: convert FILE, a report of the old schema (scan-luma-baseline/1), to --out
  --device-name NAME      with --convert: the device name to record (the old schema has none), e.g. nvidia-h100-80gb-hbm3
  --note TEXT             with --convert: why that name is right, kept in the report's notes
  --help`;

/** Parses one size: `16`, `2^16` or `65536` all mean 2^16 (numbers up to 32 are log2 sizes, larger ones counts). */
function parseLog2(text: string): number {
  const t = text.trim();
  let k: number;
  if (/^2\^\d+$/.test(t)) k = Number(t.slice(2));
  else if (/^\d+$/.test(t)) {
    k = Number(t) <= 32 ? Number(t) : Math.log2(Number(t));
    if (!Number.isInteger(k)) throw new Error(`--sizes: ${t} is not a power of two`);
  } else throw new Error(`--sizes: "${text}" is neither a log2 size (16) nor a power of two (2^16, 65536)`);
  if (k < 1 || k > MAX_LOG2_SIZE) throw new Error(`--sizes: 2^${k} is outside 2^1…2^${MAX_LOG2_SIZE}`);
  return k;
}

/** Parses `--only`: primitive names and {@link ALIASES}, in report order. */
function parseOnly(value: string): readonly LumaPrimitive[] {
  const names = value
    .split(',')
    .flatMap((s): readonly string[] => ALIASES[s.trim()] ?? [s.trim()])
    .filter(Boolean);
  for (const name of names)
    if (!(LUMA_PRIMITIVES as readonly string[]).includes(name))
      throw new Error(`--only: unknown primitive "${name}" (expected ${LUMA_PRIMITIVES.join(', ')})`);
  if (names.length === 0) throw new Error('--only: expected at least one primitive');
  return LUMA_PRIMITIVES.filter((p) => names.includes(p));
}

/**
 * Parses the command line (`--flag value` or `--flag=value`): the shared flags (baselines/shared/options.ts)
 * and luma's `--only`, `--convert`, `--device-name`, `--note`. Throws an `Error` naming the flag on
 * anything it does not understand.
 *
 * @example
 * ```ts
 * parseLumaArgs(['--sizes', '10,16', '--only=scan,sort']).sizes; // [10, 16]
 * ```
 */
export function parseLumaArgs(argv: readonly string[]): LumaOptions {
  const { options, values } = parseBaselineArgs(argv, {
    sizes: DEFAULT_LUMA_OPTIONS.sizes,
    parseSize: parseLog2,
    values: { only: parseOnly, convert: String, 'device-name': String, note: String },
  });
  const o: LumaOptions = {
    ...options,
    only: values.only ?? DEFAULT_LUMA_OPTIONS.only,
    convert: values.convert,
    deviceName: values['device-name'],
    note: values.note,
  };
  if ((o.deviceName !== undefined || o.note !== undefined) && o.convert === undefined)
    throw new Error('--device-name and --note go with --convert (a measured report records the device itself)');
  if (o.convert !== undefined && o.out === undefined) throw new Error('--convert: --out is needed (where the converted report goes)');
  return o;
}
