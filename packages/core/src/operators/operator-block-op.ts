import type { BlockOp } from '../kernels/group-scan.js';
import { wgslOp } from '../kernels/wgsl-ops.js';
import type { Operator } from './operator-type.js';

/**
 * An operator as the kit's blocks take it ({@link BlockOp}). A built-in operator on u32, i32 or f32
 * is core's own `wgslOp`, which keeps its hardware paths (`subgroupAdd`, the inclusive built-ins);
 * any other calls the operator's WGSL function, and a record lists its fields so the group level
 * shuffles it member by member. The kernel module includes `op.declarations` once (for a built-in
 * only its identity function is used: f32 infinities cannot be WGSL constants).
 *
 * @example
 * ```ts
 * const argmax = defineOperator({
 *   type: { value: 'f32', index: 'u32' },
 *   identity: { value: Number.NEGATIVE_INFINITY, index: 0xffffffff },
 *   wgsl: 'var r = a;\nif (b.value > a.value || (b.value == a.value && b.index < a.index)) { r = b; }\nreturn r;',
 *   cpu: (a, b) => (b.value > a.value || (b.value === a.value && b.index < a.index) ? b : a),
 * });
 * const scan = blockScan({ name: 'tile_scan', op: operatorBlockOp(argmax), subgroups: true, workgroupSize: 256 });
 * ```
 */
export function operatorBlockOp<T>(op: Operator<T>): BlockOp {
  if (op.builtin !== undefined && (op.type === 'u32' || op.type === 'i32' || op.type === 'f32')) {
    // The identity from the operator's own declarations: wgslOp's f32 min/max identities call
    // WGSL_PRELUDE's functions, which a kernel built on `op.declarations` does not include.
    return { ...wgslOp(op.builtin, op.type), identity: op.identityWgsl };
  }
  const type = op.type;
  const fields = typeof type === 'object' ? Object.entries(type).map(([name, field]) => ({ name, type: field })) : undefined;
  return {
    type: op.wgslType,
    identity: op.identityWgsl,
    combine: (a, b) => `${op.fnName}(${a}, ${b})`,
    fields,
    // A user's operator is only promised to be associative.
    commutative: false,
  };
}
