import { parseArgs } from 'node:util';
import type { ElementType } from '@scan/core';
import { ELEMENT_TYPE_NAMES, type PlanTuning, SCAN_ALGORITHM_NAMES, type ScanAlgorithmName } from './case-types.js';
import { type CaseSelection, PRIMITIVES, parseNameList, SAMPLED_PRIMITIVES } from './cases.js';
import { FIRST_CALL_SIZES } from './primitives/first-call.js';
import { DEFAULT_FRAMES, DEFAULT_WARMUP_FRAMES, FRAME_LOOP_SIZES } from './primitives/frame-loop.js';
import { DEFAULT_SEGMENT_MEANS, parseSegmentMeans } from './primitives/segmented-scan.js';
import { HISPARSE_NODE_SIZES, parseNodeSizes } from './primitives/shared/hisparse-data.js';
import type { Primitive } from './registry.js';
import { DEFAULT_SIZES, formatSize, LARGE_SIZES, parseSizeList } from './sizes.js';
import { type DefaultedSetting, SOFTWARE_RUNS, SOFTWARE_SIZES, SOFTWARE_WARMUP } from './software-adapter.js';
import { selectMatrices } from './spmv-mtx-file.js';
import { DEFAULT_MATRICES, SOFTWARE_MATRICES } from './spmv-suite.js';

/** Fewest timed runs a median is reported over. */
export const MIN_RUNS = 10;

/** Settings of a benchmark run (the parent side). */
export interface BenchOptions extends CaseSelection {
  /** Always set on the parent side, so the report records the means the segmented cases used. */
  readonly segmentMeans: readonly number[];
  /** Seconds one case (one child process) may take before it is killed. */
  readonly timeoutS: number;
  /** Report path; undefined means `bench-results/report-<date>.json` at the repository root. */
  readonly out?: string;
  /** Print the JSON report instead of the table. */
  readonly json: boolean;
  /** Commit to record when `git` is not available (a copy without `.git`, as scripts/remote-bench.sh sends). */
  readonly commit?: string;
  // `defaulted` (from CaseSelection): the settings not given on the command line (`--large` gives
  // the sizes, `--mtx` the matrices); on a software adapter the run replaces them with its own defaults.
}

/** What the command line asks for. */
export type Invocation =
  | { readonly kind: 'help' }
  | { readonly kind: 'child'; readonly caseJson: string }
  | { readonly kind: 'run'; readonly options: BenchOptions };

/** `--help` text. */
export const HELP_TEXT = `scan-bench: times every primitive of the @scan packages on the GPU, one case per child process.

Usage: node apps/bench/dist/cli.js [options]

  --sizes LIST         element counts, comma-separated; 2^k allowed (default ${DEFAULT_SIZES.map(formatSize).join(',')};
                       on a software adapter such as SwiftShader ${SOFTWARE_SIZES.map(formatSize).join(',')};
                       frame-loop ${FRAME_LOOP_SIZES.map(formatSize).join(',')} and first-call ${FIRST_CALL_SIZES.map(formatSize).join(',')} on a GPU)
  --large              add the GPU sizes 2^20,2^24,2^26,2^28
  --only LIST          primitives (default: all): ${PRIMITIVES.join(', ')}
                       (on a software adapter the default run samples ${SAMPLED_PRIMITIVES.join(', ')};
                       named here they run every configuration)
  --algorithms LIST    scan algorithms, each with every scan variant: ${SCAN_ALGORITHM_NAMES.join(', ')}
  --types LIST         keep cases of these element types: ${ELEMENT_TYPE_NAMES.join(', ')}
  --runs N             timed runs per case, median reported (default 20, at least ${MIN_RUNS}; software adapter ${SOFTWARE_RUNS});
                       frame-loop: measured frames (default ${DEFAULT_FRAMES} on any adapter)
  --warmup N           untimed runs first (default 3; software adapter ${SOFTWARE_WARMUP}); frame-loop: warm-up frames (default ${DEFAULT_WARMUP_FRAMES})
  --timeout S          seconds per case before its process is killed (default 300: SwiftShader is slow)
  --seed N             seed of the GPU data generator (default 1)
  --density X          fraction of 1-flags for enumerate/split/pack (default 0.5)
  --segment-means LIST mean segment lengths of the segmented cases, 2^k allowed (default ${DEFAULT_SEGMENT_MEANS.join(',')})
  --node-sizes LIST    node sizes d of the HiSparse cases, powers of two from 4 to 256 (default ${HISPARSE_NODE_SIZES.join(',')})
  --region-leaves      also run the HiSparse products on pools with region leaves, built on the host
                       (hisparseFromCsr with regionLeaves) and uploaded: seconds per million nonzeros
  --matrices LIST      SpMV matrices (spmv, spmv-t, spmm), <family>-<size> with family poisson2d or stencil27
                       (grid side), biased, powerlaw, uniform, banded, geometric, rmat (rows; K = 1000,
                       M = 1000000, 2^k); default
                       ${DEFAULT_MATRICES.join(',')}; on a software adapter
                       ${SOFTWARE_MATRICES.join(',')}
  --mtx LIST           Matrix Market files for the SpMV cases, comma-separated (named by their base name);
                       given alone it replaces the default suite, with --matrices it adds to it
  --tuning JSON        the plans' options.tuning for split, pack and sort sweeps, e.g. '{"workgroupSize":512,"elementsPerThread":8}'
                       (maintainers' tool: recorded in every case and the report; not a user-facing option)
  --out PATH           report file (default bench-results/report-<date>.json at the repository root)
  --commit SHA         commit to record when git is not available
  --json               print the JSON report instead of the table (progress goes to stderr)
  --help               this text

On a software adapter (SwiftShader, llvmpipe, WARP) the settings not given get small defaults, so that
the default run ends within minutes; its numbers say nothing about GPUs. A first child process reads
the adapter when one of --sizes, --runs, --warmup, --matrices that would matter is left out.

Environment: SCAN_DAWN_TOGGLES (Dawn toggles, read by createNodeContext), VK_ICD_FILENAMES.`;

function integer(text: string | undefined, option: string, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text.trim())) throw new Error(`${option} "${text}": expected a whole number`);
  const value = Number(text);
  if (value < min) throw new Error(`${option} ${value}: must be at least ${min}`);
  return value;
}

function fraction(text: string | undefined, option: string, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!(value >= 0 && value <= 1)) throw new Error(`${option} "${text}": expected a number from 0 to 1`);
  return value;
}

/**
 * Parses the command line (without `node` and the script). Throws an `Error` whose message names
 * the option at fault.
 *
 * @example
 * ```ts
 * const inv = parseCli(['--sizes', '2^16', '--only', 'scan']);
 * if (inv.kind === 'run') inv.options.sizes; // [65536]
 * ```
 */
export function parseCli(argv: readonly string[]): Invocation {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      sizes: { type: 'string' },
      large: { type: 'boolean', default: false },
      only: { type: 'string' },
      algorithms: { type: 'string' },
      types: { type: 'string' },
      runs: { type: 'string' },
      warmup: { type: 'string' },
      timeout: { type: 'string' },
      seed: { type: 'string' },
      density: { type: 'string' },
      'segment-means': { type: 'string' },
      'node-sizes': { type: 'string' },
      'region-leaves': { type: 'boolean', default: false },
      matrices: { type: 'string' },
      mtx: { type: 'string' },
      tuning: { type: 'string' },
      out: { type: 'string' },
      commit: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      case: { type: 'string' },
    },
  });
  if (values.help) return { kind: 'help' };
  if (values.case !== undefined) return { kind: 'child', caseJson: values.case };

  // --large adds to --sizes rather than replacing it, so `--sizes 2^12 --large` also checks a tiny size.
  const explicit = values.sizes !== undefined ? parseSizeList(values.sizes) : [];
  const sizes = values.large ? [...explicit, ...LARGE_SIZES] : explicit.length > 0 ? explicit : [...DEFAULT_SIZES];
  const options: BenchOptions = {
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    ...(values.only !== undefined ? { only: parseNameList<Primitive>(values.only, PRIMITIVES, '--only') } : {}),
    ...(values.types !== undefined ? { types: parseNameList<ElementType>(values.types, ELEMENT_TYPE_NAMES, '--types') } : {}),
    ...(values.algorithms !== undefined
      ? { algorithms: parseNameList<ScanAlgorithmName>(values.algorithms, SCAN_ALGORITHM_NAMES, '--algorithms') }
      : {}),
    runs: integer(values.runs, '--runs', 20, MIN_RUNS),
    warmup: integer(values.warmup, '--warmup', 3, 0),
    // The frame loop has its own defaults (300 frames after 30), replaced only by what is given.
    ...(values.runs !== undefined ? { frames: integer(values.runs, '--runs', 20, MIN_RUNS) } : {}),
    ...(values.warmup !== undefined ? { warmupFrames: integer(values.warmup, '--warmup', 3, 0) } : {}),
    timeoutS: integer(values.timeout, '--timeout', 300, 1),
    seed: integer(values.seed, '--seed', 1, 0),
    density: fraction(values.density, '--density', 0.5),
    segmentMeans: values['segment-means'] !== undefined ? parseSegmentMeans(values['segment-means']) : [...DEFAULT_SEGMENT_MEANS],
    ...(values['node-sizes'] !== undefined ? { nodeSizes: parseNodeSizes(values['node-sizes']) } : {}),
    ...(values['region-leaves'] ? { regionLeaves: true } : {}),
    ...(values.tuning !== undefined ? { tuning: parseTuning(values.tuning) } : {}),
    ...(values.matrices !== undefined || values.mtx !== undefined ? { matrices: selectMatrices(values.matrices, values.mtx) } : {}),
    json: values.json,
    ...(values.out !== undefined ? { out: values.out } : {}),
    ...(values.commit !== undefined ? { commit: values.commit } : {}),
    defaulted: defaultedSettings(values),
  };
  return { kind: 'run', options };
}

/** The adapter-dependent settings the command line left out, in a fixed order. */
function defaultedSettings(values: { sizes?: string; large?: boolean; runs?: string; warmup?: string; matrices?: string; mtx?: string }) {
  const given: Record<DefaultedSetting, boolean> = {
    sizes: values.sizes !== undefined || values.large === true,
    runs: values.runs !== undefined,
    warmup: values.warmup !== undefined,
    matrices: values.matrices !== undefined || values.mtx !== undefined,
  };
  return (Object.keys(given) as DefaultedSetting[]).filter((k) => !given[k]);
}

/**
 * Parses `--tuning`: a JSON object of numbers, booleans and strings, the unstable `options.tuning`
 * a plan accepts for sweeps (workgroup shape, the radix pass's `padLast`, …). The plan itself
 * rejects keys and values it does not know.
 *
 * @example
 * ```ts
 * parseTuning('{"staging":false}'); // { staging: false }
 * parseTuning('{"elementsPerThread":12,"padLast":false}'); // { elementsPerThread: 12, padLast: false }
 * ```
 */
export function parseTuning(text: string): PlanTuning {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`--tuning: expected a JSON object, got ${text}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`--tuning: expected a JSON object, got ${text}`);
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'number' && typeof v !== 'boolean' && typeof v !== 'string')
      throw new Error(`--tuning: ${k} = ${JSON.stringify(v)}: expected a number, a boolean or a string`);
  }
  return value as PlanTuning;
}
