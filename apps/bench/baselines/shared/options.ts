import { parseArgs } from 'node:util';

/** The options every baseline runner takes (`--sizes --runs --warmup --seed --heat-ms --out --commit --help`). */
export interface BaselineOptions {
  /** log2 of the element counts, ascending, without repeats. */
  readonly sizes: readonly number[];
  /** Timed runs per case (≥ 1). */
  readonly runs: number;
  /** Untimed runs before them (≥ 0). */
  readonly warmup: number;
  readonly seed: number;
  /** Milliseconds of the heater's copies before each measurement; undefined: the runner's default for the adapter. */
  readonly heatMs: number | undefined;
  /** JSON report path, or undefined for none. */
  readonly out: string | undefined;
  /** Commit recorded in the report (a GPU machine may have no git). */
  readonly commit: string | undefined;
  readonly help: boolean;
}

/** What a runner adds to the shared flags. */
export interface BaselineFlags<V extends Record<string, (value: string) => unknown>, S extends string> {
  /** Default log2 sizes. */
  readonly sizes: readonly number[];
  /** Parses one comma-separated entry of `--sizes` to a log2 size; throws an Error naming `--sizes` when it is not one. */
  readonly parseSize: (text: string) => number;
  /** The runner's own flags with a value, by name without `--`: each parses its value (throwing an Error naming the flag). */
  readonly values?: V;
  /** The runner's own flags without a value, by name without `--`. */
  readonly switches?: readonly S[];
}

/** The shared options, the runner's parsed values (those given) and its switches. */
export interface ParsedBaselineArgs<V extends Record<string, (value: string) => unknown>, S extends string> {
  readonly options: BaselineOptions;
  readonly values: { readonly [K in keyof V]?: ReturnType<V[K]> };
  readonly switches: Readonly<Record<S, boolean>>;
}

/** The integer flags: the option each sets and its least value. */
const COUNTS: Readonly<Record<string, readonly ['runs' | 'warmup' | 'seed' | 'heatMs', number]>> = {
  runs: ['runs', 1],
  warmup: ['warmup', 0],
  seed: ['seed', 0],
  'heat-ms': ['heatMs', 0],
};

/** Parses a positive (or, with `min` 0, non-negative) integer flag value. */
function parseCount(flag: string, text: string, min: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min) throw new Error(`${flag}: expected an integer ≥ ${min}, got "${text}"`);
  return Number(text);
}

/**
 * Parses a baseline runner's command line (`--flag value` or `--flag=value`, the last of a repeated flag
 * winning) with Node's `util.parseArgs`. Throws an `Error` naming the flag on anything it does not
 * understand, in command-line order, with the messages the runners' tests and users know
 * (`--runs: missing value`, `unknown flag --x (see --help)`, `unexpected argument "x" (see --help)`).
 *
 * @example
 * ```ts
 * const o = parseBaselineArgs(['--sizes', '10,16', '--types=u64', '--fast'], {
 *   sizes: [16],
 *   parseSize: Number,
 *   values: { types: (v) => v.split(',') },
 *   switches: ['fast'],
 * });
 * o.options.sizes; // [10, 16]
 * o.values.types; // ['u64']
 * o.switches.fast; // true
 * ```
 */
export function parseBaselineArgs<V extends Record<string, (value: string) => unknown> = Record<never, never>, S extends string = never>(
  argv: readonly string[],
  flags: BaselineFlags<V, S>,
): ParsedBaselineArgs<V, S> {
  const own = flags.values ?? ({} as V);
  const switchNames: readonly string[] = ['help', ...(flags.switches ?? [])];
  const valueNames = ['sizes', 'out', 'commit', ...Object.keys(COUNTS), ...Object.keys(own)];
  // Non-strict, with tokens: parseArgs splits `--flag=value` and takes the next argument as a value
  // (even one starting with `-`, as the hand-written loop did), and the checks below keep the
  // runners' own messages (strict mode's are Node's, and it stops at the first unknown flag only).
  const { tokens } = parseArgs({
    args: [...argv],
    strict: false,
    allowPositionals: true,
    tokens: true,
    options: {
      ...Object.fromEntries(valueNames.map((name) => [name, { type: 'string' as const }])),
      ...Object.fromEntries(switchNames.map((name) => [name, { type: 'boolean' as const }])),
      help: { type: 'boolean', short: 'h' },
    },
  });
  const o = {
    sizes: flags.sizes,
    runs: 50,
    warmup: 10,
    seed: 1,
    heatMs: undefined as number | undefined,
    out: undefined as string | undefined,
    commit: undefined as string | undefined,
    help: false,
  };
  const values: Record<string, unknown> = {};
  const switches: Record<string, boolean> = Object.fromEntries((flags.switches ?? []).map((name) => [name, false]));
  for (const token of tokens) {
    if (token.kind !== 'option') throw new Error(`unexpected argument "${argv[token.index]}" (see --help)`);
    const flag = token.rawName;
    if (token.name === 'help' && !token.inlineValue) {
      o.help = true;
      continue;
    }
    // `-x`: short flags other than -h are not flags of these runners.
    if (!flag.startsWith('--')) throw new Error(`unexpected argument "${argv[token.index]}" (see --help)`);
    if (switchNames.includes(token.name) && !token.inlineValue) {
      switches[token.name] = true;
      continue;
    }
    if (!valueNames.includes(token.name)) throw new Error(`unknown flag ${flag} (see --help)`);
    const value = token.value;
    if (value === undefined) throw new Error(`${flag}: missing value`);
    const count = COUNTS[token.name];
    if (count) {
      o[count[0]] = parseCount(flag, value, count[1]);
      continue;
    }
    switch (token.name) {
      case 'sizes':
        o.sizes = [
          ...new Set(
            value
              .split(',')
              .filter((s) => s.trim())
              .map(flags.parseSize),
          ),
        ].sort((a, b) => a - b);
        if (o.sizes.length === 0) throw new Error('--sizes: expected at least one size');
        break;
      case 'out':
        o.out = value;
        break;
      case 'commit':
        o.commit = value;
        break;
      default:
        values[token.name] = own[token.name]!(value);
    }
  }
  return { options: o, values, switches } as ParsedBaselineArgs<V, S>;
}
