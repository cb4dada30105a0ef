import type { ScanOp } from '../element-types.js';

/** Scalar element types of a user-defined operator (`f16` needs the device's `shader-f16`). */
export type ScalarType = 'u32' | 'i32' | 'f32' | 'f16';

/**
 * Vector element types of a user-defined operator. Only sizes 2 and 4 of 32-bit lanes: their WGSL
 * array stride equals their size, so a host array of consecutive words is the GPU's layout too
 * (a `vec3`'s stride is 16 bytes, which would not be).
 */
export type VectorType = 'vec2<u32>' | 'vec2<i32>' | 'vec2<f32>' | 'vec4<u32>' | 'vec4<i32>' | 'vec4<f32>';

/** Types a record field may have: 32-bit lanes only, so a record is a run of whole words. */
export type FieldType = 'u32' | 'i32' | 'f32';

/**
 * A record element type: 1–8 fields, each a WGSL identifier, laid out in the object's key order
 * (a WGSL struct of 32-bit members has no padding, so a record is that many consecutive words).
 */
export type RecordType = { readonly [field: string]: FieldType };

/** Every element type a user-defined operator may work on. */
export type OperatorType = ScalarType | VectorType | RecordType;

/** The storage type of one 32-bit (or, for f16, 16-bit) lane of a record. */
export type LaneType = ScalarType;

/** How an operator's element is made: one lane, a WGSL vector, or a WGSL struct. */
export type OperatorShape = 'scalar' | 'vector' | 'record';

/**
 * The JavaScript value of an element of type `Ty`: a number for scalars, an array of numbers for
 * vectors, a plain object with one number per field for records.
 *
 * @example
 * ```ts
 * const best: OperatorValue<{ value: 'f32'; index: 'u32' }> = { value: 2.5, index: 7 };
 * const pair: OperatorValue<'vec2<i32>'> = [1, -1];
 * ```
 */
export type OperatorValue<Ty extends OperatorType> = Ty extends ScalarType
  ? number
  : Ty extends VectorType
    ? number[]
    : { -readonly [K in keyof Ty]: number };

/**
 * The element types that hold values of `T`: the inverse of {@link OperatorValue}, which lets
 * `defineOperator` infer `T` from the identity and the CPU function and check the type against it.
 *
 * @example
 * ```ts
 * const type: OperatorTypeFor<{ a: number; b: number }> = { a: 'f32', b: 'f32' };
 * ```
 */
export type OperatorTypeFor<T> = [T] extends [number]
  ? ScalarType
  : [T] extends [readonly number[]]
    ? VectorType
    : { readonly [K in keyof T]: FieldType };

/**
 * What a caller writes to define an operator: an associative operator `⊕` with an identity, in WGSL
 * for the kernels and in JavaScript for the CPU references. It need not be commutative: operands
 * always combine in array order (`a` is the earlier one).
 */
export interface OperatorDefinition<T> {
  /** The element type. */
  readonly type: OperatorTypeFor<T>;
  /** `id` with `id ⊕ x = x ⊕ id = x`: a number, an array of N numbers, or one number per field. */
  readonly identity: T;
  /** The body of `fn (a: T, b: T) -> T`, using `a` and `b` (`return a + b;`). */
  readonly wgsl: string;
  /** The same operator in JavaScript; its results are rounded to the element's storage types. */
  readonly cpu: (a: T, b: T) => T;
  /** A name for messages, labels and the generated WGSL's comment (part of the content key). */
  readonly name?: string;
}

/**
 * How an element type is laid out: in host arrays (one typed-array element per lane, records one
 * after another) and in WGSL storage arrays, which agree for every type allowed.
 */
export interface OperatorLayout {
  /** Scalar, vector or record. */
  readonly shape: OperatorShape;
  /** The storage type of each host-array element of one record, in order (a scalar has one). */
  readonly lanes: readonly LaneType[];
  /** The record's field names in order; empty for scalars and vectors. */
  readonly fields: readonly string[];
  /**
   * 32-bit words per record: the lane count, except f16, whose record is half a word (0.5). Size
   * GPU buffers from {@link OperatorLayout.bytes} (rounded up to 4) rather than from this.
   */
  readonly words: number;
  /** Bytes per record, in host arrays and in WGSL storage arrays alike (2 for f16). */
  readonly bytes: number;
}

/** The WGSL pieces of an operator: what a kernel module declares and calls for it. */
export interface OperatorWgsl {
  /** The WGSL type of an element: `u32`, `vec2<f32>`, or the struct `op_<hash>_T`. */
  readonly wgslType: string;
  /** The struct declaration of a record type; `''` otherwise. */
  readonly structDecl: string;
  /** The name of the WGSL combine function, `op_<hash>`. */
  readonly fnName: string;
  /** `fn op_<hash>(a: T, b: T) -> T { <the definition's body> }`. */
  readonly fnDecl: string;
  /** The name of the WGSL function that returns the identity, `op_<hash>_identity`. */
  readonly identityFnName: string;
  /** The identity function's declaration: the identity by its exact bits, read from a `var`. */
  readonly identityDecl: string;
  /** The identity as a WGSL expression of {@link Operator.wgslType}: a call of the identity function. */
  readonly identityWgsl: string;
  /** Everything a module declares for this operator: struct, identity function, combine function. */
  readonly declarations: string;
  /** WGSL extensions the declarations need (`['f16']` for f16, else empty). */
  readonly enable: readonly string[];
}

/**
 * A validated, normalized operator: what kernels, plans and the CPU references take. Created by
 * `defineOperator` (or `builtinOperator` for the seven built-in ones); immutable. Kernel
 * specializations hold its {@link Operator.key}, never the object, so pipelines are cached by content.
 *
 * WGSL: a kernel module includes {@link Operator.declarations} once (with `enable f16;` when
 * {@link Operator.enable} says so), then uses {@link Operator.wgslType}, `${fnName}(a, b)` and
 * {@link Operator.identityWgsl}. Every module-scope name starts with `op_<hash>`, the hash of the key.
 */
export interface Operator<T> extends OperatorLayout, OperatorWgsl {
  /** The definition's name, or `op_<hash>` when it had none. */
  readonly name: string;
  /** The element type, normalized (records: a frozen copy, fields in declaration order). */
  readonly type: OperatorType;
  /** The identity, normalized to the storage types (f32 through `Math.fround`, f16 to the nearest f16); frozen. */
  readonly identity: T;
  /** The definition's WGSL body, as written. */
  readonly wgsl: string;
  /** The definition's JavaScript operator (the CPU references round what it returns). */
  readonly cpu: (a: T, b: T) => T;
  /** Which built-in operator this is, so kernels may keep its hardware paths (`subgroupAdd`); `undefined` for user-defined ones. */
  readonly builtin: ScanOp | undefined;
  /** The content key: equal for equal definitions (normalized type, identity bits, WGSL, name). */
  readonly key: string;
}

/** Every scalar type, in a stable order. */
export const SCALAR_TYPES: readonly ScalarType[] = ['u32', 'i32', 'f32', 'f16'];

/** Every vector type, in a stable order. */
export const VECTOR_TYPES: readonly VectorType[] = ['vec2<u32>', 'vec2<i32>', 'vec2<f32>', 'vec4<u32>', 'vec4<i32>', 'vec4<f32>'];

/** Every record field type, in a stable order. */
export const FIELD_TYPES: readonly FieldType[] = ['u32', 'i32', 'f32'];

/** Most fields a record may have: every field costs registers and workgroup memory per element in the kernels. */
export const MAX_RECORD_FIELDS = 8;
