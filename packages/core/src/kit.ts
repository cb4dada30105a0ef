/**
 * Building blocks for the kernels of the other `@scan/*` packages (segmented scan, sort, SpMV, …):
 * the recipe executor behind every plan, the vec4 slot view of arrays of any length and direction,
 * cooperative group scans (subgroup or workgroup memory), chunking with a carried total, argument
 * checks, and GPU sessions for array-level functions. Applications do not need these; they are
 * public so that packages layered on `@scan/core` use them through its entry point.
 *
 * @module
 */

export { assertUsable } from './context.js';
export { checkElementType, checkOp, typedArrayFor, typedArrayOver } from './element-types.js';
export { describeValue, invalidArgument } from './errors.js';
export { groupIdentityWgsl, groupScanWgsl } from './kernels/group-scan.js';
export {
  decoupledFallbackStatusBytes,
  type LookBackSpec,
  lookBackDeclsWgsl,
  lookBackStepWgsl,
  STATUS_WORDS_PER_TILE,
  statusAccessWgsl,
  TAKE_TILE_WGSL,
} from './kernels/look-back.js';
export {
  AUX_CARRY,
  AUX_FREE,
  AUX_TAIL_IN,
  AUX_TAIL_OUT,
  LINEAR_WORKGROUP_WGSL,
  NO_CARRY,
  PARAMS_WGSL,
  type ScratchSlotBindings,
  type SlotSpec,
  scratchSlotWgsl,
  slotWgsl,
  vecOf,
} from './kernels/slots.js';
export { unroll } from './kernels/unroll.js';
export { GpuSession, withSession } from './ops/session.js';
export {
  AUX_WORDS,
  type Chunk,
  chunkParams,
  maxChunkElements,
  splitIntoChunks,
  stageTailIn,
  stageTailOut,
  vecRange,
} from './plans/chunks.js';
export { RecipeExecutor } from './plans/executor.js';
export { checkCopyUsage, checkEncodeArgs } from './plans/plan-args.js';
export { type PlanPart, planOf } from './plans/plan-of.js';
export { type BufferRef, type ClearStep, type CopyStep, type DispatchStep, type Recipe, RecipeBuilder, type Step } from './plans/recipe.js';
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
} from './validate.js';
