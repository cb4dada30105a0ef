/** Names of the generated terrains. */
export const TERRAIN_NAMES = ['flat', 'beach', 'island', 'hills'] as const;
export type TerrainName = (typeof TERRAIN_NAMES)[number];

/** A small seeded PRNG (mulberry32): the same seed gives the same hills in every browser. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One Gaussian hill in unit coordinates. */
interface Hill {
  x: number;
  y: number;
  radius: number;
  height: number;
}

function randomHills(seed: number): Hill[] {
  const random = mulberry32(seed);
  const hills: Hill[] = [];
  for (let k = 0; k < 12; k++) {
    // Heights up to 1.6 against the default water level of 1, so a few hills break the surface.
    hills.push({ x: random(), y: random(), radius: 0.05 + 0.12 * random(), height: 0.3 + 1.3 * random() });
  }
  return hills;
}

/**
 * The bottom heights of a named terrain on a `size`×`size` grid, row-major (cell (x, y) at
 * `y·size + x`). Shapes are defined in unit coordinates so a terrain looks the same at every size;
 * with the default water level 1:
 * - `flat`: bottom 0, a pool of depth 1;
 * - `beach`: a slope rising along x from depth 1.3 to dry land over the last quarter;
 * - `island`: a pool with a round island (peak 1.6) in the middle;
 * - `hills`: twelve seeded Gaussian hills, some above the surface.
 *
 * @example
 * ```ts
 * const bottom = makeTerrain('island', 128, 1); // Float32Array(16384)
 * ```
 */
export function makeTerrain(name: TerrainName, size: number, seed = 1): Float32Array {
  const bottom = new Float32Array(size * size);
  if (name === 'flat') return bottom;
  const hills = name === 'hills' ? randomHills(seed) : [];
  for (let y = 0; y < size; y++) {
    const v = (y + 0.5) / size;
    for (let x = 0; x < size; x++) {
      const u = (x + 0.5) / size;
      let b = 0;
      if (name === 'beach') {
        // Gentle curvature, and a small swell along y so the shoreline is not a straight line.
        b = -0.3 + 1.7 * u ** 1.5 + 0.08 * Math.sin(6.283 * v * 2);
      } else if (name === 'island') {
        const r2 = (u - 0.5) ** 2 + (v - 0.5) ** 2;
        b = 1.6 * Math.exp(-r2 / 0.025) - 0.2;
      } else {
        for (const h of hills) b += h.height * Math.exp(-((u - h.x) ** 2 + (v - h.y) ** 2) / (h.radius * h.radius));
      }
      bottom[y * size + x] = b;
    }
  }
  return bottom;
}
