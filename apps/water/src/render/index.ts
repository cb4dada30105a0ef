/** WebGPU drawing of the water surface over the terrain, straight from the simulation's buffers. */
export { createWaterRenderer, type WaterRenderer } from './renderer.js';
export { SURFACE_WGSL } from './shader.js';
