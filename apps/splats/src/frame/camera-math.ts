// Column-major 4×4 matrices (WebGPU's and WGSL's layout), only what an orbit camera needs.

/** A column-major 4×4 matrix. */
export type Mat4 = Float32Array;

/**
 * A right-handed perspective projection onto WebGPU's clip space (depth 0 at `near`, 1 at `far`);
 * the camera looks down −z.
 *
 * @example
 * ```ts
 * const projection = perspective(Math.PI / 4, 16 / 9, 0.1, 100);
 * ```
 */
export function perspective(fovY: number, aspect: number, near: number, far: number): Mat4 {
  const f = 1 / Math.tan(fovY / 2);
  const m = new Float32Array(16);
  m[0] = f / aspect;
  m[5] = f;
  m[10] = far / (near - far);
  m[11] = -1;
  m[14] = (near * far) / (near - far);
  return m;
}

/**
 * The view matrix of an eye at `eye` looking at `target` with +y up (a rigid transform, so
 * −(view·p).z is the distance of p in front of the eye along the view axis).
 *
 * @example
 * ```ts
 * const view = lookAt([0, 0, 5], [0, 0, 0]);
 * ```
 */
export function lookAt(eye: readonly number[], target: readonly number[]): Mat4 {
  const [ex, ey, ez] = eye as [number, number, number];
  let zx = ex - (target[0] as number);
  let zy = ey - (target[1] as number);
  let zz = ez - (target[2] as number);
  const zl = Math.hypot(zx, zy, zz) || 1;
  zx /= zl;
  zy /= zl;
  zz /= zl;
  // x = up × z with up = +y
  let xx = zz;
  let xy = 0;
  let xz = -zx;
  const xl = Math.hypot(xx, xy, xz) || 1;
  xx /= xl;
  xy /= xl;
  xz /= xl;
  const yx = zy * xz - zz * xy;
  const yy = zz * xx - zx * xz;
  const yz = zx * xy - zy * xx;
  return new Float32Array([
    xx,
    yx,
    zx,
    0,
    xy,
    yy,
    zy,
    0,
    xz,
    yz,
    zz,
    0,
    -(xx * ex + xy * ey + xz * ez),
    -(yx * ex + yy * ey + yz * ez),
    -(zx * ex + zy * ey + zz * ez),
    1,
  ]);
}

/**
 * a·b.
 *
 * @example
 * ```ts
 * const viewProjection = multiply(projection, view);
 * ```
 */
export function multiply(a: Mat4, b: Mat4): Mat4 {
  const m = new Float32Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += (a[k * 4 + r] as number) * (b[c * 4 + k] as number);
      m[c * 4 + r] = s;
    }
  }
  return m;
}

/** An orbit camera: a point looked at, a distance, and two angles (radians). */
export interface OrbitCamera {
  target: [number, number, number];
  distance: number;
  /** Around +y. */
  yaw: number;
  /** Above the horizontal plane, within ±89°. */
  pitch: number;
  /** Vertical field of view in radians. */
  fovY: number;
}

/** The matrices and the depth range of one view of a scene of radius `radius` around the camera's target. */
export interface CameraMatrices {
  view: Mat4;
  projection: Mat4;
  viewProjection: Mat4;
  /** Depths (distance in front of the eye) the scene can span, for 16-bit depth keys. */
  depthRange: [number, number];
}

/**
 * The matrices of an orbit camera for a viewport of aspect `aspect` looking at a scene that fits a
 * sphere of `radius` around the target: near and far planes hug that sphere, and so does the depth
 * range the 16-bit keys quantize.
 *
 * @example
 * ```ts
 * const { view, projection } = orbitMatrices({ target: [0, 0, 0], distance: 4, yaw: 0.5, pitch: 0.3, fovY: 0.9 }, 1, 1.5);
 * ```
 */
export function orbitMatrices(camera: OrbitCamera, aspect: number, radius: number): CameraMatrices {
  const { target, distance, yaw, pitch, fovY } = camera;
  const eye = [
    target[0] + distance * Math.cos(pitch) * Math.sin(yaw),
    target[1] + distance * Math.sin(pitch),
    target[2] + distance * Math.cos(pitch) * Math.cos(yaw),
  ];
  const view = lookAt(eye, target);
  const near = Math.max(distance - radius, distance * 1e-3, 1e-4);
  const far = distance + radius;
  const projection = perspective(fovY, aspect, near, far);
  return { view, projection, viewProjection: multiply(projection, view), depthRange: [near, far] };
}
