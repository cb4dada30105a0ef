import type { ScanContext } from '@scan/core';
import { expect, test } from 'vitest';
import { checkFitsBinding, UnsupportedCaseError } from '../src/child/workload.js';

// An H100's limits as Dawn reports them: a binding of 2^31 − 4 bytes, buffers up to 2^34.
const h100 = { caps: { limits: { maxStorageBufferBindingSize: 2 ** 31 - 4, maxBufferSize: 2 ** 34 } } } as unknown as ScanContext;

test('cases past one binding are skipped (UnsupportedCaseError), the largest that fits is not', () => {
  // 2^28 values of 8 bytes are 2^31 bytes: 4 past the binding (the sort-pairs case that failed on 2026-12-07).
  expect(() => checkFitsBinding(h100, 2 ** 28, 8, 'values')).toThrow(UnsupportedCaseError);
  expect(() => checkFitsBinding(h100, 2 ** 28, 8, 'values')).toThrow(/268435456 values of 8 bytes need 2147483648-byte buffers/);
  expect(() => checkFitsBinding(h100, 2 ** 28, 4, 'keys')).not.toThrow();
  expect(() => checkFitsBinding(h100, 2 ** 27, 16, 'values')).toThrow(UnsupportedCaseError);
  expect(() => checkFitsBinding(h100, 2 ** 27 - 1, 16, 'values')).not.toThrow();
});
