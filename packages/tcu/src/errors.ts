import { checkBoolean, checkOptions, ScanError } from '@scan/core';

export { checkBoolean, checkOptions };

/** Throws an `INVALID_ARGUMENT` `ScanError` naming `argument` and `value`. */
export function invalidArgumentOf(argument: string, value: unknown, why: string): never {
  const shown = ArrayBuffer.isView(value)
    ? `${value.constructor.name}(${(value as unknown as { length: number }).length})`
    : Array.isArray(value)
      ? `Array(${value.length})`
      : typeof value === 'string'
        ? JSON.stringify(value)
        : String(value);
  throw new ScanError('INVALID_ARGUMENT', `${argument} = ${shown}: ${why}`, { argument });
}
