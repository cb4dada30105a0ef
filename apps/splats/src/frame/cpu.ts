import type { Mat4 } from './camera-math.js';
import { CULL_MARGIN } from './cull-kernel.js';

/** What {@link cpuSplatOrder} computes: the visible splats back to front and their keys. */
export interface CpuSplatOrder {
  /** Indices of the visible splats, farthest first (ties by index). */
  order: Uint32Array<ArrayBuffer>;
  /** Their keys, in the same order: depth (32-bit keys) or quantized depth (16-bit keys). */
  keys: Float64Array;
}

/**
 * The CPU reference of a frame's cull and sort (same tests, same keys, in f64): which splats are
 * visible and their order by descending key. The page's `order=cpu` draws this order and the
 * tests compare the GPU's with it.
 *
 * @example
 * ```ts
 * const { order } = cpuSplatOrder(positions, count, view, viewProjection, 32, [near, far]);
 * ```
 */
export function cpuSplatOrder(
  positions: Float32Array,
  count: number,
  view: Mat4,
  viewProjection: Mat4,
  keyBits: 16 | 32,
  depthRange: readonly [number, number],
): CpuSplatOrder {
  const m = viewProjection;
  const v = view;
  const scale = 1 / (depthRange[1] - depthRange[0]);
  const idx: number[] = [];
  const key = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const x = positions[4 * i] as number;
    const y = positions[4 * i + 1] as number;
    const z = positions[4 * i + 2] as number;
    const cx = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!;
    const cy = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!;
    const cz = m[2]! * x + m[6]! * y + m[10]! * z + m[14]!;
    const cw = m[3]! * x + m[7]! * y + m[11]! * z + m[15]!;
    const depth = -(v[2]! * x + v[6]! * y + v[10]! * z + v[14]!);
    const lim = CULL_MARGIN * cw;
    if (!(cw > 0 && cz >= 0 && cz <= cw && Math.abs(cx) <= lim && Math.abs(cy) <= lim)) continue;
    idx.push(i);
    key[i] = keyBits === 16 ? Math.floor(Math.min(Math.max((depth - depthRange[0]) * scale, 0), 1) * 65535 + 0.5) : Math.fround(depth);
  }
  idx.sort((a, b) => (key[b] as number) - (key[a] as number) || a - b);
  const order = new Uint32Array(idx);
  const keys = new Float64Array(order.length);
  for (let i = 0; i < order.length; i++) keys[i] = key[order[i] as number] as number;
  return { order, keys };
}
