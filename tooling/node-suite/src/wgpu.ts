// The portability suite under wgpu, the WebGPU implementation inside Firefox, as Deno runs it:
// every package's array-level functions (the Node suite's cases and HiSparse's) on host data,
// checked against the CPU references, at sizes that cross the one-workgroup and multi-tile paths;
// then plans in a frame loop (frame-cases.ts): nothing created per frame, a right result after;
// and first, a few cases on a device that asks for `subgroups` as the README's quick start did.
// The device comes from `navigator.gpu` like in a browser, with the same features and limits the
// test helpers ask for. Prints one line per call and closes with "N passed, N failed"; the exit
// status is 1 when any call failed. Run by scripts/test-wgpu.sh (which sets up the adapter).
import { getTestContext } from '@scan/gpu-testing';
import { hisparseCases } from './cases/hisparse.js';
import { NODE_CASES } from './cases/index.js';
import { frameCases } from './frame-cases.js';
import { formatPipelineTimes, timePipelines } from './pipeline-timing.js';
import { quickStartCases, quickStartContext } from './quick-start.js';
import { runCase } from './run.js';

/** Element counts every case runs at: one element, past one 4096-element tile, and 2^16 + 3. */
export const WGPU_SIZES = [1, 4097, 2 ** 16 + 3];

const deno = (globalThis as { Deno?: { exit(code: number): never; args: string[] } }).Deno;
// A case-name prefix runs only those cases; `frame-loop` runs only the frame-loop cases, and
// `quick-start` only the cases on a device requested like the README's quick start (quick-start.ts).
const only = deno?.args[0];
const framesOnly = only === 'frame-loop';
const ctx = await getTestContext();
const caps = ctx.caps;
console.log(
  `wgpu: subgroups ${caps.features.subgroups}, f16 ${caps.features.shaderF16}, ` +
    `${caps.limits.maxComputeInvocationsPerWorkgroup} invocations, ${caps.limits.maxStorageBufferBindingSize} bytes per binding`,
);
const pipelines = timePipelines(ctx.device);
let passed = 0;
let failed = 0;
if (!framesOnly && (!only || only === 'quick-start')) {
  // The README's quick start asks for `subgroups` unconditionally: under wgpu the device then lists
  // a feature naga cannot compile, and every package must still give right results.
  const quick = await quickStartContext();
  console.log(`quick start: subgroups listed ${quick.listed}, used ${quick.used}`);
  for (const c of quickStartCases()) {
    const run = await runCase(quick.ctx, c, 4097, 4097);
    if (run.error === undefined) passed++;
    else failed++;
    console.log(
      `${run.error === undefined ? 'ok  ' : 'FAIL'} quick-start ${c.name} (${c.what}) at 4097${run.error ? ` — ${run.error}` : ''}`,
    );
  }
  quick.ctx.device.destroy();
}
for (const c of [...NODE_CASES, ...hisparseCases]) {
  if (framesOnly || (only && !c.name.startsWith(only))) continue;
  pipelines.setGroup(c.name.split('.')[0] as string);
  for (const size of WGPU_SIZES) {
    const run = await runCase(ctx, c, size, size);
    if (run.error === undefined) passed++;
    else failed++;
    console.log(
      `${run.error === undefined ? 'ok  ' : 'FAIL'} ${c.name} (${c.what}) at ${size}: ${run.callMs.toFixed(0)} ms${run.error ? ` — ${run.error}` : ''}`,
    );
  }
}
pipelines.restore();
for (const c of frameCases) {
  if (only && !framesOnly && !c.name.startsWith(only)) continue;
  const start = performance.now();
  let error: string | undefined;
  try {
    await c.run(ctx);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  if (error === undefined) passed++;
  else failed++;
  console.log(
    `${error === undefined ? 'ok  ' : 'FAIL'} ${c.name} (${c.what}): ${(performance.now() - start).toFixed(0)} ms${error ? ` — ${error}` : ''}`,
  );
}
console.log(formatPipelineTimes(pipelines));
console.log(`${passed} passed, ${failed} failed`);
ctx.destroy();
deno?.exit(failed > 0 ? 1 : 0);
