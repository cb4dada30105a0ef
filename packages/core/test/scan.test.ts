// The default scan algorithm × type × op × direction × inclusive (see FULL), subgroup and
// workgroup-memory paths; every algorithm on the shared edge sizes and on every data kind; against
// the CPU reference, outputs poisoned before each run.
import { type DataKind, dataKindsFor, edgeSizes, expectEqualArrays, expectScanClose, getTestContext, randomData } from '@scan/gpu-testing';
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

/**
 * Type/op pairs that get every direction × inclusive combination on both paths. The other pairs get
 * every direction × inclusive combination once between the two paths (exclusive forward and
 * inclusive backward with subgroups, inclusive forward and exclusive backward without): an operator
 * changes only `combine` and the identity, which are orthogonal to the direction and mode logic, and
 * every combination is a pipeline SwiftShader compiles anew.
 */
const FULL = new Set(['u32.add', 'i32.min', 'f32.add', 'f32.max']);

function combosFor(type: string, op: ScanOp, subgroups: boolean): { backward: boolean; inclusive: boolean }[] {
  const all = [false, true].flatMap((backward) => [false, true].map((inclusive) => ({ backward, inclusive })));
  if (FULL.has(`${type}.${op}`)) return all;
  return all.filter(({ backward, inclusive }) => (subgroups ? backward === inclusive : backward !== inclusive));
}

// The cross product of the default single-pass algorithm. Blelloch and reduce-then-scan get theirs
// (every operator × type, both directions and modes, both paths, at their block and tile sizes and
// chunked) in scan-multipass.test.ts; here they run the shared edge sizes and the data kinds below.
for (const subgroups of [true, false]) {
  describe(`scan (${subgroups ? 'subgroups' : 'workgroup memory'})`, () => {
    const algorithm = 'decoupled-fallback' as const;
    for (const type of ELEMENT_TYPES) {
      it(`${algorithm} ${type}: every op, direction and inclusive`, async () => {
        const ctx = await getTestContext({ subgroups });
        expect(ctx.caps.features.subgroups).toBe(subgroups);
        // Every plan of the test in one submission.
        const runs: { plan: ReturnType<typeof createScanPlan>; label: string; op: ScanOp; backward: boolean; inclusive: boolean }[] = [];
        for (const op of SCAN_OPS.filter((o) => opFitsType(o, type))) {
          for (const { backward, inclusive } of combosFor(type, op, subgroups)) {
            const plan = createScanPlan(ctx, { type, op, backward, inclusive, algorithm });
            runs.push({
              plan,
              op,
              backward,
              inclusive,
              label: `${algorithm} ${type} ${op} ${backward ? 'bwd' : 'fwd'} ${inclusive ? 'inc' : 'exc'}`,
            });
          }
        }
        const jobs = runs.flatMap((run) => SIZES.map((n, i) => ({ run, data: randomData(type, n, 1000 * i + n, kindFor(run.op)) })));
        const results = await runBatch(
          ctx,
          jobs.map(({ run, data }) => ({
            record(encoder) {
              const input = bufferOf(ctx, data);
              const output = poisoned(ctx, 4 * data.length);
              run.plan.encode(encoder, { input, output, count: data.length });
              return [
                { buffer: input, bytes: 0 },
                { buffer: output, bytes: 4 * data.length },
              ];
            },
          })),
        );
        for (const { plan } of runs) plan.destroy();
        jobs.forEach(({ run, data }, i) => {
          const got = asTyped(data, results[i]![1]!);
          const want = cpu.scan(data, { op: run.op, backward: run.backward, inclusive: run.inclusive });
          expectEqualArrays(got, want, `${run.label} n=${data.length}`);
        });
      });
    }
  });
}

describe('scan contents and sizes', () => {
  it('every data kind of every type (add, max), both paths: the default algorithm on all kinds at 17 tiles and on random data past 2^20, the others on random data', async () => {
    // 16 tiles + 3: every tile but the first looks back over up to 16 predecessors, and the last is
    // partial. Past 2^20 (257 tiles) the default algorithm runs random data of every type, and the
    // multi-pass algorithms the f32 sum, whose reordered rounding grows with the length.
    const MID = 16 * TILE + 3;
    const BIG = (1 << 20) + 3;
    for (const subgroups of [true, false]) {
      const ctx = await getTestContext({ subgroups });
      for (const algorithm of SCAN_ALGORITHMS) {
        for (const type of ELEMENT_TYPES) {
          const runs: { kind: DataKind; n: number; op: 'add' | 'max' }[] = [];
          for (const kind of algorithm === 'decoupled-fallback' ? dataKindsFor(type) : (['random'] as const)) {
            // WGSL leaves min/max of NaN to the device (README), so NaN data is checked with add only.
            for (const op of kind === 'nan' ? (['add'] as const) : (['add', 'max'] as const)) {
              runs.push({ kind, n: MID, op });
              if (kind === 'random' && (algorithm === 'decoupled-fallback' || (type === 'f32' && op === 'add')))
                runs.push({ kind, n: BIG, op });
            }
          }
          const jobs = runs.map((r) => {
            const backward = r.kind === 'reversed';
            return {
              ...r,
              backward,
              data: randomData(type, r.n, 77, r.kind),
              plan: createScanPlan(ctx, { type, op: r.op, algorithm, backward }),
            };
          });
          const results = await runBatch(
            ctx,
            jobs.map(({ data, plan }) => ({
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
          jobs.forEach(({ kind, n, op, backward, data, plan }, i) => {
            plan.destroy();
            const out = results[i]![1]!;
            const want = cpu.scan(data, { op, backward });
            const label = `${algorithm} ${type} ${kind} ${op} n=${n} sg=${subgroups}`;
            if (type === 'f32' && op === 'add' && kind !== 'small' && kind !== 'nan') {
              // A sequential f32 sum is no oracle for a reordered one: compare with the f64 scan.
              // The bound: ~1e-4 of the running sum of |x| covers the tile-to-tile chain of roundings.
              expectScanClose(asTyped(data, out), data, f64Scan(data as Float32Array, backward), op, label, { rtol: 1e-4, backward });
            } else if (type === 'f32' && op === 'add' && kind === 'nan') {
              // NaN propagates: every element after the first NaN is NaN.
              const got = asTyped(data, out);
              const first = data.findIndex((v) => Number.isNaN(v));
              expect(Number.isNaN(got[first + 1]!), label).toBe(true);
              expect(Number.isNaN(got[n - 1]!), label).toBe(true);
              expect(
                got.slice(0, first + 1).every((v, j) => Math.abs(v - want[j]!) <= 1e-5 * Math.abs(want[j]!) + 1e-6),
                label,
              ).toBe(true);
            } else {
              expectEqualArrays(asTyped(data, out), want, label);
            }
          });
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
