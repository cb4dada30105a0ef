import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { enumerateCases } from '../src/cases.js';
import { parseResultLine, RESULT_MARKER, resultLine } from '../src/protocol.js';
import { runCaseInChild } from '../src/run-case.js';

// Stand-ins for the CLI in child mode: each script reads `--case` and misbehaves in its own way.
const dir = mkdtempSync(join(tmpdir(), 'scan-bench-'));
const c = enumerateCases({ sizes: [4096], only: ['copy'], runs: 10, warmup: 0, seed: 1, density: 0.5 })[0]!;
const okLine = (extra = '') =>
  `const c = JSON.parse(process.argv[3]); console.log('Dawn says hello'); process.stdout.write(${JSON.stringify(RESULT_MARKER)} + JSON.stringify({ result: { case: c, status: 'ok' }, device: null }) + '\\n');${extra}`;

function script(name: string, body: string): string {
  const path = join(dir, `${name}.mjs`);
  writeFileSync(path, body);
  return path;
}

const spec = (path: string, timeoutS = 20) => ({ script: path, env: process.env, timeoutS, exitGraceS: 1 });

test('the result line is found among other output, the case passed through intact', async () => {
  const { result } = await runCaseInChild(c, spec(script('ok', okLine())));
  expect(result.status).toBe('ok');
  expect(result.case).toEqual(c);
  expect(result.exit).toBeUndefined();
  expect(result.wallMs).toBeGreaterThan(0);
});

test('a crash without a result is a crashed row with the signal and stderr', async () => {
  const { result } = await runCaseInChild(
    c,
    spec(script('segv', `console.error('futex facility returned an unexpected error'); process.kill(process.pid, 'SIGSEGV');`)),
  );
  expect(result.status).toBe('crashed');
  expect(result.exit).toEqual({ code: null, signal: 'SIGSEGV' });
  expect(result.message).toMatch(/SIGSEGV.*futex/);
  expect(result.stderrTail).toContain('futex facility');
});

test('a non-zero exit without a result is a crashed row', async () => {
  const { result } = await runCaseInChild(c, spec(script('exit3', 'process.exit(3);')));
  expect(result).toMatchObject({ status: 'crashed', exit: { code: 3, signal: null } });
});

test('a hung child is killed at the timeout', async () => {
  const { result } = await runCaseInChild(c, spec(script('hang', 'setInterval(() => {}, 1000);'), 1));
  expect(result.status).toBe('timeout');
  expect(result.message).toMatch(/within 1 s/);
});

test('a crash or hang after the result keeps the result and says so', async () => {
  const crash = await runCaseInChild(c, spec(script('late-segv', okLine(" process.kill(process.pid, 'SIGSEGV');"))));
  expect(crash.result.status).toBe('ok');
  expect(crash.result.message).toMatch(/SIGSEGV/);
  const hang = await runCaseInChild(c, spec(script('late-hang', okLine(' setInterval(() => {}, 1000);'))));
  expect(hang.result.status).toBe('ok');
  expect(hang.result.message).toMatch(/hung after printing its result/);
});

test('protocol round trip', () => {
  const line = resultLine({ result: { case: c, status: 'skipped', message: 'too large' }, device: null });
  expect(line.startsWith(RESULT_MARKER)).toBe(true);
  expect(parseResultLine(`noise\n${line}more noise\n`)?.result.message).toBe('too large');
  expect(parseResultLine('no result here\n')).toBeUndefined();
  expect(parseResultLine(`${RESULT_MARKER}{"result": trunc`)).toBeUndefined();
});
