import { BufferUsage, createStorageBuffer, type ScanContext, ScanError } from '@scan/core';
import { bindGroupByName, getPipeline, loadPipelines, paramsData } from '@scan/core/kit';
import { createTridiagonalPlan, type TridiagonalAlgorithm, type TridiagonalPlan } from '@scan/tridiag';
import { APPLY_KERNEL, coefficientsKernel, DROP_KERNEL, FILL_KERNEL, gridWorkgroups, WATER_KERNELS } from './kernels.js';
import { invalidOption, type ResolvedWaterOptions, resolveWaterOptions, type WaterSimOptions } from './options.js';
import { makeTerrain } from './terrain.js';

/** Options of {@link createWaterSim}: the physical ones plus the tridiagonal algorithm. */
export interface CreateWaterSimOptions extends WaterSimOptions {
  /** Algorithm of both tridiagonal plans (default `'auto'`), passed to `createTridiagonalPlan`. */
  algorithm?: TridiagonalAlgorithm;
}

/** A running shallow-water simulation whose state lives on the GPU. */
export interface WaterSim {
  /** The options with every default filled in (a named terrain stays a name). */
  readonly options: ResolvedWaterOptions;
  /** Cells per side. */
  readonly size: number;
  /** Steps taken so far. */
  readonly steps: number;
  /**
   * Resolves once every pipeline the simulation runs — its own kernels and both tridiagonal plans'
   * — is compiled (without stalling) and its bind groups are made: await it before the first frame,
   * so that frame does not wait for a compilation. Using the simulation before then works too (it
   * compiles what it needs on the spot). Rejects with a `ScanError` when a kernel fails to compile.
   */
  readonly ready: Promise<void>;
  /**
   * The current heights hⁿ (N·N f32, row-major). It is one of three buffers that rotate every
   * step, so read this property again after each `step` (a renderer keeps one bind group per buffer).
   */
  readonly heightBuffer: GPUBuffer;
  /** The bottom heights (N·N f32, row-major); never changes. */
  readonly bottomBuffer: GPUBuffer;
  /** The three height buffers that `heightBuffer` rotates through. */
  readonly heightBuffers: readonly GPUBuffer[];
  /**
   * Records one ADI step into `encoder` (five passes: row coefficients, row solve, column
   * coefficients, column solve, increment), or, without an encoder, records and submits it at once.
   */
  step(encoder?: GPUCommandEncoder): void;
  /**
   * Adds a smooth bump of `height` (negative for a dip) within `radius` cells of (x, y), in cell
   * coordinates (cell (i, j) is at (i, j)), to the current and previous heights, so it starts at
   * rest. Submitted at once, so it lands before any step recorded afterwards. Creates nothing: its
   * parameters go into a uniform buffer made once.
   */
  drop(x: number, y: number, radius: number, height: number): void;
  /** Reads the current heights back (N·N values). */
  readHeights(): Promise<Float32Array>;
  /** Σh over the grid (the conserved volume, in cell units), summed in f64 from a read-back. */
  volume(): Promise<number>;
  /** Frees every buffer and both plans; the simulation cannot be used afterwards. */
  destroy(): void;
}

/** A uniform buffer holding a parameter block (`paramsData`: 8 words, what every kernel's block fits). */
function uniformBuffer(device: GPUDevice, data: Uint32Array<ArrayBuffer>, label: string): GPUBuffer {
  const buffer = device.createBuffer({ size: data.byteLength, usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST, label });
  device.queue.writeBuffer(buffer, 0, data);
  return buffer;
}

/** The step's parameters (`STEP_PARAMS`), which both coefficient kernels and the increment read. */
function stepParams(o: ResolvedWaterOptions): Uint32Array<ArrayBuffer> {
  return paramsData(APPLY_KERNEL, { n: o.size, k: (o.g * o.dt * o.dt) / (2 * o.dx * o.dx), keep: 1 - o.damping });
}

/**
 * Creates a Kass & Miller (1990) shallow-water simulation on an N×N grid: the water surface hⁿ over
 * a bottom, advanced by an implicit alternating-direction step — a batch of N tridiagonal solves
 * along the rows, then N along the columns — entirely on the GPU (no read-back per step). The two
 * tridiagonal plans of `@scan/tridiag` are made once here and reused by every step. The water
 * starts at rest at `waterLevel` (cells whose bottom is higher are dry: depth 0).
 *
 * Made for a frame loop: every buffer and bind group is made once (the bind groups of the three
 * rotating phases, the drop's), so a step or a drop creates no buffer, bind group or pipeline. The
 * kernels compile in the background from here on; `await sim.ready` before the first frame.
 *
 * Throws `ScanError` (`INVALID_ARGUMENT`) naming the bad option, `TOO_LARGE` past the device limits.
 *
 * @example
 * ```ts
 * const sim = createWaterSim(ctx, { size: 256, terrain: 'island' });
 * await sim.ready;
 * sim.drop(128, 64, 8, 0.5);
 * const encoder = ctx.device.createCommandEncoder();
 * for (let i = 0; i < 4; i++) sim.step(encoder);
 * ctx.device.queue.submit([encoder.finish()]);
 * console.log(await sim.volume());
 * ```
 */
export function createWaterSim(ctx: ScanContext, options: CreateWaterSimOptions): WaterSim {
  if (ctx === null || typeof ctx !== 'object' || !('device' in ctx)) invalidOption('ctx', ctx, 'expected a ScanContext from createContext');
  const o = resolveWaterOptions(options, ctx);
  const device = ctx.device;
  const n = o.size;
  const cells = n * n;
  const bytes = 4 * cells;

  const owned: { destroy(): void }[] = [];
  const own = <T extends { destroy(): void }>(thing: T): T => {
    owned.push(thing);
    return thing;
  };
  const storage = (label: string) => own(createStorageBuffer(ctx, bytes, label));

  // The plans first: a shape or algorithm they reject throws before any buffer exists.
  const algorithm = options.algorithm ?? 'auto';
  const rowPlan: TridiagonalPlan = own(createTridiagonalPlan(ctx, { n, batch: n, stride: 'contiguous', algorithm }));
  let columnPlan: TridiagonalPlan;
  try {
    columnPlan = own(createTridiagonalPlan(ctx, { n, batch: n, stride: 'interleaved', algorithm }));
  } catch (error) {
    rowPlan.destroy();
    throw error;
  }

  const bottom = storage('water bottom');
  const heights = [storage('water heights 0'), storage('water heights 1'), storage('water heights 2')];
  const lower = storage('water sub-diagonal');
  const diag = storage('water diagonal');
  const upper = storage('water super-diagonal');
  const rhs = storage('water right-hand side');
  const half = storage('water row increment');
  const params = own(uniformBuffer(device, stepParams(o), 'water step params'));
  // The drop's parameters, rewritten by each drop (which submits at once, so a drop never reads
  // the next one's): one buffer for the simulation's life, not one per drop.
  const dropParams = own(uniformBuffer(device, new Uint32Array(8), 'water drop params'));

  // New buffers are zero-filled, which is the flat bottom: only other terrains are uploaded.
  if (o.terrain !== 'flat') {
    const terrain = o.terrain instanceof Float32Array ? o.terrain : makeTerrain(o.terrain, n, o.seed);
    device.queue.writeBuffer(bottom, 0, terrain.buffer, terrain.byteOffset, bytes);
  }
  const groups = gridWorkgroups(n);
  // One pass of a grid kernel: one invocation per cell.
  const gridPass = (encoder: GPUCommandEncoder, pipeline: GPUComputePipeline, group: GPUBindGroup, label: string) => {
    const pass = encoder.beginComputePass({ label });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(groups, groups);
    pass.end();
  };

  /**
   * What needs the pipelines: the initial heights (filled on the GPU) and every bind group. Made
   * once, when the pipelines are compiled (`ready`), or at the first use before that.
   */
  const initialize = () => {
    // hⁿ⁻¹ = hⁿ⁻² = level: the water starts at rest. Filled on the GPU, so even a 4096² grid moves
    // no height data through the host (Dawn in Node dislikes megabytes of it; see DESIGN.md).
    const fill = getPipeline(ctx, FILL_KERNEL);
    const uniform = uniformBuffer(device, paramsData(FILL_KERNEL, { n, value: o.waterLevel }), 'water fill params');
    const encoder = device.createCommandEncoder({ label: 'water initial heights' });
    for (const grid of heights) {
      gridPass(encoder, fill, bindGroupByName(device, FILL_KERNEL, fill, { grid, params: uniform }), 'water fill');
    }
    device.queue.submit([encoder.finish()]);
    uniform.destroy();

    const rowKernel = coefficientsKernel('rows');
    const columnKernel = coefficientsKernel('columns');
    const rowPipeline = getPipeline(ctx, rowKernel);
    const columnPipeline = getPipeline(ctx, columnKernel);
    const applyPipeline = getPipeline(ctx, APPLY_KERNEL);
    const dropPipeline = getPipeline(ctx, DROP_KERNEL);
    // Phase p: current = heights[p], previous = heights[p+2], next = heights[p+1] (mod 3); after a
    // step the phase advances, so the buffers rotate without copies.
    const phases = [0, 1, 2].map((p) => {
      const current = heights[p]!;
      const previous = heights[(p + 2) % 3]!;
      const next = heights[(p + 1) % 3]!;
      const system = { height: current, bottom, lower, diag, upper, rhs, params };
      return {
        next,
        // The row sweep's source is hⁿ⁻², the column sweep's the row increment δz.
        rows: bindGroupByName(device, rowKernel, rowPipeline, { ...system, source: previous }),
        columns: bindGroupByName(device, columnKernel, columnPipeline, { ...system, source: half }),
        apply: bindGroupByName(device, APPLY_KERNEL, applyPipeline, { height: current, next, params }),
        drop: bindGroupByName(device, DROP_KERNEL, dropPipeline, { current, previous, params: dropParams }),
      };
    });
    return { rowPipeline, columnPipeline, applyPipeline, dropPipeline, phases };
  };
  let made: ReturnType<typeof initialize> | undefined;
  const ensureMade = () => {
    made ??= initialize();
    return made;
  };

  let phase = 0;
  let steps = 0;
  let destroyed = false;
  const usable = (what: string) => {
    if (destroyed) throw new ScanError('INVALID_ARGUMENT', `sim.${what}: this simulation was destroyed`, { argument: 'sim' });
  };

  // Compiled without stalling: both plans' kernels and ours; then the bind groups, unless the
  // simulation was used (and made them) or destroyed first.
  const ready = Promise.all([rowPlan.ready, columnPlan.ready, loadPipelines(ctx, WATER_KERNELS)]).then(() => {
    if (!destroyed) ensureMade();
  });
  // Nobody has to await it: a failed compilation surfaces at the step that needs the kernel too.
  ready.catch(() => undefined);

  // One step, five passes: row coefficients → row solve (δz) → column coefficients → column solve
  // (Δ, into the next height buffer) → hⁿ = hⁿ⁻¹ + Δ in place (see `coefficientsWgsl`).
  const encodeStep = (encoder: GPUCommandEncoder) => {
    const m = ensureMade();
    const p = m.phases[phase]!;
    gridPass(encoder, m.rowPipeline, p.rows, 'water row coefficients');
    rowPlan.encode(encoder, { a: lower, b: diag, c: upper, d: rhs, x: half });
    // The column pass reuses the coefficient and right-hand-side buffers: WebGPU orders the
    // passes, so the row solve has read them before this pass overwrites them.
    gridPass(encoder, m.columnPipeline, p.columns, 'water column coefficients');
    columnPlan.encode(encoder, { a: lower, b: diag, c: upper, d: rhs, x: p.next });
    gridPass(encoder, m.applyPipeline, p.apply, 'water apply increment');
    phase = (phase + 1) % 3;
    steps++;
  };

  const sim: WaterSim = {
    options: o,
    size: n,
    get steps() {
      return steps;
    },
    ready,
    // Whoever reads the heights gets them filled: the fill runs with the first use at the latest.
    get heightBuffer() {
      if (!destroyed) ensureMade();
      return heights[phase]!;
    },
    bottomBuffer: bottom,
    get heightBuffers() {
      if (!destroyed) ensureMade();
      return heights;
    },
    step(encoder) {
      usable('step');
      if (encoder) {
        encodeStep(encoder);
        return;
      }
      const own = device.createCommandEncoder({ label: 'water step' });
      encodeStep(own);
      device.queue.submit([own.finish()]);
    },
    drop(x, y, radius, height) {
      usable('drop');
      for (const [name, value] of [
        ['x', x],
        ['y', y],
        ['height', height],
      ] as const) {
        if (typeof value !== 'number' || !Number.isFinite(value)) invalidOption(name, value, 'must be a finite number');
      }
      if (typeof radius !== 'number' || !(radius > 0) || !Number.isFinite(radius))
        invalidOption('radius', radius, 'must be a finite number > 0');
      const m = ensureMade();
      device.queue.writeBuffer(dropParams, 0, paramsData(DROP_KERNEL, { n, cx: x, cy: y, radius, amount: height }));
      const encoder = device.createCommandEncoder({ label: 'water drop' });
      gridPass(encoder, m.dropPipeline, m.phases[phase]!.drop, 'water drop');
      device.queue.submit([encoder.finish()]);
    },
    async readHeights() {
      usable('readHeights');
      ensureMade();
      const staging = device.createBuffer({ size: bytes, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST, label: 'water read-back' });
      try {
        const encoder = device.createCommandEncoder({ label: 'water read-back' });
        encoder.copyBufferToBuffer(heights[phase]!, 0, staging, 0, bytes);
        device.queue.submit([encoder.finish()]);
        await staging.mapAsync(0x0001 /* GPUMapMode.READ */);
        return new Float32Array(staging.getMappedRange().slice(0));
      } finally {
        staging.destroy();
      }
    },
    async volume() {
      const h = await sim.readHeights();
      let sum = 0;
      for (let i = 0; i < h.length; i++) sum += h[i]!;
      return sum;
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      for (const thing of owned.splice(0)) thing.destroy();
    },
  };
  return sim;
}
