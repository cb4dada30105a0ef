import { NODE_TYPE } from '../../format/layout.js';

// WGSL that reads HiSparse nodes out of the pool binding, mirroring `src/format/layout.ts` (the
// executable form of FORMAT.md): the two low bits of a pointer are the node type; a COOX node
// starts with its entry count, then two byte-coordinates per word, then the value words (child
// pointers in an inner node, f32 bits in a leaf) at an offset aligned for X-wide loads.

/** Types of the queue entries and node helpers every traversal kernel declares. */
export const NODE_WGSL = /* wgsl */ `
const TYPE_DENSE: u32 = ${NODE_TYPE.dense}u;
const TYPE_COO1: u32 = ${NODE_TYPE.coo1}u;
const TYPE_COO2: u32 = ${NODE_TYPE.coo2}u;
const TYPE_COO4: u32 = ${NODE_TYPE.coo4}u;

// Entries per vector load of a COOX node: 1, 2 or 4.
fn per_load(t: u32) -> u32 { return select(select(4u, 2u, t == TYPE_COO2), 1u, t == TYPE_COO1); }
fn align_up(n: u32, m: u32) -> u32 { return (n + m - 1u) & ~(m - 1u); }
// First word of the packed coordinates: COO4 pads one word so its coordinate pairs are 8-byte aligned.
fn coord_start(t: u32) -> u32 { return select(1u, 2u, t == TYPE_COO4); }
// First value word of a COOX node with n entries (FORMAT.md: C + ⌈slots/2⌉, aligned to X).
fn value_start(t: u32, n: u32) -> u32 {
  let x = per_load(t);
  let slots = align_up(n, x);
  return align_up(coord_start(t) + (slots + 1u) / 2u, x);
}
// Words of a COOX node with n entries, padding included.
fn sparse_words(t: u32, n: u32) -> u32 { return align_up(value_start(t, n) + align_up(n, per_load(t)), 4u); }
// Local (row, col) of entry i of the COOX node at word \`off\`.
fn coord_of(off: u32, t: u32, i: u32) -> vec2<u32> {
  let half = (pool[off + coord_start(t) + (i >> 1u)] >> (16u * (i & 1u))) & 0xffffu;
  return vec2<u32>(half & 0xffu, half >> 8u);
}
`;

/** The workgroup index of a 2-D (possibly indirect) dispatch, as one number. */
export const FLAT_WORKGROUP_WGSL = 'let wg = wid.x + wid.y * nwg.x;';

/** The builtins a kernel using {@link FLAT_WORKGROUP_WGSL} declares. */
export const FLAT_BUILTINS_WGSL =
  '@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32';
