import { invalidArgument } from '@scan/core/kit';
import type { CsrMatrix } from '../types.js';
import { checkDimension, checkInteger, checkNnz, checkNumber, checkSeed, generatorOptions } from './args.js';
import { createRng, type Rng, sortRange } from './random.js';

/** Options of {@link powerLawMatrix}. */
export interface PowerLawMatrixOptions {
  /** Rows (a positive integer). */
  rows: number;
  /** Columns (default `rows`). */
  cols?: number;
  /** Edges drawn per row (default 16): `rows·nnzPerRow` are drawn, fewer remain after merging duplicates. */
  nnzPerRow?: number;
  /** Seed (a u32, default 1). */
  seed?: number;
  /** Probability of the top-left quadrant (default 0.57). */
  a?: number;
  /** Probability of the top-right quadrant (default 0.19). */
  b?: number;
  /** Probability of the bottom-left quadrant (default 0.19); the bottom-right gets d = 1 − a − b − c. */
  c?: number;
}

const OPTION_KEYS = ['rows', 'cols', 'nnzPerRow', 'seed', 'a', 'b', 'c'];

/** Levels drawn with one 32-bit word: 4^4 = 256 outcomes, 8 bits of index and 24 of threshold. */
const LEVELS_PER_DRAW = 4;

/** Draws of one edge before the probabilities are declared to leave (almost) nothing inside rows×cols. */
const MAX_REDRAWS = 1 << 20;

/**
 * A power-law (scale-free) matrix by R-MAT (Chakrabarti, Zhan & Faloutsos, SDM 2004): each of the
 * `rows·nnzPerRow` edges descends ⌈log2⌉ levels of the matrix padded to powers of two, choosing at
 * each level the top-left, top-right, bottom-left or bottom-right quadrant with probabilities a, b,
 * c and d = 1 − a − b − c; an edge outside rows×cols is redrawn. Duplicate edges are merged, their
 * values summed, so every row holds sorted, unique columns and nnz ≤ rows·nnzPerRow. With the default
 * (0.57, 0.19, 0.19, 0.05) — Graph500's parameters — row lengths follow a power law: low-numbered
 * rows are the long ones (row 0 is the longest in expectation) and many rows are empty, the
 * load-imbalance case of SpMV.
 *
 * Rectangular matrices pad rows and columns separately: where one dimension has no bits left, the
 * level only splits the other, with the probabilities conditioned on the missing bit being 0 — the
 * same distribution as padding to a square and rejecting, without the rejections. Values: each
 * drawn edge gets a uniform f32 in [−1, 1) (never 0); a merged entry holds the f32 sum of its edges'
 * values.
 *
 * Speed: four levels per 32-bit draw through alias tables, edges counted per row and then drawn
 * row by row (no stored edge list, no scatter); 2^20 rows × 16 (16.8M edges) took 3–4 s on a
 * 2-core VM.
 *
 * @throws ScanError `INVALID_ARGUMENT` for a bad size, seed or probability (each in [0, 1], a + b + c
 *   ≤ 1), or probabilities that put no edge inside rows×cols; `TOO_LARGE` when rows·nnzPerRow passes
 *   2^31 − 1.
 *
 * @example
 * ```ts
 * const A = powerLawMatrix({ rows: 1 << 16, seed: 3 }); // ~1M edges, a few very long rows
 * const B = powerLawMatrix({ rows: 1000, cols: 500, nnzPerRow: 8, seed: 1, a: 0.45, b: 0.15, c: 0.15 });
 * ```
 */
export function powerLawMatrix(options: PowerLawMatrixOptions): CsrMatrix {
  const o = generatorOptions(options, OPTION_KEYS);
  const rows = checkDimension(o['rows'], 'options.rows', 1, 'rows');
  const cols = checkDimension(o['cols'], 'options.cols', 1, 'cols', rows);
  const nnzPerRow = checkInteger(o['nnzPerRow'], 'options.nnzPerRow', 1, 16);
  const seed = checkSeed(o['seed']);
  const a = checkNumber(o['a'], 'options.a', 0, 1, 0.57);
  const b = checkNumber(o['b'], 'options.b', 0, 1, 0.19);
  const c = checkNumber(o['c'], 'options.c', 0, 1, 0.19);
  // A little slack, so that 0.57 + 0.19 + 0.24 (1.0000000000000002 in doubles) is accepted.
  if (a + b + c > 1 + 1e-9) invalidArgument('options.c', c, `a + b + c = ${a + b + c} exceeds 1 (a = ${a}, b = ${b})`);
  const d = Math.max(0, 1 - a - b - c);
  const edges = rows * nnzPerRow;
  checkNnz(edges, 'options.nnzPerRow', 'rows·nnzPerRow');

  const rowLevels = levelsOf(rows);
  const colLevels = levelsOf(cols);
  const levels = Math.max(rowLevels, colLevels);
  const perLevel: number[][] = [];
  for (let level = 0; level < levels; level++) {
    const bit = levels - 1 - level; // from the most significant bit down
    const rowActive = bit < rowLevels;
    const colActive = bit < colLevels;
    if (rowActive && colActive) perLevel.push([a, b, c, d]);
    else if (rowActive) perLevel.push(conditioned([a, 0, c, 0], a, `a + c = 0 puts every edge past column ${cols - 1}`));
    else perLevel.push(conditioned([a, b, 0, 0], a, `a + b = 0 puts every edge past row ${rows - 1}`));
  }
  const tables = aliasTables(perLevel);
  const columnTables = conditionalColumnTables(perLevel);

  // Edges are i.i.d., so the joint draw factors into "how many accepted edges each row gets" and
  // "the column of an edge given its row". The first pass draws whole edges (with rejection) and
  // keeps only the row counts — the exact row distribution of accepted edges; the second walks the
  // rows in order and draws each edge's column given the row's bits (redrawing columns past `cols`),
  // writing it in place. The result has the distribution of drawing, rejecting and sorting the edges,
  // without storing them or scattering them by row (random writes over rows·nnzPerRow words cost
  // more than all the draws).
  const giveUp = (): never =>
    invalidArgument('options', options, `a = ${a}, b = ${b}, c = ${c} put (almost) no edge inside ${rows}×${cols}`);
  const rng = createRng(seed);
  const rowPtr = countEdgesPerRow(tables, rng, rows, cols, edges, giveUp);
  const sorted = new Uint32Array(edges);
  drawColumns(columnTables, rng, rows, cols, rowPtr, sorted, giveUp);
  return mergeRows(rows, cols, rowPtr, sorted, rng);
}

/**
 * Draws `edges` R-MAT edges inside rows×cols and returns the prefix sums of their row counts
 * (`rowPtr`). `giveUp` runs when an edge needs more than {@link MAX_REDRAWS} draws.
 */
function countEdgesPerRow(t: AliasTables, rng: Rng, rows: number, cols: number, edges: number, giveUp: () => never): Uint32Array {
  const { count, shift, threshold, primary, alias } = t;
  const rowPtr = new Uint32Array(rows + 1);
  for (let e = 0; e < edges; e++) {
    for (let attempt = 0; ; attempt++) {
      if (attempt === MAX_REDRAWS) giveUp();
      let row = 0;
      let col = 0;
      for (let j = 0; j < count; j++) {
        const r = rng.u32();
        const slot = (j << 8) | (r & 0xff);
        const bits = r >>> 8 < threshold[slot]! ? primary[slot]! : alias[slot]!;
        const g = shift[j]!;
        // At most 31 row bits and 32 column bits in all: the shifts lose nothing, and `>>> 0` reads
        // a 32-bit column as unsigned.
        row = (row << g) | (bits & 0xf);
        col = (col << g) | (bits >>> 4);
      }
      if (row < rows && col >>> 0 < cols) {
        rowPtr[row + 1]!++;
        break;
      }
    }
  }
  for (let r = 0; r < rows; r++) rowPtr[r + 1] = rowPtr[r + 1]! + rowPtr[r]!;
  return rowPtr;
}

/**
 * Fills each row's slots `out[rowPtr[r] … rowPtr[r + 1])` with columns drawn given the row's bits,
 * redrawing those past `cols`, and sorts them.
 */
function drawColumns(
  t: ColumnTables,
  rng: Rng,
  rows: number,
  cols: number,
  rowPtr: Uint32Array,
  out: Uint32Array,
  giveUp: () => never,
): void {
  const { count, shift, rowShift, threshold, primary, alias } = t;
  const groupRow = new Int32Array(count);
  for (let row = 0; row < rows; row++) {
    // Table of each group for this row: (group, the row's bits in the group's levels).
    for (let j = 0; j < count; j++) groupRow[j] = ((j << 4) | ((row >>> rowShift[j]!) & ((1 << shift[j]!) - 1))) << 4;
    const end = rowPtr[row + 1]!;
    for (let k = rowPtr[row]!; k < end; k++) {
      for (let attempt = 0; ; attempt++) {
        if (attempt === MAX_REDRAWS) giveUp();
        let col = 0;
        for (let j = 0; j < count; j++) {
          const r = rng.u32();
          const slot = groupRow[j]! | (r & 0xf);
          col = (col << shift[j]!) | (r >>> 8 < threshold[slot]! ? primary[slot]! : alias[slot]!);
        }
        col >>>= 0;
        if (col < cols) {
          out[k] = col;
          break;
        }
      }
    }
    sortRange(out, rowPtr[row]!, end); // while the row is in cache
  }
}

/** Levels of recursion for a dimension of n: ⌈log2 n⌉ (0 for n = 1). */
function levelsOf(n: number): number {
  let l = 0;
  while (2 ** l < n) l++;
  return l;
}

/** A level's quadrant probabilities renormalized; `why` explains a total of 0 (no edge could land). */
function conditioned(p: number[], a: number, why: string): number[] {
  const total = p.reduce((s, v) => s + v, 0);
  if (!(total > 0)) invalidArgument('options.a', a, why);
  return p.map((v) => v / total);
}

/**
 * Walker's alias tables (Vose's construction), one per group of up to four consecutive levels: a
 * draw picks one of the group's 4^g outcomes by a slot from the low 8 bits of a word, keeping the
 * slot's own outcome when the high 24 bits fall below its threshold and taking its alias otherwise —
 * O(1) per draw whatever the distribution. Flat typed arrays (256 slots per group) keep the hot loop
 * free of object loads. An outcome is packed as rowBits | colBits << 4.
 */
interface AliasTables {
  /** Groups (⌈levels / 4⌉). */
  count: number;
  /** Levels of each group. */
  shift: Int32Array;
  /** Threshold of each slot in [0, 2^24]. */
  threshold: Int32Array;
  primary: Int32Array;
  alias: Int32Array;
}

function aliasTables(perLevel: number[][]): AliasTables {
  const count = Math.ceil(perLevel.length / LEVELS_PER_DRAW);
  const shift = new Int32Array(count);
  const threshold = new Int32Array(count * 256);
  const primary = new Int32Array(count * 256);
  const alias = new Int32Array(count * 256);
  for (let j = 0; j < count; j++) {
    const levels = perLevel.slice(j * LEVELS_PER_DRAW, (j + 1) * LEVELS_PER_DRAW);
    shift[j] = levels.length;
    const table = aliasTable(levels);
    // A group of fewer than four levels has fewer than 256 slots: repeat them, so the low 8 bits
    // still index uniformly.
    for (let i = 0; i < 256; i++) {
      const t = i % table.threshold.length;
      threshold[j * 256 + i] = table.threshold[t]!;
      primary[j * 256 + i] = table.outcome[t]!;
      alias[j * 256 + i] = table.outcome[table.alias[t]!]!;
    }
  }
  return { count, shift, threshold, primary, alias };
}

/** The alias table of the 4^g outcomes of g levels: thresholds, aliases and packed outcomes. */
function aliasTable(levels: number[][]): { threshold: Int32Array; alias: Int32Array; outcome: Int32Array } {
  const g = levels.length;
  const size = 4 ** g;
  const prob = new Float64Array(size);
  const outcome = new Int32Array(size);
  for (let t = 0; t < size; t++) {
    let p = 1;
    let rb = 0;
    let cb = 0;
    for (let l = 0; l < g; l++) {
      const quadrant = Math.floor(t / 4 ** (g - 1 - l)) % 4; // base-4 digit of level l, first level most significant
      p *= levels[l]![quadrant]!;
      rb = rb * 2 + (quadrant >> 1);
      cb = cb * 2 + (quadrant & 1);
    }
    prob[t] = p;
    outcome[t] = rb | (cb << 4);
  }
  return { ...vose(prob), outcome };
}

/**
 * Vose's construction of an alias table over `prob` (summing to 1): slot t keeps outcome t when the
 * 24-bit threshold test passes, else takes `alias[t]`.
 */
function vose(prob: Float64Array): { threshold: Int32Array; alias: Int32Array } {
  const size = prob.length;
  const scaled = prob.map((p) => p * size);
  const threshold = new Int32Array(size);
  const alias = new Int32Array(size);
  const small: number[] = [];
  const large: number[] = [];
  for (let t = 0; t < size; t++) (scaled[t]! < 1 ? small : large).push(t);
  while (small.length > 0 && large.length > 0) {
    const s = small.pop()!;
    const l = large[large.length - 1]!;
    threshold[s] = Math.min(2 ** 24, Math.round(scaled[s]! * 2 ** 24));
    alias[s] = l;
    scaled[l] = scaled[l]! + scaled[s]! - 1;
    if (scaled[l]! < 1) small.push(large.pop()!);
  }
  // What is left is 1 up to rounding; an outcome of probability 0 left over keeps threshold 0 and
  // points at the likeliest outcome, so it can never be drawn.
  let likeliest = 0;
  for (let t = 1; t < size; t++) if (prob[t]! > prob[likeliest]!) likeliest = t;
  for (const t of [...small, ...large]) {
    threshold[t] = prob[t]! > 0 ? 2 ** 24 : 0;
    alias[t] = prob[t]! > 0 ? t : likeliest;
  }
  return { threshold, alias };
}

/**
 * Alias tables of the column bits given the row bits, one per (group of up to four levels, row
 * bits of those levels), 16 slots each (indexed by the low 4 bits of a word, threshold in the high
 * 24): at a level, P(column bit | row bit) = p[2·rowBit + colBit] / (p[2·rowBit] + p[2·rowBit + 1]).
 */
interface ColumnTables {
  count: number;
  /** Levels of each group. */
  shift: Int32Array;
  /** Where a group's row bits sit in the row index: row >>> rowShift[j], masked to shift[j] bits. */
  rowShift: Int32Array;
  threshold: Int32Array;
  primary: Int32Array;
  alias: Int32Array;
}

function conditionalColumnTables(perLevel: number[][]): ColumnTables {
  const levels = perLevel.length;
  const count = Math.ceil(levels / LEVELS_PER_DRAW);
  const shift = new Int32Array(count);
  const rowShift = new Int32Array(count);
  const threshold = new Int32Array(count * 256);
  const primary = new Int32Array(count * 256);
  const alias = new Int32Array(count * 256);
  for (let j = 0; j < count; j++) {
    const group = perLevel.slice(j * LEVELS_PER_DRAW, (j + 1) * LEVELS_PER_DRAW);
    const g = group.length;
    shift[j] = g;
    rowShift[j] = levels - j * LEVELS_PER_DRAW - g;
    for (let rowBits = 0; rowBits < 1 << g; rowBits++) {
      // P(column bits c | row bits) over the g levels, c's first level most significant. A row bit
      // of probability 0 at a level never occurs: any distribution will do there.
      const prob = new Float64Array(1 << g);
      for (let c = 0; c < 1 << g; c++) {
        let q = 1;
        for (let l = 0; l < g; l++) {
          const p = group[l]!;
          const rb = (rowBits >> (g - 1 - l)) & 1;
          const cb = (c >> (g - 1 - l)) & 1;
          const total = p[2 * rb]! + p[2 * rb + 1]!;
          q *= total > 0 ? p[2 * rb + cb]! / total : cb === 0 ? 1 : 0;
        }
        prob[c] = q;
      }
      const table = vose(prob);
      const base = ((j << 4) | rowBits) << 4;
      for (let i = 0; i < 16; i++) {
        // 2^g slots repeated over 16 (g ≤ 4), so the low 4 bits of a word still pick uniformly.
        const t = i % prob.length;
        threshold[base + i] = table.threshold[t]!;
        primary[base + i] = t;
        alias[base + i] = table.alias[t]!;
      }
    }
  }
  return { count, shift, rowShift, threshold, primary, alias };
}

/**
 * Merges the duplicates of each (sorted) row into the final arrays, sized exactly by a first pass
 * that counts the distinct columns (so no array of rows·nnzPerRow is allocated twice).
 * Values are drawn only now, in storage order, one per edge (a merged entry sums one per duplicate):
 * the same distribution as drawing them with the edges, without carrying them through the sort.
 */
function mergeRows(rows: number, cols: number, rowPtr: Uint32Array, sorted: Uint32Array, rng: Rng): CsrMatrix {
  let nnz = 0;
  for (let r = 0; r < rows; r++) {
    const start = rowPtr[r]!;
    const end = rowPtr[r + 1]!;
    for (let k = start; k < end; k++) if (k === start || sorted[k] !== sorted[k - 1]) nnz++;
  }
  const colIdx = nnz === sorted.length ? sorted : new Uint32Array(nnz);
  const values = new Float32Array(nnz);
  let w = 0;
  let start = 0;
  for (let r = 0; r < rows; r++) {
    const end = rowPtr[r + 1]!;
    for (let k = start; k < end; ) {
      const col = sorted[k]!;
      let v = rng.value();
      for (k++; k < end && sorted[k] === col; k++) v = Math.fround(v + rng.value());
      colIdx[w] = col; // w ≤ k when colIdx is sorted itself: nothing unread is overwritten
      values[w] = v;
      w++;
    }
    rowPtr[r + 1] = w;
    start = end;
  }
  return { rows, cols, rowPtr, colIdx, values };
}
