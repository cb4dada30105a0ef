// @scan/tcu's array-level functions on host data: tensor cores where the device has subgroup
// matrices (the H100 with Dawn's unsafe APIs), the same formulation emulated elsewhere (SwiftShader).
import { createRng, expectEqualArrays, randomFlags } from '@scan/gpu-testing';
import { tcuCount, tcuReduce, tcuScan } from '@scan/tcu';
import * as cpu from '@scan/tcu/cpu';
import { defineCase, type NodeCase } from '../case.js';

/** `n` values uniform in [-1, 1) (f16 rounds them on upload). */
function halves(n: number, seed: number): Float32Array {
  const rng = createRng(seed);
  return Float32Array.from({ length: n }, () => 2 * rng.float() - 1);
}

/**
 * Throws unless every f32 sum is within `sumErrorBound` of the f64 sum of the same f16 values;
 * `terms` is the most terms a sum has, `magnitude[i]` the sum of |value| behind output i.
 */
function expectSums(got: Float32Array, exact: Float64Array, magnitude: Float64Array, terms: number, label: string): void {
  if (got.length !== exact.length) throw new Error(`${label}: length ${got.length}, expected ${exact.length}`);
  for (let i = 0; i < exact.length; i++) {
    const bound = cpu.sumErrorBound(terms, magnitude[i]!);
    if (!(Math.abs(got[i]! - exact[i]!) <= bound)) throw new Error(`${label}: element ${i} is ${got[i]}, expected ${exact[i]} ± ${bound}`);
  }
}

const REDUCE_SEGMENT = 256;
const SCAN_SEGMENT = 1024;
const COUNT_SEGMENT = 4096;

export const tcuCases: readonly NodeCase[] = [
  defineCase('tcu.tcuReduce', `f32 → f16, segments of ${REDUCE_SEGMENT}`, (size, seed) => {
    const data = halves(size, seed);
    const options = { segmentSize: REDUCE_SEGMENT, pad: true };
    return {
      call: (ctx) => tcuReduce(ctx, data, options),
      check: (got) => {
        const magnitude = cpu.tcuReduceF64(data.map(Math.abs), options);
        expectSums(got, cpu.tcuReduceF64(data, options), magnitude, REDUCE_SEGMENT, 'tcuReduce');
      },
    };
  }),
  defineCase('tcu.tcuScan', `f32 → f16, inclusive, segments of ${SCAN_SEGMENT}`, (size, seed) => {
    const data = halves(size, seed);
    const options = { segmentSize: SCAN_SEGMENT, pad: true, inclusive: true };
    return {
      call: (ctx) => tcuScan(ctx, data, options),
      check: (got) => {
        const magnitude = cpu.tcuScanF64(data.map(Math.abs), options);
        expectSums(got, cpu.tcuScanF64(data, options), magnitude, SCAN_SEGMENT, 'tcuScan');
      },
    };
  }),
  defineCase('tcu.tcuCount', `u8 flags of density 0.3, segments of ${COUNT_SEGMENT}`, (size, seed) => {
    const flags = Uint8Array.from(randomFlags(size, seed, 0.3));
    const options = { segmentSize: COUNT_SEGMENT, pad: true };
    return {
      call: (ctx) => tcuCount(ctx, flags, options),
      check: (got) => expectEqualArrays(got, cpu.tcuCount(flags, options), 'tcuCount'),
    };
  }),
];
