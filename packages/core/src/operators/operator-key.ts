import type { ScanOp } from '../element-types.js';
import type { OperatorLayout, OperatorType } from './operator-type.js';

/** What an operator's content key is made of: everything its kernels and CPU references depend on. */
export interface OperatorKeySource {
  readonly type: OperatorType;
  readonly layout: OperatorLayout;
  /** The normalized identity's bits, one per lane. */
  readonly identityBits: readonly number[];
  readonly wgsl: string;
  /** The definition's name, `undefined` when it had none (a different key from any name). */
  readonly name: string | undefined;
  /** The built-in operator it is, if any: kernels take other paths for those. */
  readonly builtin: ScanOp | undefined;
}

/**
 * The content key of an operator: a stable text of the normalized type (records with their field
 * order), the identity's bits (so -0 and +0 differ, and 0.1 and `Math.fround(0.1)` do not), the
 * WGSL as written, the name and the built-in it is. Two equal definitions give the same key, in any
 * process, so pipelines can be cached by it; the CPU function is not part of it (it cannot be
 * compared, and kernels do not run it).
 *
 * @example
 * ```ts
 * operatorKey({ type: 'u32', layout: layoutOf('u32'), identityBits: [0], wgsl: 'return a + b;', name: undefined, builtin: undefined });
 * // 'operator/1 ["u32","00000000",null,null,"return a + b;"]'
 * ```
 */
export function operatorKey(source: OperatorKeySource): string {
  const { type, layout, identityBits, wgsl, name, builtin } = source;
  const typeText = typeof type === 'string' ? type : `{${layout.fields.map((field, i) => `${field}:${layout.lanes[i]}`).join(',')}}`;
  const bits = identityBits.map((word) => word.toString(16).padStart(layout.lanes[0] === 'f16' ? 4 : 8, '0')).join(',');
  return `operator/1 ${JSON.stringify([typeText, bits, name ?? null, builtin ?? null, wgsl])}`;
}

/**
 * A short hash of `text` (32-bit FNV-1a over its UTF-16 code units, 8 hexadecimal digits), for
 * WGSL names. It names; it does not identify: caches compare whole keys.
 *
 * @example
 * ```ts
 * shortHash('operator/1 ...'); // 8 hexadecimal digits, the same in every process
 * ```
 */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
