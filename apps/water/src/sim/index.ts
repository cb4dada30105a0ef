/**
 * The headless shallow-water simulation (no DOM): Kass & Miller's implicit ADI scheme on the GPU
 * through `@scan/tridiag`, with a CPU reference step for tests.
 *
 * @module
 */
export { type CpuStepInput, cpuAdiStep, cpuCoefficients, thomas } from './cpu-step.js';
export { coefficientsWgsl, type SweepAxis } from './kernels.js';
export { MAX_SIZE, MIN_SIZE, type ResolvedWaterOptions, resolveWaterOptions, type WaterSimOptions } from './options.js';
export { type Drop, type SimulateOptions, simulate } from './simulate.js';
export { makeTerrain, TERRAIN_NAMES, type TerrainName } from './terrain.js';
export { type CreateWaterSimOptions, createWaterSim, type WaterSim } from './water-sim.js';
