import { ScanError } from '@scan/core';
import type { CooMatrix } from '../types.js';
import { lineError, quoteToken } from './errors.js';
import { type LineContext, MAX_ENTRIES, parseBanner, parseSizeLine } from './header.js';
import { aboveDiagonalMessage, f32OverflowMessage, fitsF32, skewDiagonalMessage } from './rules.js';
import type { MatrixMarketField, MatrixMarketHeader, MatrixMarketParserOptions, MatrixMarketSymmetry } from './types.js';
import { parseInteger, parseReal } from './value.js';

/** Where the parser stands: which line it expects next. */
const State = {
  Banner: 0,
  Size: 1,
  Entries: 2,
  /** `finish` returned, or an error was thrown: the parser takes no more input. */
  Closed: 3,
} as const;
type State = (typeof State)[keyof typeof State];

// Character codes of the hot loop.
const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
const PERCENT = 37;
const ZERO = 48;
const NINE = 57;

const EMPTY_U32 = new Uint32Array(0);
const EMPTY_F32 = new Float32Array(0);

/**
 * An incremental reader of the Matrix Market `coordinate` format: give it the text in chunks of any
 * size with {@link MatrixMarketParser.push} — a chunk may end anywhere, inside a number or between
 * the CR and LF of a line end — and get the matrix from {@link MatrixMarketParser.finish}. It keeps
 * only the unfinished last line of the text between calls, and writes the entries straight into
 * typed arrays sized from the size line, so a file is read without ever holding its whole text.
 *
 * What it accepts, exactly:
 * - fields `real`, `integer` (an optional sign and digits only), `pattern` (no value; each entry is 1);
 * - symmetries `general` (any entry), `symmetric` (only the lower triangle, row ≥ column, as the
 *   format stores it; an off-diagonal (i, j) also gives (j, i)) and `skew-symmetric` (only the
 *   strictly lower triangle, row > column; (i, j) also gives (j, i) with the value negated);
 * - keywords in any case; `%` comment lines and blank lines anywhere after the banner; spaces or
 *   tabs; LF or CRLF line ends; a byte-order mark before the banner; `nan`, `inf`, `-inf`,
 *   `infinity` in any case.
 *
 * Values are parsed as f64 and stored as f32, rounded to the nearest (`0.1`, `16777217`, and down
 * to a subnormal or ±0 for tiny values such as `1e-50`). Indices are 1-based in the file and 0-based
 * in the result; entries keep the file's order, each mirrored entry right after its original.
 * Duplicates are kept (`cooToCsr` adds them up), in a symmetric file too: there `2 1 x` twice
 * stands for 2x at (2, 1) and at (1, 2).
 *
 * What it rejects, with `INVALID_ARGUMENT` naming the line and the entry: anything malformed; an
 * entry above the diagonal in a `symmetric` or `skew-symmetric` file (the format forbids it, and
 * mirroring it would count a value twice when its lower twin is also given); a diagonal entry in a
 * `skew-symmetric` file (its diagonal is zero); a finite value past the f32 range (`1e39`, which
 * would silently become ±Infinity; write `inf` for an infinity). `UNSUPPORTED` for the `array`
 * format, `complex` and `hermitian`; `TOO_LARGE` past 2^31 entries or 2^32 − 1 rows or columns.
 * Errors are `ScanError`s whose message starts with the input's name and the line, e.g.
 * `Matrix Market text, line 4: entry (1, 2) is above the diagonal: …`. After an error the parser
 * is closed.
 *
 * @example
 * ```ts
 * const parser = new MatrixMarketParser();
 * const response = await fetch('/matrices/bcsstk01.mtx');
 * const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
 * for (let r = await reader.read(); !r.done; r = await reader.read()) parser.push(r.value);
 * const A = cooToCsr(parser.finish());
 * ```
 */
export class MatrixMarketParser {
  readonly #source: string;
  readonly #argument: string;
  #state: State = State.Banner;
  /** The text after the last line end pushed so far: the start of a line that is not complete yet. */
  #pending = '';
  /** Lines read completely so far (the 1-based number of the last one). */
  #line = 0;
  #field: MatrixMarketField = 'real';
  #symmetry: MatrixMarketSymmetry = 'general';
  #header: MatrixMarketHeader | undefined;
  #sizeLine = 0;
  /** Entries read from the file so far. */
  #read = 0;
  /** Entries stored so far (with the mirrored ones of a symmetric file). */
  #count = 0;
  #rowIdx: Uint32Array = EMPTY_U32;
  #colIdx: Uint32Array = EMPTY_U32;
  #values: Float32Array = EMPTY_F32;

  /**
   * @param options How error messages name the input (default: `Matrix Market text`, argument `text`).
   */
  constructor(options?: MatrixMarketParserOptions) {
    this.#source = options?.source ?? 'Matrix Market text';
    this.#argument = options?.argument ?? 'text';
  }

  /**
   * The banner and size line once the size line has been read; `undefined` before.
   *
   * @example
   * ```ts
   * parser.push(firstChunk);
   * if (parser.header) console.log(`${parser.header.rows} × ${parser.header.cols}, ${parser.header.nnz} entries`);
   * ```
   */
  get header(): MatrixMarketHeader | undefined {
    return this.#header;
  }

  /**
   * Reads the next piece of the text. Complete lines are parsed now; the unfinished last line waits
   * for the next chunk (or for {@link MatrixMarketParser.finish}).
   *
   * @throws ScanError with the line number when a complete line is malformed.
   * @example
   * ```ts
   * parser.push('%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 ');
   * parser.push('2\n');
   * ```
   */
  push(chunk: string): void {
    this.#checkOpen('push');
    if (typeof chunk !== 'string') {
      this.#state = State.Closed;
      throw new ScanError('INVALID_ARGUMENT', `${this.#argument}: expected a string, found ${typeof chunk}`, { argument: this.#argument });
    }
    const text = this.#pending === '' ? chunk : this.#pending + chunk;
    const last = text.lastIndexOf('\n');
    if (last === -1) {
      this.#pending = text;
      return;
    }
    this.#pending = text.slice(last + 1);
    this.#consume(text, last + 1);
  }

  /**
   * Ends the input: parses the last line (a final line end is optional), checks that the file held
   * as many entries as its size line declared, and returns the matrix. The parser is closed after.
   *
   * @throws ScanError with the line number when the input is incomplete or its last line malformed.
   * @example
   * ```ts
   * const parser = new MatrixMarketParser();
   * parser.push('%%MatrixMarket matrix coordinate real general\n2 2 1\n2 1 -0.5');
   * parser.finish(); // { rows: 2, cols: 2, rowIdx: [1], colIdx: [0], values: [-0.5] }
   * ```
   */
  finish(): CooMatrix {
    this.#checkOpen('finish');
    const text = this.#pending;
    this.#pending = '';
    if (text !== '') this.#consume(text, text.length);
    const lastLine = Math.max(this.#line, 1);
    if (this.#state === State.Banner) throw this.#error('INVALID_ARGUMENT', 1, 'the input is empty, expected the %%MatrixMarket banner');
    if (this.#state === State.Size) throw this.#error('INVALID_ARGUMENT', lastLine, 'the input ends before the size line "rows cols nnz"');
    const declared = this.#header!.nnz;
    if (this.#read < declared) {
      throw this.#error(
        'INVALID_ARGUMENT',
        lastLine,
        `the input ends after ${this.#read} of the ${declared} entries declared on line ${this.#sizeLine}`,
      );
    }
    this.#state = State.Closed;
    const count = this.#count;
    let rowIdx = this.#rowIdx;
    let colIdx = this.#colIdx;
    let values = this.#values;
    if (count < rowIdx.length) {
      // A symmetric file was given room for every entry mirrored; copy so the unused part is freed.
      rowIdx = rowIdx.slice(0, count);
      colIdx = colIdx.slice(0, count);
      values = values.slice(0, count);
    }
    this.#rowIdx = EMPTY_U32;
    this.#colIdx = EMPTY_U32;
    this.#values = EMPTY_F32;
    return { rows: this.#header!.rows, cols: this.#header!.cols, rowIdx, colIdx, values };
  }

  #checkOpen(method: string): void {
    if (this.#state === State.Closed) {
      throw new ScanError(
        'INVALID_ARGUMENT',
        `MatrixMarketParser.${method}: the parser is closed (finish() returned or an error was thrown)`,
        {
          argument: this.#argument,
        },
      );
    }
  }

  /** An error at `line`; it closes the parser, whose state is no longer trustworthy. */
  #error(code: 'INVALID_ARGUMENT' | 'UNSUPPORTED' | 'TOO_LARGE', line: number, what: string): ScanError {
    this.#state = State.Closed;
    return lineError(code, this.#source, this.#argument, line, what);
  }

  #at(line: number): LineContext {
    return { source: this.#source, argument: this.#argument, line };
  }

  /** Parses the lines of `text[0, end)`: each ends at a LF before `end`, or at `end` itself. */
  #consume(text: string, end: number): void {
    let p = 0;
    try {
      while (p < end && this.#state !== State.Entries) {
        let e = text.indexOf('\n', p);
        if (e === -1 || e > end) e = end;
        const lineNumber = ++this.#line;
        let line = text.slice(p, e);
        p = e + 1;
        if (this.#state === State.Banner) {
          if (line.charCodeAt(0) === 0xfeff) line = line.slice(1); // a byte-order mark from an editor
          ({ field: this.#field, symmetry: this.#symmetry } = parseBanner(line, this.#at(lineNumber)));
          this.#state = State.Size;
        } else {
          const trimmed = line.trim();
          if (trimmed === '' || trimmed.charCodeAt(0) === PERCENT) continue;
          this.#startEntries(parseSizeLine(trimmed, this.#symmetry, this.#at(lineNumber)), lineNumber);
        }
      }
    } catch (e) {
      this.#state = State.Closed;
      throw e;
    }
    if (p < end) this.#entries(text, p, end);
  }

  /** Allocates the arrays for the entries that the size line declares. */
  #startEntries(size: { rows: number; cols: number; nnz: number }, lineNumber: number): void {
    this.#header = { field: this.#field, symmetry: this.#symmetry, ...size };
    this.#sizeLine = lineNumber;
    // Room for every off-diagonal entry mirrored; `finish` trims. Past MAX_ENTRIES the entry that
    // does not fit is reported, since a file with many diagonal entries may still fit.
    const capacity = this.#symmetry === 'general' ? size.nnz : Math.min(2 * size.nnz, MAX_ENTRIES);
    try {
      this.#rowIdx = new Uint32Array(capacity);
      this.#colIdx = new Uint32Array(capacity);
      this.#values = new Float32Array(capacity);
    } catch (cause) {
      if (!(cause instanceof RangeError)) throw cause;
      const error = this.#error('TOO_LARGE', lineNumber, `cannot allocate room for ${capacity} entries (${cause.message})`);
      throw new ScanError(error.code, error.message, { argument: this.#argument, cause });
    }
    this.#state = State.Entries;
  }

  /**
   * The hot loop: parses the entry lines of `s[p, end)` into the typed arrays, reading characters
   * directly (no split, no regex, no substring for indices or short decimals).
   */
  #entries(s: string, p: number, end: number): void {
    const rowIdx = this.#rowIdx;
    const colIdx = this.#colIdx;
    const values = this.#values;
    const capacity = rowIdx.length;
    const { rows, cols, nnz: declared } = this.#header!;
    const pattern = this.#field === 'pattern';
    const integer = this.#field === 'integer';
    const mirror = this.#symmetry !== 'general';
    const skew = this.#symmetry === 'skew-symmetric';
    let line = this.#line;
    let read = this.#read;
    let k = this.#count;
    try {
      while (p < end) {
        let e = s.indexOf('\n', p);
        if (e === -1 || e > end) e = end;
        line++;
        let c = s.charCodeAt(p);
        while (c === SPACE || c === TAB || c === CR) c = s.charCodeAt(++p);
        if (p >= e || c === PERCENT) {
          p = e + 1;
          continue;
        }
        if (read === declared) {
          throw this.#error('INVALID_ARGUMENT', line, `more entries than the ${declared} declared on line ${this.#sizeLine}`);
        }

        // Row index: decimal digits up to a separator.
        let start = p;
        let row = 0;
        while (c >= ZERO && c <= NINE) {
          row = row * 10 + (c - ZERO);
          c = s.charCodeAt(++p);
        }
        if (p === start || (p < e && c !== SPACE && c !== TAB && c !== CR)) throw this.#badIndex(s, start, e, line, 'row');
        if (row < 1 || row > rows) throw this.#outOfRange(s, start, p, line, 'row', rows);
        while (c === SPACE || c === TAB || c === CR) c = s.charCodeAt(++p);
        if (p >= e) throw this.#error('INVALID_ARGUMENT', line, `missing the column index after row index ${row}`);

        // Column index.
        start = p;
        let col = 0;
        while (c >= ZERO && c <= NINE) {
          col = col * 10 + (c - ZERO);
          c = s.charCodeAt(++p);
        }
        if (p === start || (p < e && c !== SPACE && c !== TAB && c !== CR)) throw this.#badIndex(s, start, e, line, 'column');
        if (col < 1 || col > cols) throw this.#outOfRange(s, start, p, line, 'column', cols);
        while (c === SPACE || c === TAB || c === CR) c = s.charCodeAt(++p);

        // Value (none in a pattern file).
        let value = 1;
        if (!pattern) {
          if (p >= e) throw this.#error('INVALID_ARGUMENT', line, `missing the value of entry (${row}, ${col})`);
          start = p;
          while (p < e && c !== SPACE && c !== TAB && c !== CR) c = s.charCodeAt(++p);
          const parsed = integer ? parseInteger(s, start, p) : parseReal(s, start, p);
          if (parsed === undefined) {
            const what = integer ? 'an integer' : 'a number';
            throw this.#error('INVALID_ARGUMENT', line, `value ${quoteToken(s.slice(start, p))} of entry (${row}, ${col}) is not ${what}`);
          }
          // The result holds f32: a finite value past its range would become ±Infinity unseen.
          value = parsed;
          if (!fitsF32(value)) throw this.#error('INVALID_ARGUMENT', line, f32OverflowMessage(s.slice(start, p), row, col));
          while (c === SPACE || c === TAB || c === CR) c = s.charCodeAt(++p);
        }
        if (p < e) {
          let q = p;
          while (q < e && !isSeparator(s.charCodeAt(q))) q++;
          throw this.#error('INVALID_ARGUMENT', line, `extra token ${quoteToken(s.slice(p, q))} after entry (${row}, ${col})`);
        }

        if (mirror && col > row) throw this.#error('INVALID_ARGUMENT', line, aboveDiagonalMessage(this.#symmetry, row, col));
        if (k === capacity) throw this.#tooMany(line);
        rowIdx[k] = row - 1;
        colIdx[k] = col - 1;
        values[k] = value;
        k++;
        if (mirror) {
          if (row !== col) {
            if (k === capacity) throw this.#tooMany(line);
            rowIdx[k] = col - 1;
            colIdx[k] = row - 1;
            values[k] = skew ? -value : value;
            k++;
          } else if (skew) {
            throw this.#error('INVALID_ARGUMENT', line, skewDiagonalMessage(row, col));
          }
        }
        read++;
        p = e + 1;
      }
    } finally {
      this.#line = line;
      this.#read = read;
      this.#count = k;
    }
  }

  #badIndex(s: string, start: number, e: number, line: number, which: 'row' | 'column'): ScanError {
    let q = start;
    while (q < e && !isSeparator(s.charCodeAt(q))) q++;
    return this.#error('INVALID_ARGUMENT', line, `${which} index ${quoteToken(s.slice(start, q))} is not a positive integer`);
  }

  #outOfRange(s: string, start: number, end: number, line: number, which: 'row' | 'column', size: number): ScanError {
    const range = size === 0 ? `there are no ${which}s` : `expected 1..${size}`;
    return this.#error('INVALID_ARGUMENT', line, `${which} index ${quoteToken(s.slice(start, end))} is out of range: ${range}`);
  }

  #tooMany(line: number): ScanError {
    return this.#error(
      'TOO_LARGE',
      line,
      `the matrix has more than ${MAX_ENTRIES} entries once mirrored, the most a typed array here holds`,
    );
  }
}

function isSeparator(c: number): boolean {
  return c === SPACE || c === TAB || c === CR || c === LF;
}
