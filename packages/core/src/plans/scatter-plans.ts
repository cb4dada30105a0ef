import { assertUsable, type ScanContext } from '../context.js';
import { checkElementType, type ElementType } from '../element-types.js';
import { invalidArgument, ScanError } from '../errors.js';
import type { FlagSource } from '../kernels/compact.js';
import type { KeyCompare } from '../kernels/key-differ.js';
import type { CompareOp } from '../predicate.js';
import { checkPredicate } from '../predicate.js';
import { checkBoolean, checkCount, checkOneOf, checkOptions, checkPositiveInteger } from '../validate.js';
import { type CompactTuning, compactRecipe, compactShape } from './compact-plan.js';
import { RecipeExecutor } from './executor.js';
import { gpuCountOf } from './gpu-count.js';
import { checkCopyUsage, checkEncodeArgs } from './plan-args.js';
import { planOf } from './plan-of.js';
import { type ScatterBuffers, scanThenScatterPlan } from './scan-then-scatter.js';
import { StructureVariants } from './structure-variants.js';
import type { CountSource, Plan } from './types.js';

/** How split and pack run: `'auto'` (= `'single-pass'`), `'single-pass'`, or the paper's `'scan-then-scatter'`. */
export type CompactAlgorithm = 'auto' | 'single-pass' | 'scan-then-scatter';

/** Every value of {@link CompactAlgorithm}. */
export const COMPACT_ALGORITHMS: readonly CompactAlgorithm[] = ['auto', 'single-pass', 'scan-then-scatter'];

/**
 * How a buffer of element flags stores them: `'u32'`, one flag per word, or `'u8'`, one per byte,
 * four to a word. Split and pack plans take it as `flags`, `@scan/segmented`'s head-flag packing as
 * `flagType`.
 */
export type FlagType = 'u32' | 'u8';

/** Options of {@link createSplitPlan} and {@link createPackPlan}. */
export interface ScatterPlanOptions {
  /** Element type of the data (default `'u32'`); elements move as raw 32-bit words. */
  type?: ElementType;
  /**
   * How the flags buffer holds one flag per element (default `'u32'`): `'u32'`, a word each, or
   * `'u8'`, a byte each, four to a word (the buffer holds ⌈count/4⌉ words; bytes past `count` are
   * ignored). A flag is true when it is not zero, so a u32 buffer of any values packs by "value ≠ 0".
   * `'u8'` needs the single-pass algorithm.
   */
  flags?: FlagType;
  /**
   * `'single-pass'` (what `'auto'` picks): one kernel counts each tile's flags, takes its offset by
   * decoupled look-back with fallback and moves the tile's elements, laid out so that every store
   * instruction writes contiguous runs (split adds a count pass over the flags: the trues start
   * where the falses end, which depends on the last flag). `'scan-then-scatter'`: the paper's
   * enumerate into scratch, then a scatter.
   */
  algorithm?: CompactAlgorithm;
  /** Largest `count` expected: scratch for it is allocated up front. */
  maxCount?: number;
  /**
   * **Unstable**: the single-pass kernel's tuning and test hooks, for benchmark sweeps and tests
   * (see {@link ScatterTuning}). Not covered by semver: its keys may change or go away in any minor
   * release. `'scan-then-scatter'` has none and ignores it; checked either way.
   */
  tuning?: ScatterTuning;
}

/**
 * The tuning keys of the single-pass split, pack and predicate pack (`options.tuning` of
 * {@link createSplitPlan}, {@link createPackPlan}, {@link createPackIfPlan}), which the
 * repository's tests and benchmark sweeps (`apps/bench --tuning`) set. **Unstable**: not part of
 * the API contract, not covered by semver; any key may change meaning, default or existence in any
 * minor release. A value out of range is an `INVALID_ARGUMENT` `ScanError` naming
 * `options.tuning.<key>`.
 *
 * @example
 * ```ts
 * const plan = createPackPlan(ctx, { type: 'u32', flags: 'u8', tuning: { workgroupSize: 512, elementsPerThread: 16 } });
 * ```
 */
export interface ScatterTuning {
  /** Invocations per workgroup (default 256, or the device's limit below that). */
  workgroupSize?: number;
  /**
   * Elements per invocation, 1 to 32 (the flags of an invocation are one 32-bit mask). Default 24
   * with u32 flags (8 for counts up to 2^20), 32 with u8 flags, 16 for the predicate.
   */
  elementsPerThread?: number;
  /** Look-back reads of a predecessor that is not ready before falling back (default 64). */
  maxSpin?: number;
  /** Test hook: every look-back falls back (default false). */
  forceFallback?: boolean;
  /**
   * Test hook: rank by all four words of each ballot, as on a device whose subgroups may be wider
   * than 32 or that does not say (default false: one word where `subgroupMaxSize` ≤ 32).
   */
  wideBallot?: boolean;
}

/** Options of {@link createPackIfPlan}: keep the elements `x` for which `x op value` holds. */
export interface PackIfPlanOptions {
  /** Element type of the data (default `'u32'`); the comparison is done in this type. */
  type?: ElementType;
  op: CompareOp;
  /** The constant compared with; converted to the element type (it must be exact in it). */
  value: number;
  algorithm?: 'auto' | 'single-pass';
  maxCount?: number;
  /** **Unstable**: tuning and test hooks, as for {@link createPackPlan} (see {@link ScatterTuning}). */
  tuning?: ScatterTuning;
}

/** Buffers of one split: `falseCount` receives the u32 number of 0-flags at byte 0. */
export interface SplitEncodeArgs extends CountSource {
  input: GPUBuffer;
  flags: GPUBuffer;
  output: GPUBuffer;
  falseCount: GPUBuffer;
}

/** Buffers of one pack: `packedCount` receives the u32 number of kept elements at byte 0. */
export interface PackEncodeArgs extends CountSource {
  input: GPUBuffer;
  flags: GPUBuffer;
  output: GPUBuffer;
  packedCount: GPUBuffer;
}

/** Buffers of one predicate pack: `packedCount` receives the u32 number of kept elements at byte 0. */
export interface PackIfEncodeArgs extends CountSource {
  input: GPUBuffer;
  output: GPUBuffer;
  packedCount: GPUBuffer;
}

const PLAN_KEYS = ['type', 'flags', 'algorithm', 'maxCount', 'tuning'];

/**
 * The names of a compaction's buffers in its encode args (errors name them): its data and output,
 * and for a pack the optional outputs beside them (each there when named): the kept elements'
 * indices, a companion array moved with them (`companion` into `companionOut`), and the gaps between
 * kept indices (which need `indices`).
 */
interface ArgNames {
  readonly input: string;
  readonly output: string;
  readonly indices?: string;
  readonly companion?: string;
  readonly companionOut?: string;
  readonly gaps?: string;
}
const PLAIN_NAMES: ArgNames = { input: 'input', output: 'output' };
/** Counts up to this take the small tiles of the one-pass kernel (u32 flags). */
const SMALL_COMPACT_MAX = 1 << 20;
/** The keys of `options.tuning` ({@link ScatterTuning}). */
const TUNING_KEYS = ['workgroupSize', 'elementsPerThread', 'maxSpin', 'forceFallback', 'wideBallot'];

/** `options.tuning`, checked key by key. */
function tuningOf(tuning: unknown): CompactTuning {
  const o = checkOptions(tuning, TUNING_KEYS, 'options.tuning');
  const t: CompactTuning = {};
  for (const key of ['workgroupSize', 'elementsPerThread', 'maxSpin'] as const) {
    if (o[key] !== undefined) t[key] = checkPositiveInteger(o[key], `options.tuning.${key}`);
  }
  if (t.elementsPerThread !== undefined && t.elementsPerThread > 32) {
    invalidArgument('options.tuning.elementsPerThread', t.elementsPerThread, 'expected an integer in [1, 32]');
  }
  if (o.forceFallback !== undefined) t.forceFallback = checkBoolean(o.forceFallback, 'options.tuning.forceFallback', false);
  if (o.wideBallot !== undefined) t.wideBallot = checkBoolean(o.wideBallot, 'options.tuning.wideBallot', false);
  return t;
}

/**
 * A split or pack plan over a flag source: validates each `encode`, then records the one-pass
 * recipe or the scan-then-scatter plan. `countName` is the role of the count buffer in the args.
 */
function createCompactPlan<Args extends CountSource>(
  ctx: ScanContext,
  mode: 'split' | 'pack',
  what: string,
  source: FlagSource,
  type: ElementType,
  algorithm: Exclude<CompactAlgorithm, 'auto'>,
  options: Record<string, unknown>,
  countName: string,
  predicate = 0,
  names: ArgNames = PLAIN_NAMES,
): Plan<Args> {
  const maxCount = options.maxCount === undefined ? undefined : checkCount(options.maxCount, 'options.maxCount');
  const tuning = tuningOf(options.tuning);
  if (algorithm === 'scan-then-scatter') {
    const twoPass = scanThenScatterPlan(ctx, mode, maxCount);
    return planOf([twoPass], {
      what,
      encode(encoder, args) {
        if (gpuCountOf(what, args, maxCount)) {
          throw new ScanError('UNSUPPORTED', `${what}: args.countBuffer needs algorithm 'single-pass' (this plan is 'scan-then-scatter')`, {
            argument: 'args.countBuffer',
          });
        }
        const roles = checkArgs(ctx, what, encoder, args, source, countName, names, true);
        // The two-pass algorithm takes u32 flags only, so the flags buffer is there.
        // checkArgs validated the count.
        if (roles) twoPass.encode(encoder, { ...roles, flags: roles.flags!, n: args.count as number });
      },
    });
  }
  const outputs = { indices: names.indices !== undefined, companion: names.companion !== undefined, gaps: names.gaps !== undefined };
  const shape = compactShape(ctx, mode, source, type, tuning, outputs);
  // Counts up to 2^20 with u32 flags: 8 elements per invocation (H100, BENCHMARKS.md "Small sizes":
  // 12.4 µs at 2^16 against 14.9 with 24; the 24 of the large tiles wins from 2^22 on).
  const small =
    source.kind === 'u32' && tuning.elementsPerThread === undefined
      ? compactShape(ctx, mode, source, type, { ...tuning, elementsPerThread: 8 }, outputs)
      : shape;
  const shapeOf = (count: number) => (count <= SMALL_COMPACT_MAX ? small : shape);
  const exec = new RecipeExecutor(ctx, what);
  const gpuCountable = maxCount !== undefined && maxCount > 0;
  if (gpuCountable) exec.reserve(compactRecipe(ctx, shapeOf(maxCount), maxCount, predicate));
  // Both tiles a host count may take: the first encode with a set of buffers makes the bind groups
  // of both, so a count that first crosses SMALL_COMPACT_MAX creates nothing (see StructureVariants).
  const variants = new StructureVariants(() => [
    compactRecipe(ctx, small, 1, predicate),
    ...(maxCount === undefined || maxCount > SMALL_COMPACT_MAX ? [compactRecipe(ctx, shape, SMALL_COMPACT_MAX + 1, predicate)] : []),
  ]);
  return planOf([exec], {
    what,
    encode(encoder, args) {
      const gpu = gpuCountOf(what, args, maxCount);
      if (gpu) {
        // The buffers must hold maxCount elements; the GPU's count is clamped to it.
        const roles = checkArgs(ctx, what, encoder, { ...args, count: maxCount }, source, countName, names, false, true);
        if (roles) {
          const word = gpu.offset / 4;
          exec.encode(encoder, () => compactRecipe(ctx, shapeOf(maxCount as number), maxCount as number, predicate, word), {
            ...roles,
            gpuCount: gpu.buffer,
          });
        }
        return;
      }
      const roles = checkArgs(ctx, what, encoder, args, source, countName, names);
      if (!roles) return;
      const count = args.count as number; // validated by checkArgs
      exec.encode(encoder, () => compactRecipe(ctx, shapeOf(count), count, predicate), roles, variants);
    },
    ready: exec.load([
      compactRecipe(ctx, small, 1, predicate),
      ...(maxCount === undefined || maxCount > SMALL_COMPACT_MAX ? [compactRecipe(ctx, shape, SMALL_COMPACT_MAX + 1, predicate)] : []),
      ...(gpuCountable ? [compactRecipe(ctx, shapeOf(maxCount), maxCount, predicate, 0)] : []),
    ]),
  });
}

/**
 * Validates the buffers of one encode and returns them by role, or undefined when `count` is 0
 * (then the count buffer has been cleared: nothing else to do). The predicate form has no flags.
 */
function checkArgs(
  ctx: ScanContext,
  what: string,
  encoder: GPUCommandEncoder,
  args: unknown,
  source: FlagSource,
  countName: string,
  names: ArgNames,
  twoPass = false,
  gpuCount = false,
):
  | (Omit<ScatterBuffers, 'flags'> & { flags?: GPUBuffer } & Partial<Record<'indices' | 'companion' | 'companionOut' | 'gaps', GPUBuffer>>)
  | undefined {
  const flagBytes = source.kind === 'u32' ? 4 : source.kind === 'u8' ? { bytes: (n: number) => 4 * Math.ceil(n / 4) } : undefined;
  // The pack's outputs beside its elements, each a word per element, by role and argument name.
  const beside = (['indices', 'companion', 'companionOut', 'gaps'] as const).flatMap((role) => {
    const name = names[role];
    return name === undefined ? [] : [[role, name] as const];
  });
  const count = checkEncodeArgs(what, args, {
    [names.input]: 4,
    ...(flagBytes === undefined ? {} : { flags: flagBytes }),
    [names.output]: 4,
    ...Object.fromEntries(beside.map(([, name]) => [name, 4])),
    [countName]: { bytes: 4 },
    ...(gpuCount ? { countBuffer: { bytes: 4 } } : {}),
  });
  const a = args as Record<string, GPUBuffer>;
  const countBuffer = a[countName] as GPUBuffer;
  if (4 * count > ctx.caps.limits.maxStorageBufferBindingSize) {
    throw new ScanError(
      'TOO_LARGE',
      `${what}: count = ${count} is past one storage binding (${ctx.caps.limits.maxStorageBufferBindingSize} bytes); a compaction scatters, so it cannot be chunked`,
      { argument: 'args.count' },
    );
  }
  if (count === 0) {
    checkCopyUsage(what, {}, { [countName]: countBuffer });
    encoder.clearBuffer(countBuffer, 0, 4);
    return undefined;
  }
  // The two-pass enumerate scans the flags as vec4s: their partial last vec4 goes through a staging copy.
  if (twoPass && count % 4 !== 0) checkCopyUsage(what, { flags: a.flags! }, {});
  return {
    input: a[names.input] as GPUBuffer,
    ...(flagBytes === undefined ? {} : { flags: a.flags as GPUBuffer }),
    output: a[names.output] as GPUBuffer,
    count: countBuffer,
    ...Object.fromEntries(beside.map(([role, name]) => [role, a[name] as GPUBuffer])),
  };
}

function flagsPlan<Args extends CountSource>(ctx: ScanContext, mode: 'split' | 'pack', options: ScatterPlanOptions): Plan<Args> {
  assertUsable(ctx);
  const o = checkOptions(options, PLAN_KEYS, 'options');
  const type = o.type === undefined ? 'u32' : checkElementType(o.type, 'options.type');
  const flags = checkOneOf(o.flags, ['u32', 'u8'] as const, 'options.flags', 'u32');
  const chosen = checkOneOf(o.algorithm, COMPACT_ALGORITHMS, 'options.algorithm', 'auto');
  const algorithm = chosen === 'auto' ? 'single-pass' : chosen;
  if (algorithm === 'scan-then-scatter' && flags === 'u8') {
    throw new ScanError(
      'UNSUPPORTED',
      `${mode} plan: options.flags = "u8" needs options.algorithm 'single-pass' (the scan reads u32 flags)`,
      {
        argument: 'options.flags',
      },
    );
  }
  const countName = mode === 'split' ? 'falseCount' : 'packedCount';
  return createCompactPlan<Args>(ctx, mode, `${mode} plan`, { kind: flags }, type, algorithm, o, countName);
}

/**
 * Split at the buffer level (stable): the elements whose flag is 0 first, in order, then those whose
 * flag is 1, in order, and the number of 0-flags at byte 0 of `falseCount`. One pass over the data
 * after a count pass over the flags (or the paper's enumerate and scatter with
 * `algorithm: 'scan-then-scatter'`). The whole array must fit one storage binding.
 *
 * Memory: a look-back status of a 128-byte line per tile (`'scan-then-scatter'`: a u32 per element
 * and its scan's scratch), sized once by `maxCount` or grown by doubling, and a four-slot parameter
 * ring; an encode with a new count creates nothing once warm. With `maxCount`, the count may be a
 * u32 the GPU wrote (`countBuffer`, single pass only). `await plan.ready` before the first frame.
 *
 * @example
 * ```ts
 * const plan = createSplitPlan(ctx, { type: 'f32', flags: 'u8' });
 * plan.encode(encoder, { input, flags, output, count, falseCount });
 * ```
 */
export function createSplitPlan(ctx: ScanContext, options: ScatterPlanOptions = {}): Plan<SplitEncodeArgs> {
  return flagsPlan<SplitEncodeArgs>(ctx, 'split', options);
}

/**
 * Pack (stream compaction) at the buffer level: the elements whose flag is 1, in order, at the
 * start of `output`, and their number at byte 0 of `packedCount` — on the GPU, so a following pass
 * can size itself from it (see {@link createDispatchArgsPlan}). Output past that is left untouched.
 *
 * Memory: a look-back status of a 128-byte line per tile (`'scan-then-scatter'`: a u32 per element
 * and its scan's scratch), sized once by `maxCount` or grown by doubling, and a four-slot parameter
 * ring; an encode with a new count creates nothing once warm. With `maxCount`, the count may be a
 * u32 the GPU wrote (`countBuffer`, single pass only). `await plan.ready` before the first frame.
 *
 * @example
 * ```ts
 * const plan = createPackPlan(ctx, { type: 'u32', flags: 'u8' });
 * plan.encode(encoder, { input, flags, output, count, packedCount });
 * ```
 */
export function createPackPlan(ctx: ScanContext, options: ScatterPlanOptions = {}): Plan<PackEncodeArgs> {
  return flagsPlan<PackEncodeArgs>(ctx, 'pack', options);
}

/**
 * Pack by a predicate at the buffer level: keeps the elements `x` with `x op value` (compared in
 * the element type), in order, with no flags array at all; their number goes to byte 0 of
 * `packedCount`. Comparisons with NaN follow IEEE 754 on the GPU (all false, `'ne'` true).
 * Memory, GPU counts and `ready` as for {@link createPackPlan}.
 *
 * @example
 * ```ts
 * const plan = createPackIfPlan(ctx, { type: 'f32', op: 'gt', value: 0.5 });
 * plan.encode(encoder, { input, output, count, packedCount });
 * ```
 */
export function createPackIfPlan(ctx: ScanContext, options: PackIfPlanOptions): Plan<PackIfEncodeArgs> {
  assertUsable(ctx);
  if (options === undefined) invalidArgument('options', options, "expected { op, value }, e.g. { op: 'gt', value: 0 }");
  const o = checkOptions(options, ['type', 'op', 'value', 'algorithm', 'maxCount', 'tuning'], 'options');
  const type = o.type === undefined ? 'u32' : checkElementType(o.type, 'options.type');
  const { op, bits } = checkPredicate({ op: o.op, value: o.value }, type);
  checkOneOf(o.algorithm, ['auto', 'single-pass'] as const, 'options.algorithm', 'auto');
  return createCompactPlan<PackIfEncodeArgs>(
    ctx,
    'pack',
    'packIf plan',
    { kind: 'predicate', op },
    type,
    'single-pass',
    o,
    'packedCount',
    bits,
  );
}

/** Options of {@link createRunHeadsPackPlan}. */
export interface RunHeadsPackPlanOptions {
  /**
   * How elements compare (default `'int'`): `'int'` by their bits (u32, i32), `'f32'` as `==` (NaN
   * unlike everything, −0 like +0).
   */
  compare?: KeyCompare;
  /** Largest count expected: scratch for it is allocated up front, and the count may be a u32 the GPU wrote. */
  maxCount?: number;
  /** **Unstable**: tuning and test hooks, as for {@link createPackPlan} (see {@link ScatterTuning}). */
  tuning?: ScatterTuning;
  /** The plan's name in errors (default `'run heads pack plan'`). */
  what?: string;
  /**
   * The names of the encode args' buffers (errors name them), default `{ input: 'input', output:
   * 'output', count: 'packedCount' }`: the data, the output and the count, and the optional outputs,
   * each written when named: `indices`, each run's first index; `lengths`, each run's length (needs
   * `indices`: a pass after the pack takes the difference of adjacent indices); `companion` and
   * `companionOut`, a second array of 32-bit words moved with the heads (a unique-by-key's values).
   */
  names?: RunHeadsNames;
}

/** The encode args' buffer names of a {@link createRunHeadsPackPlan} (see its `names` option). */
export interface RunHeadsNames {
  readonly input: string;
  readonly output: string;
  readonly count: string;
  readonly indices?: string;
  readonly lengths?: string;
  readonly companion?: string;
  readonly companionOut?: string;
}

/** `options.names` of a run-heads pack, checked: strings, distinct, outputs that go together. */
function runHeadsNames(names: unknown): RunHeadsNames {
  if (names === undefined) return { input: 'input', output: 'output', count: 'packedCount' };
  const o = checkOptions(names, ['input', 'output', 'count', 'indices', 'lengths', 'companion', 'companionOut'], 'options.names');
  const given = Object.entries(o).filter(([, v]) => v !== undefined);
  for (const [key, value] of given) {
    if (typeof value !== 'string' || value === '') invalidArgument(`options.names.${key}`, value, 'expected a non-empty string');
  }
  for (const key of ['input', 'output', 'count'] as const) {
    if (o[key] === undefined) invalidArgument(`options.names.${key}`, undefined, 'expected a non-empty string');
  }
  const values = given.map(([, v]) => v);
  if (new Set(values).size !== values.length) invalidArgument('options.names', values.join(', '), 'expected distinct names');
  if (o.lengths !== undefined && o.indices === undefined) {
    invalidArgument('options.names.lengths', o.lengths, 'needs options.names.indices (the lengths are differences of the indices)');
  }
  if ((o.companion === undefined) !== (o.companionOut === undefined)) {
    invalidArgument('options.names.companionOut', o.companionOut, 'expected with options.names.companion, or neither');
  }
  return o as unknown as RunHeadsNames;
}

/**
 * For package authors: a pack of the elements that start a run of equal consecutive elements — the
 * first element, and each one unlike the element before it (`keyDifferWgsl`) — in order, with
 * their number (the run count) at byte 0 of the count buffer: the single-pass compaction whose
 * flags are a block discontinuity of the data, so a unique needs one pass over the keys and no
 * flags array. With `names`, it also writes each run's first index, a companion array's word at each
 * head (unique-by-key) and each run's length (run-length encode: one small pass after the pack,
 * sized on the GPU by the run count). Memory, GPU counts and `ready` as for {@link createPackPlan};
 * the whole array must fit one storage binding.
 *
 * @example
 * ```ts
 * const plan = createRunHeadsPackPlan(ctx, { compare: 'f32' });
 * plan.encode(encoder, { input: keys, output: firstKeys, count, packedCount: runCount });
 * // A run-length encode, the args type to match its names:
 * type RleArgs = CountSource & { keys: GPUBuffer; outKeys: GPUBuffer; offsets: GPUBuffer; lengths: GPUBuffer; runCount: GPUBuffer };
 * const rle = createRunHeadsPackPlan<RleArgs>(ctx, {
 *   names: { input: 'keys', output: 'outKeys', count: 'runCount', indices: 'offsets', lengths: 'lengths' },
 * });
 * rle.encode(encoder, { keys, outKeys, offsets, lengths, runCount, count });
 * ```
 */
export function createRunHeadsPackPlan<Args extends CountSource = PackIfEncodeArgs>(
  ctx: ScanContext,
  options: RunHeadsPackPlanOptions = {},
): Plan<Args> {
  assertUsable(ctx);
  const o = checkOptions(options, ['compare', 'maxCount', 'tuning', 'what', 'names'], 'options');
  const compare = checkOneOf(o.compare, ['int', 'f32'] as const, 'options.compare', 'int');
  const what = o.what === undefined ? 'run heads pack plan' : String(o.what);
  const n = runHeadsNames(o.names);
  const names: ArgNames = {
    input: n.input,
    output: n.output,
    ...(n.indices === undefined ? {} : { indices: n.indices }),
    ...(n.lengths === undefined ? {} : { gaps: n.lengths }),
    ...(n.companion === undefined ? {} : { companion: n.companion, companionOut: n.companionOut as string }),
  };
  return createCompactPlan<Args>(ctx, 'pack', what, { kind: 'heads', compare }, 'u32', 'single-pass', o, n.count, 0, names);
}
