/**
 * `@scan/core/kit`, **for package authors**: what the kernels and plans of the other `@scan/*`
 * packages (segmented scan, sort, SpMV, HiSparse, tcu, tridiag) and the apps build on — kernel
 * definitions (bindings and parameters by name, keys derived from the specialization), the
 * per-device pipeline cache, the recipe builder and executor behind every plan, the vec4 slot view
 * of arrays of any length and direction, chunking with a carried total, group scans, argument
 * checks, error scopes, and GPU sessions for array-level functions. It exports only what those
 * packages use.
 *
 * Kernels are made of **blocks** (CUB's block layer), each WGSL for one specialization with what it
 * needs from the kernel (`WgslBlock`; `composeBlocks` gathers the needs): the tile load and store
 * (`tileIo`), `blockReduce`, `blockScan` and `blockDiscontinuity`. Between tiles, a single-pass
 * kernel takes its **tile prefix** from the decoupled look-back with fallback (`tileLookBack`, or
 * `decoupledLookBack` for other status encodings and walkers), as segmented, the sort and tcu do.
 * CONTRIBUTING.md, "Writing a kernel", shows a kernel written from them.
 *
 * Applications do not need these names: what an application uses (the context, `ScanError`, the
 * primitives and their plans, buffers and timing) is `@scan/core`'s main entry. **The kit may change
 * between minor versions** (it follows the kernels); pin `@scan/core` to a minor range if you build
 * on it.
 *
 * @example
 * ```ts
 * import { defineKernel, read, readWrite, RecipeBuilder, RecipeExecutor } from '@scan/core/kit';
 * import type { ScanContext } from '@scan/core';
 * ```
 *
 * @module kit (for package authors)
 */

export { assertUsable } from '../context.js';
export { dispatchShape } from '../dispatch.js';
export { checkElementType, checkOp, identityOf, opFitsType, typedArrayFor, typedArrayOver } from '../element-types.js';
export { describeValue, invalidArgument } from '../errors.js';
export { runGuarded } from '../gpu-errors.js';
export { type BoundBuffer, bindGroupByName, paramsData } from '../kernels/bind-by-name.js';
export type { BlockCombineSpec, TileArrangement } from '../kernels/blocks/arrangement.js';
export { type ComposedBlocks, composeBlocks, type WgslBlock } from '../kernels/blocks/block.js';
export {
  type BlockDiscontinuityBlock,
  type BlockDiscontinuitySpec,
  blockDiscontinuity,
} from '../kernels/blocks/block-discontinuity.js';
export { type BlockReduceBlock, type BlockReduceSpec, blockReduce } from '../kernels/blocks/block-reduce.js';
export { type BlockScanBlock, type BlockScanSpec, blockScan } from '../kernels/blocks/block-scan.js';
export {
  type TileElements,
  type TileIoBlock,
  type TileIoSpec,
  type TileSlots,
  tileIo,
} from '../kernels/blocks/tile-io.js';
export { type TileWords, wordsTail } from '../kernels/blocks/tile-words.js';
export {
  type DecoupledLookBack,
  decoupledFallbackStatusBytes,
  decoupledLookBack,
  LOOK_BACK_STATUS,
  type LookBackSpec,
  type LookBackWalkers,
  lookBackCommonWgsl,
  type StatusEncoding,
  TAKE_TILE_WGSL,
  tileLookBack,
} from '../kernels/decoupled-look-back.js';
export {
  type BindingAccess,
  type BindingDecl,
  defineKernel,
  type Kernel,
  type KernelBinding,
  type KernelDefinition,
  PARAMS_BINDING,
  type ParamFields,
  type ParamType,
  type ParamValues,
  read,
  readWrite,
  type SpecializationLike,
  uniform,
} from '../kernels/define-kernel.js';
export type { TailOutSpec } from '../kernels/gpu-count.js';
export {
  type BlockField,
  type BlockOp,
  groupIdentityWgsl,
  groupScanWgsl,
  type ShuffleScalarType,
  type ShuffleType,
} from '../kernels/group-scan.js';
export { type KeyCompare, keyDifferWgsl } from '../kernels/key-differ.js';
export { scanOrderOp } from '../kernels/operator-scan.js';
export { operatorItemsPerThread, operatorTileSource } from '../kernels/operator-tile-source.js';
export { type SinglePassScanParts, singlePassScanWgsl } from '../kernels/single-pass-scan.js';
export {
  LINEAR_WORKGROUP_WGSL,
  NO_CARRY,
  SLOT_PARAMS,
  type SlotSpec,
  scratchSlotBindings,
  scratchSlotFunctionsWgsl,
  slotBindings,
  slotFunctionsWgsl,
} from '../kernels/slots.js';
export type { Specialization, SpecValue } from '../kernels/specialization-key.js';
export { unroll } from '../kernels/unroll.js';
export { type ValueWords, valueWords } from '../kernels/value-words.js';
export { WGSL_PRELUDE, type WgslOp, wgslOp } from '../kernels/wgsl-ops.js';
export { segmentedReduceWith, segmentedScanWith } from '../operators/cpu-operator.js';
export { isOperator, operatorOfKey } from '../operators/define-operator.js';
export { checkHostArray, type HostLayout, hostArrayOver, newHostArray, readRecord, writeRecord } from '../operators/host-records.js';
export { checkHeads, type HeadFlags, type OperatorScanOptions } from '../operators/operator-args.js';
export { operatorBlockOp } from '../operators/operator-block-op.js';
export { checkOperatorCompiles } from '../operators/operator-compile-check.js';
export { operatorSubgroups } from '../operators/operator-subgroups.js';
export { builtinNameOf, checkOperatorAlgorithm, userOperatorOf } from '../operators/user-operator.js';
export { GpuSession, withSession } from '../ops/session.js';
export { getPipeline, type KernelSpec, loadPipelines, setVerifyKernelKeys } from '../pipeline-cache.js';
export {
  AUX_WORDS,
  type Chunk,
  chunkParamValues,
  maxChunkElements,
  splitIntoChunks,
  stageTailIn,
  stageTailOut,
  vecRange,
} from '../plans/chunks.js';
export { RecipeExecutor } from '../plans/executor.js';
export {
  type CountDerivation,
  type CountDerived,
  type CountedParams,
  type CountFixup,
  countedParams,
  type GpuCount,
  gpuCountOf,
  type HostValues,
  recordCountFixup,
  recordTailOut,
  slotCountDerivation,
  tailOutParams,
} from '../plans/gpu-count.js';
export {
  NO_RANGE_CARRY,
  type OperatorRange,
  operatorGpuCount,
  operatorRangeRecords,
  operatorRanges,
  operatorStatus,
  recordBytes,
} from '../plans/operator-ranges.js';
export { operatorRecords } from '../plans/operator-records.js';
export { checkCopyUsage, checkEncodeArgs, checkEncodeCall } from '../plans/plan-args.js';
export { type PlanPart, planOf } from '../plans/plan-of.js';
export {
  type BindingsOf,
  type BufferRef,
  type ClearStep,
  type CopyStep,
  type DispatchStep,
  type NamedBindings,
  type Recipe,
  RecipeBuilder,
  type Step,
  structureKeyOf,
} from '../plans/recipe.js';
export { createRunHeadsPackPlan, type RunHeadsNames, type RunHeadsPackPlanOptions } from '../plans/scatter-plans.js';
export { type KeyedVariant, representativeCounts, StructureVariants } from '../plans/structure-variants.js';
export {
  checkArrayLength,
  checkBoolean,
  checkCount,
  checkData,
  checkFlags,
  checkOneOf,
  checkOptions,
  lengthOf,
} from '../validate.js';
