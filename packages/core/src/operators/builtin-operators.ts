import { combine } from '../cpu/ops.js';
import { type ElementType, identityOf, opFitsType, SCAN_OPS, type ScanOp } from '../element-types.js';
import { invalidArgument } from '../errors.js';
import { wgslOp } from '../kernels/wgsl-ops.js';
import { buildOperator } from './define-operator.js';
import type { Operator } from './operator-type.js';

/** One object per (op, type), so kernels and caches see the same operator every time. */
const cache = new Map<string, Operator<number>>();

/**
 * The built-in operator `op` on `type` as an {@link Operator}: made by the same mechanism as a
 * user-defined one, with the same identity, WGSL and CPU arithmetic as the `op` option of the scan
 * family (`identityOf`, `wgslOp`, `combine`), and `builtin` set, so kernels can keep its hardware
 * paths (`subgroupAdd`, `subgroupInclusiveAdd`). Bitwise operators need u32 or i32.
 *
 * @example
 * ```ts
 * const add = builtinOperator('add', 'u32');
 * add.builtin; // 'add'
 * add === builtinOperator('add', 'u32'); // true
 * builtinOperator('min', 'f32').identity; // Infinity
 * ```
 */
export function builtinOperator(op: ScanOp, type: ElementType): Operator<number> {
  const cacheKey = `${op}/${type}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  if (!(SCAN_OPS as readonly unknown[]).includes(op)) invalidArgument('op', op, `expected one of ${SCAN_OPS.join(', ')}`);
  if (type !== 'u32' && type !== 'i32' && type !== 'f32') invalidArgument('type', type, "expected 'u32', 'i32' or 'f32'");
  if (!opFitsType(op, type)) invalidArgument('op', op, `not defined on ${type} elements (bitwise operators need u32 or i32)`);
  const made = buildOperator<number>(
    { type, identity: identityOf(op, type), wgsl: `return ${wgslOp(op, type).combine('a', 'b')};`, cpu: combine(op, type), name: op },
    op,
  );
  cache.set(cacheKey, made);
  return made;
}
