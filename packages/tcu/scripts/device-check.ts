// Device check of @scan/tcu on a real GPU (the lead runs it on the H100): every op through the
// subgroup-matrix path and the emulated path, segment sizes 1 … 65536 and the whole array, on
// host arrays of 2^18 elements and of 2^18 + 13349 (partial units and a shorter last segment left
// to the staged kernels; Dawn in Node is unstable with more host data), compared with the
// CPU reference; prints max error vs the f64 reference and exits non-zero on a mismatch.
//
// Bundle and run (from packages/tcu):
//   pnpm exec esbuild scripts/device-check.ts --bundle --platform=node --format=esm --target=node20 \
//     --external:webgpu --outfile=/tmp/tcu-device-check.mjs
//   SCAN_DAWN_TOGGLES='enable-dawn-features=allow_unsafe_apis,vulkan_enable_f16_on_nvidia' node /tmp/tcu-device-check.mjs
import { createNodeContext } from '@scan/core/node';
import * as cpu from '../src/cpu/index.js';
import { createTcuScanPlan, prepareTcu, tcuCount, tcuReduce, tcuScan } from '../src/index.js';
import { resolvePath, TCU_SELECTION_TABLE, type TcuDirectEntry } from '../src/kit/index.js';

const SIZES = [1 << 18, (1 << 18) + 3 * 4096 + 1024 + 37];
const SEGMENTS: (number | undefined)[] = [1, 15, 16, 17, 48, 255, 256, 496, 512, 768, 4096, 4352, 4368, 8192, 16384, 65536, undefined];

function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

async function main(): Promise<number> {
  const ctx = await createNodeContext();
  console.log(
    `device: ${ctx.caps.adapter.description} (${ctx.caps.adapter.vendor}), subgroups ${ctx.caps.subgroupMinSize}–${ctx.caps.subgroupMaxSize}`,
  );
  console.log(`features: ${JSON.stringify(ctx.caps.features)}`);
  console.log(`subgroup-matrix configs: ${JSON.stringify(ctx.caps.subgroupMatrixConfigs)}`);
  const support = await prepareTcu(ctx);
  console.log(
    `probe: f16 ${support.f16.syntax ?? `unusable: ${support.f16.reason}`} (direct kernels ${support.f16.direct ? 'on' : 'off'}); u8 ${support.u8.syntax ?? `unusable: ${support.u8.reason}`} (direct count ${support.u8.direct ? 'on' : 'off'})`,
  );
  let failures = 0;
  // 'auto' runs f16 on subgroup matrices where they work, u8 counting only with its direct kernel.
  const auto = { f16: resolvePath(ctx, 'f16', 'auto').kind, u8: resolvePath(ctx, 'u8', 'auto').kind };
  const autoWant = { f16: support.f16.syntax ? 'subgroup-matrix' : 'emulated', u8: support.u8.direct ? 'subgroup-matrix' : 'emulated' };
  console.log(`auto path: f16 ${auto.f16}, u8 ${auto.u8}`);
  if (auto.f16 !== autoWant.f16 || auto.u8 !== autoWant.u8) {
    console.log(`  MISMATCH: expected f16 ${autoWant.f16}, u8 ${autoWant.u8}`);
    failures++;
  }
  for (const N of SIZES) failures += await checkSize(ctx, support, N);
  ctx.destroy();
  console.log(failures === 0 ? 'all ok' : `${failures} mismatches`);
  if (!support.f16.syntax) console.log('NOTE: the subgroup-matrix path did not run for f16 (see probe line above)');
  return failures === 0 ? 0 : 1;
}

async function checkSize(
  ctx: Awaited<ReturnType<typeof createNodeContext>>,
  support: Awaited<ReturnType<typeof prepareTcu>>,
  N: number,
): Promise<number> {
  console.log(`n = ${N}`);
  // 'warp-scan': the subgroup-matrix path's scans with the warp-level Scan256N forced for every
  // segment longer than S tiles (the table takes it from 4096 segments on, more than these sizes hold).
  // 'fallback-scan': the chained scan of those segments with its look-back's fallback forced (every
  // predecessor reads as not ready, so each unit sums its predecessors from their input); it needs
  // subgroup matrices, so CI (SwiftShader) cannot run it and this check covers it on the lent GPU.
  const paths = [
    ...(process.env.SKIP_EMULATED ? [] : ['emulated' as const]),
    ...(support.f16.syntax || support.u8.syntax ? ['subgroup-matrix' as const] : []),
    ...(support.f16.syntax ? ['warp-scan' as const, 'fallback-scan' as const] : []),
    ...(support.u8.syntax ? ['auto' as const] : []),
  ];
  let failures = 0;
  const r = rng(7);
  const data = new Float32Array(N);
  for (let i = 0; i < N; i++) data[i] = (r() - 0.5) * 8;
  const flags = new Uint8Array(N);
  for (let i = 0; i < N; i++) flags[i] = r() < 0.3 ? 1 : 0;
  const vals = cpu.f16ToFloat32(cpu.toF16Array(data));
  console.log('op        path             segment   max|gpu-f64|   max|gpu-f32ref|/bound   ms');
  for (const path of paths) {
    for (const s of SEGMENTS) {
      const size = s ?? N;
      for (const op of ['reduce', 'scan-excl', 'scan-incl', 'count'] as const) {
        if (path === 'subgroup-matrix' && ((op === 'count' && !support.u8.syntax) || (op !== 'count' && !support.f16.syntax))) continue;
        if (path === 'warp-scan' && (!op.startsWith('scan') || s === undefined || s <= 4096)) continue;
        if (path === 'fallback-scan' && (!op.startsWith('scan') || (s !== undefined && s <= 4096))) continue;
        if (path === 'auto' && op !== 'count') continue; // u8 counting: direct kernel on matrices, the rest emulated
        const via = path === 'warp-scan' || path === 'fallback-scan' ? 'subgroup-matrix' : path;
        const t0 = performance.now();
        let worstF64 = 0;
        let worstRatio = 0;
        let ok = true;
        try {
          if (op === 'count') {
            const got = await tcuCount(ctx, flags, { segmentSize: s, pad: true, path: via });
            const want = cpu.tcuCount(flags, { segmentSize: s, pad: true });
            ok = got.length === want.length && got.every((v, i) => v === want[i]);
          } else {
            const inclusive = op === 'scan-incl';
            const got =
              path === 'warp-scan'
                ? await tableScan(ctx, data, size, inclusive, { scanWarpMinSegments: 1 })
                : path === 'fallback-scan'
                  ? await tableScan(ctx, data, size, inclusive, { scanWarpMinSegments: 0, chainedScanForceFallback: true })
                  : op === 'reduce'
                    ? await tcuReduce(ctx, data, { segmentSize: s, pad: true, path: via })
                    : await tcuScan(ctx, data, { segmentSize: s, pad: true, path: via, inclusive });
            const want =
              op === 'reduce'
                ? cpu.tcuReduce(data, { segmentSize: s, pad: true })
                : cpu.tcuScan(data, { segmentSize: s, pad: true, inclusive });
            const exact =
              op === 'reduce'
                ? cpu.tcuReduceF64(data, { segmentSize: s, pad: true })
                : cpu.tcuScanF64(data, { segmentSize: s, pad: true, inclusive });
            let abs = 0;
            for (let i = 0; i < want.length; i++) {
              let bound: number;
              if (op === 'reduce') {
                let a = 0;
                for (let j = i * size; j < Math.min(N, (i + 1) * size); j++) a += Math.abs(vals[j]!);
                bound = cpu.sumErrorBound(size, a);
              } else {
                if (i % size === 0) abs = 0;
                abs += Math.abs(vals[i]!);
                bound = cpu.sumErrorBound((i % size) + 1, abs);
              }
              const diff = Math.abs(got[i]! - want[i]!);
              worstF64 = Math.max(worstF64, Math.abs(got[i]! - exact[i]!));
              worstRatio = Math.max(worstRatio, diff / bound);
              if (!(diff <= bound)) ok = false;
            }
          }
        } catch (e) {
          console.log(`  error: ${(e as Error).message}`);
          ok = false;
        }
        const ms = (performance.now() - t0).toFixed(0);
        console.log(
          `${op.padEnd(10)}${path.padEnd(17)}${String(s ?? 'whole').padEnd(10)}${worstF64.toExponential(2).padEnd(15)}${worstRatio.toFixed(3).padEnd(24)}${ms}${ok ? '' : '   MISMATCH'}`,
        );
        if (!ok) failures++;
      }
    }
  }
  return failures;
}

/** tcuScan through a subgroup-matrix plan whose table's direct entry is overridden by `direct`. */
async function tableScan(
  ctx: Awaited<ReturnType<typeof createNodeContext>>,
  data: Float32Array,
  s: number,
  inclusive: boolean,
  direct: Partial<TcuDirectEntry>,
) {
  const device = ctx.device;
  const n = data.length;
  const halves = cpu.toF16Array(data);
  const words = new Uint16Array(2 * Math.ceil(n / 2));
  words.set(halves);
  const U = GPUBufferUsage;
  const input = device.createBuffer({ size: Math.max(16, 2 * words.length), usage: U.STORAGE | U.COPY_DST });
  device.queue.writeBuffer(input, 0, words);
  const output = device.createBuffer({ size: 4 * n, usage: U.STORAGE | U.COPY_SRC });
  const read = device.createBuffer({ size: 4 * n, usage: U.MAP_READ | U.COPY_DST });
  const base = TCU_SELECTION_TABLE['subgroup-matrix'];
  const table = { ...base, direct: { ...base.direct!, ...direct } };
  const plan = createTcuScanPlan(ctx, { path: 'subgroup-matrix', table, inclusive });
  const encoder = device.createCommandEncoder();
  plan.encode(encoder, { input, output, count: n, segmentSize: s });
  encoder.copyBufferToBuffer(output, 0, read, 0, 4 * n);
  device.queue.submit([encoder.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const got = new Float32Array(read.getMappedRange().slice(0));
  read.unmap();
  for (const b of [input, output, read]) b.destroy();
  plan.destroy();
  return got;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
