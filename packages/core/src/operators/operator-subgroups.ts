import type { ScanContext } from '../context.js';
import type { Operator } from './operator-type.js';

/** `//` and `/* … *\/` comments, which may mention `return` without being one. */
const COMMENTS = /\/\/[^\n\r]*|\/\*[\s\S]*?\*\//g;

/**
 * Whether kernels of `op` take subgroup operations on `ctx`'s device: where the device has
 * subgroups and the operator's body returns once. Why the second: a combine that returns from
 * inside a branch, inlined between subgroup shuffles, left the subgroup's invocations unconverged
 * at the next shuffle on NVIDIA (H100 and H200, Dawn on Vulkan, 2026-12-07: wrong scans and
 * by-key results that the software adapter never showed); WebGPU promises no reconvergence there.
 * Such an operator takes the workgroup-memory path instead, which is right on every device.
 * Built-in operators are expressions: always safe.
 *
 * @example
 * ```ts
 * const larger = defineOperator({ type: 'f32', identity: -Infinity, wgsl: 'if (b > a) { return b; } return a;', cpu: Math.max });
 * operatorSubgroups(ctx, larger); // false: two returns (\`return max(a, b);\` would be true)
 * ```
 */
export function operatorSubgroups<T>(ctx: ScanContext, op: Operator<T>): boolean {
  return ctx.caps.features.subgroups && returnsOnce(op.wgsl);
}

/** Whether a WGSL function body has at most one `return` (comments aside). */
function returnsOnce(body: string): boolean {
  return (body.replace(COMMENTS, ' ').match(/\breturn\b/g) ?? []).length <= 1;
}
