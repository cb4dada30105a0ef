// Matrix Market I/O, pure CPU: every field × symmetry against an oracle written here from the
// format's rules (1-based → 0-based, mirrored entry right after its original, skew negates);
// comments, blank lines, CRLF, tabs, keyword case, the non-finite spellings; the incremental parser
// with chunk boundaries at every position and at seeded random sizes, which must agree with the
// one-shot reader on results and on errors; write → read bit for bit on seeded random f32 bits;
// and every malformed input with its error code and the line its message names.
import { ScanError } from '@scan/core';
import { createRng } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import {
  type MatrixMarketField,
  MatrixMarketParser,
  type MatrixMarketSymmetry,
  matrixMarketChunks,
  readMatrixMarket,
  writeMatrixMarket,
} from '../src/matrix-market/index.js';
import type { CooMatrix, CsrMatrix } from '../src/types.js';

// ——— helpers ———

/** The bits of each f32: how values are compared (NaN = NaN, −0 ≠ +0). */
function bitsOf(values: Float32Array): number[] {
  return Array.from(new Uint32Array(values.buffer, values.byteOffset, values.length));
}

function expectCooEqual(actual: CooMatrix, expected: CooMatrix, what: string): void {
  expect(actual.rows, `${what}: rows`).toBe(expected.rows);
  expect(actual.cols, `${what}: cols`).toBe(expected.cols);
  expect(actual.rowIdx, `${what}: rowIdx`).toBeInstanceOf(Uint32Array);
  expect(actual.colIdx, `${what}: colIdx`).toBeInstanceOf(Uint32Array);
  expect(actual.values, `${what}: values`).toBeInstanceOf(Float32Array);
  expect(Array.from(actual.rowIdx), `${what}: rowIdx`).toEqual(Array.from(expected.rowIdx));
  expect(Array.from(actual.colIdx), `${what}: colIdx`).toEqual(Array.from(expected.colIdx));
  expect(bitsOf(actual.values), `${what}: value bits`).toEqual(bitsOf(expected.values));
}

function coo(rows: number, cols: number, entries: [number, number, number][]): CooMatrix {
  return {
    rows,
    cols,
    rowIdx: Uint32Array.from(entries, (e) => e[0]),
    colIdx: Uint32Array.from(entries, (e) => e[1]),
    values: Float32Array.from(entries, (e) => e[2]),
  };
}

/** The thrown error, checked to be a ScanError. */
function errorOf(f: () => unknown): ScanError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ScanError);
    return e as ScanError;
  }
  throw new Error('expected an error, none was thrown');
}

/** Pushes `text` in chunks of the given sizes (cycling), then finishes. */
function parseInChunks(text: string, sizes: (i: number) => number): CooMatrix {
  const parser = new MatrixMarketParser();
  for (let i = 0, n = 0; i < text.length; n++) {
    const size = sizes(n);
    parser.push(text.slice(i, i + size));
    i += size;
  }
  return parser.finish();
}

// ——— fields × symmetries ———

/** File entries (1-based) of a 4 × 4 matrix; the skew one has no diagonal. */
const ENTRIES: Record<MatrixMarketSymmetry, [number, number][]> = {
  general: [
    [1, 1],
    [2, 1],
    [1, 4],
    [4, 3],
    [3, 3],
    [2, 1], // a duplicate: kept
  ],
  symmetric: [
    [1, 1],
    [2, 1],
    [4, 3],
    [3, 3],
    [4, 1],
    [2, 1],
  ],
  'skew-symmetric': [
    [2, 1],
    [4, 3],
    [4, 1],
    [3, 2],
  ],
};

/** The value text of entry k of a file of `field`, and its value. */
function entryValue(field: MatrixMarketField, k: number): [string, number] {
  if (field === 'pattern') return ['', 1];
  if (field === 'integer') return [String((k % 2 ? -1 : 1) * (k * 37 + 5)), (k % 2 ? -1 : 1) * (k * 37 + 5)];
  const v = Math.fround((k % 2 ? -1 : 1) * (k + 0.1) * 10 ** (k - 3));
  return [String(v), v];
}

describe('readMatrixMarket: fields × symmetries', () => {
  const FIELDS: MatrixMarketField[] = ['real', 'integer', 'pattern'];
  const SYMMETRIES: MatrixMarketSymmetry[] = ['general', 'symmetric', 'skew-symmetric'];
  for (const field of FIELDS) {
    for (const symmetry of SYMMETRIES) {
      if (field === 'pattern' && symmetry === 'skew-symmetric') continue; // invalid: tested below
      it(`${field} ${symmetry}`, () => {
        const entries = ENTRIES[symmetry];
        let text = `%%MatrixMarket matrix coordinate ${field} ${symmetry}\n4 4 ${entries.length}\n`;
        const expected: [number, number, number][] = [];
        entries.forEach(([i, j], k) => {
          const [valueText, value] = entryValue(field, k);
          text += field === 'pattern' ? `${i} ${j}\n` : `${i} ${j} ${valueText}\n`;
          expected.push([i - 1, j - 1, value]);
          if (symmetry !== 'general' && i !== j) expected.push([j - 1, i - 1, symmetry === 'skew-symmetric' ? -value : value]);
        });
        const A = readMatrixMarket(text);
        expectCooEqual(A, coo(4, 4, expected), `${field} ${symmetry}`);
        // Trimmed to what the file holds, not the room reserved for mirroring.
        expect(A.values.length).toBe(expected.length);
        expect(A.values.buffer.byteLength).toBe(expected.length * 4);
      });
    }
  }

  it('keywords in any case; rectangular; zero sizes', () => {
    expectCooEqual(readMatrixMarket('%%matrixmarket MATRIX Coordinate REAL General\n2 3 1\n2 3 7.5\n'), coo(2, 3, [[1, 2, 7.5]]), 'case');
    expectCooEqual(readMatrixMarket('%%MatrixMarket matrix coordinate real general\n0 0 0\n'), coo(0, 0, []), '0 × 0');
    expectCooEqual(readMatrixMarket('%%MatrixMarket matrix coordinate pattern symmetric\n5 5 0'), coo(5, 5, []), 'no entries');
  });

  it('largest sizes: indices up to 2^32 − 1', () => {
    const max = 2 ** 32 - 1;
    const A = readMatrixMarket(`%%MatrixMarket matrix coordinate pattern general\n${max} ${max} 2\n${max} 1\n1 ${max}\n`);
    expect(A.rows).toBe(max);
    expect(Array.from(A.rowIdx)).toEqual([max - 1, 0]);
    expect(Array.from(A.colIdx)).toEqual([0, max - 1]);
  });

  it('the header getter', () => {
    const parser = new MatrixMarketParser();
    parser.push('%%MatrixMarket matrix coordinate integer symmetric\n% c\n3 3');
    expect(parser.header).toBeUndefined();
    parser.push(' 2\n');
    expect(parser.header).toEqual({ field: 'integer', symmetry: 'symmetric', rows: 3, cols: 3, nnz: 2 });
    parser.push('1 1 1\n3 1 2\n');
    expect(parser.finish().values.length).toBe(3);
    expect(() => parser.push('1 1 1\n')).toThrow(/closed/);
  });
});

// ——— layout: comments, blank lines, CRLF, tabs ———

const MESSY = [
  '%%MatrixMarket  matrix\tcoordinate   real symmetric   ',
  '% a comment right after the banner',
  '',
  '   ',
  '%another comment, no space',
  '\t% an indented comment',
  ' 4\t4   5 ',
  '',
  '% comment between the size line and the entries',
  '1 1 1.5',
  '\t2\t1\t-2.25\t',
  '   ',
  '% a comment between entries',
  '3 2 1e-3',
  '  4 4  +7',
  '%%',
  '4 1 -.5E+1',
  '% a trailing comment',
  '',
].join('\n');

const MESSY_EXPECTED = coo(4, 4, [
  [0, 0, 1.5],
  [1, 0, -2.25],
  [0, 1, -2.25],
  [2, 1, 1e-3],
  [1, 2, 1e-3],
  [3, 3, 7],
  [3, 0, -5],
  [0, 3, -5],
]);

describe('readMatrixMarket: layout', () => {
  it('comments and blank lines anywhere after the banner, tabs, runs of spaces', () => {
    expectCooEqual(readMatrixMarket(MESSY), MESSY_EXPECTED, 'LF');
  });

  it('CRLF line ends, with or without a final line end', () => {
    const crlf = MESSY.replaceAll('\n', '\r\n');
    expectCooEqual(readMatrixMarket(crlf), MESSY_EXPECTED, 'CRLF');
    expectCooEqual(readMatrixMarket(crlf.trimEnd()), MESSY_EXPECTED, 'CRLF, no final line end');
    expectCooEqual(readMatrixMarket(`${MESSY.trimEnd()}  `), MESSY_EXPECTED, 'LF, no final line end');
  });

  it('a byte-order mark before the banner', () => {
    expectCooEqual(readMatrixMarket(`\uFEFF${MESSY}`), MESSY_EXPECTED, 'BOM');
  });

  it('value spellings: nan, inf, infinity in any case, signs, exponents, −0, subnormals, the f32 range', () => {
    const texts = ['nan', 'NaN', '-nan', 'inf', '-Inf', '+INF', 'Infinity', '-infinity', '-0', '0.0', '+0', '1e-45', '1.4e-45'];
    texts.push(
      '3.4028234663852886e+38',
      '3.4028235e38',
      '3.40282356e38', // past the largest f32, but below the point where rounding gives Infinity
      '-3.40282356e38',
      '5.',
      '.5',
      '1.5E+2',
      '2e0',
      '0.000001',
      '123456789012345678901234567890',
    );
    const text = `%%MatrixMarket matrix coordinate real general\n1 ${texts.length} ${texts.length}\n${texts.map((t, k) => `1 ${k + 1} ${t}\n`).join('')}`;
    const A = readMatrixMarket(text);
    const f32 = new Float32Array(
      texts.map((t) => (/^[+-]?nan$/i.test(t) ? Number.NaN : /inf/i.test(t) ? Number(t.replace(/inf(inity)?/i, 'Infinity')) : Number(t))),
    );
    expect(bitsOf(A.values)).toEqual(bitsOf(f32));
    expect(Object.is(A.values[8], -0)).toBe(true);
    expect(A.values[11]).toBe(2 ** -149);
    expect(A.values[13]).toBe(2 ** 128 - 2 ** 104); // the largest f32
    expect(A.values[15]).toBe(2 ** 128 - 2 ** 104); // rounds down to it
    expect(A.values[16]).toBe(-(2 ** 128 - 2 ** 104));
  });

  it('values that round to a subnormal or to ±0 are kept (ordinary f32 rounding)', () => {
    const A = readMatrixMarket(`${'%%MatrixMarket matrix coordinate real general'}\n1 3 3\n1 1 1e-50\n1 2 -1e-50\n1 3 1e-40\n`);
    expect(Object.is(A.values[0], 0)).toBe(true);
    expect(Object.is(A.values[1], -0)).toBe(true);
    expect(A.values[2]).toBe(Math.fround(1e-40));
  });

  it('integer values: signs and long integers (rounded to f32)', () => {
    const A = readMatrixMarket('%%MatrixMarket matrix coordinate integer general\n1 3 3\n1 1 -42\n1 2 +7\n1 3 123456789012345678\n');
    expect(Array.from(A.values)).toEqual([-42, 7, Math.fround(Number('123456789012345678'))]);
  });

  it('values that must go through the slow path parse as Number does', () => {
    const rng = createRng(7);
    const texts: string[] = [];
    for (let k = 0; k < 2000; k++) {
      const mantissa = String(rng.u32() * 2 ** 21 + rng.u32());
      const point = rng.int(0, mantissa.length);
      const exponent = rng.int(-60, 60);
      texts.push(`${k % 2 ? '-' : ''}${mantissa.slice(0, point)}.${mantissa.slice(point)}e${exponent}`);
      texts.push((rng.u32() / 977).toPrecision(rng.int(1, 21)));
    }
    // Those past the f32 range are rejected (tested below); the rest must read as Number reads them.
    const fits = texts.filter((t) => Number.isFinite(Math.fround(Number(t))));
    expect(fits.length).toBeGreaterThan(texts.length / 2);
    const text = `%%MatrixMarket matrix coordinate real general\n1 1 ${fits.length}\n${fits.map((t) => `1 1 ${t}\n`).join('')}`;
    expect(bitsOf(readMatrixMarket(text).values)).toEqual(bitsOf(new Float32Array(fits.map(Number))));
    for (const t of texts.filter((t) => !fits.includes(t)).slice(0, 50)) {
      expect(() => readMatrixMarket(`%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 ${t}\n`)).toThrow(/past the f32 range/);
    }
  });
});

// ——— incremental parsing ———

describe('MatrixMarketParser: chunks', () => {
  const small = MESSY.replaceAll('\n', '\r\n');

  it('one character at a time', () => {
    expectCooEqual(
      parseInChunks(small, () => 1),
      MESSY_EXPECTED,
      'char by char',
    );
  });

  it('two chunks split at every position (inside numbers, inside CRLF)', () => {
    for (let split = 0; split <= small.length; split++) {
      const parser = new MatrixMarketParser();
      parser.push(small.slice(0, split));
      parser.push(small.slice(split));
      expectCooEqual(parser.finish(), MESSY_EXPECTED, `split at ${split}`);
    }
  });

  it('three chunks split at many positions, empty chunks included', () => {
    for (let a = 0; a <= small.length; a += 3) {
      for (let b = a; b <= small.length; b += 7) {
        const parser = new MatrixMarketParser();
        parser.push(small.slice(0, a));
        parser.push('');
        parser.push(small.slice(a, b));
        parser.push(small.slice(b));
        expectCooEqual(parser.finish(), MESSY_EXPECTED, `split at ${a}, ${b}`);
      }
    }
  });

  it('seeded random chunk sizes on a larger file', () => {
    const rng = createRng(2024);
    const n = 3000;
    const A: CooMatrix = {
      rows: 500,
      cols: 300,
      rowIdx: Uint32Array.from({ length: n }, () => rng.int(0, 499)),
      colIdx: Uint32Array.from({ length: n }, () => rng.int(0, 299)),
      values: new Float32Array(new Uint32Array(n).map(() => rng.u32()).buffer),
    };
    const text = writeMatrixMarket(A, { comment: 'random\nbits' }).replaceAll('\n', '\r\n');
    const whole = readMatrixMarket(text);
    for (let round = 0; round < 20; round++) {
      const max = [2, 16, 100, 5000][round % 4]!;
      expectCooEqual(
        parseInChunks(text, () => rng.int(1, max)),
        whole,
        `round ${round}`,
      );
    }
  });
});

// ——— writing ———

/** Seeded random f32 bits, with the special values placed at random positions. */
function randomValues(n: number, seed: number): Float32Array {
  const rng = createRng(seed);
  const bits = new Uint32Array(n).map(() => rng.u32());
  const values = new Float32Array(bits.buffer);
  // Random bits hold NaNs with payloads, which no decimal text keeps: make them the canonical NaN.
  for (let k = 0; k < n; k++) if (Number.isNaN(values[k])) values[k] = Number.NaN;
  const special = [-0, 0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** -149, -(2 ** -149), 2 ** -126 - 2 ** -149];
  special.push(2 ** 128 - 2 ** 104, -(2 ** 128 - 2 ** 104), 2 ** -126, Math.fround(0.1), Math.fround(1 / 3), 1, -1, 16777217, 0.5);
  for (const v of special) values[rng.int(0, n - 1)] = v;
  // Subnormals and small exponents, which take the reader's slow path.
  for (let k = 0; k < n / 16; k++) bits[rng.int(0, n - 1)] = (rng.u32() & 0x807fffff) | (rng.int(0, 3) << 23);
  return values;
}

describe('writeMatrixMarket', () => {
  it('the text of a small CSR matrix, with a multi-line comment', () => {
    const A: CsrMatrix = {
      rows: 3,
      cols: 4,
      rowPtr: new Uint32Array([0, 2, 2, 4]),
      colIdx: new Uint32Array([3, 0, 1, 1]),
      values: new Float32Array([0.5, -0, Number.NaN, Number.NEGATIVE_INFINITY]),
    };
    expect(writeMatrixMarket(A, { comment: 'first line\n\r\nthird line' })).toBe(
      [
        '%%MatrixMarket matrix coordinate real general',
        '% first line',
        '%',
        '% third line',
        '3 4 4',
        '1 4 0.5',
        '1 1 -0',
        '3 2 nan',
        '3 2 -inf',
        '',
      ].join('\n'),
    );
  });

  it('short text for f32 values (9 digits at most), the shortest when that is shorter', () => {
    const text = writeMatrixMarket(
      coo(
        1,
        4,
        [0.1, 1 / 3, 0.5, 2 ** 128 - 2 ** 104].map((v, k) => [0, k, v]),
      ),
    );
    expect(text.split('\n').slice(2, 6)).toEqual(['1 1 0.100000001', '1 2 0.333333343', '1 3 0.5', '1 4 3.40282347e+38']);
  });

  it('COO round trip, bit for bit, on seeded random bits and special values', () => {
    for (const seed of [1, 2, 3]) {
      const n = 20_000;
      const rng = createRng(seed * 77);
      const A: CooMatrix = {
        rows: 2 ** 32 - 1,
        cols: 1000,
        rowIdx: new Uint32Array(n).map(() => rng.u32() >>> 0),
        colIdx: new Uint32Array(n).map(() => rng.int(0, 999)),
        values: randomValues(n, seed),
      };
      A.rowIdx[0] = 2 ** 32 - 2;
      const B = readMatrixMarket(writeMatrixMarket(A));
      expectCooEqual(B, A, `seed ${seed}`);
    }
  });

  it('CSR round trip: entries in row order, empty rows, the input unchanged', () => {
    const rng = createRng(99);
    const rows = 300;
    const lengths = Array.from({ length: rows }, (_, r) => (r % 5 === 0 ? 0 : rng.int(0, 12)));
    const rowPtr = new Uint32Array(rows + 1);
    for (let r = 0; r < rows; r++) rowPtr[r + 1] = rowPtr[r]! + lengths[r]!;
    const nnz = rowPtr[rows]!;
    const A: CsrMatrix = { rows, cols: 50, rowPtr, colIdx: new Uint32Array(nnz).map(() => rng.int(0, 49)), values: randomValues(nnz, 5) };
    const copy = { rowPtr: A.rowPtr.slice(), colIdx: A.colIdx.slice(), values: A.values.slice() };
    const B = readMatrixMarket(writeMatrixMarket(A, { comment: 'csr' }));
    const rowIdx = new Uint32Array(nnz);
    for (let r = 0; r < rows; r++) rowIdx.fill(r, rowPtr[r]!, rowPtr[r + 1]!);
    expectCooEqual(B, { rows, cols: 50, rowIdx, colIdx: A.colIdx, values: A.values }, 'csr');
    expect(Array.from(A.rowPtr)).toEqual(Array.from(copy.rowPtr));
    expect(bitsOf(A.values)).toEqual(bitsOf(copy.values));
  });

  it('matrixMarketChunks joins to the same text, in several chunks for a larger matrix', () => {
    const n = 100_000;
    const A = coo(
      10,
      10,
      Array.from({ length: n }, (_, k) => [k % 10, (k * 7) % 10, k / 7]),
    );
    const chunks = [...matrixMarketChunks(A, { comment: 'c' })];
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.join('')).toBe(writeMatrixMarket(A, { comment: 'c' }));
  });

  it('an empty matrix', () => {
    const text = writeMatrixMarket({
      rows: 0,
      cols: 0,
      rowPtr: new Uint32Array([0]),
      colIdx: new Uint32Array(0),
      values: new Float32Array(0),
    });
    expect(text).toBe('%%MatrixMarket matrix coordinate real general\n0 0 0\n');
    expectCooEqual(readMatrixMarket(text), coo(0, 0, []), 'empty');
  });

  it('rejects malformed matrices, naming the field', () => {
    const csr = (rowPtr: number[], colIdx: number[], cols = 3): CsrMatrix => ({
      rows: rowPtr.length - 1,
      cols,
      rowPtr: new Uint32Array(rowPtr),
      colIdx: new Uint32Array(colIdx),
      values: new Float32Array(colIdx.length),
    });
    const cases: [unknown, RegExp][] = [
      [csr([0, 2, 1, 2], [0, 1]), /A\.rowPtr.*decreases at row 1/],
      [csr([1, 2], [0]), /A\.rowPtr.*must start at 0/],
      [csr([0, 1], [0, 1]), /A\.rowPtr.*must end at nnz = 2/],
      [csr([0, 1, 2], [0, 3]), /A\.colIdx.*entry 1 is 3, not below cols = 3/],
      [{ ...csr([0, 1], [0]), rowPtr: new Uint32Array(3) }, /A\.rowPtr.*must have 2 entries/],
      [{ ...coo(2, 2, [[2, 0, 1]]) }, /A\.rowIdx.*entry 0 is 2, not below rows = 2/],
      [{ ...coo(2, 2, [[0, 0, 1]]), rowIdx: new Uint32Array(2) }, /A\.rowIdx.*must have 1 entries/],
      [{ ...coo(2, 2, [[0, 0, 1]]), values: [1] }, /A\.values.*must be a Float32Array/],
      [{ ...coo(2, 2, []), rows: 1.5 }, /A\.rows.*must be an integer/],
      [{ ...coo(2, 2, []), cols: -1 }, /A\.cols.*must be an integer/],
      [null, /A = null/],
    ];
    for (const [A, pattern] of cases) {
      const error = errorOf(() => writeMatrixMarket(A as CooMatrix));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toMatch(pattern);
    }
  });
});

// ——— malformed input ———

const BANNER = '%%MatrixMarket matrix coordinate real general';

/** [what, text, code, line, message pattern]. */
const MALFORMED: [string, string, 'INVALID_ARGUMENT' | 'UNSUPPORTED' | 'TOO_LARGE', number, RegExp][] = [
  ['empty input', '', 'INVALID_ARGUMENT', 1, /empty/],
  ['no banner', '3 3 1\n1 1 1\n', 'INVALID_ARGUMENT', 1, /expected the banner.*found "3 3 1"/],
  [
    'blank first line',
    '\n%%MatrixMarket matrix coordinate real general\n1 1 0\n',
    'INVALID_ARGUMENT',
    1,
    /expected the banner.*found an empty line/,
  ],
  ['misspelt banner', '%%MatrixMarkt matrix coordinate real general\n1 1 0\n', 'INVALID_ARGUMENT', 1, /expected the banner/],
  ['incomplete banner', '%%MatrixMarket matrix coordinate real\n1 1 0\n', 'INVALID_ARGUMENT', 1, /incomplete banner/],
  ['extra token in the banner', `${BANNER} x\n1 1 0\n`, 'INVALID_ARGUMENT', 1, /extra token "x" after the banner/],
  ['unknown object', '%%MatrixMarket vector coordinate real general\n', 'INVALID_ARGUMENT', 1, /unknown object "vector"/],
  ['unknown format', '%%MatrixMarket matrix sparse real general\n', 'INVALID_ARGUMENT', 1, /unknown format "sparse"/],
  ['array format', '%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n', 'UNSUPPORTED', 1, /only the "coordinate" format is read/],
  ['complex field', '%%MatrixMarket matrix coordinate complex general\n', 'UNSUPPORTED', 1, /complex/],
  ['hermitian', '%%MatrixMarket matrix coordinate real hermitian\n', 'UNSUPPORTED', 1, /hermitian/],
  ['unknown field', '%%MatrixMarket matrix coordinate float general\n', 'INVALID_ARGUMENT', 1, /unknown field "float"/],
  ['unknown symmetry', '%%MatrixMarket matrix coordinate real upper\n', 'INVALID_ARGUMENT', 1, /unknown symmetry "upper"/],
  ['pattern skew', '%%MatrixMarket matrix coordinate pattern skew-symmetric\n2 2 0\n', 'INVALID_ARGUMENT', 1, /pattern .*skew-symmetric/],
  ['no size line', `${BANNER}\n% only comments\n\n`, 'INVALID_ARGUMENT', 3, /ends before the size line/],
  ['size line of 2 tokens', `${BANNER}\n% c\n3 3\n`, 'INVALID_ARGUMENT', 3, /size line.*found 2 tokens/],
  ['size line of 4 tokens', `${BANNER}\n3 3 1 1\n`, 'INVALID_ARGUMENT', 2, /size line.*found 4 tokens/],
  ['negative size', `${BANNER}\n\n-3 3 1\n`, 'INVALID_ARGUMENT', 3, /row count "-3" is negative/],
  ['negative nnz', `${BANNER}\n3 3 -1\n`, 'INVALID_ARGUMENT', 2, /entry count "-1" is negative/],
  ['fractional size', `${BANNER}\n3 2.5 1\n`, 'INVALID_ARGUMENT', 2, /column count "2.5" is not a non-negative integer/],
  ['exponent size', `${BANNER}\n1e3 3 1\n`, 'INVALID_ARGUMENT', 2, /row count "1e3" is not a non-negative integer/],
  ['non-numeric size', `${BANNER}\n3 3 many\n`, 'INVALID_ARGUMENT', 2, /entry count "many" is not a non-negative integer/],
  ['rows past u32', `${BANNER}\n4294967296 3 0\n`, 'TOO_LARGE', 2, /row count 4294967296 is past 4294967295/],
  ['cols past u32', `${BANNER}\n3 99999999999 0\n`, 'TOO_LARGE', 2, /column count/],
  ['nnz past 2^31', `${BANNER}\n3 3 2147483649\n`, 'TOO_LARGE', 2, /entry count 2147483649 is past 2147483648/],
  [
    'symmetric not square',
    '%%MatrixMarket matrix coordinate real symmetric\n3 4 0\n',
    'INVALID_ARGUMENT',
    2,
    /must be square, found 3 × 4/,
  ],
  ['too few entries', `${BANNER}\n2 2 3\n1 1 1\n2 2 1\n`, 'INVALID_ARGUMENT', 4, /ends after 2 of the 3 entries declared on line 2/],
  ['too few, comments after', `${BANNER}\n2 2 3\n1 1 1\n% c\n\n`, 'INVALID_ARGUMENT', 5, /ends after 1 of the 3 entries/],
  ['too many entries', `${BANNER}\n2 2 1\n1 1 1\n% c\n2 2 1\n`, 'INVALID_ARGUMENT', 5, /more entries than the 1 declared on line 2/],
  ['row index 0', `${BANNER}\n% c\n2 2 2\n1 1 1\n0 1 1\n`, 'INVALID_ARGUMENT', 5, /row index "0" is out of range: expected 1\.\.2/],
  ['row index past rows', `${BANNER}\n2 2 1\n3 1 1\n`, 'INVALID_ARGUMENT', 3, /row index "3" is out of range/],
  ['column index 0', `${BANNER}\n2 2 1\n1 0 1\n`, 'INVALID_ARGUMENT', 3, /column index "0" is out of range/],
  ['column index past cols', `${BANNER}\n2 5 1\n1 6 1\n`, 'INVALID_ARGUMENT', 3, /column index "6" is out of range: expected 1\.\.5/],
  ['huge index', `${BANNER}\n2 2 1\n1 99999999999999999999999 1\n`, 'INVALID_ARGUMENT', 3, /column index "9+" is out of range/],
  ['index in a 0-row matrix', `${BANNER}\n0 0 1\n1 1 1\n`, 'INVALID_ARGUMENT', 3, /there are no rows/],
  ['fractional index', `${BANNER}\n2 2 1\n1.5 1 1\n`, 'INVALID_ARGUMENT', 3, /row index "1.5" is not a positive integer/],
  ['negative index', `${BANNER}\n2 2 1\n1 -1 1\n`, 'INVALID_ARGUMENT', 3, /column index "-1" is not a positive integer/],
  ['non-numeric index', `${BANNER}\n2 2 1\nx 1 1\n`, 'INVALID_ARGUMENT', 3, /row index "x" is not a positive integer/],
  ['index with trailing garbage', `${BANNER}\n2 2 1\n1 2x 1\n`, 'INVALID_ARGUMENT', 3, /column index "2x"/],
  ['non-numeric value', `${BANNER}\n2 2 1\n1 1 abc\n`, 'INVALID_ARGUMENT', 3, /value "abc" of entry \(1, 1\) is not a number/],
  ['hex value', `${BANNER}\n2 2 1\n1 1 0x10\n`, 'INVALID_ARGUMENT', 3, /value "0x10"/],
  ['exponent without digits', `${BANNER}\n2 2 1\n1 1 1e\n`, 'INVALID_ARGUMENT', 3, /value "1e"/],
  ['two points', `${BANNER}\n2 2 1\n1 1 1.2.3\n`, 'INVALID_ARGUMENT', 3, /value "1.2.3"/],
  ['two signs', `${BANNER}\n2 2 1\n1 1 --1\n`, 'INVALID_ARGUMENT', 3, /value "--1"/],
  ['a lone point', `${BANNER}\n2 2 1\n1 1 .\n`, 'INVALID_ARGUMENT', 3, /value "\."/],
  ['nan with garbage', `${BANNER}\n2 2 1\n1 1 nanx\n`, 'INVALID_ARGUMENT', 3, /value "nanx"/],
  [
    'fraction in an integer file',
    '%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n',
    'INVALID_ARGUMENT',
    3,
    /"1.5" .* is not an integer/,
  ],
  ['nan in an integer file', '%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 nan\n', 'INVALID_ARGUMENT', 3, /not an integer/],
  ['missing value', `${BANNER}\n2 2 2\n1 1 1\n2 2\n`, 'INVALID_ARGUMENT', 4, /missing the value of entry \(2, 2\)/],
  ['missing value at the end', `${BANNER}\n2 2 1\n2 2   `, 'INVALID_ARGUMENT', 3, /missing the value/],
  ['missing column', `${BANNER}\n2 2 1\n2\n`, 'INVALID_ARGUMENT', 3, /missing the column index/],
  ['extra token', `${BANNER}\n2 2 1\n1 1 1 1\n`, 'INVALID_ARGUMENT', 3, /extra token "1" after entry \(1, 1\)/],
  ['extra token, pattern', '%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n', 'INVALID_ARGUMENT', 3, /extra token "1"/],
  ['comment at the end of an entry', `${BANNER}\n2 2 1\n1 1 1 % no\n`, 'INVALID_ARGUMENT', 3, /extra token "%"/],
  [
    'skew diagonal',
    '%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1\n2 2 1\n',
    'INVALID_ARGUMENT',
    4,
    /diagonal entry \(2, 2\) in a skew-symmetric/,
  ],
  [
    'skew diagonal in an integer file',
    '%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 1\n3 3 5\n',
    'INVALID_ARGUMENT',
    3,
    /diagonal entry \(3, 3\) in a skew-symmetric/,
  ],
  // The format stores only the lower triangle of a symmetric or skew-symmetric matrix.
  [
    'symmetric: an entry above the diagonal',
    '%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n1 1 4\n1 2 -1\n',
    'INVALID_ARGUMENT',
    4,
    /entry \(1, 2\) is above the diagonal: a symmetric file holds only the lower triangle \(row ≥ column\); write it as \(2, 1\)$/,
  ],
  [
    'symmetric: both (2, 1) and (1, 2), which would be summed twice',
    '%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 3\n% the same entry again, from above\n1 2 3\n',
    'INVALID_ARGUMENT',
    5,
    /entry \(1, 2\) is above the diagonal/,
  ],
  [
    'pattern symmetric: an entry above the diagonal',
    '%%MatrixMarket matrix coordinate pattern symmetric\n4 4 2\n4 1\n2 3\n',
    'INVALID_ARGUMENT',
    4,
    /entry \(2, 3\) is above the diagonal: a symmetric file/,
  ],
  [
    'integer symmetric: an entry above the diagonal',
    '%%MatrixMarket matrix coordinate integer symmetric\n4 4 1\n1 4 7\n',
    'INVALID_ARGUMENT',
    3,
    /entry \(1, 4\) is above the diagonal/,
  ],
  [
    'skew-symmetric: an entry above the diagonal',
    '%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n3 1 2\n2 3 1\n',
    'INVALID_ARGUMENT',
    4,
    /entry \(2, 3\) is above the diagonal: a skew-symmetric file holds only the lower triangle \(row ≥ column\); write it as \(3, 2\) with the value negated$/,
  ],
  // A finite value that f32 cannot hold would silently become ±Infinity.
  [
    'real past the f32 range',
    `${BANNER}\n2 2 2\n1 1 1\n2 1 1e40\n`,
    'INVALID_ARGUMENT',
    4,
    /value "1e40" of entry \(2, 1\) is past the f32 range.*Infinity$/,
  ],
  [
    'negative real past the f32 range',
    `${BANNER}\n2 2 1\n1 2 -1e39\n`,
    'INVALID_ARGUMENT',
    3,
    /value "-1e39" of entry \(1, 2\).*-Infinity$/,
  ],
  ['just past the rounding point', `${BANNER}\n2 2 1\n1 1 3.4028236e38\n`, 'INVALID_ARGUMENT', 3, /value "3.4028236e38"/],
  ['long decimal past the range', `${BANNER}\n1 1 1\n1 1 ${'9'.repeat(40)}\n`, 'INVALID_ARGUMENT', 3, /past the f32 range/],
  [
    'integer past the f32 range',
    `%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 -1${'0'.repeat(39)}\n`,
    'INVALID_ARGUMENT',
    3,
    /value "-10+…" of entry \(1, 1\) is past the f32 range/,
  ],
  [
    'symmetric real past the f32 range',
    '%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n2 1 5e38\n',
    'INVALID_ARGUMENT',
    3,
    /value "5e38" of entry \(2, 1\)/,
  ],
  ['error late in CRLF text', `${BANNER}\r\n2 2 3\r\n1 1 1\r\n\r\n2 2 1\r\n1 2 x\r\n`, 'INVALID_ARGUMENT', 6, /value "x"/],
];

describe('readMatrixMarket: malformed input', () => {
  for (const [what, text, code, line, pattern] of MALFORMED) {
    it(`${what}: ${code} at line ${line}`, () => {
      const error = errorOf(() => readMatrixMarket(text));
      expect(error.code).toBe(code);
      expect(error.argument).toBe('text');
      expect(error.message).toMatch(new RegExp(`^Matrix Market text, line ${line}: `));
      expect(error.message).toMatch(pattern);
      // The incremental parser reports the same, however the text is cut.
      for (const size of [1, 2, 5]) {
        const chunked = errorOf(() => parseInChunks(text, () => size));
        expect(chunked.message, `chunks of ${size}`).toBe(error.message);
        expect(chunked.code).toBe(code);
      }
    });
  }

  it('toThrow with the line, as a caller would write it', () => {
    expect(() => readMatrixMarket(`${BANNER}\n% 2\n% 3\n% 4\n% 5\n2 2 2\n1 1 1\n1 0 1\n`)).toThrow(/line 8:/);
    expect(() => readMatrixMarket(`${BANNER}\n% 2\n% 3\n% 4\n% 5\n2 2 2\n1 1 1\n1 0 1\n`)).toThrow(ScanError);
  });

  it('the parser is closed after an error, and after finish', () => {
    const parser = new MatrixMarketParser({ source: 'my.mtx', argument: 'path' });
    const error = errorOf(() => parser.push(`${BANNER}\n2 2 1\n1 9 1\n`));
    expect(error.message).toMatch(/^my\.mtx, line 3: column index "9"/);
    expect(error.argument).toBe('path');
    expect(errorOf(() => parser.push('1 1 1\n')).message).toMatch(/closed/);
    expect(errorOf(() => parser.finish()).message).toMatch(/closed/);
  });
});

describe('readMatrixMarket: argument type', () => {
  it('a non-string text', () => {
    const error = errorOf(() => readMatrixMarket(new Uint8Array(4) as unknown as string));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.argument).toBe('text');
    expect(error.message).toMatch(/expected a string, found object/);
  });
});
