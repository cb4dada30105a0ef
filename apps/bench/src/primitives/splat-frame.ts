// splat-frame: the per-frame GPU work of the Gaussian-splat viewer (`apps/splats`, imported from
// its package export `@scan/splats/frame`, so the bench runs what the page runs): a cull pass
// (view depth and a frustum flag per splat), two packs of the visible splats' keys and indices
// (the count written on the GPU), the descending depth sort of the visible splats counted by that
// GPU word, and the copy of the count into the draw's indirect arguments — no rasterization, no
// read-back. Reported like the frame-loop cases: GPU time per frame (timestamps) and the
// JavaScript time of `frame.encode` per frame, with the objects created per frame.

import type { ScanContext } from '@scan/core';
import { CULL_MARGIN, createSplatFrame, type KeyBits, orbitMatrices, type SplatFrame } from '@scan/splats/frame';
import { benchModule } from '../bench-module.js';
import type { Case, CaseSelection, CaseShape } from '../case-types.js';
import { type CreationCounter, perFrame, subtractCounts, watchCreations } from '../child/frame/creation-counter.js';
import { asFrameStats } from '../child/frame/frame-stats.js';
import { createFrameTimer } from '../child/frame/frame-timer.js';
import { readWords, submitAndWait } from '../child/gpu.js';
import { guarded } from '../child/guard.js';
import { heatGpu } from '../child/heat.js';
import type { CaseResult, FrameLoopRecord } from '../report.js';
import { frameCounts, recordTimedEncode } from './frame-loop.js';

/** A splat-frame case: `n` splats, keys of `keyBits` bits (`type` f32 for 32, u32 for 16). */
export type SplatFrameCase = Case<'splat-frame', { frameWorkload: 'splats'; keyBits: KeyBits; frames: number; warmupFrames: number }>;

/**
 * Sizes (splats) of the splat-frame cases when `--sizes` is not given: 1, 4 and 8 million.
 *
 * @example
 * ```ts
 * SPLAT_FRAME_SIZES; // [1000000, 4000000, 8000000]
 * ```
 */
export const SPLAT_FRAME_SIZES: readonly number[] = [1_000_000, 4_000_000, 8_000_000];

/**
 * The splat-frame configurations: f32 depth keys and 16-bit quantized keys.
 *
 * @example
 * ```ts
 * splatFrameShapes(selection).map((s) => s.keyBits); // [32, 16]
 * ```
 */
export function splatFrameShapes(selection: CaseSelection): CaseShape<SplatFrameCase>[] {
  const counts = frameCounts(selection);
  return [
    { primitive: 'splat-frame', type: 'f32', frameWorkload: 'splats', keyBits: 32, ...counts },
    { primitive: 'splat-frame', type: 'u32', frameWorkload: 'splats', keyBits: 16, ...counts },
  ];
}

// Splat centres made on the GPU (Dawn in Node crashes on large uploads, DESIGN.md): a hashed point
// per splat, three quarters in a tube around a torus knot, a quarter on a sphere of radius 1.6 —
// the viewer's synthetic scene, near enough for culling and sorting.
const GENERATE_WGSL = /* wgsl */ `
struct Params { count: u32, seed: u32, row: u32, pad: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
fn hash(x: u32) -> u32 {
  var v = x * 747796405u + 2891336453u;
  let w = ((v >> ((v >> 28u) + 4u)) ^ v) * 277803737u;
  return (w >> 22u) ^ w;
}
fn unit(x: u32) -> f32 { return f32(hash(x) >> 8u) / 16777216.0; }
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x + gid.y * params.row;
  if (i >= params.count) { return; }
  let k = hash(i ^ params.seed) * 4u;
  let a = 6.2831853 * unit(k);
  var p: vec3<f32>;
  if (unit(k + 1u) < 0.25) {
    let z = 2.0 * unit(k + 2u) - 1.0;
    let s = sqrt(max(0.0, 1.0 - z * z));
    p = 1.6 * vec3<f32>(s * cos(a), z, s * sin(a));
  } else {
    let r = 0.8 + 0.35 * cos(3.0 * a);
    let jitter = vec3<f32>(unit(k + 2u), unit(k + 3u), unit(k + 5u)) - 0.5;
    p = vec3<f32>(r * cos(2.0 * a), 0.56 * sin(3.0 * a), r * sin(2.0 * a)) + 0.3 * jitter;
  }
  positions[i] = vec4<f32>(p, 1.0);
}
`;

function generatePositions(ctx: ScanContext, n: number, seed: number): GPUBuffer {
  const device = ctx.device;
  const positions = device.createBuffer({
    label: 'bench splat positions',
    size: 16 * n,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
  });
  const params = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  const groups = Math.ceil(n / 256);
  const x = Math.min(groups, ctx.caps.limits.maxComputeWorkgroupsPerDimension);
  device.queue.writeBuffer(params, 0, new Uint32Array([n, seed, x * 256, 0]));
  const pipeline = device.createComputePipeline({
    layout: 'auto',
    compute: { module: device.createShaderModule({ code: GENERATE_WGSL }), entryPoint: 'main' },
  });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(
    0,
    device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: params } },
        { binding: 1, resource: { buffer: positions } },
      ],
    }),
  );
  pass.dispatchWorkgroups(x, Math.ceil(groups / x));
  pass.end();
  device.queue.submit([encoder.finish()]);
  void device.queue.onSubmittedWorkDone().then(() => params.destroy());
  return positions;
}

/** The camera of frame `k`: orbiting the scene (radius 1.6) from close by, so part of it is culled. */
function cameraOf(k: number) {
  return orbitMatrices({ target: [0, 0, 0], distance: 2.8, yaw: 0.6 + 0.02 * k, pitch: 0.3, fovY: 0.9 }, 16 / 9, 1.7);
}

/**
 * Checks the last encode of `frame` (camera of frame `k`) against the splat positions read back:
 * the visible count against a CPU cull, the order a permutation of the visible splats, each key
 * its splat's (f32 depth within 1e-5, or the 16-bit key within 1), keys non-increasing. O(n), no
 * CPU sort, so it runs at 8 M splats. Returns a problem, or undefined.
 */
async function verifyFrame(
  ctx: ScanContext,
  frame: SplatFrame,
  positions: GPUBuffer,
  n: number,
  keyBits: KeyBits,
  k: number,
): Promise<{ problem?: string; mismatches: number }> {
  const m = cameraOf(k);
  const p = new Float32Array((await readWords(ctx, positions, 4 * n)).buffer);
  const [count] = await readWords(ctx, frame.visibleCount, 1);
  const [, instances] = await readWords(ctx, frame.drawArgs, 4);
  const order = await readWords(ctx, frame.order, count!);
  const keyWords = await readWords(ctx, frame.keys, count!);
  const keys = keyBits === 32 ? new Float32Array(keyWords.buffer) : keyWords;
  const v = m.view;
  const vp = m.viewProjection;
  const [near, far] = m.depthRange;
  const visible = new Uint8Array(n);
  let expected = 0;
  for (let i = 0; i < n; i++) {
    const x = p[4 * i]!;
    const y = p[4 * i + 1]!;
    const z = p[4 * i + 2]!;
    const cx = vp[0]! * x + vp[4]! * y + vp[8]! * z + vp[12]!;
    const cy = vp[1]! * x + vp[5]! * y + vp[9]! * z + vp[13]!;
    const cz = vp[2]! * x + vp[6]! * y + vp[10]! * z + vp[14]!;
    const cw = vp[3]! * x + vp[7]! * y + vp[11]! * z + vp[15]!;
    const lim = CULL_MARGIN * cw;
    if (cw > 0 && cz >= 0 && cz <= cw && Math.abs(cx) <= lim && Math.abs(cy) <= lim) {
      visible[i] = 1;
      expected++;
    }
  }
  // A splat on a frustum plane may round either way on the GPU: allow a few per million.
  const slack = Math.ceil(n * 2e-6);
  if (Math.abs(count! - expected) > slack)
    return { problem: `visible count ${count}, the CPU cull says ${expected}`, mismatches: Math.abs(count! - expected) };
  if (instances !== count) return { problem: `draw args hold ${instances} instances for ${count} visible splats`, mismatches: 1 };
  let wrong = 0;
  let first = -1;
  for (let i = 0; i < count!; i++) {
    const s = order[i]!;
    const bad = () => {
      wrong++;
      if (first < 0) first = i;
    };
    if (s >= n || visible[s] !== 1) {
      if (s >= n || visible[s] === 2) bad(); // out of range or twice; an edge splat is the slack above
      continue;
    }
    visible[s] = 2;
    const depth = -(v[2]! * p[4 * s]! + v[6]! * p[4 * s + 1]! + v[10]! * p[4 * s + 2]! + v[14]!);
    const key = keys[i]!;
    const want = keyBits === 32 ? depth : Math.floor(Math.min(Math.max((depth - near) / (far - near), 0), 1) * 65535 + 0.5);
    const tolerance = keyBits === 32 ? 1e-5 * Math.abs(depth) : 1;
    if (!(Math.abs(key - want) <= tolerance)) bad();
    else if (i > 0 && key > keys[i - 1]!) bad();
  }
  return wrong > 0
    ? { problem: `${wrong} of ${count} sorted splats wrong (first at ${first}: key, order or duplicate)`, mismatches: wrong }
    : { mismatches: 0 };
}

/**
 * Runs a splat-frame case: positions generated on the GPU, the frame created and `ready` awaited,
 * one frame verified ({@link verifyFrame}), warm-up frames, then `frames` measured frames — each
 * a new encoder with the camera moved a little (so the visible count changes), `frame.encode`
 * between two timestamp marks, its JavaScript time measured alone — and the last frame verified.
 *
 * @example
 * ```ts
 * const result = await runSplatFrame(ctx, c);
 * result.frameLoop?.gpu?.medianMs;
 * ```
 */
export async function runSplatFrame(ctx: ScanContext, c: SplatFrameCase): Promise<CaseResult> {
  const { n, frames, warmupFrames, keyBits } = c;
  const positions = await guarded(ctx, 'splat-frame setup', async () => generatePositions(ctx, n, c.seed));
  const timer = createFrameTimer(ctx);
  let frame: SplatFrame | undefined;
  let counter: CreationCounter | undefined;
  try {
    const t0 = performance.now();
    frame = await guarded(ctx, 'frame creation', async () => createSplatFrame(ctx, { maxSplats: n, keyBits }));
    await guarded(ctx, 'frame ready', () => (frame as SplatFrame).ready);
    const readyMs = performance.now() - t0;
    const f = frame;
    const args = (k: number) => {
      const m = cameraOf(k);
      return { positions, count: n, view: m.view, viewProjection: m.viewProjection, depthRange: m.depthRange };
    };
    await guarded(ctx, 'first frame', async () => {
      const encoder = ctx.device.createCommandEncoder();
      f.encode(encoder, args(0));
      await submitAndWait(ctx, encoder);
    });
    const first = await guarded(ctx, 'first check', () => verifyFrame(ctx, f, positions, n, keyBits, 0));
    const verification = {
      cpuCompared: true,
      cpuMismatches: first.mismatches,
      detail: 'visible count, order and keys against a CPU cull of the positions read back',
    };
    if (first.problem) return { case: c, status: 'failed', message: first.problem, verification };
    await heatGpu(ctx);
    const encodeMs: number[] = [];
    const record = async (k: number, measured: boolean) => {
      await timer.acquire(k);
      const a = args(k);
      recordTimedEncode({ ctx, timer, counter, encodeMs }, k, measured, (encoder) => f.encode(encoder, a));
    };
    await guarded(ctx, 'warm-up frames', async () => {
      for (let k = 0; k < warmupFrames; k++) await record(k, false);
    });
    counter = watchCreations(ctx.device);
    const start = performance.now();
    await guarded(ctx, 'measured frames', async () => {
      for (let k = warmupFrames; k < warmupFrames + frames; k++) await record(k, true);
      await timer.drain();
    });
    const wallMsPerFrame = (performance.now() - start) / frames;
    counter.restore();
    const last = warmupFrames + frames - 1;
    const after = await guarded(ctx, 'last frame check', () => verifyFrame(ctx, f, positions, n, keyBits, last));
    const verified = { ...verification, cpuMismatches: first.mismatches + after.mismatches };
    if (after.problem) return { case: c, status: 'failed', message: `after the measured frames: ${after.problem}`, verification: verified };
    const created = { ...counter.total };
    const loop: FrameLoopRecord = {
      frames,
      warmupFrames,
      countMin: n,
      countMax: n,
      lastCount: n,
      encode: asFrameStats(encodeMs),
      ...(timer.method === 'timestamp' && timer.samplesMs.length ? { gpu: asFrameStats(timer.samplesMs) } : {}),
      inFlight: timer.inFlight,
      wallMsPerFrame,
      created,
      createdPerFrame: perFrame(created, frames),
      createdOutsideEncode: subtractCounts(created, counter.inside),
      planAtCreation: {},
      planBefore: {},
      planAfter: {},
      readyMs,
    };
    return {
      case: c,
      status: 'ok',
      ...(timer.method === 'timestamp' ? { timer: 'timestamp' as const } : {}),
      verification: verified,
      frameLoop: loop,
    };
  } finally {
    counter?.restore();
    frame?.destroy();
    timer.destroy();
    positions.destroy();
  }
}

/**
 * `splat-frame` in the registry: the splat viewer's cull + pack + sort + draw arguments per frame
 * at 1, 4 and 8 M splats, f32 and 16-bit keys; a software adapter's default run samples the f32 keys.
 *
 * @example
 * ```ts
 * enumerateCases({ ...selection, only: ['splat-frame'] }); // 2 cases per size
 * ```
 */
export const SPLAT_FRAME = benchModule<SplatFrameCase>({
  package: '@scan/splats (core, sort)',
  primitives: ['splat-frame'],
  shapes: splatFrameShapes,
  sample: (shapes) => shapes.filter((s) => s.keyBits === 32),
  defaultSizes: SPLAT_FRAME_SIZES,
  run: runSplatFrame,
});
