// Seeded property tests of user-defined operators (issue 48). Each seed draws an element type (a
// record of 1–8 fields, or a vector or scalar when the lanes allow), an operator from a small
// algebra — per-field add, min, max or xor on integers, affine maps on two f32 fields, 2×2 integer
// matrices on four — composed lane by lane, its identity, data, head flags and a size; then checks
// every scan, the reduction and the segmented forms against the serial definitions, and the content
// key. The algebra is @scan/gpu-testing's (operator-algebra.ts), shared with the GPU property tests
// (test/operator-properties.test.ts here and in @scan/segmented), where a seed draws the same
// operator at larger sizes. fast-check is not a dependency, so the draws are the repository's
// seeded xoshiro128**. A failure names its seed; replay one alone with
//   OPERATOR_SEED=<seed> npx vitest run --project node test/node/operators/operator-properties.node.test.ts
import { describeDrawn, drawData, drawOperator, operatorOf } from '@scan/gpu-testing';
import { describe, expect, test } from 'vitest';
import { reduceWith, scanWith, segmentedReduceWith, segmentedScanWith } from '../../../src/operators/cpu-operator.js';
import type { HostArray } from '../../../src/operators/host-records.js';
import { bitsOf, encode, lanesOf, naive } from './helpers.js';

/** Seeds run by default; OPERATOR_SEED runs one. */
const SEEDS = process.env['OPERATOR_SEED'] ? [Number(process.env['OPERATOR_SEED'])] : Array.from({ length: 100 }, (_, i) => 48_000 + i);

describe('operators drawn from a small algebra, against the serial definitions', () => {
  for (const seed of SEEDS) {
    const d = drawOperator(seed);
    const label = `seed ${seed} (${describeDrawn(d)})`;
    test(label, () => {
      const op = operatorOf(d);
      const serial = naive(op);
      const { values: xs, data, heads } = drawData(d, op);
      const segments = serial.segments(xs, heads);
      const expectBits = (actual: HostArray, expected: unknown[], what: string): void => {
        expect(actual, `${label}: ${what} class`).toBeInstanceOf(d.Class);
        expect(bitsOf(actual), `${label}: ${what}`).toEqual(bitsOf(encode(op, expected, d.Class)));
      };

      for (const inclusive of [false, true]) {
        for (const backward of [false, true]) {
          const how = `inclusive=${inclusive} backward=${backward}`;
          expectBits(scanWith(op, data, { inclusive, backward }), serial.scan(xs, inclusive, backward), `scan ${how}`);
          expectBits(
            segmentedScanWith(op, data, heads, { inclusive, backward }),
            segments.flatMap((s) => serial.scan(s, inclusive, backward)),
            `segmented scan ${how}`,
          );
        }
      }
      expect(lanesOf(op, reduceWith(op, data)), `${label}: reduce`).toEqual(lanesOf(op, serial.reduce(xs)));
      expectBits(segmentedReduceWith(op, data, heads), segments.map(serial.fold), 'segmented reduce');

      // Content keys: the same definition again gives the same key; another field order, another.
      expect(operatorOf(d).key, `${label}: key`).toBe(op.key);
      if (typeof d.type !== 'string' && d.fields.length > 1) {
        const reversed = { ...d, type: Object.fromEntries(Object.entries(d.type).reverse()) };
        expect(operatorOf(reversed).key, `${label}: key of the reversed record`).not.toBe(op.key);
      }
    });
  }
});
