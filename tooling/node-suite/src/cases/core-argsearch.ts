// @scan/core's arg-min/max and sorted search (issue 49) on host data.
import { argMax, argMin, lowerBound, upperBound } from '@scan/core';
import * as cpu from '@scan/core/cpu';
import { expectEqualArrays, randomData } from '@scan/gpu-testing';
import { defineCase, expectSame, type NodeCase } from '../case.js';

/** Throws unless both results name the same index and the same value (bit for bit up to NaN payloads). */
function expectSameArg(got: { value: number; index: number }, want: { value: number; index: number }, label: string): void {
  expectSame(got.index, want.index, `${label} index`);
  expectSame(Object.is(got.value, want.value) || (Number.isNaN(got.value) && Number.isNaN(want.value)), true, `${label} value`);
}

export const toolboxSearchCases: readonly NodeCase[] = [
  defineCase('core.argMin:f32', 'f32 with NaNs (NaN counts only when every element is NaN)', (size, seed) => {
    const data = randomData('f32', size, seed, 'nan');
    return { call: (ctx) => argMin(ctx, data), check: (got) => expectSameArg(got, cpu.argMin(data), 'argMin') };
  }),
  defineCase('core.argMax', 'i32 of few values (many ties: the lowest index)', (size, seed) => {
    const data = randomData('i32', size, seed, 'small');
    return { call: (ctx) => argMax(ctx, data), check: (got) => expectSameArg(got, cpu.argMax(data), 'argMax') };
  }),
  defineCase('core.lowerBound', 'ascending u32 needles (the narrowed path) into as many sorted u32 keys', (size, seed) => {
    const sorted = randomData('u32', size, seed, 'sorted');
    const needles = randomData('u32', size, seed + 1, 'sorted');
    return {
      call: (ctx) => lowerBound(ctx, sorted, needles),
      check: (got) => expectEqualArrays(got, cpu.lowerBound(sorted, needles), 'lowerBound'),
    };
  }),
  defineCase('core.upperBound:f32', 'f32 needles (NaN, ±0) into sorted f32 keys with runs of equal keys', (size, seed) => {
    const sorted = randomData('f32', size, seed, 'small').sort();
    const needles = randomData('f32', size, seed + 1, 'nan');
    return {
      call: (ctx) => upperBound(ctx, sorted, needles),
      check: (got) => expectEqualArrays(got, cpu.upperBound(sorted, needles), 'upperBound'),
    };
  }),
];
