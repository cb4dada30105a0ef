// Which operators may run between subgroup operations (operatorSubgroups): only bodies that return
// once, since an early return inlined between shuffles left NVIDIA's subgroups unconverged.
import { describe, expect, test } from 'vitest';
import type { ScanContext } from '../../../src/context.js';
import { argExtremumOperator } from '../../../src/operators/arg-extremum-operator.js';
import { builtinOperator } from '../../../src/operators/builtin-operators.js';
import { defineOperator } from '../../../src/operators/define-operator.js';
import { operatorSubgroups } from '../../../src/operators/operator-subgroups.js';
import type { Operator } from '../../../src/operators/operator-type.js';

const withSubgroups = (subgroups: boolean) => ({ caps: { features: { subgroups } } }) as unknown as ScanContext;
const larger = (wgsl: string) => defineOperator({ type: 'f32', identity: Number.NEGATIVE_INFINITY, wgsl, cpu: Math.max });

describe('operatorSubgroups', () => {
  test('a body that returns once takes subgroups where the device has them', () => {
    expect(operatorSubgroups(withSubgroups(true), larger('return max(a, b);'))).toBe(true);
    expect(operatorSubgroups(withSubgroups(false), larger('return max(a, b);'))).toBe(false);
    expect(operatorSubgroups(withSubgroups(true), larger('var r = a;\nif (b > a) { r = b; }\nreturn r;'))).toBe(true);
  });
  test('an early return keeps the operator off subgroups; comments and names are not returns', () => {
    expect(operatorSubgroups(withSubgroups(true), larger('if (b > a) { return b; }\nreturn a;'))).toBe(false);
    expect(operatorSubgroups(withSubgroups(true), larger('// return b when larger\nreturn max(a, b); /* return */'))).toBe(true);
    expect(operatorSubgroups(withSubgroups(true), larger('let returned = max(a, b);\nreturn returned;'))).toBe(true);
  });
  test("the library's own operators return once", () => {
    for (const op of [
      builtinOperator('add', 'u32'),
      builtinOperator('min', 'f32'),
      argExtremumOperator('f32', 'max'),
      argExtremumOperator('i32', 'min'),
    ] as Operator<unknown>[]) {
      expect(operatorSubgroups(withSubgroups(true), op)).toBe(true);
    }
  });
});
