import { lineError, quoteToken } from './errors.js';
import type { MatrixMarketField, MatrixMarketSymmetry } from './types.js';

/** Largest row or column count: indices are stored as u32. */
export const MAX_DIMENSION = 2 ** 32 - 1;

/** Most entries a matrix may hold (after mirroring a symmetric file): typed arrays past this are not dependable. */
export const MAX_ENTRIES = 2 ** 31;

/** Where a header line came from, for error messages. */
export interface LineContext {
  source: string;
  argument: string;
  line: number;
}

const BANNER_WORD = '%%matrixmarket';
const BANNER_FORM = '%%MatrixMarket matrix coordinate <real|integer|pattern> <general|symmetric|skew-symmetric>';

/** Splits a header line into tokens: spaces, tabs and a stray CR separate them. */
function tokens(line: string): string[] {
  const trimmed = line.trim();
  return trimmed === '' ? [] : trimmed.split(/[ \t\r]+/);
}

/**
 * Reads the banner, the first line of every Matrix Market file. Keywords are case-insensitive (the
 * NIST format says so, and files in the wild use both cases).
 *
 * @example
 * ```ts
 * parseBanner('%%MatrixMarket matrix coordinate real symmetric', { source: 'a.mtx', argument: 'path', line: 1 });
 * // { field: 'real', symmetry: 'symmetric' }
 * ```
 */
export function parseBanner(line: string, at: LineContext): { field: MatrixMarketField; symmetry: MatrixMarketSymmetry } {
  const fail = (what: string) => lineError('INVALID_ARGUMENT', at.source, at.argument, at.line, what);
  const unsupported = (what: string) => lineError('UNSUPPORTED', at.source, at.argument, at.line, what);
  const words = tokens(line);
  if (words.length === 0 || words[0]!.toLowerCase() !== BANNER_WORD) {
    const found = line === '' ? 'an empty line' : quoteToken(line);
    throw fail(`expected the banner ${BANNER_FORM}, found ${found}`);
  }
  const [, object, format, field, symmetry] = words.map((w) => w.toLowerCase());
  if (object === undefined || format === undefined || field === undefined || symmetry === undefined) {
    throw fail(`incomplete banner ${quoteToken(line)}, expected ${BANNER_FORM}`);
  }
  if (words.length > 5) throw fail(`extra token ${quoteToken(words[5]!)} after the banner`);
  if (object !== 'matrix') throw fail(`unknown object ${quoteToken(words[1]!)} in the banner, expected "matrix"`);
  if (format === 'array') {
    throw unsupported('the dense "array" format is not read: only the "coordinate" format is read (convert the file to coordinate form)');
  }
  if (format !== 'coordinate') throw fail(`unknown format ${quoteToken(words[2]!)} in the banner, expected "coordinate"`);
  if (field === 'complex') throw unsupported('complex matrices are not read: values are f32 (field "real", "integer" or "pattern")');
  if (field !== 'real' && field !== 'integer' && field !== 'pattern') {
    throw fail(`unknown field ${quoteToken(words[3]!)} in the banner, expected "real", "integer" or "pattern"`);
  }
  if (symmetry === 'hermitian') throw unsupported('hermitian matrices are not read (they are complex)');
  if (symmetry !== 'general' && symmetry !== 'symmetric' && symmetry !== 'skew-symmetric') {
    throw fail(`unknown symmetry ${quoteToken(words[4]!)} in the banner, expected "general", "symmetric" or "skew-symmetric"`);
  }
  // The format defines no values to negate for a pattern, and the NIST reader (mmio.c) rejects the pair.
  if (field === 'pattern' && symmetry === 'skew-symmetric') throw fail('a pattern matrix cannot be skew-symmetric');
  return { field, symmetry };
}

/** One size of the size line, or why it is not a size. */
function parseSize(token: string, name: string, fail: (what: string) => Error): number {
  if (/^\d+$/.test(token)) return Number(token);
  if (/^-\d*\.?\d*(e[+-]?\d+)?$/i.test(token) && token !== '-') throw fail(`${name} ${quoteToken(token)} is negative`);
  throw fail(`${name} ${quoteToken(token)} is not a non-negative integer`);
}

/**
 * Reads the size line `rows cols nnz` that follows the banner and the comments.
 *
 * @example
 * ```ts
 * parseSizeLine('4 4 7', 'general', { source: 'a.mtx', argument: 'path', line: 3 }); // { rows: 4, cols: 4, nnz: 7 }
 * ```
 */
export function parseSizeLine(line: string, symmetry: MatrixMarketSymmetry, at: LineContext): { rows: number; cols: number; nnz: number } {
  const fail = (what: string) => lineError('INVALID_ARGUMENT', at.source, at.argument, at.line, what);
  const tooLarge = (what: string) => lineError('TOO_LARGE', at.source, at.argument, at.line, what);
  const words = tokens(line);
  if (words.length !== 3) {
    throw fail(`expected the size line "rows cols nnz" (3 integers), found ${words.length} token${words.length === 1 ? '' : 's'}`);
  }
  const rows = parseSize(words[0]!, 'row count', fail);
  const cols = parseSize(words[1]!, 'column count', fail);
  const nnz = parseSize(words[2]!, 'entry count', fail);
  if (rows > MAX_DIMENSION) throw tooLarge(`row count ${words[0]} is past ${MAX_DIMENSION} (row indices are u32)`);
  if (cols > MAX_DIMENSION) throw tooLarge(`column count ${words[1]} is past ${MAX_DIMENSION} (column indices are u32)`);
  if (nnz > MAX_ENTRIES) throw tooLarge(`entry count ${words[2]} is past ${MAX_ENTRIES}, the most a typed array here holds`);
  if (symmetry !== 'general' && rows !== cols) throw fail(`a ${symmetry} matrix must be square, found ${rows} × ${cols}`);
  return { rows, cols, nnz };
}
