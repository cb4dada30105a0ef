// Every scan algorithm × type × op × direction × inclusive, subgroup and workgroup-memory paths,
// against the CPU reference at edge sizes, outputs poisoned before each run.
import { dataKindsFor, edgeSizes, expectEqualArrays, expectScanClose, getTestContext, randomData } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { ELEMENT_TYPES, opFitsType, SCAN_OPS, type ScanOp } from '../src/element-types.js';
import { createScanPlan } from '../src/plans/scan-plan.js';
import { SCAN_ALGORITHMS } from '../src/plans/types.js';
import { asTyped, bufferOf, poisoned, runBatch } from './harness.js';

const TILE = 4096; // decoupled-fallback's tile with 256 invocations × 4 vec4s
const SIZES = [0, 1, 2, 3, 4, 5, 7, 8, 255, 1023, 1024, 1025, TILE - 1, TILE, TILE + 1, 2 * TILE + 3, 5 * TILE + 3];

/** Exclusive add scan in f64 (the exact-enough oracle for f32 sums in another order). */
function f64Scan(data: Float32Array, backward: boolean): Float64Array {
  const out = new Float64Array(data.length);
  let acc = 0;
  for (let j = 0; j < data.length; j++) {
    const i = backward ? data.length - 1 - j : j;
    out[i] = acc;
    acc += data[i] as number;
  }
  return out;
}

function kindFor(op: ScanOp) {
  if (op === 'add') return 'small' as const; // exact in f32 for these sizes
  if (op === 'mul') return 'mul-safe' as const;
  return 'random' as const;
}

for (const subgroups of [true, false]) {
  describe(`scan (${subgroups ? 'subgroups' : 'workgroup memory'})`, () => {
    for (const algorithm of SCAN_ALGORITHMS) {
      for (const type of ELEMENT_TYPES) {
        it(`${algorithm} ${type}: every op, direction and inclusive`, async () => {
          const ctx = await getTestContext({ subgroups });
          expect(ctx.caps.features.subgroups).toBe(subgroups);
          for (const op of SCAN_OPS.filter((o) => opFitsType(o, type))) {
            for (const backward of [false, true]) {
              for (const inclusive of [false, true]) {
                const plan = createScanPlan(ctx, { type, op, backward, inclusive, algorithm });
                const inputs = SIZES.map((n, i) => randomData(type, n, 1000 * i + n, kindFor(op)));
                const results = await runBatch(
                  ctx,
                  inputs.map((data) => ({
                    record(encoder) {
                      const input = bufferOf(ctx, data);
                      const output = poisoned(ctx, 4 * data.length);
                      plan.encode(encoder, { input, output, count: data.length });
                      return [
                        { buffer: input, bytes: 0 },
                        { buffer: output, bytes: 4 * data.length },
                      ];
                    },
                  })),
                );
                plan.destroy();
                inputs.forEach((data, i) => {
                  const got = asTyped(data, results[i]![1]!);
                  const want = cpu.scan(data, { op, backward, inclusive });
                  expectEqualArrays(
                    got,
                    want,
                    `${algorithm} ${type} ${op} ${backward ? 'bwd' : 'fwd'} ${inclusive ? 'inc' : 'exc'} n=${data.length}`,
                  );
                });
              }
            }
          }
        });
      }
    }
  });
}

describe('scan contents and sizes', () => {
  it('every data kind of every type (add, max) at a size past 2^20, both paths; the default algorithm on all kinds, the others on random data', async () => {
    for (const subgroups of [true, false]) {
      const ctx = await getTestContext({ subgroups });
      for (const algorithm of SCAN_ALGORITHMS) {
        for (const type of ELEMENT_TYPES) {
          for (const kind of algorithm === 'decoupled-fallback' ? dataKindsFor(type) : (['random'] as const)) {
            const n = (1 << 20) + 3;
            const data = randomData(type, n, 77, kind);
            // WGSL leaves min/max of NaN to the device (README), so NaN data is checked with add only.
            for (const op of kind === 'nan' ? (['add'] as const) : (['add', 'max'] as const)) {
              const plan = createScanPlan(ctx, { type, op, algorithm, backward: kind === 'reversed' });
              const [[, out]] = (await runBatch(ctx, [
                {
                  record(encoder) {
                    const input = bufferOf(ctx, data);
                    const output = poisoned(ctx, 4 * n);
                    plan.encode(encoder, { input, output, count: n });
                    return [
                      { buffer: input, bytes: 0 },
                      { buffer: output, bytes: 4 * n },
                    ];
                  },
                },
              ])) as [[ArrayBuffer, ArrayBuffer]];
              plan.destroy();
              const want = cpu.scan(data, { op, backward: kind === 'reversed' });
              const label = `${algorithm} ${type} ${kind} ${op} sg=${subgroups}`;
              if (type === 'f32' && op === 'add' && kind !== 'small' && kind !== 'nan') {
                // A sequential f32 sum is no oracle for a reordered one: compare with the f64 scan.
                // The bound: ~1e-4 of the running sum of |x| covers the tile-to-tile chain of roundings.
                expectScanClose(asTyped(data, out), data, f64Scan(data as Float32Array, kind === 'reversed'), op, label, {
                  rtol: 1e-4,
                  backward: kind === 'reversed',
                });
              } else if (type === 'f32' && op === 'add' && kind === 'nan') {
                // NaN propagates: every element after the first NaN is NaN.
                const got = asTyped(data, out);
                const first = data.findIndex((v) => Number.isNaN(v));
                expect(Number.isNaN(got[first + 1]!), label).toBe(true);
                expect(Number.isNaN(got[n - 1]!), label).toBe(true);
                expect(
                  got.slice(0, first + 1).every((v, i) => Math.abs(v - want[i]!) <= 1e-5 * Math.abs(want[i]!) + 1e-6),
                  label,
                ).toBe(true);
              } else {
                expectEqualArrays(asTyped(data, out), want, label);
              }
            }
          }
        }
      }
    }
  }, 600_000);

  it('edge sizes from the shared list, u32 add, each algorithm', async () => {
    const ctx = await getTestContext();
    for (const algorithm of SCAN_ALGORITHMS) {
      const plan = createScanPlan(ctx, { algorithm });
      const inputs = edgeSizes(TILE).map((n) => randomData('u32', n, n, 'random'));
      const results = await runBatch(
        ctx,
        inputs.map((data) => ({
          record(encoder) {
            const input = bufferOf(ctx, data);
            const output = poisoned(ctx, 4 * data.length);
            plan.encode(encoder, { input, output, count: data.length });
            return [{ buffer: output, bytes: 4 * data.length }];
          },
        })),
      );
      plan.destroy();
      inputs.forEach((data, i) => expectEqualArrays(asTyped(data, results[i]![0]!), cpu.scan(data), `${algorithm} n=${data.length}`));
    }
  });
});
