// The seven built-in operators as Operator objects (issue 48): the same identity, WGSL and CPU
// arithmetic as the `op` option of the scan family, one cached object per (op, type), and the same
// results from the operator CPU references as from core's own.
import { randomData } from '@scan/gpu-testing';
import { describe, expect, test } from 'vitest';
import * as cpu from '../../../src/cpu/index.js';
import { ELEMENT_TYPES, identityOf, opFitsType, SCAN_OPS } from '../../../src/element-types.js';
import { wgslOp } from '../../../src/kernels/wgsl-ops.js';
import { builtinOperator } from '../../../src/operators/builtin-operators.js';
import { reduceWith, scanWith } from '../../../src/operators/cpu-operator.js';
import { defineOperator, isOperator } from '../../../src/operators/define-operator.js';
import { expectInvalid, expectSameArray } from './helpers.js';

describe('builtinOperator', () => {
  for (const type of ELEMENT_TYPES) {
    for (const op of SCAN_OPS.filter((o) => opFitsType(o, type))) {
      test(`${op} on ${type}`, () => {
        const made = builtinOperator(op, type);
        expect(made).toBe(builtinOperator(op, type)); // one object per (op, type)
        expect(isOperator(made)).toBe(true);
        expect(made).toMatchObject({ builtin: op, name: op, type, shape: 'scalar', lanes: [type], words: 1, bytes: 4, wgslType: type });
        expect(Object.is(made.identity, identityOf(op, type))).toBe(true);
        expect(made.wgsl).toBe(`return ${wgslOp(op, type).combine('a', 'b')};`);
        // The same content, user-defined, is another operator: kernels take other paths for built-ins.
        const twin = defineOperator({ type, identity: made.identity, wgsl: made.wgsl, cpu: made.cpu, name: op });
        expect(twin.key).not.toBe(made.key);
        expect(twin.builtin).toBeUndefined();

        const data = randomData(type, 257, 48, op === 'mul' ? 'mul-safe' : 'random');
        for (const inclusive of [false, true]) {
          for (const backward of [false, true]) {
            expectSameArray(
              scanWith(made, data, { inclusive, backward }),
              cpu.scan(data, { op, inclusive, backward }),
              `${op} ${type} ${inclusive} ${backward}`,
            );
          }
        }
        expect(Object.is(reduceWith(made, data), cpu.reduce(data, { op }))).toBe(true);
        expect(Object.is(reduceWith(made, data.subarray(0, 0)), identityOf(op, type))).toBe(true);
      });
    }
  }

  test('keys differ across operators and types', () => {
    const keys = ELEMENT_TYPES.flatMap((type) => SCAN_OPS.filter((o) => opFitsType(o, type)).map((op) => builtinOperator(op, type).key));
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('f32 min and max: infinite identities come from a var, as in WGSL_PRELUDE', () => {
    expect(builtinOperator('min', 'f32').identityDecl).toContain('0x7f800000u');
    expect(builtinOperator('max', 'f32').identityDecl).toContain('0xff800000u');
    expect(builtinOperator('max', 'i32').identityDecl).toContain('bitcast<i32>(bits[0])');
  });

  test('bad arguments', () => {
    expectInvalid(() => builtinOperator('xor', 'f32'), 'op', 'op = "xor"', 'not defined on f32');
    expectInvalid(() => builtinOperator('sum' as never, 'u32'), 'op', 'op = "sum"', 'expected one of add');
    expectInvalid(() => builtinOperator('add', 'f16' as never), 'type', 'type = "f16"');
  });
});
