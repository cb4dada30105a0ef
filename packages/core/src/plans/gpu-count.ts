import { BufferUsage } from '../buffers.js';
import { invalidArgument, ScanError } from '../errors.js';
import type { Kernel, ParamFields, ParamValues } from '../kernels/define-kernel.js';
import {
  COUNT_FIXUP_ARGS,
  COUNTED_BLOCK_WORDS,
  type CountFixupField,
  countedBlockReadsHost,
  countFixupKernel,
  MAX_COUNTED_BLOCKS,
  type TailOutSpec,
  tailOutKernel,
} from '../kernels/gpu-count.js';
import { checkCount } from '../validate.js';
import type { BufferRef, RecipeBuilder } from './recipe.js';

/**
 * A count the GPU holds: the u32 at byte `offset` of `buffer`.
 *
 * @example
 * ```ts
 * const gpu: GpuCount | undefined = gpuCountOf('scan plan', args, maxCount);
 * const word = gpu ? gpu.offset / 4 : 0; // the count's word: a parameter of the fixup (the buffer binds whole)
 * ```
 */
export interface GpuCount {
  readonly buffer: GPUBuffer;
  readonly offset: number;
}

/**
 * Where an encode's count comes from: `args.count` (a number), or `args.countBuffer` (and
 * `args.countOffset`, default 0) — a u32 the GPU wrote, which needs the plan's `maxCount` (the plan
 * records its work for that many elements and handles min(GPU count, maxCount)). Throws a
 * `ScanError` naming the argument when both or neither are given, when `maxCount` is missing, or
 * when the offset is not a multiple of 4 inside the buffer. The buffer itself is checked with the
 * other buffers (`checkEncodeArgs`).
 *
 * @example
 * ```ts
 * const gpu = gpuCountOf('scan plan', args, maxCount); // undefined for a host count
 * ```
 */
export function gpuCountOf(what: string, args: unknown, maxCount: number | undefined): GpuCount | undefined {
  const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  if (a.countBuffer === undefined) return undefined;
  if (a.count !== undefined) {
    throw new ScanError('INVALID_ARGUMENT', `${what}: args.count and args.countBuffer are both given; give one`, {
      argument: 'args.count',
    });
  }
  if (maxCount === undefined) {
    throw new ScanError('INVALID_ARGUMENT', `${what}: args.countBuffer needs the plan option maxCount (the most elements it may hold)`, {
      argument: 'args.countBuffer',
    });
  }
  const buffer = a.countBuffer as GPUBuffer;
  const offset = a.countOffset === undefined ? 0 : checkCount(a.countOffset, 'args.countOffset');
  const size = typeof buffer?.size === 'number' ? buffer.size : 0;
  if (offset % 4 !== 0 || offset + 4 > size) {
    invalidArgument('args.countOffset', offset, `expected a multiple of 4 inside args.countBuffer (${size} bytes)`);
  }
  return { buffer, offset };
}

/**
 * How a parameter that depends on the count follows from it, n being min(the GPU's count, the
 * fixup's `capacity`):
 *
 * - `'count'`: n;
 * - `'vec4s'`: ⌈n / 4⌉ (a slot kernel's `slots`);
 * - `'wholeVec4s'`: ⌊n / 4⌋ (a slot kernel's `full_vecs`);
 * - `{ ceilDiv: d, max?: m }`: min(⌈n / d⌉, m) — tiles or workgroups of d elements each, at most the
 *   m dispatched.
 *
 * Derived fields are `u32`.
 *
 * @example
 * ```ts
 * const tiles: CountDerivation = { ceilDiv: 4096, max: 64 };
 * ```
 */
export type CountDerivation = 'count' | 'vec4s' | 'wholeVec4s' | { readonly ceilDiv: number; readonly max?: number };

/**
 * The count-dependent fields of a kernel with parameters `P`, by name, each with its derivation.
 *
 * @example
 * ```ts
 * const derived: CountDerived<typeof SLOT_PARAMS> = { count: 'count', slots: 'vec4s', full_vecs: 'wholeVec4s' };
 * ```
 */
export type CountDerived<P extends ParamFields> = { readonly [K in keyof P]?: CountDerivation };

/**
 * The values, by name, of the fields of `P` that `D` does not derive.
 *
 * @example
 * ```ts
 * const values: HostValues<{ count: 'u32'; dispatch_x: 'u32' }, { count: 'count' }> = { dispatch_x: 1 };
 * ```
 */
export type HostValues<P extends ParamFields, D> = { readonly [K in Exclude<keyof P, keyof D>]: number };

/**
 * The derived fields of a slot kernel's parameters (`SLOT_PARAMS`) for a count the GPU wrote:
 * `count`, `slots` and `full_vecs` from the count, `tiles` its tiles of `tileElements`, at most the
 * `maxTiles` dispatched. The others (`dispatch_x`, the carries, `extra`) are the host's.
 *
 * @example
 * ```ts
 * const block = countedParams(kernel, slotCountDerivation(4096, tiles), { dispatch_x: x, carry_in: NO_CARRY, carry_out: NO_CARRY, extra: 0 });
 * ```
 */
export function slotCountDerivation(tileElements: number, maxTiles: number) {
  return {
    count: 'count',
    slots: 'vec4s',
    full_vecs: 'wholeVec4s',
    tiles: { ceilDiv: tileElements, max: maxTiles },
  } as const satisfies CountDerived<{ count: 'u32'; slots: 'u32'; full_vecs: 'u32'; tiles: 'u32' }>;
}

/**
 * One parameter block a count fixup fills (see {@link countedParams}): the kernel it is for, the
 * values the host writes (its derived fields as 0) and how the derived ones follow from the count.
 *
 * @example
 * ```ts
 * const blocks: CountedParams[] = [countedParams(kernel, { count: 'count' }, { dispatch_x: 1 })];
 * ```
 */
export interface CountedParams {
  readonly kernel: Kernel;
  /** Every field's host value, by name (0 for the derived ones). */
  readonly values: Readonly<Record<string, number>>;
  readonly derived: Readonly<Record<string, CountDerivation>>;
}

/**
 * Describes the parameter block of `kernel` for a count the GPU wrote: the fields in `derived`
 * follow from the count (see {@link CountDerivation}), the others are `values`, by name, as for any
 * dispatch. {@link recordCountFixup} then writes the values into the parameter ring as usual and has
 * the GPU copy them into a uniform scratch, with the derived fields filled in — each field found by
 * its name in the kernel's parameter list, so their order is the kernel's business. The values are
 * copied here, so an object reused for the next block may change afterwards. Throws (a plan bug) for
 * a derived name that is not one of the kernel's `u32` parameters.
 *
 * @example
 * ```ts
 * const scan = countedParams(kernel, { count: 'count', slots: 'vec4s', full_vecs: 'wholeVec4s', tiles: { ceilDiv: 4096, max: tiles } }, {
 *   dispatch_x: x,
 *   carry_in: NO_CARRY,
 *   carry_out: NO_CARRY,
 *   extra: 0,
 * });
 * ```
 */
export function countedParams<P extends ParamFields, D extends CountDerived<P>>(
  kernel: Kernel<string, P>,
  derived: D,
  values: HostValues<P, D>,
): CountedParams {
  const all: Record<string, number> = {};
  const fields = kernel.params as ParamFields;
  for (const name in derived) {
    if (fields[name] !== 'u32') {
      throw new Error(`internal error: a count fixup derives "${name}", which is not a u32 parameter of kernel ${kernel.key}`);
    }
  }
  for (const name in fields) {
    if (name in derived) all[name] = 0;
    else {
      const value = (values as Record<string, number | undefined>)[name];
      if (value === undefined) throw new Error(`internal error: kernel ${kernel.key}'s parameter "${name}" is neither given nor derived`);
      all[name] = value;
    }
  }
  return { kernel: kernel as unknown as Kernel, values: all, derived: derived as Record<string, CountDerivation> };
}

/**
 * The block {@link recordTailOut}'s kernel reads (the count only): give it to the fixup among the
 * others and pass its ref to `recordTailOut`.
 *
 * @example
 * ```ts
 * const [params, tailOut] = recordCountFixup(b, { word, capacity, blocks: [scanBlock, tailOutParams()], tail: { input, aux } });
 * ```
 */
export function tailOutParams(): CountedParams {
  return TAIL_OUT_PARAMS;
}

const TAIL_OUT_PARAMS = countedParams(tailOutKernel({}), { count: 'count' }, {});

/**
 * What {@link recordCountFixup} needs: where the count is, its cap, the blocks to fill, and the extras.
 *
 * @example
 * ```ts
 * const fixup: CountFixup = { word: 0, capacity: maxCount, blocks: [block], zeroOut: { role: 'count', offset: 0, size: 4 } };
 * ```
 */
export interface CountFixup {
  /** The count's word in the caller's buffer. */
  readonly word: number;
  /** The buffer that holds it, bound whole (default: role `gpuCount`). */
  readonly from?: BufferRef;
  /** The plan's maxCount: the count is clamped to it. */
  readonly capacity: number;
  /** The parameter blocks to fill (see {@link countedParams}), at most 8; their refs come back in this order. */
  readonly blocks: readonly CountedParams[];
  /** Stage the input's partial last vec4 into aux (slot kernels). */
  readonly tail?: { readonly input: BufferRef; readonly aux: BufferRef };
  /** A count output to zero when the count is 0 (no tile runs to write it then). */
  readonly zeroOut?: BufferRef;
}

/** The caller's count buffer, bound whole (the count's word is a parameter). */
const GPU_COUNT: BufferRef = { role: 'gpuCount', offset: 0 };
/** The scratch the fixups of a plan write: one block every 256 bytes, read as uniforms. */
const COUNTED = 'counted';
const COUNTED_BYTES = 4 * COUNTED_BLOCK_WORDS;

/** The refs of the `counted` scratch's blocks, made once. */
const countedRefs: BufferRef[] = Array.from({ length: MAX_COUNTED_BLOCKS }, (_, i) => ({
  scratch: COUNTED,
  offset: i * COUNTED_BYTES,
  size: 32,
}));

/**
 * Records the count fixup (see `countFixupKernel`): ONE dispatch that fills every block of
 * `fixup.blocks` from the count the GPU wrote — the fields that do not depend on the count as the host
 * wrote them into the parameter ring, the derived ones computed on the GPU — and returns the refs
 * the kernels bind as their `params`, in order: blocks of a uniform scratch, `counted`, 256 bytes
 * apart. A ref serves any kernel whose parameter list is its target's. One such scratch serves any
 * number of encodes into one encoder, since each encode's fixup runs right before the kernels that
 * read it. With `tail` it also stages the partial last vec4 (give it {@link tailOutParams} and
 * record {@link recordTailOut} after the kernels); with `zeroOut`, it writes 0 there for a count of 0.
 *
 * @example
 * ```ts
 * const fixed = countedParams(kernel, { count: 'count', tiles: { ceilDiv: 4096, max: tiles } }, { dispatch_x: x, extra: 0 });
 * const [params] = recordCountFixup(b, { word, capacity: maxCount, blocks: [fixed] });
 * b.dispatch(kernel, { src: input, dst: output, aux, status }, tiles, params);
 * ```
 */
export function recordCountFixup(b: RecipeBuilder, fixup: CountFixup): BufferRef[] {
  const count = fixup.blocks.length;
  if (count === 0 || count > MAX_COUNTED_BLOCKS) {
    throw new Error(`internal error: a count fixup fills ${count} blocks, from 1 to ${MAX_COUNTED_BLOCKS}`);
  }
  b.needScratch(COUNTED, (count - 1) * COUNTED_BYTES + 32, BufferUsage.UNIFORM);
  // The argument words of the `ceilDiv` fields, each distinct value once.
  const args: number[] = [];
  const argOf = (value: number): number => {
    if (!Number.isInteger(value) || value < 1 || value > 0xffffffff) {
      throw new Error(`internal error: a count fixup's divisor or cap is ${value}, not a u32 of at least 1`);
    }
    let i = args.indexOf(value);
    if (i < 0) {
      i = args.push(value) - 1;
      if (i >= COUNT_FIXUP_ARGS) throw new Error(`internal error: a count fixup needs more than ${COUNT_FIXUP_ARGS} divisors and caps`);
    }
    return i;
  };
  const bindings: Record<string, BufferRef | undefined> = {
    count_src: fixup.from ?? GPU_COUNT,
    counted: { scratch: COUNTED },
    src_words: fixup.tail?.input,
    aux: fixup.tail?.aux,
    count_out: fixup.zeroOut,
  };
  const blocks = fixup.blocks.map((block, i) => {
    const params = block.kernel.params as ParamFields;
    const fields: CountFixupField[] = [];
    for (const name in params) {
      const type = params[name] as ParamFields[string];
      const how = block.derived[name];
      if (how === undefined) fields.push({ name, type, from: 'host' });
      else if (typeof how === 'string') fields.push({ name, type, from: how });
      else fields.push({ name, type, from: 'ceilDiv', divisor: argOf(how.ceilDiv), max: how.max === undefined ? -1 : argOf(how.max) });
    }
    // A block whose every field is derived needs nothing from the host.
    if (countedBlockReadsHost(fields)) bindings[`host${i}`] = b.paramsFor(block.kernel, block.values as ParamValues<ParamFields>);
    return fields;
  });
  const a = (i: number) => args[i] ?? 0;
  b.dispatch(countFixupKernel({ blocks, tail: fixup.tail !== undefined, zeroOut: fixup.zeroOut !== undefined }), bindings, 1, {
    count_word: fixup.word,
    capacity: fixup.capacity,
    a0: a(0),
    a1: a(1),
    a2: a(2),
    a3: a(3),
    a4: a(4),
    a5: a(5),
  });
  return countedRefs.slice(0, count);
}

/**
 * Records the copy of the partial last vec4 from aux into `output` after slot kernels ran on a
 * count the GPU wrote (see `tailOutKernel`; `spec`: records of several words, staged elsewhere in
 * aux). `params` is the ref of the fixup's {@link tailOutParams} block.
 *
 * @example
 * ```ts
 * recordTailOut(b, tailOut, aux, { role: 'output', offset: 0 });
 * ```
 */
export function recordTailOut(b: RecipeBuilder, params: BufferRef, aux: BufferRef, output: BufferRef, spec: TailOutSpec = {}): void {
  b.dispatch(tailOutKernel(spec), { aux, dst_words: output }, 1, params);
}
