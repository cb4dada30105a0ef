// What the GPU tests compare with: seeded f16-range data and the CPU references within their
// rounding bound. The GPU sums the same f16-rounded values in f32 in a different order than the
// CPU, so each result may differ by sumErrorBound(terms, Σ|x|).
import { createRng } from '@scan/gpu-testing';
import { expect } from 'vitest';
import * as cpu from '../src/cpu/index.js';

/**
 * `n` seeded values in [-4, 4).
 *
 * @example
 * ```ts
 * const data = halfData(4096, 7);
 * ```
 */
export function halfData(n: number, seed: number): Float32Array {
  const rng = createRng(seed);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (rng.float() - 0.5) * 8;
  return out;
}

/**
 * Checks `got` against the f32 CPU reference (segments of `s`, the whole array when undefined, the
 * last one shorter) within n_terms·ε_f32·Σ|x| per element; a reduction unless `scan` is given.
 *
 * @example
 * ```ts
 * expectClose(await tcuReduce(ctx, data, { segmentSize: 16 }), data, 16, 'reduce');
 * ```
 */
export function expectClose(got: Float32Array, data: Float32Array, s: number | undefined, label: string, scan?: { inclusive: boolean }) {
  const vals = cpu.f16ToFloat32(cpu.toF16Array(data));
  const want = scan ? cpu.tcuScan(data, { segmentSize: s, pad: true, ...scan }) : cpu.tcuReduce(data, { segmentSize: s, pad: true });
  expect(got.length, `${label} length`).toBe(want.length);
  const size = s ?? Math.max(1, data.length);
  let bad = -1;
  let count = 0;
  let abs = 0;
  let terms = 0;
  for (let i = 0; i < want.length; i++) {
    let bound: number;
    if (scan) {
      if (i % size === 0) {
        abs = 0;
        terms = 0;
      }
      abs += Math.abs(vals[i]!);
      terms++;
      bound = cpu.sumErrorBound(terms, abs);
    } else {
      let a = 0;
      for (let j = i * size; j < Math.min(vals.length, (i + 1) * size); j++) a += Math.abs(vals[j]!);
      bound = cpu.sumErrorBound(size, a);
    }
    if (!(Math.abs(got[i]! - want[i]!) <= bound)) {
      count++;
      if (bad < 0) bad = i;
    }
  }
  if (bad >= 0) throw new Error(`${label}: ${count} of ${want.length} differ; first at ${bad}: got ${got[bad]}, want ${want[bad]}`);
}
