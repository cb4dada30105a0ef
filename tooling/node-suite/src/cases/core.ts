// @scan/core's array-level functions on host data.
import { enumerate, histogram, pack, packIf, reduce, scan, split } from '@scan/core';
import * as cpu from '@scan/core/cpu';
import {
  add4,
  argmaxRecord,
  expectEqualArrays,
  expectScanClose,
  matrix2x2,
  operatorData,
  randomData,
  randomFlags,
} from '@scan/gpu-testing';
import { defineCase, expectSame, type NodeCase } from '../case.js';
import { toolboxSearchCases } from './core-argsearch.js';

/** Flags as bytes, which the functions take as they are (no widening on the host). */
function byteFlags(size: number, seed: number, density: number): Uint8Array {
  return Uint8Array.from(randomFlags(size, seed, density));
}

/** Throws unless both records have the same fields, each the same number (see `expectSame`). */
function expectSameRecord<T extends object>(actual: T, expected: T, label: string): void {
  const fields = Object.keys(expected);
  expectSame(Object.keys(actual ?? {}).join(','), fields.join(','), `${label} fields`);
  for (const field of fields) {
    expectSame((actual as Record<string, unknown>)[field], (expected as Record<string, unknown>)[field], `${label}.${field}`);
  }
}

export const coreCases: readonly NodeCase[] = [
  defineCase('core.scan', 'u32 add, exclusive', (size, seed) => {
    const data = randomData('u32', size, seed);
    return { call: (ctx) => scan(ctx, data), check: (got) => expectEqualArrays(got, cpu.scan(data), 'scan') };
  }),
  defineCase('core.scan:f32', 'f32 add, inclusive, backward', (size, seed) => {
    const data = randomData('f32', size, seed, 'small');
    const options = { inclusive: true, backward: true } as const;
    return {
      call: (ctx) => scan(ctx, data, options),
      check: (got) => expectScanClose(got, data, cpu.scan(data, options), 'add', 'scan f32', { backward: true }),
    };
  }),
  // User-defined operators (issue 48): `size` counts records, each of `op.words` 32-bit words in
  // the host array; their data is exact, so the results compare bit for bit.
  defineCase('core.scan:operator', 'matrix2x2 records ({a,b,c,d} i32), inclusive, backward', (size, seed) => {
    const data = operatorData(matrix2x2, size, seed);
    const options = { op: matrix2x2, inclusive: true, backward: true } as const;
    return {
      call: (ctx) => scan(ctx, data, options),
      check: (got) => expectEqualArrays(got, cpu.scan(data, options), 'scan matrix2x2'),
    };
  }),
  defineCase('core.scan:vec4', 'add4 (vec4<u32> add), exclusive', (size, seed) => {
    const data = operatorData(add4, size, seed);
    return {
      call: (ctx) => scan(ctx, data, { op: add4 }),
      check: (got) => expectEqualArrays(got, cpu.scan(data, { op: add4 }), 'scan add4'),
    };
  }),
  defineCase('core.reduce', 'i32 max', (size, seed) => {
    const data = randomData('i32', size, seed);
    return { call: (ctx) => reduce(ctx, data, { op: 'max' }), check: (got) => expectSame(got, cpu.reduce(data, { op: 'max' }), 'reduce') };
  }),
  defineCase('core.reduce:operator', 'argmaxRecord ({value: f32, index: u32}), many ties', (size, seed) => {
    const data = operatorData(argmaxRecord, size, seed);
    return {
      call: (ctx) => reduce(ctx, data, { op: argmaxRecord }),
      check: (got) => expectSameRecord(got, cpu.reduce(data, { op: argmaxRecord }), 'reduce argmax'),
    };
  }),
  defineCase('core.split', 'u32 data, u8 flags of density 0.5', (size, seed) => {
    const data = randomData('u32', size, seed);
    const flags = byteFlags(size, seed + 1, 0.5);
    return {
      call: (ctx) => split(ctx, data, flags),
      check: (got) => {
        const want = cpu.split(data, flags);
        expectSame(got.falseCount, want.falseCount, 'split falseCount');
        expectEqualArrays(got.output, want.output, 'split');
      },
    };
  }),
  defineCase('core.pack', 'f32 data, u32 flags of density 0.1', (size, seed) => {
    const data = randomData('f32', size, seed);
    const flags = randomFlags(size, seed + 1, 0.1);
    return { call: (ctx) => pack(ctx, data, flags), check: (got) => expectEqualArrays(got, cpu.pack(data, flags), 'pack') };
  }),
  defineCase('core.packIf', 'i32 data, value > 0', (size, seed) => {
    const data = randomData('i32', size, seed);
    const predicate = { op: 'gt', value: 0 } as const;
    return { call: (ctx) => packIf(ctx, data, predicate), check: (got) => expectEqualArrays(got, cpu.packIf(data, predicate), 'packIf') };
  }),
  defineCase('core.histogram', 'u32 samples, 100 even bins over [1000, 3e9) (exact quotient)', (size, seed) => {
    const data = randomData('u32', size, seed);
    const options = { bins: 100, range: [1000, 3e9] } as const;
    return {
      call: (ctx) => histogram(ctx, data, options),
      check: (got) => expectEqualArrays(got, cpu.histogram(data, options), 'histogram'),
    };
  }),
  defineCase('core.histogram:f32', 'f32 samples with NaN, 300 even bins over [-0.5, 0.5)', (size, seed) => {
    const data = randomData('f32', size, seed, 'nan');
    const options = { bins: 300, range: [-0.5, 0.5] } as const;
    return {
      call: (ctx) => histogram(ctx, data, options),
      check: (got) => expectEqualArrays(got, cpu.histogram(data, options), 'histogram f32'),
    };
  }),
  defineCase('core.histogram:edges', 'i32 samples, 6 edges', (size, seed) => {
    const data = randomData('i32', size, seed, 'small');
    const options = { edges: new Int32Array([-8, -3, 0, 1, 2, 7]) };
    return {
      call: (ctx) => histogram(ctx, data, options),
      check: (got) => expectEqualArrays(got, cpu.histogram(data, options), 'histogram edges'),
    };
  }),
  defineCase('core.enumerate', 'u8 flags of density 0.5, backward', (size, seed) => {
    const flags = byteFlags(size, seed, 0.5);
    return {
      call: (ctx) => enumerate(ctx, flags, { backward: true }),
      check: (got) => expectEqualArrays(got, cpu.enumerate(flags, { backward: true }), 'enumerate'),
    };
  }),
  // The toolbox (issue 49): arg-min/max and sorted search.
  ...toolboxSearchCases,
];
