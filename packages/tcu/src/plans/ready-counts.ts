/**
 * Counts whose recipes, together, run every kernel a tcu plan may take for one segment size, up to
 * `limit` elements: the plan passes their recipes to `exec.load` so that `plan.ready` compiles
 * them all. Which kernels run changes only at a few boundaries — one tile, one block of tiles, a
 * grid of parts and each deeper level over the partials, whole units of the direct kernels (a
 * multiple of the segment size), the segment counts from which the block-level reduction and the
 * warp-level scan take over, a tail past the units — and each boundary is a power of two (times
 * the segment size, or three halves of one for the chained scan's narrow units), so powers of two,
 * one more and three halves of them reach every kernel. Recipes are plain objects: a hundred of them
 * cost a few milliseconds, once, when the plan is made.
 *
 * - `segmentSize` undefined: the whole array (one segment of `count`), at every such count;
 * - else: `m`·s, `m`·s + 1 and `m`·s + s/2 for powers of two `m` (counts below s are the whole
 *   array's, which the plan loads too).
 *
 * @example
 * ```ts
 * readyCounts(4096, undefined); // [1, 2, 3, 4, 5, 6, 8, 9, 12, …, 4096]
 * readyCounts(4096, 256); // [256, 257, 384, 512, 513, 640, …, 4096]
 * ```
 */
export function readyCounts(limit: number, segmentSize: number | undefined): number[] {
  const counts = new Set<number>();
  const add = (c: number) => {
    if (Number.isInteger(c) && c >= 1 && c <= limit) counts.add(c);
  };
  if (segmentSize === undefined) {
    for (let p = 1; p <= limit; p *= 2) {
      add(p);
      add(p + 1);
      add(p + p / 2);
    }
  } else {
    for (let m = 1; m * segmentSize <= limit; m *= 2) {
      const base = m * segmentSize;
      add(base);
      add(base + 1);
      add(base + Math.ceil(segmentSize / 2));
    }
  }
  add(limit);
  return [...counts].sort((a, b) => a - b);
}
