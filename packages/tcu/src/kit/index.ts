/**
 * `@scan/tcu/kit`, **for package authors**: the internals of `@scan/tcu` that a package building on
 * it, a tuning sweep or a device check may need — the staged kernel families (`tcuReduceKernel`,
 * `tcuScanKernel`, `tcuPropagateKernel`, their specialization and parameter block), the selection
 * table that picks a level and a kernel shape per segment size (`TCU_SELECTION_TABLE`,
 * `selectLevel`; a row can be passed to a plan as `options.table`), and the steps of the support
 * check (`pickConfig`, `probeWgsl`, `resolvePath`).
 *
 * Applications do not need these names: what an application uses (`tcuReduce`, `tcuScan`,
 * `tcuCount`, their plans and options, `prepareTcu`) is `@scan/tcu`'s main entry. **The kit may
 * change between minor versions** (it follows the kernels and their measurements); pin `@scan/tcu`
 * to a minor range if you build on it.
 *
 * @example
 * ```ts
 * import { createTcuReducePlan } from '@scan/tcu';
 * import { TCU_SELECTION_TABLE } from '@scan/tcu/kit';
 * const row = TCU_SELECTION_TABLE['subgroup-matrix'];
 * const plan = createTcuReducePlan(ctx, { table: { ...row, warpTiles: 2 } });
 * ```
 *
 * @module kit (for package authors)
 */

export {
  type InputKind,
  type SegmentClass,
  TCU_PARAMS,
  type TcuKernelSpec,
  tcuPropagateKernel,
  tcuReduceKernel,
  tcuScanKernel,
} from '../kernels/tcu-kernels.js';
export {
  selectLevel,
  TCU_SELECTION_TABLE,
  type TcuDirectEntry,
  type TcuLevel,
  type TcuSelection,
  type TcuSelectionEntry,
} from '../plans/select.js';
export { pickConfig, probeWgsl, resolvePath } from '../support.js';
