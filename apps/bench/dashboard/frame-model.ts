import { caseText } from '../src/case-types.js';
import { describeVariant } from '../src/cases.js';
import { changeText, formatBytes } from '../src/frame-table.js';
import type { CreationCounts } from '../src/report.js';
import { type LoadedReport, newestFirst, type Row } from './model.js';
import { type Column, deviceColumn, numberColumn, reportColumn, textColumn, verificationText } from './table-model.js';

// The frame view's two tables as data: the frame-loop and first-call rows of the shown reports
// and their columns. Every shown report's rows are listed (not only the newest per case), so a run
// before a change and one after it sit side by side; the report column tells them apart.

const ms = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });
const int = new Intl.NumberFormat('en-US');

/**
 * The rows of `primitive` in the shown project reports (baselines left out), newest report first,
 * in each report's order.
 *
 * @example
 * ```ts
 * const loops = frameRows(shownReports, 'frame-loop');
 * ```
 */
export function frameRows(reports: readonly LoadedReport[], primitive: 'frame-loop' | 'first-call'): Row[] {
  return newestFirst(reports.filter((r) => !r.isBaseline)).flatMap((source) =>
    source.report.results.filter((result) => result.case.primitive === primitive).map((result) => ({ source, result })),
  );
}

/** The variant without the plan's name, which has a column of its own. */
function variantOf(row: Row): string {
  const c = row.result.case;
  const v = describeVariant(c);
  const plan = caseText(c, 'frameWorkload');
  return plan && v.startsWith(`${plan} `) ? v.slice(plan.length + 1) : v;
}

const pipelines = (c: CreationCounts | undefined) => (c ? c.pipelines + c.asyncPipelines : undefined);

/** Columns shared by both tables, before their own figures. */
const NAME_COLUMNS: readonly Column[] = [
  textColumn('plan', 'plan', (r) => caseText(r.result.case, 'frameWorkload')),
  textColumn('variant', 'variant', variantOf),
  numberColumn('n', 'n', (r) => r.result.case.n, int),
];

/** Columns shared by both tables, after their own figures. */
const TAIL_COLUMNS: readonly Column[] = [
  textColumn('status', 'status', (r) => r.result.status),
  textColumn('verified', 'verified', verificationText),
  deviceColumn(),
  // The label names the commit, so runs before and after a change are told apart.
  reportColumn('report', 'report', (r) => [r.source]),
  textColumn('message', 'note', (r) => r.result.message),
];

/**
 * The frame-loop table: counts, JavaScript encode time and GPU time per frame (median, p90),
 * objects created per frame, and the plan's allocations and memory before → after the measured frames.
 *
 * @example
 * ```ts
 * drawTable(box, frameRows(reports, 'frame-loop'), FRAME_LOOP_COLUMNS);
 * ```
 */
export const FRAME_LOOP_COLUMNS: readonly Column[] = [
  ...NAME_COLUMNS,
  textColumn('counts', 'counts', (r) => (r.result.frameLoop ? `${r.result.frameLoop.countMin}–${r.result.frameLoop.countMax}` : undefined)),
  numberColumn('frames', 'frames', (r) => r.result.frameLoop?.frames, int),
  numberColumn('encodeMs', 'encode ms', (r) => r.result.frameLoop?.encode.medianMs, ms),
  numberColumn('encodeP90', 'encode p90', (r) => r.result.frameLoop?.encode.p90Ms, ms),
  numberColumn('gpuMs', 'GPU ms', (r) => r.result.frameLoop?.gpu?.medianMs, ms),
  numberColumn('gpuP90', 'GPU p90', (r) => r.result.frameLoop?.gpu?.p90Ms, ms),
  numberColumn('buffers', 'buffers / frame', (r) => r.result.frameLoop?.createdPerFrame.buffers, ms),
  numberColumn('bindGroups', 'bind groups / frame', (r) => r.result.frameLoop?.createdPerFrame.bindGroups, ms),
  numberColumn('pipelines', 'pipelines / frame', (r) => pipelines(r.result.frameLoop?.createdPerFrame), ms),
  textColumn('allocations', 'allocations', (r) =>
    r.result.frameLoop
      ? changeText(r.result.frameLoop.planBefore, r.result.frameLoop.planAfter, 'allocations', (v) => (v === undefined ? '-' : String(v)))
      : undefined,
  ),
  textColumn('memory', 'memory', (r) =>
    r.result.frameLoop ? changeText(r.result.frameLoop.planBefore, r.result.frameLoop.planAfter, 'memoryBytes', formatBytes) : undefined,
  ),
  ...TAIL_COLUMNS,
];

/**
 * The first-call table: wall-clock milliseconds of creation, `ready` (`n/a` where the plan has
 * none; empty for `no-wait`), the first encode, the first frame and the total, and the pipelines compiled.
 *
 * @example
 * ```ts
 * drawTable(box, frameRows(reports, 'first-call'), FIRST_CALL_COLUMNS);
 * ```
 */
export const FIRST_CALL_COLUMNS: readonly Column[] = [
  ...NAME_COLUMNS,
  numberColumn('createMs', 'create ms', (r) => r.result.firstCall?.createMs, ms),
  {
    key: 'readyMs',
    header: 'ready ms',
    numeric: true,
    value: (r) => r.result.firstCall?.readyMs,
    text: (r) => {
      const f = r.result.firstCall;
      if (!f) return '';
      if (!f.hasReady) return 'n/a';
      return f.readyMs === undefined ? '' : ms.format(f.readyMs);
    },
  },
  numberColumn('encodeMs', 'encode ms', (r) => r.result.firstCall?.encodeMs, ms),
  numberColumn('frameMs', 'frame ms', (r) => r.result.firstCall?.frameMs, ms),
  numberColumn('totalMs', 'total ms', (r) => r.result.firstCall?.totalMs, ms),
  textColumn('pipelines', 'pipelines (sync + async)', (r) => {
    const c = r.result.firstCall?.created;
    return c ? `${c.pipelines} + ${c.asyncPipelines}` : undefined;
  }),
  ...TAIL_COLUMNS,
];
