import { invalidArgument } from '../errors.js';

/**
 * The environment variable that carries Dawn toggles (space-separated) when `createNodeContext` is given none.
 *
 * @example
 * ```ts
 * process.env[DAWN_TOGGLES_ENV] = 'disable-dawn-features=timestamp_quantization';
 * ```
 */
export const DAWN_TOGGLES_ENV = 'SCAN_DAWN_TOGGLES';

/**
 * Checks Dawn options for `create()` of the `webgpu` package: each must read `key=value`
 * (`enable-dawn-features=a,b`, `disable-dawn-features=c`, `backend=vulkan`, `adapter=…`).
 * Dawn itself rejects a malformed entry only with "Flags expected argument format is
 * <key>=<value>", which names neither the entry nor where it came from; this does both.
 *
 * @example
 * ```ts
 * checkDawnToggles(['enable-dawn-features=allow_unsafe_apis'], 'toggles'); // returns the same list
 * checkDawnToggles(['allow_unsafe_apis'], 'toggles'); // throws INVALID_ARGUMENT naming toggles[0]
 * ```
 */
export function checkDawnToggles(toggles: readonly unknown[], argument: string): string[] {
  if (!Array.isArray(toggles)) invalidArgument(argument, toggles, 'expected an array of "key=value" strings');
  return toggles.map((toggle, i) => {
    if (typeof toggle !== 'string' || !/^[^=\s]+=\S*$/.test(toggle)) {
      invalidArgument(
        `${argument}[${i}]`,
        toggle,
        'expected "key=value", e.g. "enable-dawn-features=allow_unsafe_apis" or "disable-dawn-features=timestamp_quantization"',
      );
    }
    return toggle;
  });
}

/**
 * Splits a space-separated toggle string (the form of `SCAN_DAWN_TOGGLES`) into Dawn options;
 * empty or missing text gives no toggles.
 *
 * @example
 * ```ts
 * parseDawnToggles('enable-dawn-features=allow_unsafe_apis,vulkan_enable_f16_on_nvidia disable-dawn-features=timestamp_quantization');
 * // ['enable-dawn-features=allow_unsafe_apis,vulkan_enable_f16_on_nvidia', 'disable-dawn-features=timestamp_quantization']
 * ```
 */
export function parseDawnToggles(text: string | undefined, source: string = DAWN_TOGGLES_ENV): string[] {
  if (text === undefined) return [];
  return checkDawnToggles(text.split(/\s+/).filter(Boolean), source);
}

/**
 * The toggles a context is created with: `toggles` when given (even empty, so a caller can turn
 * the environment's off), otherwise those of `SCAN_DAWN_TOGGLES`.
 *
 * @example
 * ```ts
 * resolveDawnToggles(undefined, { SCAN_DAWN_TOGGLES: 'backend=vulkan' }); // ['backend=vulkan']
 * resolveDawnToggles([], { SCAN_DAWN_TOGGLES: 'backend=vulkan' }); // []
 * ```
 */
export function resolveDawnToggles(toggles: readonly string[] | undefined, env: Readonly<Record<string, string | undefined>>): string[] {
  if (toggles !== undefined) return checkDawnToggles(toggles, 'options.toggles');
  return parseDawnToggles(env[DAWN_TOGGLES_ENV]);
}
