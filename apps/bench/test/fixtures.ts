import { enumerateCases } from '../src/cases.js';
import { type BenchReport, type CaseResult, type FrameStats, type Measurement, REPORT_SCHEMA } from '../src/report.js';

/** A plausible measurement of `ms` milliseconds over `bytes`. */
export function measurement(ms: number, bytes: number, n: number): Measurement {
  return {
    runs: 10,
    medianMs: ms,
    minMs: ms * 0.9,
    maxMs: ms * 1.5,
    meanMs: ms * 1.1,
    samplesMs: Array.from({ length: 10 }, () => ms),
    bytes,
    gbps: bytes / ms / 1e6,
    gelemsPerS: n / ms / 1e6,
  };
}

/** A small report: a verified scan and copy, a failed split, a crashed pack. */
export function sampleReport(): BenchReport {
  const cases = enumerateCases({ sizes: [1 << 20], runs: 10, warmup: 3, seed: 1, density: 0.5 });
  const byPrimitive = (p: string) => cases.find((c) => c.primitive === p)!;
  const n = 1 << 20;
  const copy = measurement(0.01, 8 * n, n);
  const scan = measurement(0.02, 8 * n, n);
  const verified = { gpuMismatches: 0, cpuCompared: false, gpuMismatchesAfterTiming: 0 };
  const results: CaseResult[] = [
    { case: byPrimitive('scan'), status: 'ok', timer: 'timestamp', measurement: scan, copy, ratioCopy: 0.5, verification: verified },
    { case: byPrimitive('copy'), status: 'ok', timer: 'timestamp', measurement: copy, copy, ratioCopy: 1, verification: verified },
    {
      case: byPrimitive('split'),
      status: 'failed',
      message: 'GPU check: 3 mismatches (first at index 17)',
      verification: { gpuMismatches: 3, firstMismatch: 17, cpuCompared: false },
    },
    {
      case: byPrimitive('pack'),
      status: 'crashed',
      message: 'no result: the process was ended by SIGSEGV',
      exit: { code: null, signal: 'SIGSEGV' },
    },
  ];
  return {
    schema: REPORT_SCHEMA,
    date: '2026-11-22T08:00:00.000Z',
    commit: 'abcdef0123456789',
    dirty: false,
    host: { node: 'v20.20.2', platform: 'linux', arch: 'x64' },
    options: { sizes: [n], runs: 10, warmup: 3, seed: 1, density: 0.5, timeoutS: 120 },
    device: {
      adapter: { vendor: 'nvidia', architecture: 'hopper', description: 'NVIDIA H100 80GB HBM3' },
      features: { subgroups: true, shaderF16: true, timestampQuery: true, subgroupMatrix: true },
      subgroupMinSize: 32,
      subgroupMaxSize: 32,
      limits: { maxStorageBufferBindingSize: 2 ** 31 },
    },
    results,
  };
}

/** Per-frame samples around `ms` (a tenth of them twice as long, so p90 differs from the median). */
function frameStats(ms: number, frames: number): FrameStats {
  const samplesMs = Array.from({ length: frames }, (_, k) => (k % 10 === 9 ? 2 * ms : ms));
  return { medianMs: ms, p90Ms: ms, minMs: ms, maxMs: 2 * ms, samplesMs };
}

/**
 * A report of frame cases at 2^18: frame-loop sort with a host count (ok, a bind group per frame)
 * and with a GPU count (skipped, as on plans without that form), and first-call scan with (`ready`
 * n/a) and without waiting.
 */
export function frameReport(): BenchReport {
  const n = 1 << 18;
  const cases = enumerateCases({ sizes: [n], only: ['frame-loop', 'first-call'], runs: 20, warmup: 3, seed: 1, density: 0.5 });
  const find = (series: string) => cases.find((c) => c.series === series)!;
  const verified = { gpuMismatches: 0, cpuCompared: false, gpuMismatchesAfterTiming: 0 };
  const memory = { allocations: 2, scratchBytes: 4096, memoryBytes: 8192 };
  const zero = { buffers: 0, bindGroups: 0, pipelines: 0, asyncPipelines: 0 };
  const results: CaseResult[] = [
    {
      case: find('frame-loop sort f32 u32 values desc host count'),
      status: 'ok',
      timer: 'timestamp',
      verification: verified,
      frameLoop: {
        frames: 300,
        warmupFrames: 30,
        countMin: n / 2 + 3,
        countMax: n - 1,
        lastCount: n - 7,
        encode: frameStats(0.05, 300),
        gpu: frameStats(0.2, 300),
        inFlight: 3,
        wallMsPerFrame: 0.25,
        created: { ...zero, bindGroups: 300 },
        createdPerFrame: { ...zero, bindGroups: 1 },
        createdOutsideEncode: zero,
        planAtCreation: { ...memory, allocations: 1 },
        planBefore: memory,
        planAfter: { ...memory, allocations: 3, memoryBytes: 12288 },
        readyMs: 12.5,
      },
    },
    {
      case: find('frame-loop sort f32 u32 values desc gpu count'),
      status: 'skipped',
      message: 'GPU count not supported by this plan: args.count = undefined: expected a non-negative integer',
    },
    {
      case: find('first-call scan u32 add excl wait'),
      status: 'ok',
      timer: 'wall-clock',
      verification: { gpuMismatches: 0, cpuCompared: false },
      firstCall: {
        createMs: 0.5,
        hasReady: false,
        encodeMs: 40,
        frameMs: 2,
        totalMs: 42.6,
        count: n,
        created: { ...zero, buffers: 3, bindGroups: 2, pipelines: 3 },
      },
    },
    {
      case: find('first-call scan u32 add excl no-wait'),
      status: 'ok',
      timer: 'wall-clock',
      verification: { gpuMismatches: 0, cpuCompared: false },
      firstCall: {
        createMs: 0.6,
        hasReady: true,
        encodeMs: 1.5,
        frameMs: 30,
        totalMs: 32.2,
        count: n,
        created: { ...zero, buffers: 3, bindGroups: 2, pipelines: 1, asyncPipelines: 3 },
      },
    },
  ];
  return {
    ...sampleReport(),
    date: '2026-11-27T08:00:00.000Z',
    options: { sizes: [n], runs: 20, warmup: 3, seed: 1, density: 0.5, timeoutS: 300, only: ['frame-loop', 'first-call'] },
    results,
  };
}
