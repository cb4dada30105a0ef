import type { ScanOp } from '../element-types.js';
import { describeValue, ScanError } from '../errors.js';
import { operatorKey, shortHash } from './operator-key.js';
import { layoutOf } from './operator-layout.js';
import {
  FIELD_TYPES,
  type LaneType,
  MAX_RECORD_FIELDS,
  type Operator,
  type OperatorDefinition,
  type OperatorLayout,
  type OperatorType,
  type RecordType,
  SCALAR_TYPES,
  VECTOR_TYPES,
} from './operator-type.js';
import { laneBits, roundLane, valueFromLanes, valueLanes, valueShapeProblem } from './operator-values.js';
import { operatorWgsl } from './operator-wgsl.js';
import { wgslIdentifierProblem } from './wgsl-identifiers.js';

/** Every operator made here: what `isOperator` recognizes (a look-alike object could hold anything). */
const OPERATORS = new WeakSet<object>();
/** Every operator made, by content key: kernel specializations hold the key, and their WGSL generators look it up. */
const BY_KEY = new Map<string, Operator<unknown>>();

/** The fields of a definition; any other is a misspelling, which would otherwise go unnoticed. */
const DEFINITION_FIELDS: readonly string[] = ['type', 'identity', 'wgsl', 'cpu', 'name'];

/**
 * Defines an associative operator on a scalar, vector or record element type, for the scan family's
 * kernels (`wgsl`) and CPU references (`cpu`). It need not be commutative: operands combine in array
 * order. Everything is checked here, before any GPU work; the result is normalized (the identity
 * rounded to its storage types) and frozen, and its {@link Operator.key} is the same for equal
 * definitions, so pipelines are cached by content.
 *
 * @example
 * ```ts
 * // argmax: the largest value, and the lowest index among equal ones
 * const argmax = defineOperator({
 *   type: { value: 'f32', index: 'u32' },
 *   identity: { value: Number.NEGATIVE_INFINITY, index: 0xffffffff },
 *   wgsl: 'var r = a;\nif (b.value > a.value || (b.value == a.value && b.index < a.index)) { r = b; }\nreturn r;',
 *   cpu: (a, b) => (b.value > a.value || (b.value === a.value && b.index < a.index) ? b : a),
 *   name: 'argmax',
 * });
 * argmax.wgslType; // 'op_<hash>_T', declared by argmax.structDecl
 * ```
 */
export function defineOperator<T>(definition: OperatorDefinition<T>): Operator<T> {
  return buildOperator(definition, undefined);
}

/**
 * `defineOperator`, with the built-in operator the definition is (part of the key): for
 * `builtinOperator`, whose operators are made by the same mechanism as everyone's.
 *
 * @example
 * ```ts
 * const add = buildOperator({ type: 'u32', identity: 0, wgsl: 'return (a + b);', cpu: (a: number, b: number) => (a + b) >>> 0, name: 'add' }, 'add');
 * add.builtin; // 'add'
 * ```
 */
export function buildOperator<T>(definition: OperatorDefinition<T>, builtin: ScanOp | undefined): Operator<T> {
  // Typed for TypeScript callers; checked as anything, for JavaScript ones.
  const given: unknown = definition;
  if (given === null || typeof given !== 'object' || Array.isArray(given) || ArrayBuffer.isView(given)) {
    return fail('definition', given, 'expected an object { type, identity, wgsl, cpu, name? }');
  }
  const d = given as Record<string, unknown>;
  for (const field of Object.keys(d)) {
    if (!DEFINITION_FIELDS.includes(field)) {
      fail(`definition.${field}`, d[field], `unknown field (allowed: ${DEFINITION_FIELDS.join(', ')})`);
    }
  }
  const type = checkType(d['type']);
  const layout = layoutOf(type);
  const identityLanes = checkIdentity(layout, d['identity']);
  const wgsl = checkWgsl(d['wgsl']);
  if (typeof d['cpu'] !== 'function') fail('definition.cpu', d['cpu'], 'expected a function (a, b) => a ⊕ b, the operator in JavaScript');
  const name = checkName(d['name']);

  const identityBits = identityLanes.map((x, i) => laneBits(layout.lanes[i]!, x));
  const key = operatorKey({ type, layout, identityBits, wgsl, name, builtin });
  const prefix = `op_${shortHash(key)}`;
  const identity = valueFromLanes(layout, identityLanes) as T;
  const pieces = operatorWgsl({ prefix, type, layout, identityBits, body: wgsl, name: name ?? prefix });
  const op = Object.freeze({
    name: name ?? prefix,
    type,
    identity: typeof identity === 'object' ? Object.freeze(identity) : identity,
    wgsl,
    cpu: d['cpu'] as (a: T, b: T) => T,
    builtin,
    ...layout,
    key,
    ...pieces,
  });
  OPERATORS.add(op);
  // The first operator of a content stays: an equal definition made later has the same WGSL.
  if (!BY_KEY.has(key)) BY_KEY.set(key, op as Operator<unknown>);
  return op;
}

/**
 * Whether `value` is an operator made by `defineOperator` or `builtinOperator` (not a copy, whose
 * fields nothing has checked).
 *
 * @example
 * ```ts
 * isOperator(builtinOperator('add', 'u32')); // true
 * isOperator({ ...builtinOperator('add', 'u32') }); // false
 * ```
 */
export function isOperator(value: unknown): value is Operator<unknown> {
  return typeof value === 'object' && value !== null && OPERATORS.has(value);
}

/** The element type, normalized: a listed name, or a frozen copy of a valid record. */
function checkType(type: unknown): OperatorType {
  if (typeof type === 'string') {
    if ((SCALAR_TYPES as readonly string[]).includes(type) || (VECTOR_TYPES as readonly string[]).includes(type)) {
      return type as OperatorType;
    }
  } else if (type !== null && typeof type === 'object' && !Array.isArray(type) && !ArrayBuffer.isView(type)) {
    return checkRecordType(type as Record<string, unknown>);
  }
  return fail(
    'definition.type',
    type,
    `expected one of ${[...SCALAR_TYPES, ...VECTOR_TYPES].map((t) => `'${t}'`).join(', ')}, or a record { field: 'u32' | 'i32' | 'f32', … }`,
  );
}

function checkRecordType(type: Record<string, unknown>): RecordType {
  const fields = Object.keys(type);
  if (fields.length < 1 || fields.length > MAX_RECORD_FIELDS) {
    fail('definition.type', type, `a record has 1 to ${MAX_RECORD_FIELDS} fields, this one has ${fields.length}`);
  }
  const record: Record<string, LaneType> = {};
  for (const field of fields) {
    const problem = wgslIdentifierProblem(field);
    if (problem !== undefined) {
      fail('definition.type', type[field], `the field name ${JSON.stringify(field)} ${problem}`, pathOf('definition.type', field));
    }
    const fieldType = type[field];
    if (!(FIELD_TYPES as readonly unknown[]).includes(fieldType)) {
      fail('definition.type', fieldType, `expected 'u32', 'i32' or 'f32' (a record's fields are 32-bit)`, pathOf('definition.type', field));
    }
    record[field] = fieldType as LaneType;
  }
  return Object.freeze(record) as RecordType;
}

/** The identity's lane numbers, normalized to the storage types; the value must fit the type exactly. */
function checkIdentity(layout: OperatorLayout, identity: unknown): number[] {
  const problem = valueShapeProblem(layout, identity, true);
  if (problem !== undefined) fail('definition.identity', identity, problem);
  return valueLanes(layout, identity).map((x, i) => {
    const lane = layout.lanes[i]!;
    const laneProblem = identityLaneProblem(lane, x);
    if (laneProblem !== undefined) {
      const path =
        layout.shape === 'scalar'
          ? 'definition.identity'
          : layout.shape === 'vector'
            ? `definition.identity[${i}]`
            : pathOf('definition.identity', layout.fields[i]!);
      fail('definition.identity', x, laneProblem, path);
    }
    return roundLane(lane, x);
  });
}

/** Why `x` cannot be an identity lane of `lane`, or `undefined`. */
function identityLaneProblem(lane: LaneType, x: number): string | undefined {
  switch (lane) {
    case 'u32':
      return Number.isInteger(x) && x >= 0 && x <= 0xffffffff ? undefined : 'expected a u32: an integer from 0 to 4294967295';
    case 'i32':
      return Number.isInteger(x) && x >= -0x80000000 && x <= 0x7fffffff
        ? undefined
        : 'expected an i32: an integer from -2147483648 to 2147483647';
    case 'f32':
    case 'f16':
      // NaN equals nothing, itself included, so it cannot leave x unchanged: never an identity.
      return Number.isNaN(x) ? `expected an ${lane} other than NaN (NaN ⊕ x is not x)` : undefined;
  }
}

function checkWgsl(wgsl: unknown): string {
  if (typeof wgsl !== 'string' || wgsl.trim() === '') {
    fail('definition.wgsl', wgsl, 'expected the WGSL body of fn (a: T, b: T) -> T, such as "return a + b;"');
  }
  // A function with a result must end in a return statement: a bare expression ("a + b") is the
  // likeliest mistake, and this finds it here rather than in the shader compiler's log.
  if (!/\breturn\b/.test(wgsl as string)) {
    fail('definition.wgsl', wgsl, 'the body of fn (a: T, b: T) -> T has no return statement (write "return a + b;", not "a + b")');
  }
  return wgsl as string;
}

function checkName(name: unknown): string | undefined {
  if (name === undefined) return undefined;
  // The name goes into a WGSL line comment: a line break there would end it.
  if (typeof name !== 'string' || name === '' || /[\p{Cc}\u2028\u2029]/u.test(name)) {
    fail('definition.name', name, 'expected a non-empty string without line breaks or control characters');
  }
  return name as string;
}

/** `base.field`, or `base["field"]` when the field is not an identifier. */
function pathOf(base: string, field: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(field) ? `${base}.${field}` : `${base}[${JSON.stringify(field)}]`;
}

/**
 * An INVALID_ARGUMENT error for `argument`, whose message names `path` (the argument itself, or the
 * part of it at fault, such as `definition.identity.index`) and `value`.
 */
function fail(argument: string, value: unknown, why: string, path = argument): never {
  throw new ScanError('INVALID_ARGUMENT', `${path} = ${describeValue(value)}: ${why}`, { argument });
}

/**
 * The operator of a content key (`op.key`), for the WGSL generators of kernels whose specialization
 * holds the key (plain data, so pipelines are cached by content) rather than the object.
 *
 * @example
 * ```ts
 * const op = defineOperator({ type: 'u32', identity: 0, wgsl: 'return a + b;', cpu: (a, b) => (a + b) >>> 0 });
 * operatorOfKey(op.key) === op; // true
 * ```
 */
export function operatorOfKey(key: string): Operator<unknown> {
  const op = BY_KEY.get(key);
  if (!op) throw new Error(`internal error: no operator has the key ${JSON.stringify(key.slice(0, 80))}`);
  return op;
}
