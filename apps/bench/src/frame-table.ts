import { describeVariant } from './cases.js';
import { formatNumber } from './format-number.js';
import type { CaseResult, CreationCounts, PlanMemory } from './report.js';
import { formatSize } from './sizes.js';

// The text tables of the frame cases, printed under the throughput table: their numbers are per
// frame and per first call, not GB/s, so they get columns of their own. No Node module here.

/**
 * Bytes as B, KiB, MiB or GiB with three significant digits, or `-`.
 *
 * @example
 * ```ts
 * formatBytes(4608); // '4.50 KiB'
 * ```
 */
export function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined || !Number.isFinite(bytes)) return '-';
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${formatNumber(value)} ${units[unit]}`;
}

/**
 * `before→after` of a plan's memory field, or the one value when it did not change.
 *
 * @example
 * ```ts
 * changeText({ allocations: 1 }, { allocations: 3 }, 'allocations', String); // '1→3'
 * ```
 */
export function changeText(
  before: PlanMemory,
  after: PlanMemory,
  key: keyof PlanMemory,
  format: (v: number | undefined) => string,
): string {
  const a = before[key];
  const b = after[key];
  if (a === undefined && b === undefined) return '-';
  return a === b ? format(a) : `${format(a)}→${format(b)}`;
}

/**
 * Pipelines of a creation record: synchronous compiles plus asynchronous ones (`2+1 async`).
 *
 * @example
 * ```ts
 * pipelinesText({ buffers: 0, bindGroups: 0, pipelines: 2, asyncPipelines: 1 }); // '2+1 async'
 * ```
 */
export function pipelinesText(c: CreationCounts, format: (v: number) => string = formatNumber): string {
  return c.asyncPipelines ? `${format(c.pipelines)}+${format(c.asyncPipelines)} async` : format(c.pipelines);
}

/**
 * Columns of the frame-loop table.
 *
 * @example
 * ```ts
 * formatGrid(FRAME_LOOP_HEADERS, rows.map((r) => frameLoopCells(r, statusCell(r))), FRAME_RIGHT);
 * ```
 */
export const FRAME_LOOP_HEADERS = [
  'plan',
  'variant',
  'n',
  'counts',
  'frames',
  'encode ms',
  'encode p90',
  'GPU ms',
  'GPU p90',
  'buffers/f',
  'bind groups/f',
  'pipelines/f',
  'allocations',
  'memory',
  'status',
];

/**
 * Numeric columns of the frame tables (aligned right).
 *
 * @example
 * ```ts
 * formatGrid(FIRST_CALL_HEADERS, rows.map((r) => firstCallCells(r, statusCell(r))), FRAME_RIGHT);
 * ```
 */
export const FRAME_RIGHT = new Set([
  'n',
  'counts',
  'frames',
  'encode ms',
  'encode p90',
  'GPU ms',
  'GPU p90',
  'buffers/f',
  'bind groups/f',
  'pipelines/f',
  'create ms',
  'ready ms',
  'frame ms',
  'total ms',
]);

/** The plan a frame case records (`frameWorkload`), or '' for a row without one. */
function planOf(r: CaseResult): string {
  return typeof r.case.frameWorkload === 'string' ? r.case.frameWorkload : '';
}

/** The variant of a frame case without its plan name (the `plan` column has it). */
function variantText(r: CaseResult): string {
  const plan = planOf(r);
  const variant = describeVariant(r.case);
  return plan && variant.startsWith(`${plan} `) ? variant.slice(plan.length + 1) : variant;
}

/**
 * The cells of a frame-loop row, in {@link FRAME_LOOP_HEADERS} order.
 *
 * @example
 * ```ts
 * frameLoopCells(result); // ['sort', 'f32 u32 values desc gpu count', '2^18', '131072–262144', '300', '0.0421', …, 'ok']
 * ```
 */
export function frameLoopCells(r: CaseResult, status: string): string[] {
  const f = r.frameLoop;
  const c = r.case;
  const named = [planOf(r), variantText(r), formatSize(c.n)];
  // A case that never looped (skipped, failed, crashed) has only its name and status.
  if (!f) return [...named, ...Array<string>(FRAME_LOOP_HEADERS.length - 4).fill(''), status];
  return [
    ...named,
    `${f.countMin}–${f.countMax}`,
    String(f.frames),
    formatNumber(f.encode.medianMs),
    formatNumber(f.encode.p90Ms),
    formatNumber(f.gpu?.medianMs),
    formatNumber(f.gpu?.p90Ms),
    formatNumber(f.createdPerFrame.buffers),
    formatNumber(f.createdPerFrame.bindGroups),
    pipelinesText(f.createdPerFrame),
    changeText(f.planBefore, f.planAfter, 'allocations', (v) => (v === undefined ? '-' : String(v))),
    changeText(f.planBefore, f.planAfter, 'memoryBytes', formatBytes),
    status,
  ];
}

/**
 * Columns of the first-call table.
 *
 * @example
 * ```ts
 * formatGrid(FIRST_CALL_HEADERS, rows.map((r) => firstCallCells(r, statusCell(r))), FRAME_RIGHT);
 * ```
 */
export const FIRST_CALL_HEADERS = [
  'plan',
  'variant',
  'n',
  'create ms',
  'ready ms',
  'encode ms',
  'frame ms',
  'total ms',
  'pipelines',
  'status',
];

/**
 * The cells of a first-call row, in {@link FIRST_CALL_HEADERS} order; `ready ms` is `n/a` where
 * the plan has no `ready` and empty for `no-wait`.
 *
 * @example
 * ```ts
 * firstCallCells(result, 'ok'); // ['scan', 'u32 wait', '2^20', '0.412', '310', '0.210', '2.10', '313', '0+3 async', 'ok']
 * ```
 */
export function firstCallCells(r: CaseResult, status: string): string[] {
  const f = r.firstCall;
  const c = r.case;
  const named = [planOf(r), variantText(r), formatSize(c.n)];
  if (!f) return [...named, ...Array<string>(FIRST_CALL_HEADERS.length - 4).fill(''), status];
  const ready = !f.hasReady ? 'n/a' : f.readyMs !== undefined ? formatNumber(f.readyMs) : '';
  return [
    ...named,
    formatNumber(f.createMs),
    ready,
    formatNumber(f.encodeMs),
    formatNumber(f.frameMs),
    formatNumber(f.totalMs),
    pipelinesText(f.created, String),
    status,
  ];
}
