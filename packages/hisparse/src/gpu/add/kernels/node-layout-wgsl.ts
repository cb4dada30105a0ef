// FORMAT.md's node layout in WGSL for a node size fixed at compile time, mirroring
// `src/format/layout.ts` (`chooseNodeType`, `sparseLayout`, `nodeWords`) function for function: the
// output node's type must follow the format's rule exactly from the union count, and an input node
// is read through the same offsets the CPU reference writes.

/**
 * WGSL constants `D`, `DD` (= d²) and the layout functions `node_type(n)` (the type add gives a
 * node of n entries: dense 0, COO1 1, COO2 2, COO4 3), `node_words(t, n)`, `coord_start(t)` and
 * `value_start(t, n)`, for node size `d`.
 *
 * @example
 * ```ts
 * const wgsl = `${nodeLayoutWgsl(32)} ... let size = node_words(node_type(n), n);`;
 * ```
 */
export function nodeLayoutWgsl(d: number): string {
  return `
const D = ${d}u;
const DD = ${d * d}u;
fn align_up(x: u32, m: u32) -> u32 { return (x + m - 1u) & ~(m - 1u); }
// X, the entries one thread loads at once: 1, 2 or 4 for COO1, COO2, COO4.
fn per_load(t: u32) -> u32 { return select(select(4u, 2u, t == 2u), 1u, t == 1u); }
// COO4 starts its coordinates at word 2 so that a thread's four coordinates are an aligned vec2.
fn coord_start(t: u32) -> u32 { return select(1u, 2u, t == 3u); }
fn padded_slots(t: u32, n: u32) -> u32 { let x = per_load(t); return ((n + x - 1u) / x) * x; }
fn value_start(t: u32, n: u32) -> u32 {
  return align_up(coord_start(t) + (padded_slots(t, n) + 1u) / 2u, per_load(t));
}
fn node_words(t: u32, n: u32) -> u32 {
  if (t == 0u) { return DD; }
  return align_up(value_start(t, n) + padded_slots(t, n), 4u);
}
// chooseNodeType: COO1, COO2, COO4 by count; dense when the d² dense words are fewer (a tie stays
// sparse). Applied to the union count, as the paper sizes an output node before allocating it (§6).
fn node_type(n: u32) -> u32 {
  let sparse = select(select(3u, 2u, n == 2u), 1u, n == 1u);
  return select(sparse, 0u, DD < node_words(sparse, n));
}
`;
}
