// Seeded data for GPU tests: every failure must be reproducible from (type, n, seed, kind), so
// nothing here uses Math.random. Element types are spelled out locally so this module loads
// without @scan/core (it is also used by pure helper tests in Node).

/** Element types the generators produce. */
export type TestElementType = 'u32' | 'i32' | 'f32';

/** The typed array of each element type. */
export interface TestTypedArrayOf {
  u32: Uint32Array;
  i32: Int32Array;
  f32: Float32Array;
}

/** A seeded pseudo-random generator (xoshiro128**). */
export interface Rng {
  /** A uniform 32-bit unsigned integer. */
  u32(): number;
  /** A uniform float in [0, 1) with 32 random bits. */
  float(): number;
  /** A uniform integer in [lo, hi], both included. */
  int(lo: number, hi: number): number;
}

/**
 * A seeded xoshiro128** generator; the seed is expanded with splitmix32 so nearby seeds give
 * unrelated streams.
 *
 * @example
 * ```ts
 * const rng = createRng(42);
 * rng.u32(); rng.float(); rng.int(-8, 8);
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
  let s0 = splitmix();
  let s1 = splitmix();
  let s2 = splitmix();
  let s3 = splitmix();
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1; // the all-zero state is a fixed point
  const u32 = (): number => {
    const m = Math.imul(s1, 5);
    const r = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    return r;
  };
  const float = (): number => u32() / 4294967296;
  const int = (lo: number, hi: number): number => lo + Math.floor(float() * (hi - lo + 1));
  return { u32, float, int };
}

/**
 * Contents of generated test data:
 * - `random`: full-range bits for u32/i32; floats uniform in [-1, 1) for f32.
 * - `small`: integers in [-8, 8] (u32: [0, 16]); f32 sums of up to 2^20 of them are exact, so f32
 *   add can be compared bit for bit whatever the order of summation.
 * - `mul-safe`: for `mul`: f32 ±1 with occasional 2 and 0.5, alternating so that every contiguous
 *   product stays in [0.5, 2] and is exact in any order; integers: odd values (±1, ±3), so products
 *   never collapse to 0 modulo 2^32.
 * - `equal`: one value repeated (a `small` one, so f32 sums stay exact).
 * - `sorted` / `reversed`: `random` values in ascending / descending order.
 * - `extreme`: the largest and smallest values of the type (u32 0 and 2^32-1, i32 -2^31 and
 *   2^31-1, f32 ±0, ±Infinity, ±largest finite) with a few neighbours; f32 add/mul on these is
 *   order-dependent (Infinity - Infinity), so compare min/max exactly and sums only loosely.
 * - `nan`: f32 only: `random` values with about one in eight NaN.
 */
export type DataKind = 'random' | 'small' | 'mul-safe' | 'equal' | 'sorted' | 'reversed' | 'extreme' | 'nan';

/** Every data kind, in a stable order. */
export const DATA_KINDS: readonly DataKind[] = ['random', 'small', 'mul-safe', 'equal', 'sorted', 'reversed', 'extreme', 'nan'];

/**
 * The data kinds defined for `type` (`nan` needs f32).
 *
 * @example
 * ```ts
 * for (const kind of dataKindsFor('u32')) test(kind, () => { ... });
 * ```
 */
export function dataKindsFor(type: TestElementType): readonly DataKind[] {
  return type === 'f32' ? DATA_KINDS : DATA_KINDS.filter((k) => k !== 'nan');
}

const F32_MAX = 3.4028234663852886e38;

const EXTREMES: Record<TestElementType, readonly number[]> = {
  u32: [0, 1, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff],
  i32: [-0x80000000, -0x7fffffff, -1, 0, 1, 0x7ffffffe, 0x7fffffff],
  f32: [0, -0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, F32_MAX, -F32_MAX],
};

/** One full-range value of `type` (f32 in [-1, 1)). */
function randomValue(type: TestElementType, rng: Rng): number {
  if (type === 'u32') return rng.u32();
  if (type === 'i32') return rng.u32() | 0;
  return Math.fround(rng.float() * 2 - 1);
}

function smallValue(type: TestElementType, rng: Rng): number {
  return type === 'u32' ? rng.int(0, 16) : rng.int(-8, 8);
}

/**
 * `n` elements of `type` of the given kind, reproducible from `seed`.
 *
 * @example
 * ```ts
 * const data = randomData('f32', 1 << 20, 7, 'small'); // Float32Array, exact under any summation order
 * const ids = randomData('u32', 1000, 1); // full-range u32
 * ```
 */
export function randomData<T extends TestElementType>(type: T, n: number, seed: number, kind: DataKind = 'random'): TestTypedArrayOf[T] {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`randomData: n = ${n} is not a non-negative integer`);
  if (kind === 'nan' && type !== 'f32') throw new Error(`randomData: kind 'nan' needs f32, not ${type} (see dataKindsFor)`);
  const rng = createRng(seed);
  const out = (type === 'u32' ? new Uint32Array(n) : type === 'i32' ? new Int32Array(n) : new Float32Array(n)) as TestTypedArrayOf[T];
  switch (kind) {
    case 'random':
    case 'sorted':
    case 'reversed':
      for (let i = 0; i < n; i++) out[i] = randomValue(type, rng);
      if (kind !== 'random') out.sort();
      if (kind === 'reversed') out.reverse();
      break;
    case 'small':
      for (let i = 0; i < n; i++) out[i] = smallValue(type, rng);
      break;
    case 'equal':
      out.fill(smallValue(type, rng));
      break;
    case 'mul-safe':
      fillMulSafe(type, out, rng);
      break;
    case 'extreme': {
      const values = EXTREMES[type];
      for (let i = 0; i < n; i++) out[i] = values[rng.int(0, values.length - 1)]!;
      break;
    }
    case 'nan':
      for (let i = 0; i < n; i++) out[i] = rng.u32() % 8 === 0 ? Number.NaN : randomValue(type, rng);
      break;
    default:
      throw new Error(`randomData: unknown kind ${String(kind)}`);
  }
  return out;
}

function fillMulSafe(type: TestElementType, out: Uint32Array | Int32Array | Float32Array, rng: Rng): void {
  let nextScale = 2; // f32: alternate 2 and 0.5 so any contiguous product is 0.5, 1 or 2 in magnitude
  for (let i = 0; i < out.length; i++) {
    const r = rng.u32();
    const sign = r & 1 ? -1 : 1;
    const occasional = (r >>> 1) % 16 === 0;
    if (type === 'f32') {
      if (occasional) {
        out[i] = sign * nextScale;
        nextScale = nextScale === 2 ? 0.5 : 2;
      } else {
        out[i] = sign;
      }
    } else {
      // u32 stores -1 and -3 as 2^32-1 and 2^32-3: odd, hence invertible modulo 2^32.
      out[i] = sign * (occasional ? 3 : 1);
    }
  }
}

/**
 * `n` flags, each 1 with probability `density`, reproducible from `seed`.
 *
 * @example
 * ```ts
 * const flags = randomFlags(1000, 3, 0.1); // about 100 ones
 * ```
 */
export function randomFlags(n: number, seed: number, density = 0.5): Uint32Array {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`randomFlags: n = ${n} is not a non-negative integer`);
  const rng = createRng(seed);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.float() < density ? 1 : 0;
  return out;
}

/**
 * Head flags of segments with random lengths of mean `mean` (each element starts a segment with
 * probability 1/mean; `mean` ≤ 1 makes every element a head). Element 0 may come out 0: the
 * segmented functions treat it as a head all the same.
 *
 * @example
 * ```ts
 * const flags = randomSegmentFlags(1000, 16, 7); // ~62 segments
 * ```
 */
export function randomSegmentFlags(n: number, mean: number, seed: number): Uint8Array {
  const rng = createRng(seed);
  const flags = new Uint8Array(n);
  for (let i = 0; i < n; i++) flags[i] = mean <= 1 || rng.float() < 1 / mean ? 1 : 0;
  return flags;
}
