import type { ScanContext } from '@scan/core';
import { createNodeContext } from '@scan/core/node';
import type { CaseRecord } from '../case-types.js';
import { parseCaseJson, resultLine } from '../protocol.js';
import type { CaseResult, DeviceInfo } from '../report.js';
import { deviceInfo } from './device-info.js';
import { runCase } from './run.js';

function errorText(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const code = (e as { code?: unknown }).code;
  return `${code ? `${String(code)}: ` : ''}${e.message}`;
}

/**
 * The child side of a case: creates the device (`createNodeContext`, which reads
 * `SCAN_DAWN_TOGGLES`), runs the case, and prints exactly one `@@RESULT` line — also when the case
 * throws. The caller exits right after; a crash in Dawn's teardown then no longer matters.
 *
 * @example
 * ```ts
 * await childMain(caseJson);
 * process.exit(0);
 * ```
 */
export async function childMain(caseJson: string): Promise<void> {
  const c: CaseRecord = parseCaseJson(caseJson);
  let ctx: ScanContext | undefined;
  let result: CaseResult;
  let device: DeviceInfo | null = null;
  try {
    ctx = await createNodeContext();
    device = deviceInfo(ctx);
    ctx.device.onuncapturederror = (event) => process.stderr.write(`uncaptured GPU error: ${event.error.message}\n`);
    result = await runCase(ctx, c);
  } catch (e) {
    result = { case: c, status: 'error', message: errorText(e) };
    if (e instanceof Error && e.stack) process.stderr.write(`${e.stack}\n`);
  }
  process.stdout.write(resultLine({ result, device }));
  ctx?.destroy();
}
