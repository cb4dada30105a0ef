// User-defined operators the tests of several packages share (issue 48): each does not commute
// (but add4) and has data whose results are exact on every device, so the GPU's results compare
// bit for bit with the operators' CPU references.
import { defineOperator, type HostArray, type Operator } from '@scan/core';
import { createRng } from './random.js';

/** Affine maps x ↦ a·x + b mod 2^16 packed in a u32 as (a << 16 | b): one word, not commutative. */
export const affine16 = defineOperator<number>({
  type: 'u32',
  identity: 0x10000,
  wgsl: `let a1 = a >> 16u; let b1 = a & 0xffffu; let a2 = b >> 16u; let b2 = b & 0xffffu;
return (((a1 * a2) & 0xffffu) << 16u) | ((b1 * a2 + b2) & 0xffffu);`,
  cpu: (x, y) => {
    const [a1, b1, a2, b2] = [x >>> 16, x & 0xffff, y >>> 16, y & 0xffff];
    return ((((Math.imul(a1, a2) & 0xffff) << 16) | ((Math.imul(b1, a2) + b2) & 0xffff)) >>> 0) as number;
  },
  name: 'affine16',
});

/** Affine maps x ↦ a·x + b as an f32 record (with a = ±1 and small integers b, exact in any order). */
export const affineRecord = defineOperator<{ a: number; b: number }>({
  type: { a: 'f32', b: 'f32' },
  identity: { a: 1, b: 0 },
  wgsl: 'var r = b;\nr.a = a.a * b.a;\nr.b = a.b * b.a + b.b;\nreturn r;',
  cpu: (p, q) => ({ a: p.a * q.a, b: p.b * q.a + q.b }),
  name: 'affine',
});

/** 2×2 i32 matrices (a b; c d), multiplied with wrapping arithmetic: four words, not commutative. */
export const matrix2x2 = defineOperator<{ a: number; b: number; c: number; d: number }>({
  type: { a: 'i32', b: 'i32', c: 'i32', d: 'i32' },
  identity: { a: 1, b: 0, c: 0, d: 1 },
  wgsl: 'var r = a;\nr.a = a.a * b.a + a.b * b.c;\nr.b = a.a * b.b + a.b * b.d;\nr.c = a.c * b.a + a.d * b.c;\nr.d = a.c * b.b + a.d * b.d;\nreturn r;',
  cpu: (p, q) => ({
    a: (Math.imul(p.a, q.a) + Math.imul(p.b, q.c)) | 0,
    b: (Math.imul(p.a, q.b) + Math.imul(p.b, q.d)) | 0,
    c: (Math.imul(p.c, q.a) + Math.imul(p.d, q.c)) | 0,
    d: (Math.imul(p.c, q.b) + Math.imul(p.d, q.d)) | 0,
  }),
  name: 'matrix',
});

/** vec4<u32> add: a vector type, commutative, wrapping. */
export const add4 = defineOperator<number[]>({
  type: 'vec4<u32>',
  identity: [0, 0, 0, 0],
  wgsl: 'return a + b;',
  cpu: (p, q) => p.map((x, i) => (x + q[i]!) >>> 0),
  name: 'add4',
});

/** The argmax as a record: the larger value, the lower index on ties. */
export const argmaxRecord = defineOperator<{ value: number; index: number }>({
  type: { value: 'f32', index: 'u32' },
  identity: { value: Number.NEGATIVE_INFINITY, index: 0xffffffff },
  wgsl: 'if (b.value > a.value || (b.value == a.value && b.index < a.index)) { return b; }\nreturn a;',
  cpu: (p, q) => (q.value > p.value || (q.value === p.value && q.index < p.index) ? q : p),
  name: 'argmax',
});

/**
 * A polynomial hash of a run of bytes with its length, three u32 words (h, p, n): (h1, p1, n1) ⊕
 * (h2, p2, n2) = (h1·p2 + h2, p1·p2, n1 + n2), wrapping — a record whose words do not fill a vec4,
 * not commutative.
 */
export const hashRecord = defineOperator<{ h: number; p: number; n: number }>({
  type: { h: 'u32', p: 'u32', n: 'u32' },
  identity: { h: 0, p: 1, n: 0 },
  wgsl: 'var r = a;\nr.h = a.h * b.p + b.h;\nr.p = a.p * b.p;\nr.n = a.n + b.n;\nreturn r;',
  cpu: (x, y) => ({ h: (Math.imul(x.h, y.p) + y.h) >>> 0, p: Math.imul(x.p, y.p) >>> 0, n: (x.n + y.n) >>> 0 }),
  name: 'hash',
});

/** A user's own f32 add (on small integers: exact in any order). */
export const userAddF32 = defineOperator<number>({
  type: 'f32',
  identity: 0,
  wgsl: 'return a + b;',
  cpu: (a, b) => a + b,
  name: 'user-add',
});

/**
 * Seeded records of one of the operators above, as the host array their scans take: packed maps
 * for affine16, ±1 and small integers for the affine record, small integers for the matrices and
 * user-add, many ties for argmax, anything for add4.
 *
 * @example
 * ```ts
 * const data = operatorData(matrix2x2, 1000, 7); // Int32Array(4000)
 * ```
 */
// biome-ignore lint/suspicious/noExplicitAny: an operator of any record type
export function operatorData(op: Operator<any>, n: number, seed: number): HostArray {
  const rng = createRng(seed);
  const is = (other: unknown) => op === other;
  if (is(affine16)) return Uint32Array.from({ length: n }, () => ((rng.int(0, 0xffff) << 16) | rng.int(0, 0xffff)) >>> 0);
  if (is(userAddF32)) return Float32Array.from({ length: n }, () => rng.int(-8, 8));
  if (is(affineRecord)) return Float32Array.from({ length: 2 * n }, (_, i) => (i % 2 === 0 ? (rng.int(0, 1) ? 1 : -1) : rng.int(-8, 8)));
  if (is(matrix2x2)) return Int32Array.from({ length: 4 * n }, () => rng.int(-3, 3));
  if (is(argmaxRecord)) {
    const words = new Float32Array(2 * n);
    const view = new Uint32Array(words.buffer);
    for (let i = 0; i < n; i++) {
      words[2 * i] = rng.int(0, 50);
      view[2 * i + 1] = rng.int(0, 1000);
    }
    return words;
  }
  if (is(hashRecord)) return Uint32Array.from({ length: 3 * n }, (_, i) => (i % 3 === 0 ? rng.int(0, 255) : i % 3 === 1 ? 31 : 1));
  if (is(add4)) return Uint32Array.from({ length: 4 * n }, () => rng.u32());
  throw new Error(`operatorData: no data for the operator ${op.name}`);
}
