// What the operator tests share: the non-commutative test operators of issue 48 (affine maps,
// 2×2 integer matrices, argmax), host arrays built from values, and the naive serial definitions
// the CPU references are checked against. The encoding here is written apart from host-records.ts
// (a DataView, lane by lane) so a mistake there cannot cancel out in the comparison.
// lanesOf and recordOf are the operator algebra's (@scan/gpu-testing), which the property tests share.
import { lanesOf, recordOf } from '@scan/gpu-testing';
import { expect } from 'vitest';
import { defineOperator } from '../../../src/operators/define-operator.js';
import { f16BitsToNumber, numberToF16Bits } from '../../../src/operators/f16.js';
import type { HostArray } from '../../../src/operators/host-records.js';
import type { LaneType, Operator } from '../../../src/operators/operator-type.js';

export { lanesOf, recordOf };

/** Affine maps x ↦ a·x + b; (a1, b1) ⊕ (a2, b2) applies the first, then the second. */
export interface Affine {
  a: number;
  b: number;
}

/** The affine-map operator on a record { a: f32, b: f32 }. */
export const affine = defineOperator<Affine>({
  type: { a: 'f32', b: 'f32' },
  identity: { a: 1, b: 0 },
  wgsl: 'var r = a;\nr.a = a.a * b.a;\nr.b = b.a * a.b + b.b;\nreturn r;',
  cpu: (x, y) => ({ a: x.a * y.a, b: y.a * x.b + y.b }),
  name: 'affine',
});

/** 2×2 matrices [m00, m01, m10, m11] of i32, multiplied left to right, wrapping modulo 2^32. */
export const matrix = defineOperator({
  type: 'vec4<i32>',
  identity: [1, 0, 0, 1],
  wgsl: `return vec4<i32>(a.x * b.x + a.y * b.z, a.x * b.y + a.y * b.w, a.z * b.x + a.w * b.z, a.z * b.y + a.w * b.w);`,
  cpu: ([a0, a1, a2, a3], [b0, b1, b2, b3]) => [
    (Math.imul(a0!, b0!) + Math.imul(a1!, b2!)) | 0,
    (Math.imul(a0!, b1!) + Math.imul(a1!, b3!)) | 0,
    (Math.imul(a2!, b0!) + Math.imul(a3!, b2!)) | 0,
    (Math.imul(a2!, b1!) + Math.imul(a3!, b3!)) | 0,
  ],
  name: 'matrix2x2',
});

/** The largest value and, among equal values, the lowest index. */
export interface ArgMax {
  value: number;
  index: number;
}

/** argmax on a record { value: f32, index: u32 }. */
export const argmax = defineOperator<ArgMax>({
  type: { value: 'f32', index: 'u32' },
  identity: { value: Number.NEGATIVE_INFINITY, index: 0xffffffff },
  wgsl: 'if (b.value > a.value || (b.value == a.value && b.index < a.index)) {\n  return b;\n}\nreturn a;',
  cpu: (a, b) => (b.value > a.value || (b.value === a.value && b.index < a.index) ? b : a),
  name: 'argmax',
});

/** A lane's number from the 32-bit (or, for f16, 16-bit) word at `byte`. */
function getLane(view: DataView, byte: number, lane: LaneType): number {
  switch (lane) {
    case 'u32':
      return view.getUint32(byte, true);
    case 'i32':
      return view.getInt32(byte, true);
    case 'f32':
      return view.getFloat32(byte, true);
    case 'f16':
      return f16BitsToNumber(view.getUint16(byte, true));
  }
}

function setLane(view: DataView, byte: number, lane: LaneType, x: number): void {
  if (lane === 'u32') view.setUint32(byte, x, true);
  else if (lane === 'i32') view.setInt32(byte, x, true);
  else if (lane === 'f32') view.setFloat32(byte, x, true);
  else view.setUint16(byte, numberToF16Bits(x), true);
}

/** The values of a host array, decoded lane by lane. */
export function decode<T>(op: Operator<T>, data: HostArray): T[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const laneBytes = op.lanes[0] === 'f16' ? 2 : 4;
  const width = op.lanes.length;
  const count = data.byteLength / (laneBytes * width);
  return Array.from({ length: count }, (_, i) =>
    recordOf(
      op,
      op.lanes.map((lane, j) => getLane(view, (i * width + j) * laneBytes, lane)),
    ),
  );
}

/** A host array of class `Class` holding `values`, encoded lane by lane (rounding as storage does). */
export function encode<T, A extends HostArray>(op: Operator<T>, values: readonly T[], Class: new (length: number) => A): A {
  const width = op.lanes.length;
  const out = new Class(values.length * width);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const laneBytes = op.lanes[0] === 'f16' ? 2 : 4;
  values.forEach((value, i) => {
    lanesOf(op, value).forEach((x, j) => setLane(view, (i * width + j) * laneBytes, op.lanes[j]!, x));
  });
  return out;
}

const scratch = new DataView(new ArrayBuffer(4));

/** `value` rounded through `op`'s storage types: every lane stored to and loaded from a word. */
export function stored<T>(op: Operator<T>, value: T): T {
  return recordOf(
    op,
    lanesOf(op, value).map((x, j) => {
      setLane(scratch, 0, op.lanes[j]!, x);
      return getLane(scratch, 0, op.lanes[j]!);
    }),
  );
}

/** The naive serial definitions, from the contract, with every combined value stored. */
export interface Naive<T> {
  fold(xs: readonly T[]): T;
  scan(xs: readonly T[], inclusive: boolean, backward: boolean): T[];
  reduce(xs: readonly T[]): T;
  /** The segments of `xs` under head flags (record 0 always starts one). */
  segments(xs: readonly T[], heads: ArrayLike<number>): T[][];
}

/**
 * The serial definitions of issue 48, quadratic and literal: forward inclusive `x0 ⊕ … ⊕ xi`,
 * exclusive `id ⊕ x0 ⊕ … ⊕ x(i−1)`, backward inclusive `xi ⊕ … ⊕ x(n−1)`, backward exclusive
 * `x(i+1) ⊕ … ⊕ x(n−1)` with `id` last; each a left fold, so on exactly associative operators
 * they must agree with the references' right folds.
 */
export function naive<T>(op: Operator<T>): Naive<T> {
  const id = (): T => recordOf(op, lanesOf(op, op.identity));
  const fold = (xs: readonly T[]): T => xs.slice(1).reduce((acc, x) => stored(op, op.cpu(acc, x)), xs[0]!);
  return {
    fold,
    reduce: (xs) => (xs.length === 0 ? id() : fold(xs)),
    scan: (xs, inclusive, backward) =>
      xs.map((_, i) => {
        if (!backward) return inclusive ? fold(xs.slice(0, i + 1)) : fold([id(), ...xs.slice(0, i)]);
        if (inclusive) return fold(xs.slice(i));
        return i === xs.length - 1 ? id() : fold(xs.slice(i + 1));
      }),
    segments: (xs, heads) => {
      const out: T[][] = [];
      xs.forEach((x, i) => {
        if (i === 0 || heads[i] === 1) out.push([]);
        out[out.length - 1]!.push(x);
      });
      return out;
    },
  };
}

/** The bits of a host array (u32 words, or u16 for f16), for exact comparisons. */
export function bitsOf(data: HostArray): number[] {
  return (data as Uint16Array).BYTES_PER_ELEMENT === 2
    ? Array.from(new Uint16Array(data.buffer, data.byteOffset, data.length))
    : Array.from(new Uint32Array(data.buffer, data.byteOffset, data.length));
}

/** Expects two host arrays of the same class with the same bits. */
export function expectSameArray(actual: HostArray, expected: HostArray, label: string): void {
  expect(actual.constructor, `${label}: class`).toBe(expected.constructor);
  expect(bitsOf(actual), label).toEqual(bitsOf(expected));
}

/** Expects a ScanError INVALID_ARGUMENT naming `argument`, whose message contains every part of `parts`. */
export function expectInvalid(run: () => unknown, argument: string, ...parts: string[]): void {
  let caught: unknown;
  try {
    run();
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected a ScanError for ${argument}`).toMatchObject({ name: 'ScanError', code: 'INVALID_ARGUMENT', argument });
  for (const part of parts) expect((caught as Error).message).toContain(part);
}
