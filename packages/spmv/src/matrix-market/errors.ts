import { ScanError, type ScanErrorCode } from '@scan/core';

/**
 * The error for something wrong at one line of a Matrix Market input: the message starts with the
 * input's name and the 1-based line, so a user can open the file at the right place.
 *
 * @example
 * ```ts
 * throw lineError('INVALID_ARGUMENT', 'Matrix Market text', 'text', 7, 'row index "0" is out of range 1..5');
 * // ScanError: Matrix Market text, line 7: row index "0" is out of range 1..5
 * ```
 */
export function lineError(code: ScanErrorCode, source: string, argument: string, line: number, what: string): ScanError {
  return new ScanError(code, `${source}, line ${line}: ${what}`, { argument });
}

/**
 * A token for an error message: quoted, and cut short so that a garbage line cannot produce a
 * megabyte of message.
 *
 * @example
 * ```ts
 * quoteToken('1.5'); // '"1.5"'
 * ```
 */
export function quoteToken(token: string): string {
  return JSON.stringify(token.length > 40 ? `${token.slice(0, 40)}…` : token);
}
