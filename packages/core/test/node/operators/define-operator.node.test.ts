// defineOperator (issue 48): every bad definition is a ScanError naming the argument and its value
// before any GPU work; identities are normalized; equal definitions give equal content keys; the
// WGSL pieces a kernel generator includes.
import { describe, expect, test } from 'vitest';
import { ScanError } from '../../../src/errors.js';
import { defineOperator, isOperator } from '../../../src/operators/define-operator.js';
import type { OperatorDefinition } from '../../../src/operators/operator-type.js';
import { SCALAR_TYPES, VECTOR_TYPES } from '../../../src/operators/operator-type.js';
import { affine, argmax, expectInvalid, matrix } from './helpers.js';

const add = (a: number, b: number): number => a + b;

/** defineOperator on anything, as JavaScript callers may pass it. */
function defineAny(definition: unknown) {
  return defineOperator(definition as OperatorDefinition<unknown>);
}

/** A valid scalar definition with `changes` applied. */
function scalar(changes: Record<string, unknown>): unknown {
  return { type: 'u32', identity: 0, wgsl: 'return a + b;', cpu: add, ...changes };
}

describe('defineOperator: validation', () => {
  test('the definition itself', () => {
    expectInvalid(() => defineAny(undefined), 'definition', 'definition = undefined', 'expected an object');
    expectInvalid(() => defineAny('add'), 'definition', 'definition = "add"');
    expectInvalid(() => defineAny([]), 'definition', 'definition = Array(0)');
    expectInvalid(() => defineAny(scalar({ identiy: 0 })), 'definition.identiy', 'definition.identiy = 0', 'unknown field');
  });

  test('types outside the list', () => {
    for (const type of ['f64', 'vec3<f32>', 'vec2<f16>', 'vec2f', 'U32', ' u32', undefined, null, 4, [], new Uint32Array(1)]) {
      expectInvalid(() => defineAny(scalar({ type })), 'definition.type', 'definition.type = ', "expected one of 'u32'");
    }
    expectInvalid(() => defineAny(scalar({ type: 'f64' })), 'definition.type', 'definition.type = "f64"');
  });

  test('record types: 1 to 8 fields of u32, i32 or f32, named by WGSL identifiers', () => {
    expectInvalid(
      () => defineAny(scalar({ type: {}, identity: {} })),
      'definition.type',
      'definition.type = Object',
      '1 to 8 fields',
      'has 0',
    );
    const nine = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`f${i}`, 'u32']));
    expectInvalid(() => defineAny(scalar({ type: nine })), 'definition.type', 'has 9');
    expectInvalid(() => defineAny(scalar({ type: { x: 'f16' } })), 'definition.type', 'definition.type.x = "f16"', '32-bit');
    expectInvalid(() => defineAny(scalar({ type: { x: 'vec2<f32>' } })), 'definition.type', 'definition.type.x = "vec2<f32>"');
    expectInvalid(() => defineAny(scalar({ type: { 'my field': 'u32' } })), 'definition.type', 'definition.type["my field"] = "u32"');
    expectInvalid(() => defineAny(scalar({ type: { loop: 'u32' } })), 'definition.type', 'definition.type.loop = "u32"');
    for (const [field, why] of [
      ['loop', 'is a WGSL keyword or reserved word'],
      ['struct', 'is a WGSL keyword or reserved word'],
      ['f32', 'is a WGSL keyword or reserved word'],
      ['vec2', 'is a WGSL keyword or reserved word'],
      ['self', 'is a WGSL keyword or reserved word'],
      ['NULL', 'is a WGSL keyword or reserved word'],
      ['_', 'is a single underscore, which WGSL reserves'],
      ['__x', 'starts with two underscores, which WGSL reserves'],
      ['1st', 'is not an ASCII identifier'],
      ['a-b', 'is not an ASCII identifier'],
      ['', 'is not an ASCII identifier'],
      ['é', 'is not an ASCII identifier'],
    ] as const) {
      expectInvalid(
        () => defineAny(scalar({ type: { [field]: 'u32' }, identity: { [field]: 0 } })),
        'definition.type',
        `= "u32": the field name ${JSON.stringify(field)} ${why}`,
      );
    }
    // Names that are fine: not reserved, whatever they mean elsewhere.
    for (const field of ['value', 'index', '_x', 'x_', 'min', 'sum2', 'Loop']) {
      expect(defineAny(scalar({ type: { [field]: 'u32' }, identity: { [field]: 0 } })).fields).toEqual([field]);
    }
  });

  test('identities that do not fit the type', () => {
    const cases: [unknown, unknown, string, string][] = [
      ['u32', -1, 'definition.identity = -1', 'u32'],
      ['u32', 2 ** 32, 'definition.identity = 4294967296', 'u32'],
      ['u32', 1.5, 'definition.identity = 1.5', 'u32'],
      ['u32', '0', 'definition.identity = "0"', 'expected a number'],
      ['u32', 0n, 'definition.identity = 0n', 'expected a number'],
      ['i32', 2 ** 31, 'definition.identity = 2147483648', 'i32'],
      ['i32', -(2 ** 31) - 1, 'definition.identity = -2147483649', 'i32'],
      ['i32', Number.POSITIVE_INFINITY, 'definition.identity = Infinity', 'i32'],
      ['f32', Number.NaN, 'definition.identity = NaN', 'NaN'],
      ['f16', Number.NaN, 'definition.identity = NaN', 'NaN'],
      ['f32', undefined, 'definition.identity = undefined', 'expected a number'],
      ['vec2<f32>', [1], 'definition.identity = Array(1)', 'an array of 2 numbers'],
      ['vec4<u32>', [1, 2, 3, 4, 5], 'definition.identity = Array(5)', 'an array of 4 numbers'],
      ['vec2<u32>', new Uint32Array(2), 'definition.identity = Uint32Array(2)', 'an array of 2 numbers'],
      ['vec2<i32>', [0, '1'], 'definition.identity = Array(2)', 'element 1 is "1"'],
      ['vec2<i32>', [0, 2 ** 31], 'definition.identity[1] = 2147483648', 'i32'],
      ['vec4<f32>', [0, 0, Number.NaN, 0], 'definition.identity[2] = NaN', 'NaN'],
      [{ value: 'f32', index: 'u32' }, { value: 0 }, 'definition.identity = Object', 'index is missing'],
      [{ value: 'f32', index: 'u32' }, { value: 0, index: 0, extra: 1 }, 'definition.identity = Object', 'extra is not a field'],
      [{ value: 'f32', index: 'u32' }, { value: 0, index: -1 }, 'definition.identity.index = -1', 'u32'],
      [{ value: 'f32', index: 'u32' }, { value: Number.NaN, index: 0 }, 'definition.identity.value = NaN', 'NaN'],
      [{ value: 'f32', index: 'u32' }, [0, 0], 'definition.identity = Array(2)', 'fields value, index'],
      [{ value: 'f32', index: 'u32' }, null, 'definition.identity = null', 'fields value, index'],
    ];
    for (const [type, identity, message, why] of cases) {
      expectInvalid(() => defineAny(scalar({ type, identity })), 'definition.identity', message, why);
    }
    // The ends of the ranges fit; infinities are identities of f32 and f16 (min, max).
    expect(defineAny(scalar({ type: 'u32', identity: 0xffffffff })).identity).toBe(0xffffffff);
    expect(defineAny(scalar({ type: 'i32', identity: -(2 ** 31) })).identity).toBe(-(2 ** 31));
    expect(defineAny(scalar({ type: 'f32', identity: Number.NEGATIVE_INFINITY })).identity).toBe(Number.NEGATIVE_INFINITY);
    expect(defineAny(scalar({ type: 'f16', identity: Number.POSITIVE_INFINITY })).identity).toBe(Number.POSITIVE_INFINITY);
  });

  test('wgsl, cpu and name', () => {
    expectInvalid(() => defineAny(scalar({ wgsl: undefined })), 'definition.wgsl', 'definition.wgsl = undefined');
    expectInvalid(() => defineAny(scalar({ wgsl: '  \n ' })), 'definition.wgsl', 'definition.wgsl = "  \\n "');
    expectInvalid(() => defineAny(scalar({ wgsl: 'a + b' })), 'definition.wgsl', 'definition.wgsl = "a + b"', 'no return statement');
    expectInvalid(() => defineAny(scalar({ cpu: undefined })), 'definition.cpu', 'definition.cpu = undefined', 'expected a function');
    expectInvalid(() => defineAny(scalar({ cpu: 'a + b' })), 'definition.cpu', 'definition.cpu = "a + b"');
    expectInvalid(() => defineAny(scalar({ name: '' })), 'definition.name', 'definition.name = ""');
    expectInvalid(() => defineAny(scalar({ name: 7 })), 'definition.name', 'definition.name = 7');
    expectInvalid(() => defineAny(scalar({ name: 'two\nlines' })), 'definition.name', 'definition.name = "two\\nlines"', 'line breaks');
    expectInvalid(() => defineAny(scalar({ name: 'sep\u2028arator' })), 'definition.name', 'line breaks');
  });

  test('errors are ScanErrors with code INVALID_ARGUMENT', () => {
    try {
      defineAny(scalar({ identity: -1 }));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ScanError);
      expect(e).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'definition.identity' });
    }
  });
});

describe('defineOperator: normalization', () => {
  test('every listed type is accepted, with its layout', () => {
    for (const type of SCALAR_TYPES) {
      const op = defineAny(scalar({ type }));
      expect(op).toMatchObject({ shape: 'scalar', lanes: [type], fields: [], wgslType: type, structDecl: '' });
      expect(op.bytes).toBe(type === 'f16' ? 2 : 4);
      expect(op.words).toBe(type === 'f16' ? 0.5 : 1);
      expect(op.enable).toEqual(type === 'f16' ? ['f16'] : []);
    }
    for (const type of VECTOR_TYPES) {
      const size = Number(type[3]);
      const op = defineAny(scalar({ type, identity: new Array(size).fill(0) }));
      expect(op).toMatchObject({ shape: 'vector', words: size, bytes: 4 * size, fields: [], wgslType: type, structDecl: '' });
      expect(op.lanes).toEqual(new Array(size).fill(type.slice(5, 8)));
    }
    expect(argmax).toMatchObject({ shape: 'record', words: 2, bytes: 8, lanes: ['f32', 'u32'], fields: ['value', 'index'] });
  });

  test('identities are stored as their storage types hold them', () => {
    expect(defineAny(scalar({ type: 'f32', identity: 0.1 })).identity).toBe(Math.fround(0.1));
    expect(defineAny(scalar({ type: 'f32', identity: 1e39 })).identity).toBe(Number.POSITIVE_INFINITY); // rounds past the largest f32
    expect(defineAny(scalar({ type: 'f16', identity: 0.1 })).identity).toBe(0.0999755859375);
    expect(defineAny(scalar({ type: 'f16', identity: 65520 })).identity).toBe(Number.POSITIVE_INFINITY);
    expect(Object.is(defineAny(scalar({ type: 'i32', identity: -0 })).identity, 0)).toBe(true);
    expect(Object.is(defineAny(scalar({ type: 'f32', identity: -0 })).identity, -0)).toBe(true);
    const record = defineAny(scalar({ type: { b: 'f32', a: 'u32' }, identity: { a: 7, b: 0.1 } }));
    expect(Object.keys(record.identity as object)).toEqual(['b', 'a']); // the type's field order
    expect(record.identity).toEqual({ b: Math.fround(0.1), a: 7 });
    expect(Object.isFrozen(record.identity)).toBe(true);
    expect(Object.isFrozen(record)).toBe(true);
    expect(Object.isFrozen(record.type)).toBe(true);
  });

  test('the definition is copied: changing it afterwards changes nothing', () => {
    const type = { x: 'u32' as const, y: 'u32' as const };
    const identity = { x: 0, y: 0 };
    const op = defineOperator({ type, identity, wgsl: 'return a;', cpu: (a) => a });
    type.x = 'f32' as 'u32';
    identity.x = 5;
    expect(op.type).toEqual({ x: 'u32', y: 'u32' });
    expect(op.identity).toEqual({ x: 0, y: 0 });
  });

  test('names: given, or op_<hash>', () => {
    expect(argmax.name).toBe('argmax');
    const unnamed = defineAny(scalar({}));
    expect(unnamed.name).toMatch(/^op_[0-9a-f]{8}$/);
    expect(unnamed.name).toBe(unnamed.fnName);
    expect(unnamed.builtin).toBeUndefined();
  });

  test('isOperator knows its own operators, not copies', () => {
    expect(isOperator(argmax)).toBe(true);
    expect(isOperator({ ...argmax })).toBe(false);
    expect(isOperator(null)).toBe(false);
  });
});

describe('defineOperator: content keys', () => {
  const base = () => ({
    type: { value: 'f32', index: 'u32' } as const,
    identity: { value: Number.NEGATIVE_INFINITY, index: 0xffffffff },
    wgsl: 'return a;',
    cpu: (a: { value: number; index: number }) => a,
    name: 'argmax',
  });

  test('equal definitions give equal keys and WGSL, whatever the CPU function', () => {
    const one = defineOperator(base());
    const two = defineOperator({ ...base(), cpu: (_a, b) => b });
    expect(one).not.toBe(two);
    expect(two.key).toBe(one.key);
    expect(two.declarations).toBe(one.declarations);
    // Normalized before keying: the same f32, spelled two ways.
    const a = defineAny(scalar({ type: 'f32', identity: 0.1 }));
    const b = defineAny(scalar({ type: 'f32', identity: Math.fround(0.1) }));
    expect(a.key).toBe(b.key);
    expect(defineAny(scalar({ type: 'i32', identity: -0 })).key).toBe(defineAny(scalar({ type: 'i32', identity: 0 })).key);
  });

  test('any difference of content gives another key', () => {
    const keys = [
      defineOperator(base()).key,
      defineOperator({ ...base(), name: 'argmax2' }).key,
      defineOperator({ ...base(), name: undefined }).key,
      defineOperator({ ...base(), wgsl: 'return  a;' }).key,
      defineOperator({ ...base(), identity: { value: Number.NEGATIVE_INFINITY, index: 0 } }).key,
      defineOperator({ ...base(), identity: { value: -3.4028234663852886e38, index: 0xffffffff } }).key,
      defineOperator({ ...base(), type: { value: 'f32', index: 'i32' }, identity: { value: Number.NEGATIVE_INFINITY, index: -1 } }).key,
      defineOperator({ ...base(), type: { index: 'u32', value: 'f32' } }).key, // field order is layout
      defineAny(scalar({ type: 'f32', identity: 0 })).key,
      defineAny(scalar({ type: 'f32', identity: -0 })).key, // other bits
      defineAny(scalar({ type: 'f16', identity: 0 })).key,
      defineAny(scalar({ type: 'u32', identity: 0 })).key,
      defineAny(scalar({ type: 'i32', identity: 0 })).key,
      defineAny(scalar({ type: 'vec2<u32>', identity: [0, 0] })).key,
      defineAny(scalar({ type: { x: 'u32', y: 'u32' }, identity: { x: 0, y: 0 } })).key,
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('the key is plain text that names the content', () => {
    const op = defineOperator(base());
    expect(op.key).toBe('operator/1 ["{value:f32,index:u32}","ff800000,ffffffff","argmax",null,"return a;"]');
  });
});

describe('defineOperator: WGSL pieces', () => {
  test('a record: struct, identity by its bits from a var, combine function', () => {
    const p = argmax.fnName;
    expect(p).toMatch(/^op_[0-9a-f]{8}$/);
    expect(argmax.wgslType).toBe(`${p}_T`);
    expect(argmax.structDecl).toBe(`struct ${p}_T {\n  value: f32,\n  index: u32,\n}\n`);
    expect(argmax.identityWgsl).toBe(`${p}_identity()`);
    expect(argmax.identityDecl).toBe(
      `fn ${p}_identity() -> ${p}_T {\n  var bits = array<u32, 2>(0xff800000u, 0xffffffffu);\n  return ${p}_T(bitcast<f32>(bits[0]), bits[1]);\n}\n`,
    );
    expect(argmax.fnDecl).toBe(`// operator "argmax"\nfn ${p}(a: ${p}_T, b: ${p}_T) -> ${p}_T {\n${argmax.wgsl}\n}\n`);
    expect(argmax.declarations).toBe(argmax.structDecl + argmax.identityDecl + argmax.fnDecl);
  });

  test('no constant is bit cast to a float: infinities would be const-eval errors', () => {
    for (const op of [argmax, affine, matrix]) {
      expect(op.declarations).not.toMatch(/bitcast<[^>]*>\(0x/);
    }
    const inf = defineAny(scalar({ type: 'f32', identity: Number.POSITIVE_INFINITY }));
    expect(inf.identityDecl).toContain('array<u32, 1>(0x7f800000u)');
    expect(inf.identityDecl).toContain('return bitcast<f32>(bits[0]);');
  });

  test('vectors, i32 and f16 lanes', () => {
    const p = matrix.fnName;
    expect(matrix.identityDecl).toContain('array<u32, 4>(0x00000001u, 0x00000000u, 0x00000000u, 0x00000001u)');
    expect(matrix.identityDecl).toContain(
      `return vec4<i32>(bitcast<i32>(bits[0]), bitcast<i32>(bits[1]), bitcast<i32>(bits[2]), bitcast<i32>(bits[3]));`,
    );
    expect(matrix.fnDecl).toContain(`fn ${p}(a: vec4<i32>, b: vec4<i32>) -> vec4<i32> {`);
    const half = defineAny(scalar({ type: 'f16', identity: Number.NEGATIVE_INFINITY }));
    // The 16 bits in both halves: either component of the cast reads them.
    expect(half.identityDecl).toContain('array<u32, 1>(0xfc00fc00u)');
    expect(half.identityDecl).toContain('return bitcast<vec2<f16>>(bits[0]).x;');
  });

  test("the user's body stands on lines of its own, so a trailing // comment cannot hide the brace", () => {
    const op = defineAny(scalar({ wgsl: 'return a + b; // sum' }));
    expect(op.fnDecl.split('\n')).toContain('return a + b; // sum');
    expect(op.fnDecl.trimEnd().endsWith('\n}')).toBe(true);
  });
});

describe('defineOperator: types', () => {
  test('T is inferred from the identity and the CPU function, and the type is checked against it', () => {
    const pair = defineOperator({
      type: 'vec2<f32>',
      identity: [0, 0],
      wgsl: 'return a + b;',
      cpu: (a, b) => [a[0]! + b[0]!, a[1]! + b[1]!],
    });
    const v: number[] = pair.identity;
    const r = defineOperator({ type: { lo: 'u32', hi: 'u32' }, identity: { lo: 0, hi: 0 }, wgsl: 'return a;', cpu: (a) => a });
    const lo: number = r.identity.lo;
    expect(() =>
      // @ts-expect-error a record type whose fields are not the identity's
      defineOperator({ type: { lo: 'u32' }, identity: { lo: 0, hi: 0 }, wgsl: 'return a;', cpu: (a) => a }),
    ).toThrow(ScanError);
    expect([v, lo]).toEqual([[0, 0], 0]);
  });
});
