import type { CaseModule, CaseSelection } from './case-module.js';
import {
  type CaseShape,
  COUNT_SOURCES,
  FIRST_CALL_PRIMITIVES,
  FIRST_CALL_VARIANTS,
  FRAME_LOOP_PRIMITIVES,
  FRAME_WORKLOADS,
  type FrameWorkloadName,
} from './case-types.js';

// The frame cases (opt-in): what a real-time application pays for a plan it records into its own
// encoder every frame, and for the first call of a plan in a fresh process. Their child side is
// src/child/frame/; their report records are `frameLoop` and `firstCall` (report.ts).

/**
 * Measured frames of a frame-loop case when `--runs` is not given (on every adapter).
 *
 * @example
 * ```ts
 * frameCounts(selection).frames; // DEFAULT_FRAMES unless --runs was given
 * ```
 */
export const DEFAULT_FRAMES = 300;

/**
 * Warm-up frames of a frame-loop case when `--warmup` is not given.
 *
 * @example
 * ```ts
 * frameCounts(selection).warmupFrames; // DEFAULT_WARMUP_FRAMES unless --warmup was given
 * ```
 */
export const DEFAULT_WARMUP_FRAMES = 30;

/**
 * Sizes (the plans' maxCount) of the frame-loop cases when `--sizes` is not given: small, medium and large scenes.
 *
 * @example
 * ```ts
 * enumerateCases({ ...options, only: ['frame-loop'] }).map((c) => c.n); // 2^14, 2^18, 2^22 (six cases each) without --sizes
 * ```
 */
export const FRAME_LOOP_SIZES: readonly number[] = [2 ** 14, 2 ** 18, 2 ** 22];

/**
 * Size of the first-call cases when `--sizes` is not given.
 *
 * @example
 * ```ts
 * enumerateCases({ ...options, only: ['first-call'] })[0].n; // 2^20 without --sizes
 * ```
 */
export const FIRST_CALL_SIZES: readonly number[] = [2 ** 20];

/**
 * The plan options and types of each frame workload: the shape fields that name it in the series.
 *
 * @example
 * ```ts
 * frameWorkloadShape('sort'); // { frameWorkload: 'sort', type: 'f32', valueType: 'u32', descending: true }
 * ```
 */
export function frameWorkloadShape(workload: FrameWorkloadName): Omit<CaseShape, 'primitive'> {
  switch (workload) {
    case 'sort':
      // Depths sorted far to near with the splat indices as values, as a splat viewer does.
      return { frameWorkload: 'sort', type: 'f32', valueType: 'u32', descending: true };
    case 'pack':
      return { frameWorkload: 'pack', type: 'u32', flagType: 'u32' };
    case 'scan':
      return { frameWorkload: 'scan', type: 'u32', op: 'add', inclusive: false };
    case 'segmented-scan':
      // Per-cell offsets of a particle system: segments of 32 elements on average.
      return { frameWorkload: 'segmented-scan', type: 'u32', op: 'add', inclusive: false, segmentMean: 32 };
  }
}

/**
 * The frame-loop configurations: each workload with the count from the host and from the GPU.
 *
 * @example
 * ```ts
 * frameLoopShapes().map((s) => `${s.frameWorkload} ${s.countSource}`); // ['sort host', 'sort gpu', 'pack host', …]
 * ```
 */
export function frameLoopShapes(): CaseShape[] {
  return FRAME_WORKLOADS.flatMap((w) =>
    COUNT_SOURCES.map((countSource): CaseShape => ({ primitive: 'frame-loop', ...frameWorkloadShape(w), countSource })),
  );
}

/**
 * The first-call configurations: each workload awaiting `ready` first and encoding at once.
 *
 * @example
 * ```ts
 * firstCallShapes().map((s) => `${s.frameWorkload} ${s.firstCall}`); // ['sort wait', 'sort no-wait', 'pack wait', …]
 * ```
 */
export function firstCallShapes(): CaseShape[] {
  return FRAME_WORKLOADS.flatMap((w) =>
    FIRST_CALL_VARIANTS.map((firstCall): CaseShape => ({ primitive: 'first-call', ...frameWorkloadShape(w), firstCall })),
  );
}

/**
 * Frames of a frame-loop case: `--runs` / `--warmup` when given, else 300 after 30 (the software
 * adapter's 10 runs do not apply: the JavaScript medians need many frames, and a frame is cheap).
 *
 * @example
 * ```ts
 * frameCounts({ sizes: [4096], runs: 10, warmup: 1, seed: 1, density: 0.5 }); // { frames: 300, warmupFrames: 30 }
 * ```
 */
export function frameCounts(selection: CaseSelection): { frames: number; warmupFrames: number } {
  return { frames: selection.frames ?? DEFAULT_FRAMES, warmupFrames: selection.warmupFrames ?? DEFAULT_WARMUP_FRAMES };
}

/**
 * `frame-loop` (opt-in): sort, pack and scan plans recorded every frame with a changing count, from
 * the host or from a GPU buffer.
 *
 * @example
 * ```ts
 * enumerateCases({ ...selection, only: ['frame-loop'] }); // 6 cases per size
 * ```
 */
export const FRAME_LOOP_CASES: CaseModule = {
  package: '@scan/core, @scan/sort',
  primitives: FRAME_LOOP_PRIMITIVES,
  optIn: true,
  shapes: frameLoopShapes,
  defaultSizes: FRAME_LOOP_SIZES,
  caseFields: (_shape, selection) => frameCounts(selection),
};

/**
 * `first-call` (opt-in): the first use of a sort, pack and scan plan in a fresh process, with and
 * without awaiting `ready`.
 *
 * @example
 * ```ts
 * enumerateCases({ ...selection, only: ['first-call'] }); // 6 cases per size
 * ```
 */
export const FIRST_CALL_CASES: CaseModule = {
  package: '@scan/core, @scan/sort',
  primitives: FIRST_CALL_PRIMITIVES,
  optIn: true,
  shapes: firstCallShapes,
  defaultSizes: FIRST_CALL_SIZES,
};
