// createNodeContext holds its options to the rules of every other options object (issue 46,
// item 4): an unknown key is rejected, and a bad value names the option before Dawn is reached.
import { describe, expect, test } from 'vitest';
import { ScanError } from '../../src/errors.js';
import { createNodeContext } from '../../src/node/index.js';

async function rejection(promise: Promise<unknown>): Promise<ScanError> {
  const error = await promise.then(
    (ctx) => {
      (ctx as { destroy(): void }).destroy();
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(error, 'expected a ScanError').toBeInstanceOf(ScanError);
  return error as ScanError;
}

describe('createNodeContext options', () => {
  test('a misspelt key is rejected, with the keys it could have meant', async () => {
    const error = await rejection(createNodeContext({ sofware: true } as never));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.argument).toBe('options.sofware');
    expect(error.message).toMatch(/^options\.sofware = true: unknown option \(allowed: .*\bsoftware\b/);
  });

  test('powerPreference must be one WebGPU knows (not Dawn’s UNSUPPORTED)', async () => {
    const error = await rejection(createNodeContext({ powerPreference: 'fastest' as GPUPowerPreference }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.argument).toBe('options.powerPreference');
    expect(error.message).toBe(`options.powerPreference = "fastest": expected one of 'low-power', 'high-performance'`);
  });

  test('booleans are booleans, toggles an array, options an object', async () => {
    for (const key of ['software', 'subgroups', 'subgroupMatrix', 'shaderF16', 'globals']) {
      const error = await rejection(createNodeContext({ [key]: 'false' } as never));
      expect([error.code, error.argument]).toEqual(['INVALID_ARGUMENT', `options.${key}`]);
    }
    const toggles = await rejection(createNodeContext({ toggles: 'backend=vulkan' as never }));
    expect([toggles.code, toggles.argument]).toEqual(['INVALID_ARGUMENT', 'options.toggles']);
    const notAnObject = await rejection(createNodeContext(null as never));
    expect([notAnObject.code, notAnObject.argument]).toEqual(['INVALID_ARGUMENT', 'options']);
  });
});
