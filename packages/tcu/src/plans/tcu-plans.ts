import { type Plan, type ScanContext, ScanError } from '@scan/core';
import {
  assertUsable,
  checkBoolean,
  checkCount,
  checkEncodeArgs,
  checkOptions,
  describeValue,
  invalidArgument,
  planOf,
  type Recipe,
  RecipeBuilder,
  RecipeExecutor,
  StructureVariants,
} from '@scan/core/kit';
import { type Family, MatrixCode, type MatrixPath, type MatrixShape, tileSide } from '../kernels/matrix.js';
import { REDUCE_SLOTS, SCAN_SLOTS } from '../kernels/tcu-kernels.js';
import { resolvePath, type TcuPathOption } from '../support.js';
import { checkPath } from '../validate.js';
import { inputBytes, type PassContext } from './pass-context.js';
import { readyCounts } from './ready-counts.js';
import { recordReduce, recordScan } from './recipes.js';
import { TCU_SELECTION_TABLE, type TcuSelectionEntry } from './select.js';

/** Options of the plans. */
export interface TcuPlanOptions {
  /** `'auto'` (default: subgroup matrices when {@link prepareTcu} found them usable), `'subgroup-matrix'` or `'emulated'`. */
  path?: TcuPathOption;
  /**
   * Largest count expected: scratch for it (with segment size `maxSegmentSize`, default the whole
   * array) is allocated up front, and `ready` compiles the kernels of counts up to it.
   */
  maxCount?: number;
  /** The segment size that goes with `maxCount`. */
  maxSegmentSize?: number;
  /**
   * Segment sizes the plan will be encoded with: `ready` compiles their kernels (besides the whole
   * array's, which it always compiles), since the kernels depend on the segment size. Default:
   * `[maxSegmentSize]` when that is given, else none. An encode with another segment size works
   * too; it compiles its kernels on first use.
   */
  segmentSizes?: readonly number[];
  /** Shape the emulated path mirrors (default 16×16×16); tests use 8×8×8 and 16×8×16. */
  emulatedShape?: MatrixShape;
  /**
   * Tuning, for sweeps and tests: overrides the selection table row of the chosen path (start from
   * `TCU_SELECTION_TABLE` of `@scan/tcu/kit`). Unstable: not covered by semver, its fields may change
   * in any minor release.
   */
  table?: TcuSelectionEntry;
}

/** Options of {@link createTcuScanPlan}. */
export interface TcuScanPlanOptions extends TcuPlanOptions {
  /** Inclusive scan (default false: exclusive, each segment starts at 0). */
  inclusive?: boolean;
}

/**
 * Buffers of one call. `input`: f16 values packed two per u32 word (element 2i in the low half),
 * 4·⌈count/2⌉ bytes — or, for the count plan, 0/1 bytes packed four per word, 4·⌈count/4⌉ bytes.
 * `output`: reduce/count: one f32/u32 per segment (⌈count/segmentSize⌉); scan: `count` f32.
 * `segmentSize` defaults to `count` (the whole array); the last segment may be shorter.
 */
export interface TcuEncodeArgs {
  input: GPUBuffer;
  output: GPUBuffer;
  count: number;
  segmentSize?: number;
}

/** A plan of this package, with the path it took. */
export interface TcuPlan extends Plan<TcuEncodeArgs> {
  /** The path and matrix shape the kernels use. */
  readonly path: MatrixPath;
}

const PLAN_KEYS = ['path', 'maxCount', 'maxSegmentSize', 'segmentSizes', 'emulatedShape', 'table'];

function setup(ctx: ScanContext, what: string, options: unknown, keys: string[], family: Family, slots: { op: number; acc: number }) {
  assertUsable(ctx);
  const o = checkOptions(options, keys) as TcuScanPlanOptions;
  const pathOption = checkPath(o.path);
  const shape = o.emulatedShape;
  if (shape !== undefined) {
    const ok = [shape.M, shape.N, shape.K].every((v) => Number.isInteger(v) && v >= 1 && v <= 32) && tileSide(shape) <= 32;
    if (!ok) invalidArgument('options.emulatedShape', JSON.stringify(shape), 'expected { M, N, K } with lcm(M, N, K) ≤ 32');
  }
  const path = resolvePath(ctx, family, pathOption, shape);
  // u8 counting with 'auto' on subgroup matrices: the direct kernel there, the staged kernels on
  // the emulated path (see resolvePath).
  const emulated =
    family === 'u8' && pathOption === 'auto' && path.kind === 'subgroup-matrix' ? resolvePath(ctx, family, 'emulated', shape) : undefined;
  const bytes = MatrixCode.bytes(path, slots.op, slots.acc);
  if (bytes > ctx.caps.limits.maxComputeWorkgroupStorageSize) {
    throw new ScanError(
      'UNSUPPORTED',
      `${what}: tiles of ${path.S}×${path.S} need ${bytes} bytes of workgroup memory, past maxComputeWorkgroupStorageSize ${ctx.caps.limits.maxComputeWorkgroupStorageSize}`,
    );
  }
  const table = o.table ?? TCU_SELECTION_TABLE[path.kind];
  const maxCount = o.maxCount === undefined ? undefined : checkCount(o.maxCount, 'options.maxCount');
  const maxSegmentSize = o.maxSegmentSize === undefined ? undefined : checkSegmentSize(o.maxSegmentSize, 'options.maxSegmentSize');
  const segmentSizes = checkSegmentSizes(o.segmentSizes) ?? (maxSegmentSize === undefined ? [] : [maxSegmentSize]);
  const exec = new RecipeExecutor(ctx, what);
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const pc = (b: RecipeBuilder): PassContext => ({
    b,
    path,
    table,
    maxDim,
    staged: emulated && { b, path: emulated, table: TCU_SELECTION_TABLE.emulated, maxDim },
  });
  return { ctx, path, exec, pc, maxCount, maxSegmentSize, segmentSizes };
}

function checkSegmentSize(value: unknown, argument: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > 2 ** 31) {
    invalidArgument(argument, value, 'expected a positive integer (segment size)');
  }
  return value;
}

function checkSegmentSizes(value: unknown): number[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) invalidArgument('options.segmentSizes', value, 'expected an array of segment sizes');
  return value.map((v, i) => checkSegmentSize(v, `options.segmentSizes[${i}]`));
}

function segmentSizeOf(what: string, args: unknown, count: number): number {
  const s = (args as { segmentSize?: unknown } | null)?.segmentSize;
  if (s === undefined) return Math.max(1, count);
  if (typeof s !== 'number' || !Number.isSafeInteger(s) || s < 1 || s > 2 ** 31) {
    throw new ScanError('INVALID_ARGUMENT', `${what}: args.segmentSize = ${describeValue(s)}: expected a positive integer`, {
      argument: 'args.segmentSize',
    });
  }
  return s;
}

function makePlan(
  what: string,
  setupResult: ReturnType<typeof setup>,
  inputKind: 'f16' | 'u8',
  outputBytes: (count: number, s: number) => number,
  /** The most bytes one element takes in a binding (input or output): what bounds the count. */
  bytesPerElement: number,
  record: (pc: PassContext, count: number, s: number) => void,
): TcuPlan {
  const { ctx, path, exec, pc, maxCount, maxSegmentSize, segmentSizes } = setupResult;
  const build = (count: number, s: number): Recipe => {
    const b = new RecipeBuilder();
    if (count === 0) {
      // The whole array of no elements: one segment, sum 0.
      if (outputBytes(0, s) > 0) b.clear({ role: 'output', offset: 0, size: 4 });
      return b.build();
    }
    record(pc(b), count, s);
    return b.build();
  };
  // Every kernel an encode may take: the whole array's and each listed segment size's, at the
  // counts where the kernels change (see readyCounts), up to maxCount or what one binding holds.
  const limit = maxCount || Math.floor(ctx.caps.limits.maxStorageBufferBindingSize / bytesPerElement);
  const recipes: Recipe[] = [];
  for (const s of [undefined, ...segmentSizes]) {
    for (const count of readyCounts(limit, s)) recipes.push(build(count, s ?? count));
  }
  if (maxCount !== undefined && maxCount > 0) {
    // Sized once: every scratch buffer those recipes and maxCount's own may use, at the most any of
    // them needs, so that no later encode up to maxCount allocates (or drops bind groups).
    const scratch: Record<string, number> = {};
    for (const r of [build(maxCount, maxSegmentSize ?? maxCount), ...recipes]) {
      for (const name in r.scratch) scratch[name] = Math.max(scratch[name] ?? 0, r.scratch[name] as number);
    }
    exec.reserve({ steps: [], scratch, params: [] });
  }
  // Those recipes are also every structure a count up to the limit may take (a structure changes
  // only where a kernel does: levels, tails, direct units), for each segment size: the first encode
  // with a set of buffers makes the bind groups of them all, so a count or segment size that first
  // takes another level creates nothing (see StructureVariants).
  const variants = new StructureVariants(() => recipes);
  const plan = planOf<TcuEncodeArgs>([exec], {
    what,
    encode(encoder, args) {
      const count0 = (args as { count?: unknown } | null)?.count;
      const s = segmentSizeOf(what, args, typeof count0 === 'number' ? count0 : 0);
      const count = checkEncodeArgs(what, args, {
        input: { bytes: (n) => inputBytes(inputKind, n) },
        output: { bytes: (n) => outputBytes(n, s) },
      });
      const recipe = build(count, s);
      exec.encode(encoder, () => recipe, { input: args.input, output: args.output }, variants);
    },
    ready: exec.load(recipes),
  });
  return Object.assign(plan, { path });
}

/** The whole caller buffers: the kernels take the count and the segments from their parameters. */
const INPUT = { role: 'input', offset: 0 } as const;
const OUTPUT = { role: 'output', offset: 0 } as const;

/**
 * Creates a reusable regular segmented sum of f16 values (buffer level): `output[k]` = the f32
 * sum of segment k — the paper's Reduction16 (masked P) for segments up to the tile side S,
 * Reduction256N for longer ones, and the grid level (parts, then a second pass over the partials)
 * past the selection table's threshold. Records into your encoder; scratch is reused across calls.
 *
 * Made to be encoded every frame. Memory: the partial sums of segments longer than a part (one f32
 * per part of 16 tiles, i.e. 4096 values on 16×16 tiles, per grid level: about 0.05 % of the
 * input's bytes; on the subgroup-matrix path also one f32 per unit of a long segment) and a 4-slot
 * parameter ring (a 256-byte block per dispatch in each slot). Scratch grows by doubling when a count
 * needs more (outgrown buffers are kept until `destroy`), or is sized once by `maxCount` (with
 * `maxSegmentSize`); `plan.memoryBytes` says how much is held. Once warm, an encode with a new count
 * creates no buffer, bind group or pipeline. The kernels depend on the segment size: `await
 * plan.ready` compiles those of the whole array and of `segmentSizes` before the first frame.
 *
 * @example
 * ```ts
 * await prepareTcu(ctx); // once per device, so 'auto' can take the subgroup-matrix path
 * const plan = createTcuReducePlan(ctx, { segmentSizes: [256] });
 * await plan.ready;
 * plan.encode(encoder, { input: halfWords, output: sums, count: 1 << 20, segmentSize: 256 });
 * ```
 */
export function createTcuReducePlan(ctx: ScanContext, options: TcuPlanOptions = {}): TcuPlan {
  return createSumPlan(ctx, options, 'tcu reduce plan', 'f16');
}

/**
 * Creates a reusable regular segmented prefix sum of f16 values with f32 results (buffer level):
 * Scan16 (masked, block-diagonal U) for segments up to S, Scan256N (A·U + S, L·A, LA·1 + AU) for
 * longer ones, and the grid level's scan-then-propagate past the table's threshold.
 *
 * Made to be encoded every frame. Memory: the part totals of segments longer than a part and their
 * scan (two f32 per part of 16 tiles per grid level: about 0.1 % of the input's bytes), on the
 * subgroup-matrix path the chained scan's look-back statuses (a 128-byte line per 2048 values: about
 * 3 % of the input's bytes), and a 4-slot parameter ring (a 256-byte block per
 * dispatch in each slot). Scratch grows by doubling when a count needs more (outgrown buffers are
 * kept until `destroy`), or is sized once by `maxCount` (with `maxSegmentSize`); `plan.memoryBytes`
 * says how much is held. Once warm, an encode with a new count creates no buffer, bind group or
 * pipeline. The kernels depend on the segment size: `await plan.ready` compiles those of the whole
 * array and of `segmentSizes` before the first frame.
 *
 * @example
 * ```ts
 * const plan = createTcuScanPlan(ctx, { inclusive: true, segmentSizes: [4096] });
 * await plan.ready;
 * plan.encode(encoder, { input: halfWords, output: prefix, count: n, segmentSize: 4096 });
 * ```
 */
export function createTcuScanPlan(ctx: ScanContext, options: TcuScanPlanOptions = {}): TcuPlan {
  const what = 'tcu scan plan';
  const st = setup(ctx, what, options, [...PLAN_KEYS, 'inclusive'], 'f16', SCAN_SLOTS);
  const inclusive = checkBoolean(options.inclusive, 'options.inclusive', false);
  return makePlan(
    what,
    st,
    'f16',
    (n) => 4 * n,
    4,
    (pc, n, s) => recordScan(pc, INPUT, 'f16', OUTPUT, n, s, inclusive),
  );
}

/**
 * Creates a reusable exact count of 0/1 flags per segment (buffer level): the reduction's
 * algorithms on u8 × u8 → u32 products (the adapter's integer subgroup-matrix config, or u32
 * arithmetic on the emulated path). Flags must be 0 or 1 (the array-level `tcuCount` checks).
 *
 * Made to be encoded every frame, with the memory of {@link createTcuReducePlan} (u32 partials):
 * scratch grows by doubling or is sized once by `maxCount`, plus a 4-slot parameter ring; once warm,
 * an encode with a new count creates no buffer, bind group or pipeline. `await plan.ready` compiles
 * the kernels of the whole array and of `segmentSizes` before the first frame.
 *
 * @example
 * ```ts
 * const plan = createTcuCountPlan(ctx, { segmentSizes: [1024] });
 * await plan.ready;
 * plan.encode(encoder, { input: flagBytes, output: counts, count: n, segmentSize: 1024 });
 * ```
 */
export function createTcuCountPlan(ctx: ScanContext, options: TcuPlanOptions = {}): TcuPlan {
  return createSumPlan(ctx, options, 'tcu count plan', 'u8');
}

/** The reduction plan behind {@link createTcuReducePlan} (f16 data) and {@link createTcuCountPlan} (u8 flags). */
function createSumPlan(ctx: ScanContext, options: TcuPlanOptions, what: string, family: 'f16' | 'u8'): TcuPlan {
  const st = setup(ctx, what, options, PLAN_KEYS, family, REDUCE_SLOTS);
  return makePlan(
    what,
    st,
    family,
    (n, s) => 4 * Math.max(1, Math.ceil(n / s)),
    family === 'u8' ? 1 : 2,
    (pc, n, s) => recordReduce(pc, INPUT, family, OUTPUT, n, s),
  );
}
