import { describe, expect, test } from 'vitest';
import { defaultMatrixSuite } from '../dashboard/live-adapter.js';

// Issue 46: the live run's matrix selector started on the 1M-row suite on SwiftShader, minutes of
// CPU time per product. It now starts on the small suite on a software or fallback adapter.

describe("the live run's matrix suite", () => {
  test('is the small suite on software adapters, told by their names', () => {
    // What headless Chromium's SwiftShader reports in adapter.info.
    expect(defaultMatrixSuite({ vendor: 'google', architecture: 'swiftshader', description: '', device: '' })).toBe('small');
    expect(defaultMatrixSuite({ vendor: 'mesa', architecture: '', description: 'llvmpipe (LLVM 15.0.6, 256 bits)' })).toBe('small');
    expect(defaultMatrixSuite({ vendor: 'microsoft', architecture: '', description: 'Microsoft Basic Render Driver' })).toBe('small');
  });

  test("is the small suite on the browser's fallback adapter, whatever its name, and with no adapter at all", () => {
    expect(defaultMatrixSuite({ vendor: 'unknown-vendor', architecture: '', isFallbackAdapter: true })).toBe('small');
    expect(defaultMatrixSuite(undefined)).toBe('small');
  });

  test('is the 1M-row suite on GPUs', () => {
    expect(defaultMatrixSuite({ vendor: 'nvidia', architecture: 'hopper', description: '', device: '', isFallbackAdapter: false })).toBe(
      '1M',
    );
    expect(defaultMatrixSuite({ vendor: 'apple', architecture: 'metal-3', description: 'Apple M2' })).toBe('1M');
    expect(defaultMatrixSuite({ vendor: 'intel', architecture: 'gen-12lp' })).toBe('1M');
  });
});
