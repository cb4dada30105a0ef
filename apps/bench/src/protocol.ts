import type { CaseRecord } from './case-types.js';
import type { CaseResult, DeviceInfo } from './report.js';

/** Prefix of the one stdout line that carries a child's result (Dawn may print on stdout too). */
export const RESULT_MARKER = '@@RESULT ';

/** What a child sends back: its row of the report, and the device it ran on. */
export interface ChildMessage {
  readonly result: CaseResult;
  readonly device: DeviceInfo | null;
}

/**
 * The stdout line a child prints for `message`.
 *
 * @example
 * ```ts
 * process.stdout.write(resultLine({ result, device }));
 * ```
 */
export function resultLine(message: ChildMessage): string {
  return `${RESULT_MARKER}${JSON.stringify(message)}\n`;
}

/**
 * Finds the result line in a child's stdout and parses it; undefined when there is none (the child
 * died first) or it is not valid JSON (it died while writing).
 *
 * @example
 * ```ts
 * const message = parseResultLine(stdout);
 * ```
 */
export function parseResultLine(stdout: string): ChildMessage | undefined {
  const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
  if (line === undefined) return undefined;
  try {
    const message = JSON.parse(line.slice(RESULT_MARKER.length)) as ChildMessage;
    return message && typeof message === 'object' && message.result ? message : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Parses and sanity-checks the `--case` JSON a parent passes to a child.
 *
 * @example
 * ```ts
 * const c = parseCaseJson(process.argv[3]);
 * ```
 */
export function parseCaseJson(text: string): CaseRecord {
  const c = JSON.parse(text) as CaseRecord;
  if (!c || typeof c !== 'object' || typeof c.primitive !== 'string' || !Number.isInteger(c.n) || c.n < 1) {
    throw new Error(`--case: not a bench case: ${text.slice(0, 200)}`);
  }
  return c;
}
