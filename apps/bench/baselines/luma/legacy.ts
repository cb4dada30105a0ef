import type { BenchReport, DeviceInfo } from '../../src/report.js';
import { lumaBenchReport, lumaReportOptions } from './build-report.js';
import { LUMA_LIBRARY, type LumaRecord } from './report.js';
import { LUMA_PRIMITIVES, type LumaPrimitive } from './workload.js';

// Reports of the harness's first schema (`scan-luma-baseline/1`, before it wrote the bench's) as
// bench reports, so that runs made with it load in the dashboard: `--convert FILE` of the CLI.
// Nothing is measured again and nothing is recomputed that the old file does not hold.

/** The schema of the old reports. */
export const LEGACY_LUMA_SCHEMA = 'scan-luma-baseline/1';

/** A record of the old schema: the record of today under the old primitive name, with its own `library` and `compareWith`. */
type LegacyRecord = Omit<LumaRecord, 'primitive' | 'ones' | 'mismatches'> & {
  readonly primitive: LumaPrimitive | 'sort';
  readonly library: string;
  readonly compareWith: string;
};

/** The old report (the fields the conversion reads). */
interface LegacyLumaReport {
  readonly schema: typeof LEGACY_LUMA_SCHEMA;
  readonly library: string;
  readonly date: string;
  readonly commit: string | null;
  readonly host: BenchReport['host'];
  readonly device: {
    readonly vendor: string;
    readonly architecture: string;
    readonly description: string;
    readonly features: readonly string[];
    readonly subgroupMinSize?: number;
    readonly subgroupMaxSize?: number;
  };
  readonly toggles: readonly string[];
  readonly options: {
    readonly sizes: readonly number[];
    readonly only: readonly string[];
    readonly runs: number;
    readonly warmup: number;
    readonly heatMs: number;
    readonly seed: number;
  };
  readonly results: readonly LegacyRecord[];
}

/** What the conversion adds: where the file came from, and what the old schema did not record. */
export interface LegacyConversion {
  /** The old file's name, for the report's notes. */
  readonly source: string;
  /** `adapter.device`, the name the dashboard pairs devices by, which the old schema did not record. */
  readonly deviceName?: string;
  /** Why that name is right (e.g. the bench report of the same device call), for the notes. */
  readonly note?: string;
}

/** The old name of a primitive (`sort` was luma's key–value sort) as today's. */
function primitiveOf(name: string): LumaPrimitive {
  const p = name === 'sort' ? 'sort-pairs' : name;
  if (!(LUMA_PRIMITIVES as readonly string[]).includes(p)) throw new Error(`${LEGACY_LUMA_SCHEMA}: unknown primitive "${name}"`);
  return p as LumaPrimitive;
}

/** An old record as today's: pack's kept count and a failure's mismatch count read from the verification text. */
function recordOf(old: LegacyRecord): LumaRecord {
  // The library is the report's (every row's case names it), the bench row the case's fields.
  const { library: _library, compareWith: _compareWith, ...rest } = old;
  const primitive = primitiveOf(old.primitive);
  // The old pack record states its count only in words: `pack (count 547): 547 words equal`.
  const count = /\bcount (\d+)\)/.exec(old.verification)?.[1];
  if (primitive === 'pack' && old.status === 'ok' && count === undefined)
    throw new Error(`${LEGACY_LUMA_SCHEMA}: pack 2^${old.log2n} does not state its count: "${old.verification}"`);
  const differ = /: (\d+) of \d+ words differ/.exec(old.verification)?.[1];
  return {
    ...rest,
    primitive,
    ...(primitive === 'pack' && count !== undefined ? { ones: Number(count) } : {}),
    ...(differ === undefined ? {} : { mismatches: Number(differ) }),
  };
}

/** The old device record as the bench's: the feature list as `ctx.caps.features`, no limits (not recorded). */
function deviceOf(old: LegacyLumaReport['device'], deviceName: string | undefined): DeviceInfo {
  const has = (f: string) => old.features.includes(f);
  return {
    adapter: {
      vendor: old.vendor,
      architecture: old.architecture,
      description: old.description,
      ...(deviceName ? { device: deviceName } : {}),
    },
    features: {
      subgroups: has('subgroups'),
      shaderF16: has('shader-f16'),
      timestampQuery: has('timestamp-query'),
      subgroupMatrix: has('chromium-experimental-subgroup-matrix'),
    },
    ...(old.subgroupMinSize !== undefined ? { subgroupMinSize: old.subgroupMinSize } : {}),
    ...(old.subgroupMaxSize !== undefined ? { subgroupMaxSize: old.subgroupMaxSize } : {}),
    limits: {},
  };
}

/**
 * Converts a report of the old schema into a bench report with the same samples, medians, device,
 * date, commit, options and toggles; its `notes` say where it came from and what was added.
 * Throws on a file that is not an old luma report.
 *
 * @example
 * ```ts
 * const report = convertLegacyLumaReport(JSON.parse(text), { source: 'h100-luma.json', deviceName: 'nvidia-h100-80gb-hbm3' });
 * ```
 */
export function convertLegacyLumaReport(value: unknown, conversion: LegacyConversion): BenchReport {
  const old = value as Partial<LegacyLumaReport> | null;
  if (old?.schema !== LEGACY_LUMA_SCHEMA) throw new Error(`${conversion.source}: not a ${LEGACY_LUMA_SCHEMA} report`);
  if (old.library !== LUMA_LIBRARY) throw new Error(`${conversion.source}: library ${old.library}, expected ${LUMA_LIBRARY}`);
  const { options, device, results } = old as LegacyLumaReport;
  const only = options.only.map(primitiveOf);
  const notes = [
    `converted from ${conversion.source} (${LEGACY_LUMA_SCHEMA}): the same samples, medians, device, date and commit; ` +
      'its date is when that run ended (that schema took it at the end), its limits were not recorded',
    ...(conversion.deviceName
      ? [`adapter.device "${conversion.deviceName}" added at conversion${conversion.note ? `: ${conversion.note}` : ''}`]
      : []),
  ];
  return lumaBenchReport(
    {
      date: old.date as string,
      commit: old.commit ?? null,
      host: old.host as BenchReport['host'],
      device: deviceOf(device, conversion.deviceName),
      options: lumaReportOptions({ ...options, only }, options.heatMs, old.toggles ?? []),
      notes,
    },
    results.map(recordOf),
  );
}
