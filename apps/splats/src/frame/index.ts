// The viewer's per-frame GPU work, importable on its own (`@scan/splats/frame`): the bench's
// `splat-frame` case runs exactly this.
export { type CameraMatrices, lookAt, type Mat4, multiply, type OrbitCamera, orbitMatrices, perspective } from './camera-math.js';
export { type CpuSplatOrder, cpuSplatOrder } from './cpu.js';
export { CULL_MARGIN } from './cull-kernel.js';
export {
  createSplatFrame,
  type FrameTimestamps,
  type KeyBits,
  type SplatFrame,
  type SplatFrameArgs,
  type SplatFrameOptions,
} from './splat-frame.js';
