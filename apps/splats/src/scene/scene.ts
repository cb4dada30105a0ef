/**
 * Splats as the GPU reads them: `positions`, a vec4<f32> per splat (x, y, z, 1), which is all the
 * frame's cull and sort read; `attributes`, 8 words per splat for the draw: the 3D covariance
 * Σ = R S Sᵀ Rᵀ as six f32 (xx, xy, xz, yy, yz, zz), the colour and opacity as rgba8unorm, a pad.
 */
export interface SplatScene {
  count: number;
  positions: Float32Array<ArrayBuffer>;
  attributes: ArrayBuffer;
  /** `attributes` as f32 and as u32 words (views, so that filling millions of splats makes no garbage). */
  attributeFloats: Float32Array<ArrayBuffer>;
  attributeWords: Uint32Array<ArrayBuffer>;
  /** Centre and radius of a sphere holding every splat centre (the camera orbits it). */
  center: [number, number, number];
  radius: number;
}

/** Words of `attributes` per splat. */
export const ATTRIBUTE_WORDS = 8;

/** A scene of `count` splats to fill with {@link setSplat}, then {@link finishScene}. */
export function allocateScene(count: number): SplatScene {
  const attributes = new ArrayBuffer(4 * ATTRIBUTE_WORDS * count);
  return {
    count,
    positions: new Float32Array(4 * count),
    attributes,
    attributeFloats: new Float32Array(attributes),
    attributeWords: new Uint32Array(attributes),
    center: [0, 0, 0],
    radius: 1,
  };
}

/**
 * Writes splat `i`: centre, scales (σ along its axes), rotation (a quaternion w, x, y, z, need not
 * be normalized), colour (0–1) and opacity (0–1).
 *
 * @example
 * ```ts
 * setSplat(scene, 0, [0, 0, 0], [0.1, 0.05, 0.01], [1, 0, 0, 0], [1, 0.5, 0], 0.8);
 * ```
 */
export function setSplat(
  scene: SplatScene,
  i: number,
  p: readonly number[],
  s: readonly number[],
  q: readonly number[],
  rgb: readonly number[],
  opacity: number,
): void {
  scene.positions[4 * i] = p[0] as number;
  scene.positions[4 * i + 1] = p[1] as number;
  scene.positions[4 * i + 2] = p[2] as number;
  scene.positions[4 * i + 3] = 1;
  let [w, x, y, z] = q as [number, number, number, number];
  const n = Math.hypot(w, x, y, z) || 1;
  w /= n;
  x /= n;
  y /= n;
  z /= n;
  // M = R·S (R of the unit quaternion, row-major, scalars so millions of splats make no garbage),
  // then Σ = M·Mᵀ.
  const s0 = s[0] as number;
  const s1 = s[1] as number;
  const s2 = s[2] as number;
  const m00 = (1 - 2 * (y * y + z * z)) * s0;
  const m01 = 2 * (x * y - w * z) * s1;
  const m02 = 2 * (x * z + w * y) * s2;
  const m10 = 2 * (x * y + w * z) * s0;
  const m11 = (1 - 2 * (x * x + z * z)) * s1;
  const m12 = 2 * (y * z - w * x) * s2;
  const m20 = 2 * (x * z - w * y) * s0;
  const m21 = 2 * (y * z + w * x) * s1;
  const m22 = (1 - 2 * (x * x + y * y)) * s2;
  const f = scene.attributeFloats;
  const at = ATTRIBUTE_WORDS * i;
  f[at] = m00 * m00 + m01 * m01 + m02 * m02;
  f[at + 1] = m00 * m10 + m01 * m11 + m02 * m12;
  f[at + 2] = m00 * m20 + m01 * m21 + m02 * m22;
  f[at + 3] = m10 * m10 + m11 * m11 + m12 * m12;
  f[at + 4] = m10 * m20 + m11 * m21 + m12 * m22;
  f[at + 5] = m20 * m20 + m21 * m21 + m22 * m22;
  const byte = (v: number) => Math.max(0, Math.min(255, Math.round(v * 255)));
  scene.attributeWords[at + 6] =
    (byte(rgb[0] as number) | (byte(rgb[1] as number) << 8) | (byte(rgb[2] as number) << 16) | (byte(opacity) << 24)) >>> 0;
}

/** Sets the scene's bounding sphere from its centres (the box's centre, the farthest centre from it). */
export function finishScene(scene: SplatScene): SplatScene {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  const p = scene.positions;
  for (let i = 0; i < scene.count; i++) {
    for (let k = 0; k < 3; k++) {
      const v = p[4 * i + k] as number;
      if (v < lo[k]!) lo[k] = v;
      if (v > hi[k]!) hi[k] = v;
    }
  }
  if (scene.count === 0) return scene;
  const c: [number, number, number] = [(lo[0]! + hi[0]!) / 2, (lo[1]! + hi[1]!) / 2, (lo[2]! + hi[2]!) / 2];
  let r2 = 0;
  for (let i = 0; i < scene.count; i++) {
    const d = (p[4 * i]! - c[0]) ** 2 + (p[4 * i + 1]! - c[1]) ** 2 + (p[4 * i + 2]! - c[2]) ** 2;
    if (d > r2) r2 = d;
  }
  scene.center = c;
  scene.radius = Math.max(Math.sqrt(r2), 1e-3);
  return scene;
}
