// Seeded property tests of user-defined operators (issue 48). Each seed draws an element type (a
// record of 1–8 fields, or a vector or scalar when the lanes allow), an operator from a small
// algebra — per-field add, min, max or xor on integers, affine maps on two f32 fields, 2×2 integer
// matrices on four — composed lane by lane, its identity, data, head flags and a size; then checks
// every scan, the reduction and the segmented forms against the serial definitions, and the content
// key. fast-check is not a dependency, so the draws are the repository's seeded xoshiro128**.
// A failure names its seed; replay one alone with
//   OPERATOR_SEED=<seed> npx vitest run --project node test/node/operators/operator-properties.node.test.ts
import { createRng, type Rng } from '@scan/gpu-testing';
import { describe, expect, test } from 'vitest';
import { reduceWith, scanWith, segmentedReduceWith, segmentedScanWith } from '../../../src/operators/cpu-operator.js';
import { defineOperator } from '../../../src/operators/define-operator.js';
import type { HostArray } from '../../../src/operators/host-records.js';
import type { FieldType, Operator, OperatorType } from '../../../src/operators/operator-type.js';
import { bitsOf, encode, lanesOf, naive, recordOf } from './helpers.js';

/** Seeds run by default; OPERATOR_SEED runs one. */
const SEEDS = process.env['OPERATOR_SEED'] ? [Number(process.env['OPERATOR_SEED'])] : Array.from({ length: 100 }, (_, i) => 48_000 + i);

type IntLane = 'u32' | 'i32';

/** One part of a composed operator, acting on its own lanes. */
type Component =
  | { readonly kind: 'int'; readonly lane: IntLane; readonly op: 'add' | 'min' | 'max' | 'xor' }
  | { readonly kind: 'affine' }
  | { readonly kind: 'matrix'; readonly lane: IntLane };

function widthOf(c: Component): number {
  return c.kind === 'int' ? 1 : c.kind === 'affine' ? 2 : 4;
}

function lanesOfComponent(c: Component): FieldType[] {
  return c.kind === 'affine' ? ['f32', 'f32'] : new Array(widthOf(c)).fill(c.lane);
}

const wrap = (lane: IntLane, x: number): number => (lane === 'u32' ? x >>> 0 : x | 0);

/** The component on its lanes `a` and `b` (plain JavaScript; the references round the result). */
function combineLanes(c: Component, a: number[], b: number[]): number[] {
  switch (c.kind) {
    case 'int': {
      const [x, y] = [a[0]!, b[0]!];
      if (c.op === 'add') return [wrap(c.lane, x + y)];
      if (c.op === 'xor') return [wrap(c.lane, x ^ y)];
      return [c.op === 'min' ? Math.min(x, y) : Math.max(x, y)];
    }
    case 'affine':
      return [a[0]! * b[0]!, b[0]! * a[1]! + b[1]!];
    case 'matrix': {
      const [a0, a1, a2, a3] = a as [number, number, number, number];
      const [b0, b1, b2, b3] = b as [number, number, number, number];
      const dot = (p: number, q: number, r: number, s: number): number => wrap(c.lane, Math.imul(p, q) + Math.imul(r, s));
      return [dot(a0, b0, a1, b2), dot(a0, b1, a1, b3), dot(a2, b0, a3, b2), dot(a2, b1, a3, b3)];
    }
  }
}

function identityLanes(c: Component): number[] {
  if (c.kind === 'affine') return [1, 0];
  if (c.kind === 'matrix') return [1, 0, 0, 1];
  if (c.op === 'add' || c.op === 'xor') return [0];
  if (c.op === 'min') return [c.lane === 'u32' ? 0xffffffff : 0x7fffffff];
  return [c.lane === 'u32' ? 0 : -0x80000000];
}

/** The component's WGSL on the lane expressions `a` and `b`, as expressions of the results. */
function wgslLanes(c: Component, a: string[], b: string[]): string[] {
  switch (c.kind) {
    case 'int':
      return [c.op === 'add' ? `${a[0]} + ${b[0]}` : c.op === 'xor' ? `${a[0]} ^ ${b[0]}` : `${c.op}(${a[0]}, ${b[0]})`];
    case 'affine':
      return [`${a[0]} * ${b[0]}`, `${b[0]} * ${a[1]} + ${b[1]}`];
    case 'matrix':
      return [
        `${a[0]} * ${b[0]} + ${a[1]} * ${b[2]}`,
        `${a[0]} * ${b[1]} + ${a[1]} * ${b[3]}`,
        `${a[2]} * ${b[0]} + ${a[3]} * ${b[2]}`,
        `${a[2]} * ${b[1]} + ${a[3]} * ${b[3]}`,
      ];
  }
}

function drawValueLanes(c: Component, rng: Rng): number[] {
  const int = (lane: IntLane, small: boolean): number =>
    small ? (lane === 'u32' ? rng.int(0, 6) : rng.int(-3, 3)) : wrap(lane, rng.u32());
  switch (c.kind) {
    case 'int':
      // min and max see many ties when values are small.
      return [int(c.lane, rng.float() < 0.3)];
    case 'affine':
      // a = ±1 and small b keep every composition exact in f32, so groupings agree bit for bit.
      return [rng.int(0, 1) ? 1 : -1, rng.int(-20, 20)];
    case 'matrix': {
      const small = rng.float() < 0.5;
      return [int(c.lane, small), int(c.lane, small), int(c.lane, small), int(c.lane, small)];
    }
  }
}

const NAMES = ['x', 'y', 'value', 'index', 'count', 'sum', 'lo', 'hi', 'key', '_k', 'alpha', 'Beta', 'n_1', 'min', 'w'];

/** One drawn case: the operator's parts, its type, and everything needed to rebuild it. */
interface Drawn {
  readonly components: readonly Component[];
  readonly type: OperatorType;
  readonly fields: readonly string[];
  readonly wgsl: string;
  readonly n: number;
  readonly density: number;
  readonly Class: new (length: number) => HostArray;
}

function draw(seed: number): Drawn {
  const rng = createRng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[rng.int(0, xs.length - 1)]!;
  // Sizes 1, 2 and 4 often, where scalars and vectors can stand in for records.
  const target = pick([1, 2, 4, rng.int(1, 8), rng.int(1, 8)]);
  const components: Component[] = [];
  let width = 0;
  while (width < target) {
    const room = target - width;
    const kinds: Component['kind'][] = ['int', ...(room >= 2 ? (['affine'] as const) : []), ...(room >= 4 ? (['matrix'] as const) : [])];
    const kind = pick(kinds);
    const c: Component =
      kind === 'int'
        ? { kind, lane: pick(['u32', 'i32'] as const), op: pick(['add', 'min', 'max', 'xor'] as const) }
        : kind === 'affine'
          ? { kind }
          : { kind, lane: pick(['u32', 'i32'] as const) };
    components.push(c);
    width += widthOf(c);
  }
  const lanes = components.flatMap(lanesOfComponent);
  const same = lanes.every((l) => l === lanes[0]);
  const fields = lanes.map((_, i) => `${pick(NAMES)}${i}`);
  let type: OperatorType;
  if (lanes.length === 1 && rng.float() < 0.5) type = lanes[0]!;
  else if (same && (lanes.length === 2 || lanes.length === 4) && rng.float() < 0.7)
    type = `vec${lanes.length}<${lanes[0]}>` as OperatorType;
  else type = Object.fromEntries(fields.map((f, i) => [f, lanes[i]!]));

  // The WGSL body: a struct is built field by field from a copy of a, vectors and scalars by value.
  const laneExpr = (v: string, i: number): string =>
    typeof type !== 'string' ? `${v}.${fields[i]}` : type.startsWith('vec') ? `${v}[${i}]` : v;
  let at = 0;
  const results = components.flatMap((c) => {
    const idx = Array.from({ length: widthOf(c) }, (_, j) => at + j);
    at += widthOf(c);
    return wgslLanes(
      c,
      idx.map((i) => laneExpr('a', i)),
      idx.map((i) => laneExpr('b', i)),
    );
  });
  const wgsl =
    typeof type !== 'string'
      ? `var r = a;\n${results.map((e, i) => `r.${fields[i]} = ${e};`).join('\n')}\nreturn r;`
      : type.startsWith('vec')
        ? `return ${type}(${results.join(', ')});`
        : `return ${results[0]};`;

  const n = pick([0, 1, 2, 3, rng.int(4, 40), rng.int(41, 160)]);
  const density = pick([0, 0.02, 0.3, 1, rng.float()]);
  const Class =
    typeof type === 'string' && !type.startsWith('vec')
      ? type === 'u32'
        ? Uint32Array
        : Int32Array
      : pick([Uint32Array, Int32Array, Float32Array]);
  return { components, type, fields, wgsl, n, density, Class };
}

/** The drawn operator, built from scratch (a second call gives an equal, separate definition). */
function operatorOf(d: Drawn): Operator<unknown> {
  const split = (lanes: number[]): number[][] => {
    let at = 0;
    return d.components.map((c) => {
      at += widthOf(c);
      return lanes.slice(at - widthOf(c), at);
    });
  };
  let op: Operator<unknown> | undefined;
  const cpu = (a: unknown, b: unknown): unknown => {
    const [as, bs] = [split(lanesOf(op!, a)), split(lanesOf(op!, b))];
    return recordOf(
      op!,
      d.components.flatMap((c, k) => combineLanes(c, as[k]!, bs[k]!)),
    );
  };
  const identity = d.components.flatMap(identityLanes);
  const shell = {
    shape: typeof d.type !== 'string' ? 'record' : d.type.startsWith('vec') ? 'vector' : 'scalar',
    fields: d.fields,
  } as Operator<unknown>;
  op = defineOperator({
    type: d.type,
    identity: recordOf(shell, identity),
    wgsl: d.wgsl,
    cpu,
    name: 'composed',
  } as never) as Operator<unknown>;
  return op;
}

function describeDrawn(d: Drawn): string {
  const parts = d.components.map((c) => (c.kind === 'int' ? `${c.op}<${c.lane}>` : c.kind === 'matrix' ? `matrix<${c.lane}>` : 'affine'));
  return `${typeof d.type === 'string' ? d.type : `record(${d.fields.length})`} [${parts.join(', ')}] n=${d.n} heads≈${d.density.toFixed(2)} ${d.Class.name}`;
}

describe('operators drawn from a small algebra, against the serial definitions', () => {
  for (const seed of SEEDS) {
    const d = draw(seed);
    const label = `seed ${seed} (${describeDrawn(d)})`;
    test(label, () => {
      const op = operatorOf(d);
      const serial = naive(op);
      const rng = createRng(seed ^ 0x5eed);
      const xs = Array.from({ length: d.n }, () =>
        recordOf(
          op,
          d.components.flatMap((c) => drawValueLanes(c, rng)),
        ),
      );
      const data = encode(op, xs, d.Class);
      const heads = Uint8Array.from({ length: d.n }, () => (rng.float() < d.density ? 1 : 0));
      const segments = serial.segments(xs, heads);
      const expectBits = (actual: HostArray, expected: unknown[], what: string): void => {
        expect(actual, `${label}: ${what} class`).toBeInstanceOf(d.Class);
        expect(bitsOf(actual), `${label}: ${what}`).toEqual(bitsOf(encode(op, expected, d.Class)));
      };

      for (const inclusive of [false, true]) {
        for (const backward of [false, true]) {
          const how = `inclusive=${inclusive} backward=${backward}`;
          expectBits(scanWith(op, data, { inclusive, backward }), serial.scan(xs, inclusive, backward), `scan ${how}`);
          expectBits(
            segmentedScanWith(op, data, heads, { inclusive, backward }),
            segments.flatMap((s) => serial.scan(s, inclusive, backward)),
            `segmented scan ${how}`,
          );
        }
      }
      expect(lanesOf(op, reduceWith(op, data)), `${label}: reduce`).toEqual(lanesOf(op, serial.reduce(xs)));
      expectBits(segmentedReduceWith(op, data, heads), segments.map(serial.fold), 'segmented reduce');

      // Content keys: the same definition again gives the same key; another field order, another.
      expect(operatorOf(d).key, `${label}: key`).toBe(op.key);
      if (typeof d.type !== 'string' && d.fields.length > 1) {
        const reversed = { ...d, type: Object.fromEntries(Object.entries(d.type).reverse()) };
        expect(operatorOf(reversed).key, `${label}: key of the reversed record`).not.toBe(op.key);
      }
    });
  }
});
