import { allocateScene, finishScene, type SplatScene, setSplat } from './scene.js';

/** A seeded generator of floats in [0, 1) (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Hue (0–1) to an RGB colour of full saturation. */
function hue(h: number): [number, number, number] {
  const f = (n: number) => {
    const k = (n + h * 6) % 6;
    return 1 - Math.max(0, Math.min(k, 4 - k, 1));
  };
  return [f(5), f(3), f(1)];
}

/**
 * A seeded synthetic scene of `count` anisotropic splats: a (2, 3) torus knot of flat, coloured
 * splats whose hue runs along the curve, inside a thin shell of faint grey-blue splats (an eighth of them) — overlapping,
 * half-transparent layers, so the blend order shows. Scales shrink with the count (∝ count^(−1/3))
 * so every size looks alike.
 *
 * @example
 * ```ts
 * const scene = syntheticScene(250_000, 1);
 * ```
 */
export function syntheticScene(count: number, seed: number): SplatScene {
  const rnd = random(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  const scene = allocateScene(count);
  const base = 0.45 * count ** (-1 / 3);
  const shell = Math.floor(count * 0.12);
  for (let i = 0; i < count; i++) {
    let p: number[];
    let rgb: [number, number, number];
    let opacity: number;
    if (i < shell) {
      // The shell: a sphere of radius 1.6, thin, dim.
      const z = 2 * rnd() - 1;
      const a = 2 * Math.PI * rnd();
      const r = 1.6 + 0.02 * gauss();
      const s = Math.sqrt(1 - z * z);
      p = [r * s * Math.cos(a), r * z, r * s * Math.sin(a)];
      const g = 0.35 + 0.25 * rnd();
      rgb = [g * 0.8, g * 0.9, g * 1.2];
      opacity = 0.08 + 0.22 * rnd();
    } else {
      // The knot: a tube of σ 0.06 around a (2, 3) torus knot.
      const t = 2 * Math.PI * rnd();
      const r = 0.8 + 0.35 * Math.cos(3 * t);
      const c = [r * Math.cos(2 * t), 0.35 * Math.sin(3 * t) * 1.6, r * Math.sin(2 * t)];
      p = [c[0]! + 0.06 * gauss(), c[1]! + 0.06 * gauss(), c[2]! + 0.06 * gauss()];
      rgb = hue(t / (2 * Math.PI) + 0.05 * gauss());
      const shade = 0.6 + 0.4 * rnd();
      rgb = [rgb[0] * shade, rgb[1] * shade, rgb[2] * shade];
      opacity = 0.35 + 0.6 * rnd();
    }
    const k = base * Math.exp(0.6 * gauss());
    const scales = [k * (1 + 1.5 * rnd()), k * (0.4 + 0.8 * rnd()), k * (0.05 + 0.2 * rnd())];
    const q = [gauss(), gauss(), gauss(), gauss()];
    setSplat(scene, i, p, scales, q, rgb, opacity);
  }
  return finishScene(scene);
}
