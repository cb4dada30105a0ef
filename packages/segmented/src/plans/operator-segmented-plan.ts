import { type CountSource, type Operator, type Plan, type ScanContext, ScanError } from '@scan/core';
import {
  type BufferRef,
  checkBoolean,
  checkCount,
  checkEncodeArgs,
  checkOperatorCompiles,
  countedParams,
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
  recordBytes,
  recordCountFixup,
  representativeCounts,
  StructureVariants,
  tailOutParams,
} from '@scan/core/kit';
import { type OperatorSegmentedSpec, operatorSegmentedKernel } from '../kernels/operator-segmented.js';

/** What a segmented plan of a user-defined operator is made for (checked options). */
export interface OperatorSegmentedShape<T> {
  readonly op: Operator<T>;
  readonly mode: 'scan' | 'reduce';
  readonly inclusive: boolean;
  readonly backward: boolean;
  /** Largest count expected: scratch for it is allocated up front. */
  readonly maxCount: number | undefined;
  /** Largest number of records one dispatch binds (tests lower it to exercise the carries). */
  readonly maxChunkRecords: number | undefined;
  /** Test hook: every look-back falls back. */
  readonly forceFallback: boolean;
}

/**
 * The buffers of one encode: records, their head bits (one bit per record, 32 to a word), the
 * output, and the count (a scan: `count`, or with `maxCount` a u32 the GPU wrote, `countBuffer`).
 */
export interface OperatorSegmentedArgs extends CountSource {
  input: GPUBuffer;
  headBits: GPUBuffer;
  output: GPUBuffer;
  /** A reduction: the segments (heads) in the head bits; the output holds one record each. */
  segments?: number;
}

/**
 * The buffer-level segmented scan or segmented reduction of a user-defined operator (what
 * `createSegmentedScanPlan` and `createSegmentedReducePlan` make when `op` is an `Operator` that is
 * not one of core's built-ins on u32, i32 or f32): one single pass per range of records that one
 * binding holds (`operatorSegmentedKernel`), each range starting from the pair the previous one
 * left (backward: from the last range). Records are `op.bytes` each, bindings rounded up to whole
 * words; a reduction writes one record per segment, in segment order.
 *
 * @example
 * ```ts
 * const plan = createOperatorSegmentedPlan(ctx, { op: affine, mode: 'scan', inclusive: true, backward: false,
 *   maxCount: undefined, maxChunkRecords: undefined, forceFallback: false });
 * plan.encode(encoder, { input, headBits, output, count });
 * ```
 */
export function createOperatorSegmentedPlan<T>(ctx: ScanContext, shape: OperatorSegmentedShape<T>): Plan<OperatorSegmentedArgs> {
  const op = shape.op;
  const bytes = op.bytes;
  const WG = Math.min(256, ctx.caps.limits.maxComputeInvocationsPerWorkgroup);
  // The pair adds a word to each record (its head count): runs of about 12 words of records.
  const K = operatorItemsPerThread(op.words, 12);
  const spec: OperatorSegmentedSpec = {
    opKey: op.key,
    mode: shape.mode,
    inclusive: shape.inclusive,
    backward: shape.mode === 'scan' && shape.backward,
    subgroups: operatorSubgroups(ctx, op),
    workgroupSize: WG,
    itemsPerThread: K,
    maxSpin: 64,
    forceFallback: shape.forceFallback,
  };
  const kernel = operatorSegmentedKernel(spec);
  const tileRecords = WG * K;
  const chunkRecords = operatorRangeRecords(ctx, bytes, shape.maxChunkRecords);
  const sizeOf = (count: number) => recordBytes(count, bytes);
  // A pair: the count and the value's words (the struct's size, generously: at most 9 words).
  const pairBytes = 4 * (Math.ceil(Math.max(1, op.words)) + 4);
  const exec = new RecipeExecutor(ctx, `segmented ${shape.mode} ${op.name}`);

  const build = (count: number): Recipe => {
    const b = new RecipeBuilder();
    const carry = b.needScratch('carry', 2 * pairBytes);
    for (const range of operatorRanges(count, chunkRecords, spec.backward)) {
      const tiles = Math.ceil(range.count / tileRecords);
      const status = operatorStatus(b, tiles);
      const records = operatorRecords(b, op, range, chunkRecords);
      // A reduction writes every segment's record: the whole output.
      const dst = shape.mode === 'scan' ? records.store('dst', 'output') : { dst: { role: 'output', offset: 0 } };
      const bits = { role: 'headBits', offset: 0 };
      b.dispatch(kernel, { ...records.load('src', 'input'), ...dst, bits, carry, status }, tiles, {
        count: range.count,
        tiles,
        first: range.start,
        total: count,
        carry_in: range.carryIn,
        carry_out: range.carryOut,
        count_word: 0,
      });
      if (shape.mode === 'scan') records.finish('output');
    }
    return b.build();
  };
  // A scan's count the GPU wrote (one range: maxCount within one binding): the kernel recorded for
  // maxCount, its count, tiles and total filled in by a count fixup, the words past the last whole
  // vec4 copied out by a tail-out kernel that reads the same count.
  const buildGpu = (word: number): Recipe => {
    const b = new RecipeBuilder();
    const carry = b.needScratch('carry', 2 * pairBytes);
    const count = maxCount as number;
    const tiles = Math.ceil(count / tileRecords);
    const status = operatorStatus(b, tiles);
    const counted = countedParams(
      kernel,
      { count: 'count', total: 'count', tiles: { ceilDiv: tileRecords, max: tiles } },
      { first: 0, carry_in: NO_RANGE_CARRY, carry_out: NO_RANGE_CARRY, count_word: 0 },
    );
    const [params, tailOut] = recordCountFixup(b, { word, capacity: count, blocks: [counted, tailOutParams()] });
    const records = operatorRecords(b, op, { start: 0, count }, chunkRecords);
    const bindings = { ...records.load('src', 'input'), ...records.store('dst', 'output'), bits: { role: 'headBits', offset: 0 } };
    b.dispatch(kernel, { ...bindings, carry, status }, tiles, params as BufferRef);
    records.finishCounted('output', tailOut as BufferRef);
    return b.build();
  };
  const maxCount = shape.maxCount;
  const gpuCountable = shape.mode === 'scan' && maxCount !== undefined && maxCount > 0 && maxCount <= chunkRecords;
  if (maxCount !== undefined && maxCount > 0) exec.reserve(build(maxCount));
  const largest = maxCount || chunkRecords;
  // A body that does not compile rejects \`ready\` with the compiler's message in the body's own
  // lines (INVALID_ARGUMENT), before any pipeline of the plan is made from it.
  const ready = checkOperatorCompiles(ctx, op, 'options.op').then(() =>
    exec.load([build(1), build(largest), ...(gpuCountable ? [buildGpu(0)] : [])]),
  );
  const variants = new StructureVariants(() => representativeCounts(largest, chunkRecords).map((n) => build(n)));
  const what = shape.mode === 'scan' ? 'segmented scan plan' : 'segmented reduce plan';

  return planOf([exec], {
    what,
    encode(encoder, args: OperatorSegmentedArgs) {
      const gpu = operatorGpuCount(what, args, maxCount, chunkRecords, op.name);
      if (gpu && shape.mode === 'reduce') {
        throw new ScanError('UNSUPPORTED', `${what}: args.countBuffer: a segmented reduction takes its count from the host`, {
          argument: 'args.countBuffer',
        });
      }
      if (gpu) {
        checkEncodeArgs(
          what,
          { ...args, count: maxCount },
          {
            input: { bytes: sizeOf },
            headBits: { bytes: (n: number) => 4 * Math.max(1, Math.ceil(n / 32)) },
            output: { bytes: sizeOf },
            countBuffer: { bytes: 4 },
          },
        );
        const roles = { input: args.input, headBits: args.headBits, output: args.output, gpuCount: gpu.buffer };
        exec.encode(encoder, () => buildGpu(gpu.offset / 4), roles);
        return;
      }
      const segments = (args as { segments?: number }).segments;
      const count = checkEncodeArgs(what, args, {
        input: { bytes: sizeOf },
        headBits: { bytes: (n: number) => 4 * Math.max(1, Math.ceil(n / 32)) },
        output: { bytes: shape.mode === 'scan' ? sizeOf : (n: number) => sizeOf(segments ?? n) },
      });
      if (count === 0) return;
      exec.encode(encoder, () => build(count), { input: args.input, headBits: args.headBits, output: args.output }, variants);
    },
    ready,
  });
}

/**
 * `createSegmentedScanPlan` / `createSegmentedReducePlan` with a user-defined operator: the
 * operator sets the element type (no `type`), the single pass is the algorithm (no other), and the
 * test hooks and `maxChunkElements` (records per range) carry over.
 *
 * @example
 * ```ts
 * const plan = userOperatorPlan(ctx, affine, 'scan', { inclusive: true });
 * ```
 */
export function userOperatorPlan<T>(
  ctx: ScanContext,
  op: Operator<T>,
  mode: 'scan' | 'reduce',
  raw: Record<string, unknown>,
): Plan<OperatorSegmentedArgs> {
  if (raw['type'] !== undefined) {
    throw new ScanError(
      'INVALID_ARGUMENT',
      `options.type = ${JSON.stringify(raw['type'])}: the operator ${op.name} sets the element type; leave type out`,
      {
        argument: 'options.type',
      },
    );
  }
  const algorithm = raw['algorithm'];
  if (algorithm !== undefined && algorithm !== 'auto' && algorithm !== 'single-pass') {
    throw new ScanError(
      'UNSUPPORTED',
      `options.algorithm = ${JSON.stringify(algorithm)}: the operator ${op.name} is scanned by 'single-pass' (or 'auto')`,
      {
        argument: 'options.algorithm',
      },
    );
  }
  return createOperatorSegmentedPlan(ctx, {
    op,
    mode,
    inclusive: checkBoolean(raw['inclusive'], 'options.inclusive', false),
    backward: checkBoolean(raw['backward'], 'options.backward', false),
    maxCount: raw['maxCount'] === undefined ? undefined : checkCount(raw['maxCount'], 'options.maxCount'),
    maxChunkRecords:
      raw['maxChunkElements'] === undefined ? undefined : checkCount(raw['maxChunkElements'], 'options.maxChunkElements') || undefined,
    forceFallback: raw['forceFallback'] === true,
  });
}
