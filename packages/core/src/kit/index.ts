/**
 * `@scan/core/kit`, **for package authors**: what the kernels and plans of the other `@scan/*`
 * packages (segmented scan, sort, SpMV, HiSparse, tcu, tridiag) and the apps build on — kernel
 * definitions (bindings and parameters by name, keys derived from the specialization), the
 * per-device pipeline cache, the recipe builder and executor behind every plan, the vec4 slot view
 * of arrays of any length and direction, chunking with a carried total, group scans and the
 * decoupled look-back with fallback in WGSL, argument checks, error scopes, and GPU sessions for
 * array-level functions. It exports only what those packages use.
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
export {
  type DecoupledLookBack,
  decoupledLookBack,
  type LookBackSpec,
  type LookBackWalkers,
  lookBackCommonWgsl,
  type StatusEncoding,
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
export { groupIdentityWgsl, groupScanWgsl } from '../kernels/group-scan.js';
export { decoupledFallbackStatusBytes, LOOK_BACK_STATUS, TAKE_TILE_WGSL } from '../kernels/look-back.js';
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
export { type WgslOp, wgslOp } from '../kernels/wgsl-ops.js';
export { GpuSession, withSession } from '../ops/session.js';
export { getPipeline, type KernelSpec, loadPipelines, setVerifyKernelKeys } from '../pipeline-cache.js';
export {
  AUX_WORDS,
  type Chunk,
  chunkLayoutKey,
  chunkParamValues,
  maxChunkElements,
  splitIntoChunks,
  stageTailIn,
  stageTailOut,
  vecRange,
} from '../plans/chunks.js';
export { RecipeExecutor, setStrictStructureKeys } from '../plans/executor.js';
export { type CountFixup, type GpuCount, gpuCountOf, recordCountFixup, recordTailOut } from '../plans/gpu-count.js';
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
} from '../plans/recipe.js';
export {
  type KeyedVariant,
  representativeCounts,
  type StructureVariant,
  StructureVariants,
} from '../plans/structure-variants.js';
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
