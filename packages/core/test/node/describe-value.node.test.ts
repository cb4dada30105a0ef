// describeValue renders what a caller passed into an error message: bounded, whatever the value
// (issue 46, item 4: a typed array where a GPUBuffer belongs once put 2 MB of text in a message).
import { describe, expect, test } from 'vitest';
import { describeValue, invalidArgument, ScanError } from '../../src/errors.js';

describe('describeValue', () => {
  test('typed arrays, ArrayBuffers and arrays by type and length', () => {
    expect(describeValue(new Float32Array(1_000_000))).toBe('Float32Array(1000000)');
    expect(describeValue(new Uint8Array([1, 2, 3]))).toBe('Uint8Array(3)');
    expect(describeValue(new BigInt64Array(2))).toBe('BigInt64Array(2)');
    expect(describeValue(new DataView(new ArrayBuffer(12)))).toBe('DataView(12)');
    expect(describeValue(new ArrayBuffer(4096))).toBe('ArrayBuffer(4096 bytes)');
    expect(describeValue(new Array(1e6).fill(7))).toBe('Array(1000000)');
  });

  test('strings cut at 60 characters, numbers and booleans as written', () => {
    expect(describeValue('xor')).toBe('"xor"');
    expect(describeValue('a'.repeat(1e6))).toBe(`"${'a'.repeat(60)}…"`);
    expect(describeValue(-1)).toBe('-1');
    expect(describeValue(Number.NaN)).toBe('NaN');
    expect(describeValue(true)).toBe('true');
    expect(describeValue(null)).toBe('null');
    expect(describeValue(undefined)).toBe('undefined');
  });

  test('everything else bounded: big integers, symbols, functions, objects', () => {
    expect(describeValue(12n)).toBe('12n');
    expect(describeValue(10n ** 1000n).length).toBeLessThanOrEqual(61);
    expect(describeValue(Symbol('s'.repeat(500))).length).toBeLessThanOrEqual(61);
    // A function's source can be any length: its name only.
    expect(describeValue(function encodeFrame() {})).toBe('function encodeFrame');
    expect(describeValue(() => 0)).toBe('function (anonymous)');
    expect(describeValue({ size: 4 })).toBe('Object');
    expect(describeValue(new Map())).toBe('Map');
    expect(describeValue(Object.create(null))).toBe('object');
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(describeValue(proxy)).toBe('object'); // reading a revoked proxy throws; the message must not
  });

  test('a typed array passed as an argument stays one line in the message', () => {
    const data = new Uint32Array(1_000_000).fill(123456);
    const error = (() => {
      try {
        invalidArgument('args.input', data, 'expected a GPUBuffer');
      } catch (e) {
        return e as ScanError;
      }
    })();
    expect(error).toBeInstanceOf(ScanError);
    expect(error?.message).toBe('args.input = Uint32Array(1000000): expected a GPUBuffer');
  });
});
