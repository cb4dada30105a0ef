// Frame-loop check of @scan/tcu on a GPU with subgroup matrices (the lead runs it on the H100), the
// counterpart of test/frame-loop.test.ts for the subgroup-matrix path, which SwiftShader lacks:
// each plan is encoded 1,000 frames with random counts (and segment sizes), after a warm-up through
// every structure, with the device's buffer, bind group and pipeline creations counted; in steady
// state a plan must create nothing, and after destroy() leave nothing alive. Then several encodes
// of each plan into one encoder, each compared with the CPU reference. Prints a table; exits
// non-zero on any failure.
//
// Bundle and run as scripts/device-check.ts (its header; build @scan/core first, whose package
// entry is its dist), on the GPU machine as the repository's GPU notes say:
//   pnpm exec esbuild scripts/frame-loop-check.ts --bundle --platform=node --format=esm --target=node20 \
//     --external:webgpu --outfile=/tmp/tcu-frame-loop-check.mjs
//   SCAN_DAWN_TOGGLES='enable-dawn-features=allow_unsafe_apis,vulkan_enable_f16_on_nvidia' node /tmp/tcu-frame-loop-check.mjs
// TCU_CHECK_MAX_N and TCU_CHECK_FRAMES shrink it for a software adapter (which runs the emulated path).
// Last run: H200 (Dawn webgpu@0.6.2, driver 580), every case 0 creations in steady state, all batches ok.
import type { ScanContext } from '@scan/core';
import { createNodeContext } from '@scan/core/node';
import { countDeviceCalls, createRng } from '@scan/gpu-testing';
import * as cpu from '../src/cpu/index.js';
import {
  createTcuCountPlan,
  createTcuReducePlan,
  createTcuScanPlan,
  packBytes,
  packHalves,
  prepareTcu,
  type TcuPlan,
} from '../src/index.js';
import { readyCounts } from '../src/plans/ready-counts.js';

type Kind = 'reduce' | 'scan-incl' | 'scan-excl' | 'count';

interface Case {
  kind: Kind;
  /** Segment sizes the frames take (undefined: the whole array). */
  sizes: readonly (number | undefined)[];
  /** Largest count. */
  n: number;
  maxCount?: boolean;
}

// A quick run on a software adapter: TCU_CHECK_MAX_N caps the counts, TCU_CHECK_FRAMES the frames.
const MAX_N = Number(process.env.TCU_CHECK_MAX_N ?? Number.POSITIVE_INFINITY);
const FRAMES = Number(process.env.TCU_CHECK_FRAMES ?? 1000);
const M = 1 << 22;
const CASES: Case[] = [
  { kind: 'reduce', sizes: [undefined], n: M },
  { kind: 'reduce', sizes: [16], n: M },
  { kind: 'reduce', sizes: [48], n: M },
  { kind: 'reduce', sizes: [256], n: M, maxCount: true },
  { kind: 'reduce', sizes: [768], n: M },
  { kind: 'reduce', sizes: [4096], n: M },
  { kind: 'reduce', sizes: [8192], n: M },
  { kind: 'reduce', sizes: [65536, 4096], n: 1 << 25 }, // the block level (Algorithm 4) from 512 segments
  { kind: 'scan-incl', sizes: [undefined], n: M },
  { kind: 'scan-incl', sizes: [16], n: M },
  { kind: 'scan-incl', sizes: [48], n: M },
  { kind: 'scan-incl', sizes: [256], n: M },
  { kind: 'scan-incl', sizes: [4096], n: M, maxCount: true },
  { kind: 'scan-incl', sizes: [65536], n: M }, // the chained scan
  { kind: 'scan-excl', sizes: [8192], n: 1 << 25 }, // the warp-level Scan256N from 4096 segments
  { kind: 'scan-excl', sizes: [undefined, 16], n: M },
  { kind: 'count', sizes: [undefined], n: M },
  { kind: 'count', sizes: [32, 48], n: M },
  { kind: 'count', sizes: [256], n: M },
  { kind: 'count', sizes: [8192], n: M },
  { kind: 'count', sizes: [65536], n: M, maxCount: true },
];

function makePlan(ctx: ScanContext, c: Case): TcuPlan {
  const segmentSizes = c.sizes.filter((s): s is number => s !== undefined);
  const options = { segmentSizes, ...(c.maxCount ? { maxCount: c.n, maxSegmentSize: segmentSizes[0] } : {}) };
  if (c.kind === 'count') return createTcuCountPlan(ctx, options);
  if (c.kind === 'reduce') return createTcuReducePlan(ctx, options);
  return createTcuScanPlan(ctx, { ...options, inclusive: c.kind === 'scan-incl' });
}

/** Warm-up counts for one segment size: every count where the structure may change, largest first. */
function warmCounts(n: number, s: number | undefined): number[] {
  const counts = new Set([n, n - 1, 0, ...readyCounts(n, s)]);
  if (s !== undefined) for (const c of readyCounts(Math.min(n, s - 1), undefined)) counts.add(c);
  return [...counts].filter((c) => c >= 0 && c <= n).sort((a, b) => b - a);
}

async function frameLoop(ctx: ScanContext, c0: Case): Promise<string | undefined> {
  const c = { ...c0, n: Math.min(c0.n, MAX_N) };
  const device = ctx.device;
  const U = GPUBufferUsage;
  const input = device.createBuffer({ size: 2 * c.n, usage: U.STORAGE | U.COPY_DST });
  const output = device.createBuffer({ size: 4 * c.n, usage: U.STORAGE | U.COPY_SRC | U.COPY_DST });
  const counted = countDeviceCalls(device);
  device.pushErrorScope('validation');
  const rng = createRng(c.n + c.sizes.length);
  const problems: string[] = [];
  let plan: TcuPlan | undefined;
  try {
    const t0 = performance.now();
    plan = makePlan(ctx, c);
    await plan.ready;
    const setup = { ...counted.counts };
    counted.reset();
    const t1 = performance.now();
    const warm: [number, number | undefined][] = [];
    for (const s of c.sizes) for (const count of warmCounts(c.n, s)) warm.push([count, s]);
    const frame = (i: number, count: number, s: number | undefined, counting: boolean) => {
      const before = { ...counted.counts };
      const encoder = device.createCommandEncoder();
      (plan as TcuPlan).encode(encoder, { input, output, count, segmentSize: s });
      const commands = encoder.finish();
      if (i % 10 === 0) device.queue.submit([commands]);
      const made = ['buffers', 'bindGroups', 'pipelines'] as const;
      if (counting && made.some((k) => counted.counts[k] !== before[k]) && problems.length < 5) {
        problems.push(
          `frame ${i} (count ${count}, segment ${s ?? 'whole'}) made ${made.map((k) => counted.counts[k] - before[k]).join('/')}`,
        );
      }
    };
    // Twice: scratch a structure first needs drops the bind groups made before it.
    for (let pass = 0; pass < 2; pass++) warm.forEach(([count, s], i) => frame(i, count, s, false));
    const warmup = { ...counted.counts };
    counted.reset();
    for (let i = 0; i < FRAMES; i++) frame(i, rng.int(0, c.n), c.sizes[rng.int(0, c.sizes.length - 1)], true);
    const steady = { ...counted.counts };
    await device.queue.onSubmittedWorkDone();
    const t2 = performance.now();
    const live = counted.live.size;
    const memory = plan.memoryBytes;
    plan.destroy();
    plan = undefined;
    const error = await device.popErrorScope();
    if (error) problems.push(`validation error: ${error.message}`);
    if (counted.live.size !== 0) problems.push(`${counted.live.size} buffers alive after destroy()`);
    console.log(
      `${c.kind.padEnd(10)}${c.sizes
        .map((s) => s ?? 'whole')
        .join(',')
        .padEnd(14)}${String(c.n).padEnd(10)}` +
        `setup ${setup.pipelines} pipelines, ${(t1 - t0).toFixed(0)} ms; warm-up ${warm.length}×2 frames ${JSON.stringify(warmup)}; ` +
        `steady ${JSON.stringify(steady)}; held ${live} buffers, ${memory} bytes; ${(t2 - t1).toFixed(0)} ms`,
    );
  } catch (e) {
    problems.push(`error: ${(e as Error).message}`);
    plan?.destroy();
    await device.popErrorScope().catch(() => undefined);
  } finally {
    counted.restore();
    input.destroy();
    output.destroy();
  }
  return problems.length ? problems.join('; ') : undefined;
}

/** Several encodes of one plan into one encoder, one submit, each compared with the CPU reference. */
async function batch(ctx: ScanContext, kind: Kind, jobs: [number, number | undefined][]): Promise<string | undefined> {
  const device = ctx.device;
  const U = GPUBufferUsage;
  const sizes = jobs.map(([, s]) => s).filter((s): s is number => s !== undefined);
  const plan =
    kind === 'count'
      ? createTcuCountPlan(ctx, { segmentSizes: sizes })
      : kind === 'reduce'
        ? createTcuReducePlan(ctx, { segmentSizes: sizes })
        : createTcuScanPlan(ctx, { segmentSizes: sizes, inclusive: kind === 'scan-incl' });
  await plan.ready;
  const rng = createRng(jobs.length);
  const owned: GPUBuffer[] = [];
  const runs = jobs.map(([count, s]) => {
    const data = new Float32Array(count).map(() => (rng.float() - 0.5) * 8);
    const flags = new Uint8Array(count).map(() => (rng.float() < 0.3 ? 1 : 0));
    const words = kind === 'count' ? packBytes(flags) : packHalves(cpu.toF16Array(data));
    const input = device.createBuffer({ size: Math.max(16, words.byteLength), usage: U.STORAGE | U.COPY_DST });
    device.queue.writeBuffer(input, 0, words);
    const outLength = kind.startsWith('scan') ? count : Math.ceil(count / (s ?? count));
    const output = device.createBuffer({ size: 4 * Math.max(1, outLength), usage: U.STORAGE | U.COPY_SRC | U.COPY_DST });
    // Poisoned (NaN bits; a count no segment has) before the encoder below runs: an unwritten element fails.
    device.queue.writeBuffer(output, 0, new Uint32Array(Math.max(1, outLength)).fill(0x7fc00000));
    const read = device.createBuffer({ size: 4 * Math.max(1, outLength), usage: U.MAP_READ | U.COPY_DST });
    owned.push(input, output, read);
    return { count, s, data, flags, outLength, input, output, read };
  });
  const encoder = device.createCommandEncoder();
  for (const r of runs) {
    plan.encode(encoder, { input: r.input, output: r.output, count: r.count, segmentSize: r.s });
    encoder.copyBufferToBuffer(r.output, 0, r.read, 0, 4 * Math.max(1, r.outLength));
  }
  device.queue.submit([encoder.finish()]);
  const problems: string[] = [];
  for (const r of runs) {
    await r.read.mapAsync(GPUMapMode.READ);
    const bytes = r.read.getMappedRange().slice(0, 4 * r.outLength);
    r.read.unmap();
    const label = `${kind} n=${r.count} s=${r.s ?? 'whole'}`;
    if (kind === 'count') {
      const got = new Uint32Array(bytes);
      const want = cpu.tcuCount(r.flags, { segmentSize: r.s, pad: true });
      const bad = want.findIndex((v, i) => got[i] !== v);
      if (bad >= 0) problems.push(`${label}: at ${bad} got ${got[bad]}, want ${want[bad]}`);
      continue;
    }
    const got = new Float32Array(bytes);
    const scan = kind !== 'reduce';
    const want = scan
      ? cpu.tcuScan(r.data, { segmentSize: r.s, pad: true, inclusive: kind === 'scan-incl' })
      : cpu.tcuReduce(r.data, { segmentSize: r.s, pad: true });
    const vals = cpu.f16ToFloat32(cpu.toF16Array(r.data));
    const size = r.s ?? Math.max(1, r.count);
    let abs = 0;
    for (let i = 0; i < want.length; i++) {
      let bound: number;
      if (scan) {
        if (i % size === 0) abs = 0;
        abs += Math.abs(vals[i] as number);
        bound = cpu.sumErrorBound((i % size) + 1, abs);
      } else {
        let a = 0;
        for (let j = i * size; j < Math.min(r.count, (i + 1) * size); j++) a += Math.abs(vals[j] as number);
        bound = cpu.sumErrorBound(size, a);
      }
      if (!(Math.abs((got[i] as number) - (want[i] as number)) <= bound)) {
        problems.push(`${label}: at ${i} got ${got[i]}, want ${want[i]}`);
        break;
      }
    }
  }
  for (const b of owned) b.destroy();
  plan.destroy();
  console.log(`batch ${kind}: ${jobs.length} encodes, ${problems.length ? 'MISMATCH' : 'ok'}`);
  return problems.length ? problems.join('; ') : undefined;
}

async function main(): Promise<number> {
  const ctx = await createNodeContext();
  console.log(`device: ${ctx.caps.adapter.description}`);
  const support = await prepareTcu(ctx);
  console.log(`direct kernels: f16 ${support.f16.direct}, u8 ${support.u8.direct}`);
  if (!support.f16.direct || !support.u8.direct) console.log('NOTE: the direct kernels are off on this device: this checks less');
  let failures = 0;
  for (const c of CASES) {
    const problem = await frameLoop(ctx, c);
    if (problem) {
      console.log(`  FAIL: ${problem}`);
      failures++;
    }
  }
  const B = Math.min(1 << 18, MAX_N);
  const jobs: Record<Kind, [number, number | undefined][]> = {
    reduce: [
      [B + 4096 * 3 + 77, 16],
      [B, 48],
      [B + 999, 768],
      [B + 13, 4096],
      [B + 4096 + 5, 8192],
      [3 * B + 7, undefined],
      [1, undefined],
      [4096 * 5, 256],
    ],
    'scan-incl': [
      [B + 4096 * 3 + 77, 16],
      [B + 5, 48],
      [B + 999, 256],
      [B + 13, 4096],
      [3 * 65536 + 5000, 65536],
      [3 * B + 7, undefined],
      [1, undefined],
      [8192 * 3, 8192],
    ],
    'scan-excl': [
      [B + 1, 16],
      [B + 2, 4096],
      [3 * 65536 + 5000, 65536],
      [B + 3, undefined],
      [7, 16],
      [100, 48],
    ],
    count: [
      [B + 100, 32],
      [B + 8192 + 3, 256],
      [B + 5, 8192],
      [3 * 65536 + 77, 65536],
      [B + 7, undefined],
      [1000, 48],
      [5, undefined],
    ],
  };
  for (const kind of Object.keys(jobs) as Kind[]) {
    const problem = await batch(ctx, kind, jobs[kind]);
    if (problem) {
      console.log(`  FAIL: ${problem}`);
      failures++;
    }
  }
  await ctx.device.queue.onSubmittedWorkDone();
  ctx.destroy();
  console.log(failures === 0 ? 'all ok' : `${failures} failures`);
  return failures === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
