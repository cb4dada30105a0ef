import { describe, expect, test } from 'vitest';
import { ScanError } from '../../src/errors.js';
import { checkDawnToggles, parseDawnToggles, resolveDawnToggles } from '../../src/node/toggles.js';

const NVIDIA = 'enable-dawn-features=allow_unsafe_apis,vulkan_enable_f16_on_nvidia disable-dawn-features=timestamp_quantization';

describe('parseDawnToggles', () => {
  test('splits the SCAN_DAWN_TOGGLES form (remote.sh) on spaces', () => {
    expect(parseDawnToggles(NVIDIA)).toEqual([
      'enable-dawn-features=allow_unsafe_apis,vulkan_enable_f16_on_nvidia',
      'disable-dawn-features=timestamp_quantization',
    ]);
  });

  test('ignores extra whitespace, tabs and newlines', () => {
    expect(parseDawnToggles('  backend=vulkan \t\n adapter=SwiftShader  ')).toEqual(['backend=vulkan', 'adapter=SwiftShader']);
  });

  test('gives no toggles for a missing or blank variable', () => {
    expect(parseDawnToggles(undefined)).toEqual([]);
    expect(parseDawnToggles('')).toEqual([]);
    expect(parseDawnToggles('   ')).toEqual([]);
  });

  test('rejects an entry without "=", naming the variable and the index', () => {
    const error = catchError(() => parseDawnToggles('backend=vulkan allow_unsafe_apis'));
    expect(error).toBeInstanceOf(ScanError);
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.argument).toBe('SCAN_DAWN_TOGGLES[1]');
    expect(error.message).toContain('"allow_unsafe_apis"');
  });
});

describe('checkDawnToggles', () => {
  test('accepts key=value entries, including an empty value', () => {
    expect(checkDawnToggles(['enable-dawn-features=a,b', 'disable-dawn-features='], 'toggles')).toEqual([
      'enable-dawn-features=a,b',
      'disable-dawn-features=',
    ]);
  });

  test('rejects non-strings, spaces inside an entry and a missing key', () => {
    for (const bad of [42, 'a = b', '=value', 'novalue', 'a=b c']) {
      const error = catchError(() => checkDawnToggles(['backend=vulkan', bad], 'options.toggles'));
      expect(error.code, String(bad)).toBe('INVALID_ARGUMENT');
      expect(error.argument).toBe('options.toggles[1]');
    }
  });

  test('rejects a non-array', () => {
    expect(catchError(() => checkDawnToggles('backend=vulkan' as unknown as string[], 'options.toggles')).argument).toBe('options.toggles');
  });
});

describe('resolveDawnToggles', () => {
  test('uses the environment when options give none', () => {
    expect(resolveDawnToggles(undefined, { SCAN_DAWN_TOGGLES: NVIDIA })).toHaveLength(2);
    expect(resolveDawnToggles(undefined, {})).toEqual([]);
  });

  test('options win over the environment, and [] turns it off', () => {
    expect(resolveDawnToggles(['backend=vulkan'], { SCAN_DAWN_TOGGLES: NVIDIA })).toEqual(['backend=vulkan']);
    expect(resolveDawnToggles([], { SCAN_DAWN_TOGGLES: NVIDIA })).toEqual([]);
  });
});

function catchError(f: () => unknown): ScanError {
  try {
    f();
  } catch (error) {
    return error as ScanError;
  }
  throw new Error('expected a throw');
}
