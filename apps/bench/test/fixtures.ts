import { enumerateCases } from '../src/cases.js';
import { type BenchReport, type CaseResult, type Measurement, REPORT_SCHEMA } from '../src/report.js';

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
