// The size classes of COO4 leaves, on the host and in WGSL: the product plans' per-size queues
// (size-class-kernels.ts), the census that sizes their dispatches (expand-kernel.ts, the add's
// tally) and the edits' census updates all classify a leaf the same way.

/**
 * The size classes of COO4 leaves (Derler et al. §5: work queues per node type **and size**, so
 * that the threads given to a node match its entries): a leaf of up to `most` entries is
 * multiplied by `lanes` invocations. COO1 and COO2 leaves hold one or two entries and dense leaves
 * d² slots, so only COO4 leaves — from 3 entries to most of a block — vary enough to need classes.
 * The bounds keep 8 to 32 entries per invocation (two to eight four-entry loads): fewer leave the
 * per-leaf costs (a workgroup's table, its flush) unamortized, more serialize a big leaf. Chosen
 * by measurement on the H100 among four tables (BENCHMARKS.md, "HiSparse second pass": one class
 * of 8 lanes; 64/512 entries with 8/64/256 lanes; these; 256/2048 with 8/64/256): these were the
 * fastest or within 10 % on A·x and Aᵀ·x of Poisson, banded and power law at d = 32 and 64, and
 * the only table with banded Aᵀ·x within 1.2× of A·x.
 *
 * @example
 * ```ts
 * COO4_SIZE_CLASSES[2]!.lanes; // 128: two leaves per workgroup
 * ```
 */
export const COO4_SIZE_CLASSES: readonly { readonly most: number; readonly lanes: number }[] = [
  { most: 128, lanes: 8 },
  { most: 1024, lanes: 32 },
  { most: 0xffffffff, lanes: 128 },
];

/**
 * The size class of a COO4 leaf of `entries` entries (an index into {@link COO4_SIZE_CLASSES}): the
 * host's side of `class_of` in {@link classOfWgsl}.
 *
 * @example
 * ```ts
 * sizeClassOf(100); // 0
 * sizeClassOf(2000); // 2
 * ```
 */
export function sizeClassOf(entries: number): number {
  return COO4_SIZE_CLASSES.findIndex((c) => entries <= c.most);
}

/**
 * WGSL `fn class_of(n: u32) -> u32`: the size class of a COO4 leaf of n entries, as
 * {@link sizeClassOf}. Shared by the size-class kernels and the census tallies (the product plans
 * size their leaf dispatches from the census's leaves per class).
 *
 * @example
 * ```ts
 * const wgsl = `${classOfWgsl()} fn main() { let k = class_of(12u); }`;
 * ```
 */
export function classOfWgsl(): string {
  const [small, medium] = COO4_SIZE_CLASSES.map((c) => c.most);
  return `fn class_of(n: u32) -> u32 { return select(select(2u, 1u, n <= ${medium}u), 0u, n <= ${small}u); }`;
}
