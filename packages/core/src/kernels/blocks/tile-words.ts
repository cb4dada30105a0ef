import { type BindingDecl, read, readWrite } from '../define-kernel.js';
import { unroll } from '../unroll.js';
import type { ValueWords } from '../value-words.js';
import type { TileArrangement } from './arrangement.js';

// The words source of the tile block (tile-io.ts): records of whole 32-bit words, each
// invocation's run read and written as vec4s of words.

/**
 * Items are records of whole 32-bit words (any scalar, vector or struct of u32, i32 and f32), each
 * invocation's K records read and written a vec4 of words at a time: CUB's vectorized blocked load,
 * which keeps every record of a run in the invocation (so an operator that does not commute meets
 * them in order, and a block scan or reduce needs one subgroup step per tile, not one per item)
 * while a subgroup's loads still cover whole neighbouring sectors. Blocked arrangement only, with
 * `K × words` a multiple of 4, so every run is whole vec4s and no two invocations share one.
 *
 * A binding of n records holds `floor(n·words / 4)` whole vec4s; the 1–3 words after them cannot
 * be bound as a vec4. Loads read the run that holds the end word by word through `NAME_words`, an
 * `array<u32>` view of the same buffer (two read-only views may alias); stores write it word by
 * word into the vec4s, and its words past the last whole vec4 into `NAME_tail` (`array<u32>`, 3
 * words), which the plan copies after the words that lie whole (Dawn forbids two writable views of
 * one buffer in a dispatch). {@link wordsTail} says where.
 */
export interface TileWords {
  readonly kind: 'words';
  /** The record's words: `valueWords(type, fields)`. */
  readonly words: ValueWords;
  /** The binding loaded from (with `NAME_words`; both read). */
  readonly load?: string;
  /** The binding stored to (with `NAME_tail`; both read_write). */
  readonly store?: string;
  /** The number of records, a WGSL u32 expression (default `params.count`). */
  readonly count?: string;
}

/** What of a tile block's spec (`TileIoSpec`) a words source reads. */
export interface WordsTileShape {
  readonly name: string;
  /** The record's WGSL type. */
  readonly type: string;
  readonly itemsPerThread: number;
  readonly arrangement: TileArrangement;
  readonly backward?: boolean;
  readonly fill: string;
}

/**
 * The WGSL of a words source (see {@link TileWords}), for `tileIo`: `NAME_valid`, `NAME_load_item`, `NAME_load`,
 * `NAME_store` over the two views of each binding. Backward, logical record i is physical record
 * `padded − 1 − i`, where `padded` is the count rounded up to whole runs of K: every run then starts
 * on a vec4 of words, and the padding (physical records at or past the count, read as the fill and
 * never stored) comes first in the scan's order, in the run that also holds the array's last record.
 *
 * @example
 * ```ts
 * const shape: WordsTileShape = { name: 'tile', type: 'u32', itemsPerThread: 8, arrangement: 'blocked', fill: '0u' };
 * const { decls, bindings } = wordsSource(shape, { kind: 'words', words: valueWords('u32'), load: 'src' }); // src, src_words
 * ```
 */
export function wordsSource(spec: WordsTileShape, source: TileWords): { decls: string; bindings: Record<string, BindingDecl> } {
  const { name: n, itemsPerThread: K, type: T } = spec;
  const R = source.words.words;
  if (R === undefined) throw new Error(`internal error: tile "${n}": ${T} is not made of whole 32-bit words`);
  if (spec.arrangement !== 'blocked' || (K * R) % 4 !== 0) {
    throw new Error(`internal error: tile "${n}": a words source needs blocked runs of whole vec4s (K ${K}, ${R} words)`);
  }
  const Q = (K * R) / 4;
  const count = source.count ?? 'params.count';
  const backward = spec.backward === true;
  // Logical record i as a physical record (past the end: at or beyond the count, u32 wrap included).
  const physical = (i: string) => (backward ? `${n}_padded() - 1u - ${i}` : i);
  // Physical record j of a run (its first record `start`) holds logical item k.
  const recordOf = (k: number) => (backward ? K - 1 - k : k);
  // Word m of physical record j of the run, as a component of the run's vec4s.
  const word = (j: number, m: number) => `w${Math.floor((j * R + m) / 4)}.${'xyzw'[(j * R + m) % 4]}`;
  const bindings: Record<string, BindingDecl> = {};
  let decls = `
const ${n}_R: u32 = ${R}u;   // 32-bit words per record
${
  backward
    ? `
// The count rounded up to whole runs of ${K}: logical record i is physical record padded − 1 − i.
fn ${n}_padded() -> u32 { return (${count} + ${K - 1}u) / ${K}u * ${K}u; }
`
    : ''
}
// The physical record of logical record i (at or past the count: past the end, or padding).
fn ${n}_physical(i: u32) -> u32 { return ${physical('i')}; }

// The logical records of tile t before the end of the data${backward ? ' (the padding counted: it comes first)' : ''}.
fn ${n}_valid(t: u32) -> u32 {
  let count = ${backward ? `${n}_padded()` : count};
  return select(0u, min(count - t * ${n}_TILE, ${n}_TILE), count > t * ${n}_TILE);
}

// Where invocation (group, lane)'s run of tile t starts, as a physical record, and whether the
// whole run lies before the end (then it moves as ${Q} vec4s of words).
fn ${n}_run_start(tile: u32, group: u32, lane: u32, gsize: u32) -> u32 {
  let first = tile * ${n}_TILE + (group * gsize + lane) * ${K}u;
  return ${backward ? `${n}_padded() - first - ${K}u` : 'first'};
}
fn ${n}_run_whole(start: u32) -> bool {
  return ${backward ? `start < ${n}_padded() && start + ${K}u <= ${count}` : `start + ${K}u <= ${count}`};
}
`;
  if (source.load) {
    const src = source.load;
    bindings[src] = read('array<vec4<u32>>');
    bindings[`${src}_words`] = read('array<u32>');
    const fromWordsAt = (p: string) => source.words.fromWords(Array.from({ length: R }, (_, m) => `${src}_words[${p} * ${R}u + ${m}u]`));
    decls += `
// Logical record i alone, the fill past the end.
fn ${n}_load_item(i: u32) -> ${T} {
  let p = ${physical('i')};
  // One exit (no early return): this runs between subgroup operations (see recordSelectWgsl).
  var x = ${spec.fill};
  if (p < ${count}) { x = ${fromWordsAt('p')}; }
  return x;
}

fn ${n}_load(tile: u32, group: u32, lane: u32, gsize: u32) -> array<${T}, ${K}> {
  let start = ${n}_run_start(tile, group, lane, gsize);
  var items: array<${T}, ${K}>;
  if (${n}_run_whole(start)) {
    // The run's words, every vec4 load in flight at once, no guard.
    let v = start * ${R}u / 4u;
${unroll(Q, (q) => `    let w${q} = ${src}[v + ${q}u];`)}
${unroll(K, (k) => `    items[${k}] = ${source.words.fromWords(Array.from({ length: R }, (_, m) => word(recordOf(k), m)))};`)}
  } else {
    // The run that holds the end: record by record, the fill past it.
    let first = tile * ${n}_TILE + (group * gsize + lane) * ${K}u;
${unroll(K, (k) => `    items[${k}] = ${n}_load_item(first + ${k}u);`)}
  }
  return items;
}
`;
  }
  if (source.store) {
    const dst = source.store;
    bindings[dst] = readWrite('array<vec4<u32>>');
    bindings[`${dst}_tail`] = readWrite('array<u32>');
    decls += `
// Word g of the stored records: into its vec4 while the vec4 is whole, else into the tail the plan
// copies out. (The run that holds it is this invocation's alone, vec4s included.)
fn ${n}_store_word(g: u32, w: u32) {
  let whole = ${count} * ${R}u / 4u;
  if (g / 4u < whole) { ${dst}[g / 4u][g % 4u] = w; } else { ${dst}_tail[g - 4u * whole] = w; }
}

fn ${n}_store(tile: u32, items: array<${T}, ${K}>, group: u32, lane: u32, gsize: u32) {
  let start = ${n}_run_start(tile, group, lane, gsize);
  if (${n}_run_whole(start)) {
    let v = start * ${R}u / 4u;
${storeVectors(dst, K, recordOf, source.words)}
  } else {
    // The run that holds the end: only the records before it, word by word.
    let first = tile * ${n}_TILE + (group * gsize + lane) * ${K}u;
${unroll(
  K,
  (k) => `    { let p = ${physical(`(first + ${k}u)`)}; if (p < ${count}) {
${source.words
  .wordsOf(`items[${k}]`)
  .map((w, m) => `      ${n}_store_word(p * ${R}u + ${m}u, ${w});`)
  .join('\n')}
    } }`,
)}
  }
}
`;
  }
  return { decls, bindings };
}

/** The vec4 stores of a whole run: record j's words from the item that lands there. */
function storeVectors(dst: string, K: number, recordOf: (k: number) => number, words: ValueWords): string {
  const flat: string[] = [];
  for (let j = 0; j < K; j++) {
    const k = recordOf(j); // recordOf is its own inverse: item k ↔ physical record j
    flat.push(...words.wordsOf(`items[${k}]`));
  }
  const lines: string[] = [];
  for (let q = 0; q < flat.length / 4; q++) {
    lines.push(`    ${dst}[v + ${q}u] = vec4<u32>(${flat.slice(4 * q, 4 * q + 4).join(', ')});`);
  }
  return lines.join('\n');
}

/**
 * Where a words tile's stored records end up past their whole vec4s (see {@link TileWords}): of
 * `count` records of `words` words, the words after `4·floor(count·words / 4)` (0–3 of them) are
 * left in the kernel's `NAME_tail`, for the plan to copy to `tailWord` words into the records.
 *
 * @example
 * ```ts
 * wordsTail(5, 3); // { tailWord: 12, tailWords: 3 }: 15 words, three whole vec4s
 * ```
 */
export function wordsTail(count: number, words: number): { readonly tailWord: number; readonly tailWords: number } {
  const total = count * words;
  return { tailWord: total - (total % 4), tailWords: total % 4 };
}
