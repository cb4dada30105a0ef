import type { ElementType, ScanOp } from '../element-types.js';
import type { ScanAlgorithm } from './types.js';

/**
 * Everything a scan is specialized on, after defaults. The scan plan (scan-plan.ts) builds it and
 * the recipes of the multi-pass algorithms (scan-multipass.ts) read it; it lives apart from both so
 * that neither imports the other.
 *
 * @example
 * ```ts
 * const shape: ScanShape = { type: 'u32', op: 'add', inclusive: false, backward: false, algorithm: 'blelloch',
 *   mapInput: 'none', subgroups: true, workgroupSize: 256 };
 * ```
 */
export interface ScanShape {
  readonly type: ElementType;
  readonly op: ScanOp;
  readonly inclusive: boolean;
  readonly backward: boolean;
  readonly algorithm: Exclude<ScanAlgorithm, 'auto'>;
  /** `'not'` scans 1 − x (split counts the zeros of its flags this way). */
  readonly mapInput: 'none' | 'not';
  readonly subgroups: boolean;
  readonly workgroupSize: number;
}

/**
 * What every scan kernel's specialization takes from the shape as it is: the operation and its
 * direction (the kernels add their own tiling).
 *
 * @example
 * ```ts
 * const spec = { ...scanOperationOf(shape), workgroupSize: 256, level: 'chunk' };
 * ```
 */
export function scanOperationOf(shape: ScanShape): Pick<ScanShape, 'type' | 'op' | 'inclusive' | 'backward' | 'mapInput'> {
  return { type: shape.type, op: shape.op, inclusive: shape.inclusive, backward: shape.backward, mapInput: shape.mapInput };
}
