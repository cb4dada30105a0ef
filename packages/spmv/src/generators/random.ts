// The seeded pseudo-random generator behind every matrix generator. A matrix must be reproducible
// from its arguments alone (a failing test names the seed, a benchmark regenerates the same input on
// another machine), so nothing here touches Math.random, and the stream is defined on u32
// arithmetic only, identical in every JavaScript engine.

/** A seeded pseudo-random generator (xoshiro128**, Blackman & Vigna). */
export interface Rng {
  /** A uniform 32-bit unsigned integer. */
  u32(): number;
  /** A uniform integer in [0, m), for 1 ≤ m ≤ 2^32. */
  below(m: number): number;
  /** A uniform float in (0, 1]: never 0, so `Math.log` of it is finite. */
  unitOpen(): number;
  /**
   * A uniform f32 in [−1, 1) on the grid k·2^−23 − 1, redrawn when it is exactly 0 (a generator
   * should never store an explicit zero by accident). Every value of the grid is exact in f32.
   */
  value(): number;
}

const TWO_POW_32 = 4294967296;
const TWO_POW_21 = 2097152;

/**
 * A seeded xoshiro128** generator. The seed (a u32) is expanded with splitmix32, so nearby seeds give
 * unrelated streams; one closure per generator keeps the state in registers in the hot loops
 * (R-MAT draws tens of millions of words).
 *
 * @example
 * ```ts
 * const rng = createRng(42);
 * rng.u32(); // a u32
 * rng.below(10); // 0..9
 * rng.value(); // an f32 in [−1, 1), never 0
 * ```
 */
export function createRng(seed: number): Rng {
  let x = seed >>> 0;
  const splitmix = (): number => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  // The state lives in an Int32Array, not in four closure variables: V8 keeps closure variables as
  // tagged values, and a 32-bit word past the small-integer range would be boxed on every draw
  // (measured: several times slower in the R-MAT loop).
  const s = new Int32Array([splitmix(), splitmix(), splitmix(), splitmix()]);
  if ((s[0]! | s[1]! | s[2]! | s[3]!) === 0) s[0] = 1; // the all-zero state is a fixed point
  const u32 = (): number => {
    const s0 = s[0]!;
    const s1 = s[1]!;
    const s2 = s[2]! ^ s0;
    const s3 = s[3]! ^ s1;
    const m = Math.imul(s1, 5);
    const r = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
    s[0] = s0 ^ s3;
    s[1] = s1 ^ s2;
    s[2] = s2 ^ (s1 << 9);
    s[3] = (s3 << 11) | (s3 >>> 21);
    return r;
  };
  // floor(u·m / 2^32) is below m for every u < 2^32 (the product's rounding error is far below m).
  // Past 2^21 the bias of 32 bits (up to m/2^32 relative) becomes visible, so 53 bits are drawn.
  const below = (m: number): number =>
    m <= TWO_POW_21 ? Math.floor((u32() * m) / TWO_POW_32) : Math.floor(((u32() >>> 11) * TWO_POW_32 + u32()) * 2 ** -53 * m);
  const unitOpen = (): number => (u32() + 1) / TWO_POW_32;
  const value = (): number => {
    for (;;) {
      const k = u32() >>> 8;
      if (k !== 0x800000) return k * 2 ** -23 - 1;
    }
  };
  return { u32, below, unitOpen, value };
}

/**
 * Sorts `a[start..end)` ascending in place: insertion sort for the short rows that dominate sparse
 * matrices (no call overhead), the engine's numeric typed-array sort for long ones.
 *
 * @example
 * ```ts
 * const cols = new Uint32Array([9, 3, 5, 1]);
 * sortRange(cols, 1, 4); // [9, 3, 5, 1] → [9, 1, 3, 5]
 * ```
 */
export function sortRange(a: Uint32Array, start: number, end: number): void {
  if (end - start > 24) {
    a.subarray(start, end).sort();
    return;
  }
  for (let i = start + 1; i < end; i++) {
    const v = a[i]!;
    let j = i - 1;
    while (j >= start && a[j]! > v) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = v;
  }
}

/**
 * Writes `k` distinct columns drawn uniformly from [0, cols) into `out[offset..offset + k)`, sorted
 * ascending. Floyd's algorithm draws exactly k numbers (no rejection loop, whatever k / cols); when
 * more than half the columns are taken it draws the complement instead and emits the rest in order,
 * so a nearly full row costs O(cols), not O(k²).
 *
 * @example
 * ```ts
 * const out = new Uint32Array(4);
 * sampleSortedColumns(createRng(1), 100, 4, out, 0); // e.g. [7, 23, 51, 90]
 * ```
 */
export function sampleSortedColumns(rng: Rng, cols: number, k: number, out: Uint32Array, offset: number): void {
  if (k >= cols) {
    for (let c = 0; c < cols; c++) out[offset + c] = c;
    return;
  }
  if (2 * k > cols) {
    const excluded = new Uint32Array(cols - k);
    floyd(rng, cols, cols - k, excluded, 0);
    sortRange(excluded, 0, excluded.length);
    let e = 0;
    let o = offset;
    for (let c = 0; c < cols; c++) {
      if (e < excluded.length && excluded[e] === c) e++;
      else out[o++] = c;
    }
    return;
  }
  floyd(rng, cols, k, out, offset);
  sortRange(out, offset, offset + k);
}

/** Floyd's sampling of k distinct values of [0, n) into out[offset..offset + k), unsorted. */
function floyd(rng: Rng, n: number, k: number, out: Uint32Array, offset: number): void {
  // A linear scan of what is drawn so far beats a Set for the usual handful of nonzeros per row.
  const seen = k > 32 ? new Set<number>() : undefined;
  let count = 0;
  for (let j = n - k; j < n; j++) {
    const t = rng.below(j + 1);
    let taken: boolean;
    if (seen !== undefined) {
      taken = seen.has(t);
    } else {
      taken = false;
      for (let i = offset; i < offset + count; i++) {
        if (out[i] === t) {
          taken = true;
          break;
        }
      }
    }
    const pick = taken ? j : t; // j itself is new: earlier draws were all below j
    out[offset + count++] = pick;
    seen?.add(pick);
  }
}
