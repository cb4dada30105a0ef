import { BufferUsage } from '../buffers.js';
import type { ScanContext } from '../context.js';
import { dispatchShape } from '../dispatch.js';
import type { ElementType } from '../element-types.js';
import { invalidArgument } from '../errors.js';
import {
  type CompactAlongside,
  type CompactSpec,
  compactKernel,
  type FlagSource,
  flagCountKernel,
  flagsFromData,
} from '../kernels/compact.js';
import { decoupledFallbackStatusBytes } from '../kernels/decoupled-look-back.js';
import { dispatchArgsKernel } from '../kernels/dispatch-args.js';
import { keptGapsKernel } from '../kernels/kept-gaps.js';
import { countedParams, recordCountFixup, slotCountDerivation } from './gpu-count.js';
import { type BindingsOf, type BufferRef, type Recipe, RecipeBuilder } from './recipe.js';

/** Tuning of the one-pass kernels; internal (tests and the bench's sweeps), not part of the contract. */
export interface CompactTuning {
  workgroupSize?: number;
  elementsPerThread?: number;
  maxSpin?: number;
  forceFallback?: boolean;
  /** Rank by the ballot's four words whatever the subgroup size (see `ScatterTuning.wideBallot`). */
  wideBallot?: boolean;
}

/**
 * Everything a one-pass split or pack is specialized on, after defaults; `gaps`: a pack that writes
 * its indices also writes the distance from each kept element to the next (a pass after it).
 */
export type CompactShape = Omit<CompactSpec, 'forceFallback'> & { readonly forceFallback: boolean; readonly gaps: boolean };

/** What a pack writes beside its elements: {@link CompactAlongside}, and the gaps between kept indices. */
export interface PackOutputs extends CompactAlongside {
  readonly gaps: boolean;
}

/**
 * The shape of a one-pass split or pack on this device, from the H100 sweep in BENCHMARKS.md
 * (2^28 u32): 256 invocations × 24 elements with u32 flags (pack 0.98 ms, against 1.03 at 16),
 * × 32 with u8 flags (read a word per lane: pack 0.73 ms, split 1.08 against 1.15 at 16), × 16 for
 * the predicate and run heads.
 *
 * @example
 * ```ts
 * const shape = compactShape(ctx, 'pack', { kind: 'u8' }, 'u32', {});
 * ```
 */
export function compactShape(
  ctx: ScanContext,
  mode: 'split' | 'pack',
  flags: FlagSource,
  type: ElementType,
  t: CompactTuning,
  outputs?: PackOutputs,
): CompactShape {
  // The gaps are differences of the kept indices, so they need them written.
  if (outputs?.gaps && !outputs.indices) throw new Error('internal error: a pack writes gaps only beside its indices');
  const workgroupSize = t.workgroupSize ?? Math.min(256, ctx.caps.limits.maxComputeInvocationsPerWorkgroup);
  const elementsPerThread = t.elementsPerThread ?? (flags.kind === 'u32' ? 24 : flags.kind === 'u8' ? 32 : 16);
  // The flags of an invocation are one 32-bit mask.
  if (!Number.isInteger(elementsPerThread) || elementsPerThread < 1 || elementsPerThread > 32) {
    invalidArgument('options.elementsPerThread', elementsPerThread, 'expected an integer in [1, 32]');
  }
  return {
    mode,
    flags,
    type,
    subgroups: ctx.caps.features.subgroups,
    ...(ctx.caps.features.subgroups && ctx.caps.subgroupMaxSize !== undefined && !t.wideBallot
      ? { subgroupMaxSize: ctx.caps.subgroupMaxSize }
      : {}),
    workgroupSize,
    elementsPerThread,
    maxSpin: t.maxSpin ?? 64,
    forceFallback: t.forceFallback ?? false,
    ...(outputs && (outputs.indices || outputs.companion) ? { alongside: { indices: outputs.indices, companion: outputs.companion } } : {}),
    gaps: outputs?.gaps ?? false,
  };
}

/** The kernels of a shape and their bindings, which do not change with the count. */
interface CompactKernels {
  readonly count: ReturnType<typeof flagCountKernel> | undefined;
  readonly countBindings: BindingsOf<'src' | 'flags' | 'trues_total'>;
  readonly compact: ReturnType<typeof compactKernel>;
  readonly compactBindings: BindingsOf<
    'src' | 'moved' | 'status' | 'flags' | 'count_out' | 'trues_total' | 'indices_out' | 'companion' | 'companion_out'
  >;
  readonly gaps: ReturnType<typeof keptGapsKernel> | undefined;
}

// Whole buffers: the kernels stop at params.count, so the bindings (and bind groups) serve every count.
const INPUT: BufferRef = { role: 'input', offset: 0 };
const FLAGS: BufferRef = { role: 'flags', offset: 0 };
const OUTPUT: BufferRef = { role: 'output', offset: 0 };
const COUNT: BufferRef = { role: 'count', offset: 0, size: 4 };
const STATUS: BufferRef = { scratch: 'status' };
const TRUES: BufferRef = { scratch: 'trues' };
const INDICES: BufferRef = { role: 'indices', offset: 0 };
const COMPANION: BufferRef = { role: 'companion', offset: 0 };
const COMPANION_OUT: BufferRef = { role: 'companionOut', offset: 0 };
const GAPS: BufferRef = { role: 'gaps', offset: 0 };
/** The gaps pass's workgroup counts, which the GPU writes from the kept count. */
const GAP_ARGS: BufferRef = { scratch: 'gapArgs', offset: 0, size: 12 };

/** The kernels of each shape a plan made, so an encode makes none. */
const kernelsOfShape = new WeakMap<CompactShape, CompactKernels>();

function kernelsOf(shape: CompactShape): CompactKernels {
  const known = kernelsOfShape.get(shape);
  if (known) return known;
  const flags = flagsFromData(shape.flags) ? undefined : FLAGS;
  const split = shape.mode === 'split';
  const { gaps, ...spec } = shape;
  const alongside = shape.alongside;
  const kernels: CompactKernels = {
    count: split ? flagCountKernel(shape) : undefined,
    countBindings: { src: flags ? undefined : INPUT, flags, trues_total: TRUES },
    compact: compactKernel(spec),
    compactBindings: {
      src: INPUT,
      moved: OUTPUT,
      status: STATUS,
      flags,
      count_out: COUNT,
      trues_total: split ? TRUES : undefined,
      indices_out: alongside?.indices ? INDICES : undefined,
      companion: alongside?.companion ? COMPANION : undefined,
      companion_out: alongside?.companion ? COMPANION_OUT : undefined,
    },
    gaps: gaps ? keptGapsKernel({ workgroupSize: shape.workgroupSize }) : undefined,
  };
  kernelsOfShape.set(shape, kernels);
  return kernels;
}

/**
 * The recipe of a one-pass split or pack of `count` elements (count > 0) from role `input` (and
 * `flags`) into `output`, the kept or false count into role `count` at byte 0: clear the look-back
 * status (and split's true count), split's count pass, then the one-pass kernel; a pack's writes
 * beside each element go to roles `indices` and `companionOut` (from `companion`), and the gaps
 * pass after it to `gaps`. The kernels read and write u32 words, so no partial vec4 needs staging.
 * `predicateBits` is the predicate constant's bit pattern.
 *
 * @example
 * ```ts
 * exec.encode(encoder, () => compactRecipe(ctx, shape, n, 0), { input, flags, output, count });
 * ```
 */
export function compactRecipe(ctx: ScanContext, shape: CompactShape, count: number, predicateBits: number, gpuCountWord?: number): Recipe {
  const b = new RecipeBuilder();
  const kernels = kernelsOf(shape);
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const tiles = Math.ceil(count / (shape.workgroupSize * shape.elementsPerThread));
  b.needScratch('status', decoupledFallbackStatusBytes(tiles));
  b.clear(STATUS);
  // The slot kernels' parameters, of which these read count, tiles, dispatch_x and extra. With a
  // count the GPU wrote, `count` is the plan's maxCount and a fixup writes the real ones, by name,
  // into the block both kernels read (split's count pass has the same parameter list).
  const dispatchX = dispatchShape(tiles, maxDim).x;
  const params =
    gpuCountWord === undefined
      ? b.paramsFor(kernels.compact, {
          count,
          slots: 0,
          full_vecs: 0,
          tiles,
          dispatch_x: dispatchX,
          carry_in: 0,
          carry_out: 0,
          extra: predicateBits,
        })
      : (recordCountFixup(b, {
          word: gpuCountWord,
          capacity: count,
          blocks: [
            countedParams(kernels.compact, slotCountDerivation(shape.workgroupSize * shape.elementsPerThread, tiles), {
              dispatch_x: dispatchX,
              carry_in: 0,
              carry_out: 0,
              extra: predicateBits,
            }),
          ],
          zeroOut: COUNT,
        })[0] as BufferRef);
  if (kernels.count) {
    b.needScratch('trues', 16);
    b.clear(TRUES);
    b.dispatch(kernels.count, kernels.countBindings, tiles, params);
  }
  b.dispatch(kernels.compact, kernels.compactBindings, tiles, params);
  if (kernels.gaps) {
    // The gaps between kept indices, one invocation per kept element: as many workgroups as the
    // kept count needs, which only the GPU knows.
    b.needScratch('gapArgs', 16, BufferUsage.INDIRECT);
    b.dispatch(dispatchArgsKernel({}), { count: COUNT, args: GAP_ARGS }, 1, { per_group: shape.workgroupSize, max_dim: maxDim, word: 0 });
    b.dispatchIndirect(kernels.gaps, { indices: INDICES, kept_count: COUNT, gaps: GAPS }, GAP_ARGS, params);
  }
  return b.build();
}
