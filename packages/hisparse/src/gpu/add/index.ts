/**
 * Sparse addition of two GPU HiSparse matrices (Derler et al., ICS 2017, §6): a joint top-down
 * traversal level by level, union counting, an atomic pool allocator, copies of one-sided
 * subtrees with the operand's state applied.
 *
 * @example
 * ```ts
 * const C = await addOnGpu(ctx, uploadHiSparse(ctx, H), uploadHiSparse(ctx, transpose(H)));
 * ```
 * @module
 */
export { type AddOnGpuOptions, type AddResult, addOnGpu } from './add-on-gpu.js';
