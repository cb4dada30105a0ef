// FORMAT.md's node layout in WGSL, mirroring `src/format/layout.ts` (`chooseNodeType`,
// `sparseLayout`, `nodeWords`) function for function: the GPU build must reach the very words of
// the CPU reference, so the rule is written once more here beside its TypeScript form rather than
// approximated. The node size d comes from the uniform block (`params.log2d`).

/**
 * WGSL functions of the node layout: `node_type(n)` (dense 0, COO1 1, COO2 2, COO4 3 for a node of
 * n ≥ 1 entries), `node_words(t, n)`, `coord_start(t)` and `value_start(t, n)`. Needs the build's
 * `params` uniform.
 *
 * @example
 * ```ts
 * const wgsl = buildKernelFrame(`${NODE_LAYOUT_WGSL}`, 'let t = node_type(5u);');
 * ```
 */
export const NODE_LAYOUT_WGSL = `
fn align_up(x: u32, m: u32) -> u32 { return (x + m - 1u) & ~(m - 1u); }
// X, the entries one thread loads at once: 1, 2 or 4 for COO1, COO2, COO4.
fn per_load(t: u32) -> u32 { return select(select(4u, 2u, t == 2u), 1u, t == 1u); }
// COO4 starts its coordinates at word 2 so a thread's four coordinates are an aligned vec2.
fn coord_start(t: u32) -> u32 { return select(1u, 2u, t == 3u); }
fn padded_slots(t: u32, n: u32) -> u32 { let x = per_load(t); return ((n + x - 1u) / x) * x; }
fn value_start(t: u32, n: u32) -> u32 {
  return align_up(coord_start(t) + (padded_slots(t, n) + 1u) / 2u, per_load(t));
}
fn sparse_words(t: u32, n: u32) -> u32 { return align_up(value_start(t, n) + padded_slots(t, n), 4u); }
fn dense_words() -> u32 { return 1u << (2u * params.log2d); }
// chooseNodeType: COO1, COO2, COO4 by count; dense when d² words are fewer (a tie stays sparse).
fn node_type(n: u32) -> u32 {
  let sparse = select(select(3u, 2u, n == 2u), 1u, n == 1u);
  return select(sparse, 0u, dense_words() < sparse_words(sparse, n));
}
fn node_words(t: u32, n: u32) -> u32 { return select(sparse_words(t, n), dense_words(), t == 0u); }
`;
