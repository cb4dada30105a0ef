/** How the visible splats are ordered for the draw. */
export type OrderMode = 'gpu' | 'none' | 'cpu';

/** What the page shows, from the URL (`?splats=250000&seed=1&keys=16&order=gpu`). */
export interface ViewerSettings {
  /** Splats of the synthetic scene (a .ply file replaces it). */
  splats: number;
  seed: number;
  keyBits: 32 | 16;
  /** `gpu`: sorted every frame on the GPU; `none`: unsorted (index order); `cpu`: sorted on the CPU (a reference). */
  order: OrderMode;
  /** Camera angles in radians and distance in scene radii, for a fixed view. */
  yaw: number;
  pitch: number;
  distance: number;
  /** Side of the square canvas in pixels (default 768). */
  canvas: number;
}

/** The sizes offered in the page's select. */
export const SCENE_SIZES = [2_000, 250_000, 1_000_000, 4_000_000, 8_000_000] as const;

/** Most splats the page accepts. */
export const MAX_SPLATS = 8_000_000;

/**
 * Reads the settings from a query string, with defaults for what is missing or out of range.
 *
 * @example
 * ```ts
 * readSettings('?splats=2000&order=cpu'); // { splats: 2000, order: 'cpu', … }
 * ```
 */
export function readSettings(search: string): ViewerSettings {
  const q = new URLSearchParams(search);
  const num = (name: string, fallback: number) => {
    const v = Number(q.get(name) ?? Number.NaN);
    return Number.isFinite(v) ? v : fallback;
  };
  const order = q.get('order');
  return {
    splats: Math.round(Math.min(MAX_SPLATS, Math.max(1, num('splats', 250_000)))),
    seed: Math.round(num('seed', 1)),
    keyBits: q.get('keys') === '16' ? 16 : 32,
    order: order === 'none' || order === 'cpu' ? order : 'gpu',
    yaw: num('yaw', 0.6),
    pitch: num('pitch', 0.35),
    distance: Math.max(0.2, num('distance', 2.6)),
    canvas: Math.round(Math.min(4096, Math.max(64, num('canvas', 768)))),
  };
}
