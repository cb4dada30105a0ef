import { NODE_TYPE, REGION_LEAF_FLAG } from '../../format/layout.js';

// WGSL that reads HiSparse nodes out of the pool binding, mirroring `src/format/layout.ts` (the
// executable form of FORMAT.md): the two low bits of a pointer are the node type; a COOX node
// starts with its entry count, then two byte-coordinates per word, then the value words (child
// pointers in an inner node, f32 bits in a leaf) at an offset aligned for X-wide loads.

/**
 * FORMAT.md's node layout in WGSL, mirroring `src/format/layout.ts` (`chooseNodeType`,
 * `sparseLayout`, `nodeWords`) function for function — the one copy every kernel (build, traversal,
 * add) is generated with, since the GPU must reach the very words of the CPU reference:
 * `per_load(t)`, `coord_start(t)`, `value_start(t, n)`, `sparse_words(t, n)`, `dense_words()`,
 * `node_words(t, n)` and `node_type(n)` (dense 0, COO1 1, COO2 2, COO4 3 for n ≥ 1 entries; dense
 * when d² words are fewer, a tie stays sparse). `denseWords` is the WGSL expression of d² in the
 * kernel: a constant, or read from its uniforms.
 *
 * @example
 * ```ts
 * const wgsl = `const D: u32 = 32u;\n${nodeLayoutWgsl('D * D')}`;
 * ```
 */
export function nodeLayoutWgsl(denseWords: string): string {
  return `
fn align_up(x: u32, m: u32) -> u32 { return (x + m - 1u) & ~(m - 1u); }
// X, the entries one thread loads at once: 1, 2 or 4 for COO1, COO2, COO4.
fn per_load(t: u32) -> u32 { return select(select(4u, 2u, t == 2u), 1u, t == 1u); }
// COO4 starts its coordinates at word 2 so that a thread's four coordinates are an aligned vec2.
fn coord_start(t: u32) -> u32 { return select(1u, 2u, t == 3u); }
fn padded_slots(t: u32, n: u32) -> u32 { let x = per_load(t); return ((n + x - 1u) / x) * x; }
// First value word of a COOX node with n entries: C + ⌈slots/2⌉, aligned to X.
fn value_start(t: u32, n: u32) -> u32 {
  return align_up(coord_start(t) + (padded_slots(t, n) + 1u) / 2u, per_load(t));
}
fn sparse_words(t: u32, n: u32) -> u32 { return align_up(value_start(t, n) + padded_slots(t, n), 4u); }
fn dense_words() -> u32 { return ${denseWords}; }
fn node_words(t: u32, n: u32) -> u32 { return select(sparse_words(t, n), dense_words(), t == 0u); }
fn node_type(n: u32) -> u32 {
  let sparse = select(select(3u, 2u, n == 2u), 1u, n == 1u);
  return select(sparse, 0u, dense_words() < sparse_words(sparse, n));
}
`;
}

/**
 * Region leaves (FORMAT.md, "Region leaves"), mirroring `regionLayout` in `src/format/layout.ts`: a
 * COOX node at an inner level whose word 0 carries `REGION_FLAG` and the entry count below it; one
 * coordinate word per entry (`row | col << 16`, local to the region) from word X, the values from
 * the next multiple of X after them. `region_words(t, n)` is the node's size; `region_coord(off,
 * t, i)` the local (row, col) of entry i; `region_value_start(t, n)` its first value word.
 */
const REGION_WGSL = `
const REGION_FLAG: u32 = ${REGION_LEAF_FLAG >>> 0}u;
fn region_value_start(t: u32, n: u32) -> u32 { return align_up(per_load(t) + padded_slots(t, n), per_load(t)); }
fn region_words(t: u32, n: u32) -> u32 { return align_up(region_value_start(t, n) + padded_slots(t, n), 4u); }
fn region_coord(off: u32, t: u32, i: u32) -> vec2<u32> {
  let word = pool[off + per_load(t) + i];
  return vec2<u32>(word & 0xffffu, word >> 16u);
}
`;

/** Node types and helpers every traversal kernel declares (it declares `pool` and `D`). */
export const NODE_WGSL = `
const TYPE_DENSE: u32 = ${NODE_TYPE.dense}u;
const TYPE_COO1: u32 = ${NODE_TYPE.coo1}u;
const TYPE_COO2: u32 = ${NODE_TYPE.coo2}u;
const TYPE_COO4: u32 = ${NODE_TYPE.coo4}u;
${nodeLayoutWgsl('D * D')}
// Local (row, col) of entry i of the COOX node at word \`off\`.
fn coord_of(off: u32, t: u32, i: u32) -> vec2<u32> {
  let half = (pool[off + coord_start(t) + (i >> 1u)] >> (16u * (i & 1u))) & 0xffffu;
  return vec2<u32>(half & 0xffu, half >> 8u);
}
${REGION_WGSL}`;

/** The workgroup index of a 2-D (possibly indirect) dispatch, as one number. */
export const FLAT_WORKGROUP_WGSL = 'let wg = wid.x + wid.y * nwg.x;';

/** The builtins a kernel using {@link FLAT_WORKGROUP_WGSL} declares. */
export const FLAT_BUILTINS_WGSL =
  '@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32';
