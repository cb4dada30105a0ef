import type { CountSource, ElementType, Operator, Plan, ScanContext, ScanOp } from '@scan/core';
import { builtinOperator, ScanError } from '@scan/core';
import {
  type BufferRef,
  builtinNameOf,
  checkBoolean,
  checkCount,
  checkElementType,
  checkEncodeArgs,
  checkOneOf,
  checkOp,
  checkOperatorCompiles,
  checkOptions,
  countedParams,
  createRunHeadsPackPlan,
  decoupledFallbackStatusBytes,
  invalidArgument,
  isOperator,
  NO_RANGE_CARRY,
  operatorGpuCount,
  operatorItemsPerThread,
  operatorRangeRecords,
  operatorRanges,
  operatorRecords,
  operatorStatus,
  operatorSubgroups,
  planOf,
  type Recipe,
  RecipeBuilder,
  RecipeExecutor,
  type RunHeadsNames,
  recordBytes,
  recordCountFixup,
  representativeCounts,
  StructureVariants,
  tailOutParams,
} from '@scan/core/kit';
import { type OperatorSegmentedSpec, operatorSegmentedKernel } from '../kernels/operator-segmented.js';

/** Key types of the run-based functions: keys are compared with `==` as this type. */
export type KeyType = 'u32' | 'i32' | 'f32';

/** What one keyed pass is made for (checked). */
interface KeyedShape {
  readonly mode: 'scan' | 'reduce';
  readonly op: Operator<unknown>;
  readonly keyType: KeyType;
  readonly inclusive: boolean;
  readonly maxCount: number | undefined;
  readonly maxChunkRecords: number | undefined;
  readonly forceFallback: boolean;
}

/** The buffers of one keyed encode, by role (those the mode uses). */
interface KeyedRoles {
  keys: GPUBuffer;
  values?: GPUBuffer;
  output?: GPUBuffer;
  outKeys?: GPUBuffer;
  outValues?: GPUBuffer;
  runCount?: GPUBuffer;
}

/**
 * The one pass behind every run-based plan (`operatorSegmentedKernel` with keys): per range of
 * records one binding holds, a single pass whose tiles load the keys (and the values), find the
 * runs' heads and tails with a block discontinuity, and scan (heads, value) pairs with decoupled
 * look-back, writing a scan's values or each run's outputs at its ordinal and the run count.
 */
function createKeyedPlan(ctx: ScanContext, shape: KeyedShape, what: string): Plan<KeyedRoles & CountSource> {
  const op = shape.op;
  const WG = Math.min(256, ctx.caps.limits.maxComputeInvocationsPerWorkgroup);
  // The pair adds a word to each record (its head count): runs of about 12 words of records.
  const K = operatorItemsPerThread(op.words, 12);
  const spec: OperatorSegmentedSpec = {
    opKey: op.key,
    mode: shape.mode,
    inclusive: shape.inclusive,
    backward: false,
    subgroups: operatorSubgroups(ctx, op),
    workgroupSize: WG,
    itemsPerThread: K,
    maxSpin: 64,
    forceFallback: shape.forceFallback,
    keys: shape.keyType === 'f32' ? 'f32' : 'int',
  };
  const kernel = operatorSegmentedKernel(spec);
  const tileRecords = WG * K;
  // A range holds both the keys (a word each) and the records.
  const chunkRecords = operatorRangeRecords(ctx, Math.max(4, op.bytes), shape.maxChunkRecords);
  const pairBytes = 4 * (Math.ceil(Math.max(1, op.words)) + 4);
  // Outputs written at ordinals are bound whole (up to what one binding holds).
  const whole = (role: string): BufferRef => ({ role, offset: 0, limit: Math.floor(ctx.caps.limits.maxStorageBufferBindingSize / 4) * 4 });
  const exec = new RecipeExecutor(ctx, what);

  /**
   * The pass over one range of records: its status cleared (with a reduction's run-count word after
   * it), the bindings of its keys, records, outputs and scratch. The dispatch is the caller's.
   */
  const rangePass = (b: RecipeBuilder, carry: BufferRef, range: { start: number; count: number }) => {
    const tiles = Math.ceil(range.count / tileRecords);
    const status = operatorStatus(b, tiles);
    const start = 4 * range.start;
    const statusBytes = decoupledFallbackStatusBytes(tiles);
    const keyRef = (multipleOf: number): BufferRef => ({ role: 'keys', offset: start, limit: 4 * chunkRecords, multipleOf });
    const keys: Record<string, BufferRef> = K % 4 === 0 ? { keys: keyRef(16), keys_words: keyRef(4) } : { keys: keyRef(4) };
    const bindings: Record<string, BufferRef> = {
      ...keys,
      carry,
      status,
    };
    const records = operatorRecords(b, op, range, chunkRecords);
    Object.assign(bindings, records.load('src', 'values'));
    if (shape.mode === 'scan') Object.assign(bindings, records.store('dst', 'output'));
    if (shape.mode === 'reduce') bindings['dst'] = whole('outValues');
    // A reduction's run count, past the look-back's words (copied out after the last range).
    if (shape.mode === 'reduce') b.needScratch('status', statusBytes + 16);
    if (shape.mode === 'reduce') bindings['keys_out'] = whole('outKeys');
    return { bindings, records, tiles, statusBytes };
  };
  /** A reduction's run count, from the word past the last range's status. */
  const copyRunCount = (b: RecipeBuilder, statusBytes: number) =>
    b.copy({ scratch: 'status', offset: statusBytes }, { role: 'runCount', offset: 0 }, 4);

  const build = (count: number): Recipe => {
    const b = new RecipeBuilder();
    // Two carries, then the two ranges' last keys (in the count of slots 2 and 3).
    const carry = b.needScratch('carry', 4 * pairBytes);
    for (const range of operatorRanges(count, chunkRecords, false)) {
      const { bindings, records, tiles, statusBytes } = rangePass(b, carry, range);
      b.dispatch(kernel, bindings, tiles, {
        count: range.count,
        tiles,
        first: range.start,
        total: count,
        carry_in: range.carryIn,
        carry_out: range.carryOut,
        count_word: statusBytes / 4,
      });
      if (shape.mode === 'scan') records.finish('output');
      if (shape.mode === 'reduce' && range.carryOut === NO_RANGE_CARRY) copyRunCount(b, statusBytes);
    }
    return b.build();
  };
  // A count the GPU wrote (one range: maxCount within one binding): the pass recorded for maxCount,
  // its count, tiles and total filled in by a count fixup. A count of 0 runs no tile, so the run
  // count's destination is cleared first (the last tile overwrites it).
  const buildGpu = (word: number): Recipe => {
    const b = new RecipeBuilder();
    const carry = b.needScratch('carry', 4 * pairBytes);
    const count = maxCount as number;
    const { bindings, records, tiles, statusBytes } = rangePass(b, carry, { start: 0, count });
    const counted = countedParams(
      kernel,
      { count: 'count', total: 'count', tiles: { ceilDiv: tileRecords, max: tiles } },
      { first: 0, carry_in: NO_RANGE_CARRY, carry_out: NO_RANGE_CARRY, count_word: statusBytes / 4 },
    );
    const blocks = shape.mode === 'scan' ? [counted, tailOutParams()] : [counted];
    const [params, tailOut] = recordCountFixup(b, { word, capacity: count, blocks });
    if (shape.mode === 'reduce') b.clear({ scratch: 'status', offset: statusBytes, size: 4 });
    b.dispatch(kernel, bindings, tiles, params as BufferRef);
    if (shape.mode === 'scan') records.finishCounted('output', tailOut as BufferRef);
    if (shape.mode === 'reduce') copyRunCount(b, statusBytes);
    return b.build();
  };
  const maxCount = shape.maxCount;
  if (maxCount !== undefined && maxCount > 0) exec.reserve(build(maxCount));
  const largest = maxCount || chunkRecords;
  const gpuCountable = maxCount !== undefined && maxCount > 0 && maxCount <= chunkRecords;
  const ready = checkOperatorCompiles(ctx, op, 'options.op').then(() =>
    exec.load([build(1), build(largest), ...(gpuCountable ? [buildGpu(0)] : [])]),
  );
  const variants = new StructureVariants(() => representativeCounts(largest, chunkRecords).map((n) => build(n)));
  const keyBytes = (n: number) => 4 * Math.max(1, n);
  const recordsOf = (n: number) => recordBytes(n, op.bytes);
  const need: Record<string, { bytes: number | ((n: number) => number) }> = { keys: { bytes: keyBytes } };
  need['values'] = { bytes: recordsOf };
  if (shape.mode === 'scan') need['output'] = { bytes: recordsOf };
  if (shape.mode === 'reduce') need['outKeys'] = { bytes: keyBytes };
  if (shape.mode === 'reduce') need['outValues'] = { bytes: recordsOf };
  if (shape.mode !== 'scan') need['runCount'] = { bytes: 4 };
  const names = Object.keys(need);

  return planOf([exec], {
    what,
    encode(encoder, args: KeyedRoles & CountSource) {
      const gpu = operatorGpuCount(what, args, maxCount, chunkRecords, op.name);
      // A GPU count: the buffers must hold maxCount, which the pass is recorded for.
      const count = gpu
        ? checkEncodeArgs(what, { ...args, count: maxCount }, { ...need, countBuffer: { bytes: 4 } })
        : checkEncodeArgs(what, args, need);
      // A reduction copies the run count there (or clears it for no records).
      if (shape.mode === 'reduce' && typeof args.runCount?.usage === 'number' && (args.runCount.usage & 0x0008) === 0) {
        invalidArgument(
          'args.runCount',
          args.runCount,
          'needs GPUBufferUsage.COPY_DST (and STORAGE): the run count is copied or cleared there',
        );
      }
      if (maxCount !== undefined && count > maxCount) {
        invalidArgument('args.count', count, `more than the plan's maxCount (${maxCount})`);
      }
      const outputBytes = shape.mode === 'scan' ? 0 : Math.max(4 * count, shape.mode === 'reduce' ? count * op.bytes : 0);
      if (outputBytes > ctx.caps.limits.maxStorageBufferBindingSize) {
        // Runs are written at their ordinals: each output is one binding.
        throw new ScanError(
          'TOO_LARGE',
          `${what}: args.count = ${count}: the outputs (${outputBytes} bytes) exceed one storage binding (maxStorageBufferBindingSize = ${ctx.caps.limits.maxStorageBufferBindingSize})`,
          { argument: 'args.count' },
        );
      }
      if (gpu) {
        const roles: Record<string, GPUBuffer> = { gpuCount: gpu.buffer };
        for (const name of names) roles[name] = (args as unknown as Record<string, GPUBuffer>)[name] as GPUBuffer;
        exec.encode(encoder, () => buildGpu(gpu.offset / 4), roles);
        return;
      }
      if (count === 0) {
        // No runs: the count the next pass reads is still written.
        if (args.runCount) encoder.clearBuffer(args.runCount, 0, 4);
        return;
      }
      const roles: Record<string, GPUBuffer> = {};
      for (const name of names) roles[name] = (args as unknown as Record<string, GPUBuffer>)[name] as GPUBuffer;
      exec.encode(encoder, () => build(count), roles, variants);
    },
    ready,
  });
}

/** Test hooks and tuning the plans accept beside their documented options (not part of the contract). */
const HOOKS = ['maxCount', 'forceFallback', 'maxChunkElements'];

function hooksOf(o: Record<string, unknown>) {
  return {
    maxCount: o['maxCount'] === undefined ? undefined : checkCount(o['maxCount'], 'options.maxCount'),
    maxChunkRecords:
      o['maxChunkElements'] === undefined ? undefined : checkCount(o['maxChunkElements'], 'options.maxChunkElements') || undefined,
    forceFallback: o['forceFallback'] === true,
  };
}

const KEY_TYPES: readonly KeyType[] = ['u32', 'i32', 'f32'];

// The values' operator of a by-key plan: a user-defined `Operator` as it is, a built-in one or a
// name on `type` (default `'add'` on `'u32'`) as `builtinOperator`.
function valueOperatorOf(o: Record<string, unknown>): Operator<unknown> {
  const op = o['op'];
  if (isOperator(op) && op.builtin === undefined) {
    if (o['type'] !== undefined) invalidArgument('options.type', o['type'], `the operator ${op.name} sets the value type; leave type out`);
    return op as Operator<unknown>;
  }
  const type = isOperator(op) ? (op.type as ElementType) : checkElementType(o['type'] ?? 'u32', 'options.type');
  return builtinOperator(checkOp(builtinNameOf(op), type, 'options.op'), type) as Operator<unknown>;
}

/** Options of {@link createReduceByKeyPlan}. */
export interface ReduceByKeyPlanOptions {
  /** How keys compare (default `'u32'`): `==` on this type, so f32 NaN keys are runs of their own. */
  keyType?: KeyType;
  /** The values' element type for a built-in `op` (default `'u32'`; leave it out with a user `Operator`). */
  type?: ElementType;
  /** A built-in name or an `Operator` (default `'add'`). */
  // biome-ignore lint/suspicious/noExplicitAny: any operator's record type
  op?: ScanOp | Operator<any>;
  /**
   * Largest count expected: scratch for it is allocated up front, larger counts are refused, and an
   * encode may take its count from the GPU (`countBuffer`: min(that count, maxCount) keys).
   */
  maxCount?: number;
}

/**
 * Buffers of one reduce-by-key (the count: `count`, or a u32 the GPU wrote, `countBuffer`, with the
 * plan's `maxCount`; the buffers then hold `maxCount`): each output holds up to `count` runs; `runCount` gets the u32 run
 * count at byte 0 (copied there: it needs `COPY_DST` usage).
 */
export interface ReduceByKeyEncodeArgs extends CountSource {
  keys: GPUBuffer;
  values: GPUBuffer;
  /** The first key of each run, at the run's ordinal. */
  outKeys: GPUBuffer;
  /** Each run's values combined in array order, at the run's ordinal. */
  outValues: GPUBuffer;
  runCount: GPUBuffer;
}

/**
 * A reduce-by-key recorded into the caller's encoder: for each run of equal consecutive keys, its
 * first key and its values combined, at the run's ordinal, and the run count at byte 0 of
 * `runCount` (to size the next pass on the GPU). One pass over keys and values.
 *
 * @example
 * ```ts
 * import { createReduceByKeyPlan } from '@scan/segmented';
 *
 * const n = 1024;
 * const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
 * const keys = device.createBuffer({ size: 4 * n, usage });
 * const values = device.createBuffer({ size: 4 * n, usage });
 * const outKeys = device.createBuffer({ size: 4 * n, usage });
 * const outValues = device.createBuffer({ size: 4 * n, usage });
 * const runCount = device.createBuffer({ size: 4, usage });
 * const plan = createReduceByKeyPlan(ctx, { keyType: 'u32', type: 'f32', op: 'add' });
 * await plan.ready;
 * plan.encode(encoder, { keys, values, outKeys, outValues, runCount, count: n });
 * ```
 */
export function createReduceByKeyPlan(ctx: ScanContext, options?: ReduceByKeyPlanOptions): Plan<ReduceByKeyEncodeArgs> {
  const o = checkOptions(options, ['keyType', 'type', 'op', ...HOOKS]);
  const op = valueOperatorOf(o);
  const keyType = checkOneOf(o['keyType'], KEY_TYPES, 'options.keyType', 'u32');
  return createKeyedPlan(
    ctx,
    { mode: 'reduce', op, keyType, inclusive: true, ...hooksOf(o) },
    'reduce-by-key plan',
  ) as Plan<ReduceByKeyEncodeArgs>;
}

/** Options of {@link createScanByKeyPlan}. */
export interface ScanByKeyPlanOptions extends ReduceByKeyPlanOptions {
  /** Inclusive results (default exclusive: each run starts at the identity). */
  inclusive?: boolean;
}

/** Buffers of one scan-by-key: `output` holds `count` records. */
export interface ScanByKeyEncodeArgs extends CountSource {
  keys: GPUBuffer;
  values: GPUBuffer;
  output: GPUBuffer;
}

/**
 * A scan-by-key recorded into the caller's encoder: a scan of the values that restarts at each run
 * of equal consecutive keys. One pass over keys and values.
 *
 * @example
 * ```ts
 * import { createScanByKeyPlan } from '@scan/segmented';
 *
 * const n = 1024;
 * const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
 * const keys = device.createBuffer({ size: 4 * n, usage });
 * const values = device.createBuffer({ size: 4 * n, usage });
 * const output = device.createBuffer({ size: 4 * n, usage });
 * const plan = createScanByKeyPlan(ctx, { type: 'u32', inclusive: true });
 * await plan.ready;
 * plan.encode(encoder, { keys, values, output, count: n });
 * ```
 */
export function createScanByKeyPlan(ctx: ScanContext, options?: ScanByKeyPlanOptions): Plan<ScanByKeyEncodeArgs> {
  const o = checkOptions(options, ['keyType', 'type', 'op', 'inclusive', ...HOOKS]);
  const op = valueOperatorOf(o);
  const keyType = checkOneOf(o['keyType'], KEY_TYPES, 'options.keyType', 'u32');
  const inclusive = checkBoolean(o['inclusive'], 'options.inclusive', false);
  return createKeyedPlan(ctx, { mode: 'scan', op, keyType, inclusive, ...hooksOf(o) }, 'scan-by-key plan') as Plan<ScanByKeyEncodeArgs>;
}

/** Options of {@link createUniquePlan}, {@link createUniqueByKeyPlan} and {@link createRunLengthEncodePlan}. */
export interface RunsPlanOptions {
  /** How keys compare (default `'u32'`). */
  keyType?: KeyType;
  /**
   * Largest count expected: scratch for it is allocated up front, larger counts are refused, and an
   * encode may take its count from the GPU (`countBuffer`: min(that count, maxCount) keys).
   */
  maxCount?: number;
}

/**
 * Buffers of one unique: `outKeys` holds up to `count` keys; `runCount` gets the u32 run count at
 * byte 0 (cleared there for no records: it then needs `COPY_DST` usage).
 */
export interface UniqueEncodeArgs extends CountSource {
  keys: GPUBuffer;
  outKeys: GPUBuffer;
  runCount: GPUBuffer;
}

/**
 * Buffers of one unique-by-key: the first key and value of each run; `runCount` gets the run count
 * (cleared there for no records: it then needs `COPY_DST` usage).
 */
export interface UniqueByKeyEncodeArgs extends CountSource {
  keys: GPUBuffer;
  /** One 32-bit value per key. */
  values: GPUBuffer;
  outKeys: GPUBuffer;
  outValues: GPUBuffer;
  runCount: GPUBuffer;
}

/**
 * Buffers of one run-length encode: each run's value, length and first index; `runCount` gets the
 * run count (cleared there for no records: it then needs `COPY_DST` usage).
 */
export interface RunLengthEncodeEncodeArgs extends CountSource {
  keys: GPUBuffer;
  outKeys: GPUBuffer;
  lengths: GPUBuffer;
  offsets: GPUBuffer;
  runCount: GPUBuffer;
}

/**
 * A plan of the run-based family that moves each run's head (`unique`, `uniqueByKey`,
 * `runLengthEncode`): the kit's single-pass compaction whose flags are a block discontinuity of the
 * keys (`createRunHeadsPackPlan`), writing beside each head what `names` asks — one pass over the
 * keys, where the (heads, value) pair pass of the reductions carries a pair per key.
 */
function runHeadsPlan<Args extends CountSource>(ctx: ScanContext, options: unknown, what: string, names: RunHeadsNames): Plan<Args> {
  const o = checkOptions(options, ['keyType', ...HOOKS]);
  const keyType = checkOneOf(o['keyType'], KEY_TYPES, 'options.keyType', 'u32');
  // maxChunkElements (a test hook of the pair pass's ranges) has nothing to do here: a compaction is
  // one range, as the outputs of every run-based plan are.
  const { maxCount, forceFallback } = hooksOf(o);
  const pack = createRunHeadsPackPlan<Args>(ctx, {
    compare: keyType === 'f32' ? 'f32' : 'int',
    ...(maxCount === undefined ? {} : { maxCount }),
    tuning: { forceFallback },
    what,
    names,
  });
  return planOf([pack], {
    what,
    encode(encoder, args: Args) {
      if (maxCount !== undefined && typeof args.count === 'number' && args.count > maxCount) {
        invalidArgument('args.count', args.count, `more than the plan's maxCount (${maxCount})`);
      }
      pack.encode(encoder, args);
    },
  });
}

/**
 * A unique recorded into the caller's encoder: the first key of each run of equal consecutive keys,
 * and the run count at byte 0 of `runCount`. One pass over the keys: the kit's single-pass
 * compaction with each key's flag from a block discontinuity (`createRunHeadsPackPlan`), which
 * moves only the keys, where the (heads, value) pair pass of the other run-based plans carries a
 * pair per key.
 *
 * @example
 * ```ts
 * import { createUniquePlan } from '@scan/segmented';
 *
 * const n = 1024;
 * const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
 * const keys = device.createBuffer({ size: 4 * n, usage });
 * const outKeys = device.createBuffer({ size: 4 * n, usage });
 * const runCount = device.createBuffer({ size: 4, usage });
 * const plan = createUniquePlan(ctx, { keyType: 'i32' });
 * await plan.ready;
 * plan.encode(encoder, { keys, outKeys, runCount, count: n });
 * ```
 */
export function createUniquePlan(ctx: ScanContext, options?: RunsPlanOptions): Plan<UniqueEncodeArgs> {
  return runHeadsPlan<UniqueEncodeArgs>(ctx, options, 'unique plan', { input: 'keys', output: 'outKeys', count: 'runCount' });
}

/**
 * A unique-by-key recorded into the caller's encoder: the first key and the first value (one
 * 32-bit word per key) of each run, and the run count at byte 0 of `runCount`. One pass over the
 * keys (the run-heads compaction), which reads a value only at each run's head.
 *
 * @example
 * ```ts
 * import { createUniqueByKeyPlan } from '@scan/segmented';
 *
 * const n = 1024;
 * const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
 * const buffer = () => device.createBuffer({ size: 4 * n, usage });
 * const [keys, values, outKeys, outValues] = [buffer(), buffer(), buffer(), buffer()];
 * const runCount = device.createBuffer({ size: 4, usage });
 * const plan = createUniqueByKeyPlan(ctx);
 * await plan.ready;
 * plan.encode(encoder, { keys, values, outKeys, outValues, runCount, count: n });
 * ```
 */
export function createUniqueByKeyPlan(ctx: ScanContext, options?: RunsPlanOptions): Plan<UniqueByKeyEncodeArgs> {
  return runHeadsPlan<UniqueByKeyEncodeArgs>(ctx, options, 'unique-by-key plan', {
    input: 'keys',
    output: 'outKeys',
    count: 'runCount',
    companion: 'values',
    companionOut: 'outValues',
  });
}

/**
 * A run-length encode recorded into the caller's encoder: each run's value (`outKeys`), length and
 * first index (`offsets`), and the run count at byte 0 of `runCount`. One pass over the data (the
 * run-heads compaction writing each head's key and index), then one over the runs (each length, the
 * difference of adjacent offsets), sized on the GPU by the run count.
 *
 * @example
 * ```ts
 * import { createRunLengthEncodePlan } from '@scan/segmented';
 *
 * const n = 1024;
 * const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
 * const buffer = () => device.createBuffer({ size: 4 * n, usage });
 * const [keys, outKeys, lengths, offsets] = [buffer(), buffer(), buffer(), buffer()];
 * const runCount = device.createBuffer({ size: 4, usage });
 * const plan = createRunLengthEncodePlan(ctx);
 * await plan.ready;
 * plan.encode(encoder, { keys, outKeys, lengths, offsets, runCount, count: n });
 * ```
 */
export function createRunLengthEncodePlan(ctx: ScanContext, options?: RunsPlanOptions): Plan<RunLengthEncodeEncodeArgs> {
  return runHeadsPlan<RunLengthEncodeEncodeArgs>(ctx, options, 'run-length encode plan', {
    input: 'keys',
    output: 'outKeys',
    count: 'runCount',
    indices: 'offsets',
    lengths: 'lengths',
  });
}
