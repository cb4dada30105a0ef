import { describe, expect, test } from 'vitest';
import { formatSize, parseSize, parseSizeList } from '../src/sizes.js';

describe('parseSize', () => {
  test('accepts decimal counts and powers of two', () => {
    expect(parseSize('1048576')).toBe(1 << 20);
    expect(parseSize('1_000')).toBe(1000);
    expect(parseSize(' 2^16 ')).toBe(65536);
    expect(parseSize('2^0')).toBe(1);
    expect(parseSize('2^28')).toBe(2 ** 28);
  });

  test('rejects what is not a positive count, naming the text', () => {
    for (const bad of ['', 'abc', '2^', '2^-1', '1e6', '0', '-5', '3^4', '2^40', '1.5']) {
      expect(() => parseSize(bad), bad).toThrow(/size/);
    }
    expect(() => parseSize('abc')).toThrow(/"abc"/);
  });
});

describe('parseSizeList', () => {
  test('sorts and removes duplicates', () => {
    expect(parseSizeList('2^20,65536,2^16, 4096')).toEqual([4096, 65536, 1 << 20]);
  });
  test('rejects an empty list', () => {
    expect(() => parseSizeList(' , ')).toThrow(/at least one/);
  });
});

test('formatSize writes powers of two from 2^10 as 2^k', () => {
  expect(formatSize(1 << 20)).toBe('2^20');
  expect(formatSize(1024)).toBe('2^10');
  expect(formatSize(512)).toBe('512');
  expect(formatSize(1000)).toBe('1000');
});
