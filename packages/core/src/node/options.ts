// The argument check of createNodeContext, in one place so the options are held to the same rules
// as every other options object of the scan family: an unknown key (`sofware`) is rejected rather
// than ignored, and a bad value names the option instead of reaching Dawn, whose own message
// (`UNSUPPORTED`, about the adapter) would not say which option was wrong.
import { checkBoolean, checkOneOf, checkOptions } from '../validate.js';

/** Every key of `NodeContextOptions`, in the order its documentation lists them. */
const NODE_CONTEXT_KEYS = ['toggles', 'powerPreference', 'software', 'subgroups', 'subgroupMatrix', 'shaderF16', 'globals'] as const;

/** The values WebGPU's `requestAdapter` knows for `powerPreference`. */
const POWER_PREFERENCES = ['low-power', 'high-performance'] as const;

/**
 * Checks the options of `createNodeContext` before anything is loaded: only its own keys, booleans
 * that are `true` or `false`, and a `powerPreference` WebGPU knows (`toggles` is left to
 * `resolveDawnToggles`). Throws an `INVALID_ARGUMENT` `ScanError` naming the
 * option.
 *
 * @example
 * ```ts
 * checkNodeContextOptions({ software: true }); // passes
 * checkNodeContextOptions({ sofware: true }); // throws: options.sofware = true: unknown option (allowed: toggles, …)
 * checkNodeContextOptions({ powerPreference: 'fastest' }); // throws: expected one of 'low-power', 'high-performance'
 * ```
 */
export function checkNodeContextOptions(options: unknown): void {
  // `toggles` is checked entry by entry by resolveDawnToggles, which also reads the environment's.
  const o = checkOptions(options, NODE_CONTEXT_KEYS);
  if (o['powerPreference'] !== undefined) checkOneOf(o['powerPreference'], POWER_PREFERENCES, 'options.powerPreference', 'low-power');
  for (const key of ['software', 'subgroups', 'subgroupMatrix', 'shaderF16', 'globals'] as const) {
    checkBoolean(o[key], `options.${key}`, false);
  }
}
