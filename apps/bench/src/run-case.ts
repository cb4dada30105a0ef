import { spawn } from 'node:child_process';
import type { CaseRecord } from './case-types.js';
import { type ChildMessage, RESULT_MARKER } from './protocol.js';
import type { CaseResult, CaseStatus } from './report.js';

/** How to start a child. */
export interface ChildSpec {
  /** The bundle to run (the CLI itself). */
  readonly script: string;
  readonly env: NodeJS.ProcessEnv;
  /** Seconds before the child is killed. */
  readonly timeoutS: number;
  /** Seconds a child may take to exit after it printed its result (Dawn sometimes hangs at exit). */
  readonly exitGraceS?: number;
}

/** Characters of stderr kept for the report. */
const STDERR_TAIL = 4000;

function tail(text: string, max = STDERR_TAIL): string {
  return text.length > max ? `…${text.slice(-max)}` : text;
}

function failure(c: CaseRecord, status: CaseStatus, message: string, extra: Partial<CaseResult>): ChildMessage {
  return { result: { case: c, status, message, ...extra }, device: null };
}

/**
 * Runs one case in its own Node process and resolves to its result — never rejects. A child that
 * crashes, hangs past the timeout, or prints no result line becomes a `crashed`/`timeout`/`error`
 * row with its exit status and the tail of its stderr, so one bad case never ends a run.
 *
 * @example
 * ```ts
 * const { result } = await runCaseInChild(c, { script: process.argv[1]!, env: process.env, timeoutS: 120 });
 * ```
 */
export function runCaseInChild(c: CaseRecord, spec: ChildSpec): Promise<ChildMessage> {
  const started = performance.now();
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [spec.script, '--case', JSON.stringify(c)], {
      env: spec.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let pending = '';
    let message: ChildMessage | undefined;
    let badLine: string | undefined;
    let timedOut = false;
    let hungAtExit = false;
    let graceTimer: NodeJS.Timeout | undefined;
    const killTimer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, spec.timeoutS * 1000);

    const onLine = (line: string) => {
      if (!line.startsWith(RESULT_MARKER) || message) return;
      try {
        message = JSON.parse(line.slice(RESULT_MARKER.length)) as ChildMessage;
      } catch {
        badLine = line.slice(0, 200);
        return;
      }
      // The result is in; a child that then hangs in Dawn's teardown must not hold up the run.
      graceTimer = setTimeout(
        () => {
          hungAtExit = true;
          child.kill('SIGKILL');
        },
        (spec.exitGraceS ?? 10) * 1000,
      );
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onLine(line);
      // Output without newlines (a runaway print) must not grow without bound.
      if (pending.length > 1 << 20 && !pending.startsWith(RESULT_MARKER)) pending = '';
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = tail(stderr + chunk, 4 * STDERR_TAIL);
    });

    child.on('error', (error) => {
      clearTimeout(killTimer);
      clearTimeout(graceTimer);
      resolvePromise(failure(c, 'error', `could not start the child process: ${error.message}`, {}));
    });
    child.on('close', (code, signal) => {
      clearTimeout(killTimer);
      clearTimeout(graceTimer);
      if (pending) onLine(pending);
      const wallMs = performance.now() - started;
      const exit = { code, signal };
      const stderrTail = tail(stderr.trim());
      if (message) {
        const clean = code === 0 && !hungAtExit;
        // A crash after the result (Dawn's teardown) does not make the measurement wrong; keep it and say so.
        const result: CaseResult = {
          ...message.result,
          wallMs,
          ...(clean ? {} : { exit, stderrTail, message: [message.result.message, exitNote(exit, hungAtExit)].filter(Boolean).join('; ') }),
        };
        resolvePromise({ result, device: message.device });
        return;
      }
      if (timedOut) {
        resolvePromise(failure(c, 'timeout', `no result within ${spec.timeoutS} s`, { exit, stderrTail, wallMs }));
        return;
      }
      const why = badLine ? `unreadable result line: ${badLine}` : `no result: ${exitNote(exit, false)}`;
      const lastError = stderrTail.split('\n').filter(Boolean).pop();
      resolvePromise(failure(c, 'crashed', lastError ? `${why}: ${lastError}` : why, { exit, stderrTail, wallMs }));
    });
  });
}

function exitNote(exit: { code: number | null; signal: string | null }, hungAtExit: boolean): string {
  if (hungAtExit) return 'the process hung after printing its result and was killed';
  if (exit.signal) return `the process was ended by ${exit.signal}`;
  return `the process exited with code ${exit.code}`;
}
