/**
 * `@scan/core/kit`, for package authors: the building blocks that the kernels and plans of the
 * other `@scan/*` packages (segmented scan, sort, SpMV, tcu, tridiag, …) share — the per-device
 * pipeline cache, the recipe executor and builder behind every plan, the vec4 slot view of arrays
 * of any length and direction, cooperative group scans (subgroup or workgroup memory), the decoupled
 * look-back with fallback in WGSL, WGSL operators and identities, chunking with a carried total,
 * 2-D dispatch shapes, argument checks and error scopes, and GPU sessions for array-level functions.
 *
 * Applications do not need these names: what an application uses (the context, `ScanError`, the
 * primitives and their plans, buffers and timing) is `@scan/core`'s main entry. The kit is public so
 * that packages layered on `@scan/core` build on it through a declared entry point.
 *
 * @example
 * ```ts
 * import { getPipeline, RecipeBuilder, RecipeExecutor, checkOptions } from '@scan/core/kit';
 * import type { ScanContext } from '@scan/core';
 * ```
 *
 * @module kit (for package authors)
 */

export { assertUsable } from '../context.js';
export { dispatchShape, roundUp } from '../dispatch.js';
export { checkElementType, checkOp, elementTypeOf, identityOf, opFitsType, typedArrayFor, typedArrayOver } from '../element-types.js';
export { describeValue, invalidArgument } from '../errors.js';
export { runGuarded } from '../gpu-errors.js';
export { type BoundBuffer, bindGroupByName, paramsData } from '../kernels/bind-by-name.js';
export {
  type BindingAccess,
  type BindingDecl,
  defineKernel,
  isDefinedKernel,
  type Kernel,
  type KernelBinding,
  type KernelDefinition,
  PARAMS_BINDING,
  type ParamFields,
  type ParamType,
  type ParamValues,
  read,
  readWrite,
  uniform,
} from '../kernels/define-kernel.js';
export { groupIdentityWgsl, groupScanWgsl } from '../kernels/group-scan.js';
export {
  decoupledFallbackStatusBytes,
  LOOK_BACK_STATUS,
  type LookBackSpec,
  lookBackDeclsWgsl,
  lookBackFallbackWgsl,
  lookBackStepWgsl,
  STATUS_WORDS_PER_TILE,
  statusAccessWgsl,
  TAKE_TILE_WGSL,
} from '../kernels/look-back.js';
export {
  AUX_CARRY,
  AUX_FREE,
  AUX_TAIL_IN,
  AUX_TAIL_OUT,
  LINEAR_WORKGROUP_WGSL,
  NO_CARRY,
  PARAMS_WGSL,
  type ScratchSlotBindings,
  SLOT_PARAMS,
  type SlotSpec,
  scratchSlotBindings,
  scratchSlotFunctionsWgsl,
  scratchSlotWgsl,
  slotBindings,
  slotFunctionsWgsl,
  slotWgsl,
  vecOf,
} from '../kernels/slots.js';
export { type Specialization, type SpecValue, specializationKey } from '../kernels/specialization-key.js';
export { unroll } from '../kernels/unroll.js';
export { WGSL_PRELUDE, type WgslOp, wgslIdentity, wgslOp } from '../kernels/wgsl-ops.js';
export { GpuSession, withSession } from '../ops/session.js';
export {
  cachedPipelineCount,
  getPipeline,
  isPipelineCompiled,
  type KernelSpec,
  loadPipelines,
  setVerifyKernelKeys,
} from '../pipeline-cache.js';
export {
  AUX_WORDS,
  type Chunk,
  chunkLayoutKey,
  chunkParams,
  chunkParamValues,
  maxChunkElements,
  splitIntoChunks,
  stageTailIn,
  stageTailOut,
  vecRange,
} from '../plans/chunks.js';
export { RecipeExecutor, setStrictStructureKeys } from '../plans/executor.js';
export { type CountFixup, type GpuCount, gpuCountOf, recordCountFixup, recordTailOut } from '../plans/gpu-count.js';
export { LruMap } from '../plans/lru-map.js';
export { PARAM_SLOTS } from '../plans/param-ring.js';
export { checkCopyUsage, checkEncodeArgs } from '../plans/plan-args.js';
export { type PlanPart, planOf } from '../plans/plan-of.js';
export {
  type BindingsOf,
  type BufferRef,
  type ClearStep,
  type CopyStep,
  type DispatchStep,
  dispatchCount,
  type NamedBindings,
  type Recipe,
  RecipeBuilder,
  type Step,
} from '../plans/recipe.js';
export {
  checkBoolean,
  checkCount,
  checkData,
  checkFlags,
  checkOneOf,
  checkOptions,
  lengthOf,
  type NormalizedScanOptions,
  normalizeScanOptions,
} from '../validate.js';
