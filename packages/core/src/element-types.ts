import { invalidArgument, ScanError } from './errors.js';

/** WGSL element types the scan family works on. */
export type ElementType = 'u32' | 'i32' | 'f32';

/** Typed arrays accepted by the array-level functions; the element type follows the array. */
export type ScanTypedArray = Uint32Array | Int32Array | Float32Array;

/** Associative, commutative operators of the scan family. */
export type ScanOp = 'add' | 'min' | 'max' | 'mul' | 'and' | 'or' | 'xor';

/** Every operator, in a stable order (tests and benchmarks iterate over it). */
export const SCAN_OPS: readonly ScanOp[] = ['add', 'min', 'max', 'mul', 'and', 'or', 'xor'];

/** Every element type, in a stable order. */
export const ELEMENT_TYPES: readonly ElementType[] = ['u32', 'i32', 'f32'];

/**
 * The element type of a typed array, or a {@link ScanError} naming `argument`.
 *
 * @example
 * ```ts
 * elementTypeOf(new Int32Array(4), 'data'); // 'i32'
 * ```
 */
export function elementTypeOf(data: unknown, argument: string): ElementType {
  if (data instanceof Uint32Array) return 'u32';
  if (data instanceof Int32Array) return 'i32';
  if (data instanceof Float32Array) return 'f32';
  return invalidArgument(argument, data, 'expected a Uint32Array, Int32Array or Float32Array');
}

/**
 * Whether `op` is defined on `type`: bitwise operators need integers.
 *
 * @example
 * ```ts
 * opFitsType('xor', 'f32'); // false
 * ```
 */
export function opFitsType(op: ScanOp, type: ElementType): boolean {
  return type !== 'f32' || (op !== 'and' && op !== 'or' && op !== 'xor');
}

/**
 * Validates an `op` option against the element type; returns the op (default `'add'`).
 *
 * @example
 * ```ts
 * checkOp(undefined, 'u32'); // 'add'
 * ```
 */
export function checkOp(op: unknown, type: ElementType, argument = 'options.op'): ScanOp {
  if (op === undefined) return 'add';
  if (typeof op !== 'string' || !(SCAN_OPS as readonly string[]).includes(op)) {
    return invalidArgument(argument, op, `expected one of ${SCAN_OPS.join(', ')}`);
  }
  if (!opFitsType(op as ScanOp, type)) {
    throw new ScanError('INVALID_ARGUMENT', `${argument} = "${op}": not defined on ${type} elements (bitwise operators need u32 or i32)`, {
      argument,
    });
  }
  return op as ScanOp;
}

/**
 * Validates an element type name.
 *
 * @example
 * ```ts
 * checkElementType('f32', 'options.type'); // 'f32'
 * ```
 */
export function checkElementType(type: unknown, argument: string): ElementType {
  if (type === 'u32' || type === 'i32' || type === 'f32') return type;
  return invalidArgument(argument, type, "expected 'u32', 'i32' or 'f32'");
}

/**
 * A new typed array of `type` and `length`.
 *
 * @example
 * ```ts
 * typedArrayFor('i32', 3); // Int32Array(3)
 * ```
 */
export function typedArrayFor(type: ElementType, length: number): ScanTypedArray {
  if (type === 'u32') return new Uint32Array(length);
  if (type === 'i32') return new Int32Array(length);
  return new Float32Array(length);
}

/**
 * The identity of `op` on `type`, as a JavaScript number (what a scan of nothing yields).
 *
 * @example
 * ```ts
 * identityOf('min', 'u32'); // 4294967295
 * ```
 */
export function identityOf(op: ScanOp, type: ElementType): number {
  switch (op) {
    case 'add':
    case 'or':
    case 'xor':
      return 0;
    case 'mul':
      return 1;
    case 'and':
      return type === 'i32' ? -1 : 0xffffffff;
    case 'min':
      return type === 'u32' ? 0xffffffff : type === 'i32' ? 0x7fffffff : Number.POSITIVE_INFINITY;
    case 'max':
      return type === 'u32' ? 0 : type === 'i32' ? -0x80000000 : Number.NEGATIVE_INFINITY;
  }
}

/**
 * A typed array of the same type as `like` over `bytes` (a read-back, say).
 *
 * @example
 * ```ts
 * typedArrayOver(new Float32Array(0), bytes); // Float32Array viewing bytes
 * ```
 */
export function typedArrayOver<A extends ScanTypedArray>(like: A, bytes: ArrayBuffer): A {
  return new (like.constructor as new (b: ArrayBuffer) => A)(bytes);
}
