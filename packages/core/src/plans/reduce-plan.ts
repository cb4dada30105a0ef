import { BufferUsage } from '../buffers.js';
import { assertUsable, type ScanContext } from '../context.js';
import { dispatchShape } from '../dispatch.js';
import { checkElementType, checkOp } from '../element-types.js';
import { ScanError } from '../errors.js';
import { type ReduceSpec, reduceCombineKernel, reducePartialsKernel } from '../kernels/reduce.js';
import type { Operator } from '../operators/operator-type.js';
import { builtinNameOf, userOperatorOf } from '../operators/user-operator.js';
import { checkCount, checkOptions } from '../validate.js';
import { AUX_WORDS, type Chunk, chunkParamValues, maxChunkElements, splitIntoChunks, stageTailIn, vecRange } from './chunks.js';
import { RecipeExecutor } from './executor.js';
import { countedParams, gpuCountOf, recordCountFixup, slotCountDerivation } from './gpu-count.js';
import { createOperatorReducePlan } from './operator-reduce-plan.js';
import { checkCopyUsage, checkEncodeArgs } from './plan-args.js';
import { planOf } from './plan-of.js';
import { type BufferRef, type Recipe, RecipeBuilder } from './recipe.js';
import { representativeCounts, StructureVariants } from './structure-variants.js';
import type { CountSource, Plan } from './types.js';

/** Options of {@link createReducePlan}. */
export interface ReducePlanOptions {
  /** Element type (default `'u32'`). */
  type?: 'u32' | 'i32' | 'f32';
  /** Operator (default `'add'`): a built-in name, or an `Operator` from `defineOperator` (then leave `type` out). */
  // biome-ignore lint/suspicious/noExplicitAny: any operator's record type
  op?: 'add' | 'min' | 'max' | 'mul' | 'and' | 'or' | 'xor' | Operator<any>;
  /** Largest count expected: scratch for it is allocated up front. */
  maxCount?: number;
  /** Largest number of elements one dispatch reads (tests lower it to exercise chunking). */
  maxChunkElements?: number;
}

/** Buffers of one reduction: the result is written as element 0 of `output`. */
export interface ReduceEncodeArgs extends CountSource {
  input: GPUBuffer;
  output: GPUBuffer;
}

/** A reduction recorded into the caller's encoder. */
export type ReducePlan = Plan<ReduceEncodeArgs>;

/** Tuning the bench's sweeps pass; not part of the contract. */
interface ReduceTuning {
  /** The largest chunk one workgroup reduces alone, in one dispatch (no partials, no combine). */
  oneWorkgroupMax?: number;
  /** Invocations and vec4 loads per invocation of that one workgroup. */
  oneWorkgroupSize?: number;
  oneWorkgroupSlots?: number;
}
const TUNING_KEYS = ['oneWorkgroupMax', 'oneWorkgroupSize', 'oneWorkgroupSlots'];

/** Most workgroups of the partials phase: enough to fill a large GPU, few enough for one combine. */
const MAX_PARTIALS = 2048;

/**
 * Creates a reusable reduction (buffer level): `output[0] = input[0] ⊕ … ⊕ input[count-1]`, the
 * identity when `count` is 0. Two dispatches: grid-stride partials, then one workgroup combines
 * (small counts: one workgroup, one dispatch). The count is `count`, or with `maxCount` (within one
 * binding) a u32 the GPU wrote (`countBuffer`). The last kernel writes `output[0]` when `output`
 * has `STORAGE` usage; otherwise the result is copied there (`COPY_DST`).
 *
 * Memory: a 256-byte aux buffer, 8 KiB of partials and a four-slot parameter ring (with a GPU
 * count, the 32-byte parameter block its count fixup fills); an encode with a new count creates
 * nothing once warm.
 * `await plan.ready` compiles its pipelines before the first frame.
 *
 * @example
 * ```ts
 * const plan = createReducePlan(ctx, { type: 'f32', op: 'max' });
 * plan.encode(encoder, { input, output, count });
 * ```
 */
export function createReducePlan(ctx: ScanContext, options: ReducePlanOptions = {}): ReducePlan {
  assertUsable(ctx);
  checkOptions(options, ['type', 'op', 'maxCount', 'maxChunkElements', ...TUNING_KEYS], 'options');
  const user = userOperatorOf(options.op, undefined);
  if (user) {
    if (options.type !== undefined) {
      throw new ScanError(
        'INVALID_ARGUMENT',
        `options.type = ${JSON.stringify(options.type)}: the operator ${user.name} sets the element type; leave type out`,
        {
          argument: 'options.type',
        },
      );
    }
    const maxCount = options.maxCount === undefined ? undefined : checkCount(options.maxCount, 'options.maxCount');
    const maxChunkRecords =
      options.maxChunkElements === undefined ? undefined : checkCount(options.maxChunkElements, 'options.maxChunkElements') || undefined;
    return createOperatorReducePlan(ctx, { op: user, maxCount, maxChunkRecords });
  }
  const tuning = options as ReduceTuning;
  const type = options.type === undefined ? 'u32' : checkElementType(options.type, 'options.type');
  userOperatorOf(options.op, type);
  const spec: ReduceSpec = {
    type,
    op: checkOp(builtinNameOf(options.op), type),
    subgroups: ctx.caps.features.subgroups,
    workgroupSize: Math.min(256, ctx.caps.limits.maxComputeInvocationsPerWorkgroup),
    slotsPerThread: 4,
  };
  const chunkElements = maxChunkElements(ctx, options.maxChunkElements);
  // Small counts: one workgroup reduces the chunk and writes the total, one dispatch instead of
  // partials and combine. Measured on the H100 (BENCHMARKS.md, "Small sizes"): 1024 × 4 vec4s up to
  // 2^14 elements (10.4–10.9 µs, against 12.2–12.7 for two passes); past that two passes win (12.8
  // against 13.6 µs at 2^16). A device with fewer invocations gets one block of its width.
  const oneWorkgroupSpec: ReduceSpec = {
    ...spec,
    final: true,
    workgroupSize: Math.min(tuning.oneWorkgroupSize ?? 1024, ctx.caps.limits.maxComputeInvocationsPerWorkgroup),
    slotsPerThread: tuning.oneWorkgroupSlots ?? spec.slotsPerThread,
  };
  const oneWorkgroupMax = tuning.oneWorkgroupMax ?? 4 * oneWorkgroupSpec.workgroupSize * oneWorkgroupSpec.slotsPerThread;
  const exec = new RecipeExecutor(ctx, 'reduce');
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;

  // The kernels of every path, made once: partials by tail, the one-workgroup kernel by tail and
  // result, combine by result (see below).
  const partialsKernel = {
    staged: reducePartialsKernel({ ...spec, tail: 'staged' }),
    direct: reducePartialsKernel({ ...spec, tail: 'direct' }),
  };
  const finalKernel = (tail: 'staged' | 'direct', result: boolean) => reducePartialsKernel({ ...oneWorkgroupSpec, tail, result });
  const oneWorkgroupKernel = {
    staged: [finalKernel('staged', false), finalKernel('staged', true)],
    direct: [finalKernel('direct', false), finalKernel('direct', true)],
  } as const;
  const combineKernel = [reduceCombineKernel({ ...spec, result: false }), reduceCombineKernel({ ...spec, result: true })] as const;
  const AUX: BufferRef = { scratch: 'aux' };
  const PARTIALS: BufferRef = { scratch: 'partials' };
  const OUTPUT: BufferRef = { role: 'output', offset: 0, size: 4 };
  // The bindings that do not change with the count, by `result` (the last kernel writes the output).
  const combineBindings = [
    { aux: AUX, partials: PARTIALS },
    { aux: AUX, partials: PARTIALS, result: OUTPUT },
  ] as const;

  // `direct`: the partial last vec4 is read in place (the input holds whole vec4s), else staged
  // through aux by a copy (see SlotSpec.tail). `result`: the last kernel writes the output itself
  // (it has STORAGE usage), else a copy from aux does.
  const build = (count: number, direct: boolean, result: boolean): Recipe => {
    const b = new RecipeBuilder();
    b.needScratch('aux', AUX_WORDS * 4);
    b.needScratch('partials', MAX_PARTIALS * 4);
    const tail = direct ? 'direct' : 'staged';
    const chunks = splitIntoChunks(count, chunkElements, false);
    for (const chunk of chunks) {
      if (!direct) stageTailIn(b, 'input', chunk, AUX);
      const last = chunk.order === chunks.length - 1 ? 1 : 0;
      if (chunk.count <= oneWorkgroupMax) {
        // Small: one workgroup reduces the chunk and combines the carry itself, in one dispatch.
        b.dispatch(
          oneWorkgroupKernel[tail][result ? 1 : 0],
          { src: vecRange('input', chunk), aux: AUX, result: result ? OUTPUT : undefined },
          1,
          chunkParamValues(chunk, 1, 1, last),
        );
        continue;
      }
      const workgroups = Math.min(MAX_PARTIALS, Math.ceil(chunk.slots / (spec.workgroupSize * spec.slotsPerThread)));
      const partials = partialsKernel[tail];
      const params = b.paramsFor(partials, chunkParamValues(chunk, workgroups, dispatchShape(workgroups, maxDim).x, last));
      // In place, the partials read nothing from aux (and do not declare it).
      b.dispatch(partials, { src: vecRange('input', chunk), aux: direct ? undefined : AUX, partials: PARTIALS }, workgroups, params);
      b.dispatch(combineKernel[result ? 1 : 0], combineBindings[result ? 1 : 0], 1, params);
    }
    const carry = (chunks[chunks.length - 1] as Chunk).carryOut;
    if (!result) b.copy({ scratch: 'aux', offset: carry * 4 }, { role: 'output', offset: 0, size: 4 }, 4);
    return b.build();
  };
  const maxCount = options.maxCount === undefined ? undefined : checkCount(options.maxCount, 'options.maxCount');
  // A count the GPU wrote: the kernels are recorded for maxCount (one chunk) and a fixup turns the
  // count into their parameters, field by field (and, without `direct`, stages the partial last
  // vec4; see recordCountFixup). The combine reads the partials' block: its parameters are the same
  // list (SLOT_PARAMS).
  const buildGpu = (word: number, direct: boolean, result: boolean): Recipe => {
    const b = new RecipeBuilder();
    b.needScratch('aux', AUX_WORDS * 4);
    b.needScratch('partials', MAX_PARTIALS * 4);
    const [chunk] = splitIntoChunks(maxCount as number, chunkElements, false) as [Chunk];
    const workgroups = Math.min(MAX_PARTIALS, Math.ceil(chunk.slots / (spec.workgroupSize * spec.slotsPerThread)));
    const partials = partialsKernel[direct ? 'direct' : 'staged'];
    const [params] = recordCountFixup(b, {
      word,
      capacity: chunk.count,
      blocks: [
        countedParams(partials, slotCountDerivation(4 * spec.workgroupSize * spec.slotsPerThread, workgroups), {
          dispatch_x: dispatchShape(workgroups, maxDim).x,
          carry_in: chunk.carryIn,
          carry_out: chunk.carryOut,
          extra: 1,
        }),
      ],
      ...(direct ? {} : { tail: { input: { role: 'input', offset: 0 }, aux: AUX } }),
    }) as [BufferRef];
    b.dispatch(partials, { src: vecRange('input', chunk), aux: direct ? undefined : AUX, partials: PARTIALS }, workgroups, params);
    b.dispatch(combineKernel[result ? 1 : 0], combineBindings[result ? 1 : 0], 1, params);
    if (!result) b.copy({ scratch: 'aux', offset: chunk.carryOut * 4 }, { role: 'output', offset: 0, size: 4 }, 4);
    return b.build();
  };
  /** Whether the input holds `count` elements' last whole vec4 (then it is read in place). */
  const inPlace = (count: number, input: GPUBuffer): boolean => count % 4 === 0 || input.size >= 16 * Math.ceil(count / 4);
  const gpuCountable = maxCount !== undefined && maxCount > 0 && maxCount <= chunkElements;
  if (maxCount !== undefined && maxCount > 0) exec.reserve(build(maxCount, false, false));
  /** Whether the output can be bound as storage (then the last kernel writes it; else a copy does). */
  const writable = (output: GPUBuffer): boolean => typeof output.usage !== 'number' || (output.usage & BufferUsage.STORAGE) !== 0;
  // `ready` compiles the kernels of both tails (in place, and staged for an exact-size input of a
  // count that is not a multiple of 4), each tier's: the first encode with a set of buffers makes the
  // bind groups of every variant, staged ones included, and a kernel left out here would be compiled
  // there, synchronously (the quicksort rounds' frame loop caught one).
  const largest = Math.min(chunkElements, maxCount || chunkElements);
  const ready = exec.load([
    ...[true, false].flatMap((direct) => [build(1, direct, true), build(largest, direct, true)]),
    ...(gpuCountable ? [buildGpu(0, true, true)] : []),
  ]);

  // Every structure a host count up to maxCount (one binding without it) may take, by `result`
  // (which the output buffer decides, not the count): both tiers and both tails — an input that
  // does not hold a partial last vec4 stages it, only for the counts near its end. The first
  // encode with a set of buffers makes all their bind groups (see StructureVariants).
  const variantsOf = (result: boolean) =>
    new StructureVariants(() =>
      representativeCounts(maxCount || chunkElements, chunkElements).flatMap((n) =>
        (n % 4 === 0 ? [true] : [true, false]).map((direct) => build(n, direct, result)),
      ),
    );
  const variants = [variantsOf(false), variantsOf(true)] as const;

  return planOf([exec], {
    what: 'reduce plan',
    encode(encoder, args) {
      const gpu = gpuCountOf('reduce plan', args, maxCount);
      if (gpu) {
        if (!gpuCountable) {
          throw new ScanError(
            'UNSUPPORTED',
            `reduce plan: args.countBuffer needs maxCount (${maxCount}) from 1 to one binding (${chunkElements} elements)`,
            {
              argument: 'args.countBuffer',
            },
          );
        }
        checkEncodeArgs('reduce plan', { ...args, count: maxCount }, { input: 4, output: { bytes: 4 }, countBuffer: { bytes: 4 } });
        const result = writable(args.output);
        if (!result) checkCopyUsage('reduce plan', {}, { output: args.output });
        const direct = inPlace(maxCount as number, args.input);
        const roles = { input: args.input, output: args.output, gpuCount: gpu.buffer };
        exec.encode(encoder, () => buildGpu(gpu.offset / 4, direct, result), roles);
        return;
      }
      const count = checkEncodeArgs('reduce plan', args, { input: 4, output: { bytes: 4 } });
      const direct = inPlace(count, args.input);
      const result = writable(args.output);
      checkCopyUsage('reduce plan', direct ? {} : { input: args.input }, result ? {} : { output: args.output });
      exec.encode(encoder, () => build(count, direct, result), { input: args.input, output: args.output }, variants[result ? 1 : 0]);
    },
    ready,
  });
}
