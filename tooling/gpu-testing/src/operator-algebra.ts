// A small algebra of user-defined operators for seeded property tests (issue 48): each seed draws an
// element type (a record of 1–8 fields, or a vector or scalar when the lanes allow), an operator
// composed lane by lane from per-field add, min, max or xor on integers, affine maps on two f32
// fields and 2×2 integer matrices on four, its identity and WGSL, a size, a head-flag density and
// an array class; then data and head flags. Every operator is exactly associative on the drawn data
// (integers wrap; the affine maps keep a = ±1 and small b, exact in f32), so any grouping — the
// GPU's, the CPU references', a naive fold — agrees bit for bit. fast-check is not a dependency:
// the draws are the repository's seeded xoshiro128**.
import { defineOperator, type FieldType, type HostArray, type Operator, type OperatorType } from '@scan/core';
import { createRng, type Rng } from './random.js';

/** The integer lane types of the algebra's components. */
export type IntLane = 'u32' | 'i32';

/**
 * One part of a composed operator, acting on its own lanes: an integer op on one lane, an affine
 * map x ↦ a·x + b on two f32 lanes (a, b), or a 2×2 integer matrix on four lanes (row-major).
 *
 * @example
 * ```ts
 * const parts: Component[] = [{ kind: 'int', lane: 'u32', op: 'max' }, { kind: 'affine' }];
 * ```
 */
export type Component =
  | { readonly kind: 'int'; readonly lane: IntLane; readonly op: 'add' | 'min' | 'max' | 'xor' }
  | { readonly kind: 'affine' }
  | { readonly kind: 'matrix'; readonly lane: IntLane };

/**
 * How many lanes a component spans: 1 (int), 2 (affine) or 4 (matrix).
 *
 * @example
 * ```ts
 * componentWidth({ kind: 'affine' }); // 2
 * ```
 */
export function componentWidth(c: Component): number {
  return c.kind === 'int' ? 1 : c.kind === 'affine' ? 2 : 4;
}

/**
 * The lane types of a component.
 *
 * @example
 * ```ts
 * componentLanes({ kind: 'matrix', lane: 'i32' }); // ['i32', 'i32', 'i32', 'i32']
 * ```
 */
export function componentLanes(c: Component): FieldType[] {
  return c.kind === 'affine' ? ['f32', 'f32'] : new Array<FieldType>(componentWidth(c)).fill(c.lane);
}

const wrap = (lane: IntLane, x: number): number => (lane === 'u32' ? x >>> 0 : x | 0);

/**
 * The component applied to its lanes `a` and `b` (plain JavaScript; the CPU references round the
 * result through storage).
 *
 * @example
 * ```ts
 * combineLanes({ kind: 'int', lane: 'u32', op: 'add' }, [0xffffffff], [2]); // [1]
 * combineLanes({ kind: 'affine' }, [-1, 3], [1, 2]); // [-1, 5]: first x ↦ 3 − x, then x ↦ x + 2
 * ```
 */
export function combineLanes(c: Component, a: readonly number[], b: readonly number[]): number[] {
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

/**
 * The component's identity lanes.
 *
 * @example
 * ```ts
 * identityLanes({ kind: 'int', lane: 'i32', op: 'max' }); // [-2147483648]
 * identityLanes({ kind: 'matrix', lane: 'u32' }); // [1, 0, 0, 1]
 * ```
 */
export function identityLanes(c: Component): number[] {
  if (c.kind === 'affine') return [1, 0];
  if (c.kind === 'matrix') return [1, 0, 0, 1];
  if (c.op === 'add' || c.op === 'xor') return [0];
  if (c.op === 'min') return [c.lane === 'u32' ? 0xffffffff : 0x7fffffff];
  return [c.lane === 'u32' ? 0 : -0x80000000];
}

/**
 * The component's WGSL on the lane expressions `a` and `b`: one expression per result lane.
 *
 * @example
 * ```ts
 * wgslLanes({ kind: 'int', lane: 'u32', op: 'min' }, ['a.x0'], ['b.x0']); // ['min(a.x0, b.x0)']
 * ```
 */
export function wgslLanes(c: Component, a: readonly string[], b: readonly string[]): string[] {
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

/**
 * Seeded lanes of one value for a component: integers full-range or small (min and max then see
 * many ties), affine maps with a = ±1 and b in [−20, 20] (every composition exact in f32).
 *
 * @example
 * ```ts
 * drawValueLanes({ kind: 'affine' }, createRng(1)); // e.g. [-1, 7]
 * ```
 */
export function drawValueLanes(c: Component, rng: Rng): number[] {
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

/**
 * The field names drawn records take (each gets its lane index appended): short, long, leading
 * underscore, upper case, and WGSL built-in function names (`min`) that must still work as fields.
 *
 * @example
 * ```ts
 * ALGEBRA_FIELD_NAMES.includes('min'); // true
 * ```
 */
export const ALGEBRA_FIELD_NAMES: readonly string[] = [
  'x',
  'y',
  'value',
  'index',
  'count',
  'sum',
  'lo',
  'hi',
  'key',
  '_k',
  'alpha',
  'Beta',
  'n_1',
  'min',
  'w',
];

/**
 * One drawn case: the operator's parts, its type, and everything needed to rebuild it and its data.
 *
 * @example
 * ```ts
 * const d: DrawnOperator = drawOperator(48_000);
 * d.type; d.wgsl; d.n; d.density; d.Class;
 * ```
 */
export interface DrawnOperator {
  /** The seed it was drawn from. */
  readonly seed: number;
  /** The operator's parts, lane by lane. */
  readonly components: readonly Component[];
  /** Its element type: a scalar, a vector or a record. */
  readonly type: OperatorType;
  /** The record's field names in order (drawn for every type; used only by records). */
  readonly fields: readonly string[];
  /** The WGSL body of `combine(a, b)`. */
  readonly wgsl: string;
  /** The number of records. */
  readonly n: number;
  /** The probability of a head flag on each record. */
  readonly density: number;
  /** The host array class the data comes in. */
  readonly Class: new (
    length: number,
  ) => HostArray;
}

/** Options of {@link drawOperator}. */
export interface DrawOperatorOptions {
  /**
   * Sizes to draw `n` from, uniformly (from a stream of its own, so everything else drawn for the
   * seed stays as without it). By default: 0, 1, 2, 3, 4–40 or 41–160.
   */
  readonly sizes?: readonly number[];
}

/**
 * Draws an operator from the algebra, its type and WGSL, a size, a head-flag density and a host
 * array class, all from `seed`. The same seed gives the same operator, density and class with or
 * without `sizes`.
 *
 * @example
 * ```ts
 * const d = drawOperator(48_003);
 * const big = drawOperator(48_003, { sizes: [255, 256, 257, 9000] }); // the same operator, larger n
 * const op = operatorOf(big);
 * ```
 */
export function drawOperator(seed: number, options: DrawOperatorOptions = {}): DrawnOperator {
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
    width += componentWidth(c);
  }
  const lanes = components.flatMap(componentLanes);
  const same = lanes.every((l) => l === lanes[0]);
  const fields = lanes.map((_, i) => `${pick(ALGEBRA_FIELD_NAMES)}${i}`);
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
    const idx = Array.from({ length: componentWidth(c) }, (_, j) => at + j);
    at += componentWidth(c);
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

  // The default size is drawn either way, so that the draws after it do not depend on `sizes`.
  const smallN = pick([0, 1, 2, 3, rng.int(4, 40), rng.int(41, 160)]);
  const sizes = options.sizes;
  const n = sizes ? sizes[createRng(seed ^ 0x512e5).int(0, sizes.length - 1)]! : smallN;
  const density = pick([0, 0.02, 0.3, 1, rng.float()]);
  const Class =
    typeof type === 'string' && !type.startsWith('vec')
      ? type === 'u32'
        ? Uint32Array
        : Int32Array
      : pick([Uint32Array, Int32Array, Float32Array]);
  return { seed, components, type, fields, wgsl, n, density, Class };
}

/**
 * The lane numbers of a value of `op`'s type (a scalar, a vector's entries, a record's fields in order).
 *
 * @example
 * ```ts
 * lanesOf(affineRecord, { a: -1, b: 3 }); // [-1, 3]
 * ```
 */
export function lanesOf<T>(op: Operator<T>, value: T): number[] {
  if (op.shape === 'scalar') return [value as number];
  if (op.shape === 'vector') return [...(value as number[])];
  return op.fields.map((f) => (value as Record<string, number>)[f]!);
}

/**
 * A value of `op`'s type from lane numbers (the inverse of {@link lanesOf}).
 *
 * @example
 * ```ts
 * recordOf(affineRecord, [-1, 3]); // { a: -1, b: 3 }
 * ```
 */
export function recordOf<T>(op: Pick<Operator<T>, 'shape' | 'fields'>, lanes: readonly number[]): T {
  if (op.shape === 'scalar') return lanes[0] as T;
  if (op.shape === 'vector') return [...lanes] as T;
  return Object.fromEntries(op.fields.map((f, i) => [f, lanes[i]!])) as T;
}

/**
 * A host array of class `Class` holding `values` of `op`'s type, written lane by lane through a
 * DataView (apart from core's host-records.ts, so a mistake there cannot cancel out). 32-bit
 * lanes only, as the algebra's.
 *
 * @example
 * ```ts
 * encodeRecords(affineRecord, [{ a: 1, b: 2 }], Float32Array); // Float32Array [1, 2]
 * ```
 */
export function encodeRecords<T, A extends HostArray>(op: Operator<T>, values: readonly T[], Class: new (length: number) => A): A {
  const width = op.lanes.length;
  const out = new Class(values.length * width);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  values.forEach((value, i) => {
    lanesOf(op, value).forEach((x, j) => {
      const byte = 4 * (i * width + j);
      const lane = op.lanes[j];
      if (lane === 'u32') view.setUint32(byte, x, true);
      else if (lane === 'i32') view.setInt32(byte, x, true);
      else if (lane === 'f32') view.setFloat32(byte, x, true);
      else throw new Error(`encodeRecords: lane type ${lane} is not one of the algebra's (u32, i32, f32)`);
    });
  });
  return out;
}

/**
 * The drawn operator, built from scratch with `defineOperator` (a second call gives an equal,
 * separate definition with the same key). Its CPU reference applies each component to its lanes.
 *
 * @example
 * ```ts
 * const op = operatorOf(drawOperator(48_000));
 * op.cpu(op.identity, op.identity); // the identity
 * ```
 */
export function operatorOf(d: Pick<DrawnOperator, 'components' | 'type' | 'fields' | 'wgsl'>): Operator<unknown> {
  const split = (lanes: number[]): number[][] => {
    let at = 0;
    return d.components.map((c) => {
      at += componentWidth(c);
      return lanes.slice(at - componentWidth(c), at);
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
  } as const;
  op = defineOperator({
    type: d.type,
    identity: recordOf(shell, identity),
    wgsl: d.wgsl,
    cpu,
    name: 'composed',
  } as never) as Operator<unknown>;
  return op;
}

/**
 * A one-line description of a drawn case, for test names and failure messages.
 *
 * @example
 * ```ts
 * describeDrawn(drawOperator(48_000)); // e.g. 'record(3) [add<u32>, affine] n=17 heads≈0.30 Float32Array'
 * ```
 */
export function describeDrawn(d: DrawnOperator): string {
  const parts = d.components.map((c) => (c.kind === 'int' ? `${c.op}<${c.lane}>` : c.kind === 'matrix' ? `matrix<${c.lane}>` : 'affine'));
  return `${typeof d.type === 'string' ? d.type : `record(${d.fields.length})`} [${parts.join(', ')}] n=${d.n} heads≈${d.density.toFixed(2)} ${d.Class.name}`;
}

/** The data of a drawn case: its values, as a host array, and head flags. */
export interface DrawnData {
  /** The `n` values, of the operator's type. */
  readonly values: unknown[];
  /** The values as a host array of the drawn class. */
  readonly data: HostArray;
  /** One flag (0 or 1) per record, 1 with the drawn density. */
  readonly heads: Uint8Array;
}

/**
 * The seeded data of a drawn case (from its seed, apart from the draw): `n` values, their host
 * array, and head flags of the drawn density.
 *
 * @example
 * ```ts
 * const d = drawOperator(48_000);
 * const op = operatorOf(d);
 * const { values, data, heads } = drawData(d, op);
 * ```
 */
export function drawData(d: DrawnOperator, op: Operator<unknown>): DrawnData {
  const rng = createRng(d.seed ^ 0x5eed);
  const values = Array.from({ length: d.n }, () =>
    recordOf(
      op,
      d.components.flatMap((c) => drawValueLanes(c, rng)),
    ),
  );
  const data = encodeRecords(op, values, d.Class);
  const heads = Uint8Array.from({ length: d.n }, () => (rng.float() < d.density ? 1 : 0));
  return { values, data, heads };
}

/** One environment variable: in Node `process.env`, in the browser Vite's `import.meta.env` (only `VITE_`-prefixed names reach it). */
function envVar(name: string): string | undefined {
  const g = globalThis as { process?: { env?: Record<string, string | undefined> } };
  const meta = (import.meta as { env?: Record<string, string | undefined> }).env;
  return g.process?.env?.[name] ?? meta?.[`VITE_${name}`] ?? meta?.[name];
}

/**
 * The seeds a property test runs: `OPERATOR_SEED=<seed>` runs that one alone (replay), else
 * `OPERATOR_SEED_COUNT=<k>` (or `count`) seeds from 48_000. In the browser project only
 * `VITE_`-prefixed variables reach the page, so there set `VITE_OPERATOR_SEED` /
 * `VITE_OPERATOR_SEED_COUNT`; in Node either name works.
 *
 * @example
 * ```ts
 * // VITE_OPERATOR_SEED=48007 npx vitest run --project browser test/operator-properties.test.ts
 * for (const seed of operatorSeeds(16)) it(`seed ${seed}`, async () => { ... });
 * ```
 */
export function operatorSeeds(count: number, first = 48_000): number[] {
  const one = envVar('OPERATOR_SEED');
  if (one !== undefined && one !== '') {
    const seed = Number(one);
    if (!Number.isSafeInteger(seed)) throw new Error(`OPERATOR_SEED=${one} is not an integer seed`);
    return [seed];
  }
  const requested = envVar('OPERATOR_SEED_COUNT');
  const k = requested ? Number(requested) : count;
  if (!Number.isSafeInteger(k) || k < 0) throw new Error(`OPERATOR_SEED_COUNT=${requested} is not a count`);
  return Array.from({ length: k }, (_, i) => first + i);
}

/**
 * Where the records in `got` (bytes read back from the GPU, or a host array) differ bit for bit
 * from those in `want`: `undefined` when they agree, else how many records differ and the first,
 * lane by lane as `op`'s types read them, for a failure message.
 *
 * @example
 * ```ts
 * const problem = recordMismatch(op, bytes, scanWith(op, data));
 * expect(problem, `seed ${seed}: inclusive scan`).toBeUndefined();
 * ```
 */
export function recordMismatch(op: Operator<unknown>, got: ArrayBuffer | ArrayBufferView, want: ArrayBufferView): string | undefined {
  const words = (v: ArrayBuffer | ArrayBufferView): Uint32Array =>
    v instanceof ArrayBuffer ? new Uint32Array(v, 0, v.byteLength >>> 2) : new Uint32Array(v.buffer, v.byteOffset, v.byteLength >>> 2);
  const [g, w] = [words(got), words(want)];
  const width = op.lanes.length;
  if (g.length !== w.length) return `got ${g.length / width} records, want ${w.length / width}`;
  const show = (bits: Uint32Array, i: number): string => {
    const view = new DataView(bits.buffer, bits.byteOffset + 4 * i * width, 4 * width);
    const lanes = op.lanes.map((lane, j) =>
      lane === 'f32' ? view.getFloat32(4 * j, true) : lane === 'i32' ? view.getInt32(4 * j, true) : view.getUint32(4 * j, true),
    );
    return `[${lanes.join(', ')}]`;
  };
  let first = -1;
  let differing = 0;
  for (let i = 0; i < w.length / width; i++) {
    for (let j = 0; j < width; j++) {
      if (g[i * width + j] !== w[i * width + j]) {
        if (first < 0) first = i;
        differing++;
        break;
      }
    }
  }
  if (first < 0) return undefined;
  return `${differing} of ${w.length / width} records differ; the first is record ${first}: got ${show(g, first)}, want ${show(w, first)}`;
}

/** Sizes every seed of a GPU property test runs: around one workgroup's 256 invocations, and across tiles of 256 × K records (K = 1 to 8). */
export const PROPERTY_SIZES: readonly number[] = [1, 2, 255, 256, 257, 1000, 3000, 9000];

/** The size a GPU property test's seed draws besides: a tile's edge, 256 × K ± 1 records for K = 2, 4, 8, or a few tiles. */
export const PROPERTY_TILE_EDGES: readonly number[] = [511, 513, 1023, 1025, 2047, 2049, 4097, 6143];

/** The four scans a property test checks. */
export const SCAN_VARIANTS = [
  { inclusive: true, backward: false },
  { inclusive: false, backward: false },
  { inclusive: true, backward: true },
  { inclusive: false, backward: true },
] as const;

/** The scans the portable (no subgroups) kernels run: the two that share no code path of direction or inclusion. */
export const PORTABLE_SCAN_VARIANTS = [SCAN_VARIANTS[0], SCAN_VARIANTS[3]] as const;

/**
 * What a property test reports when the GPU's records differ from the reference's: the seed, the
 * variant, the first differing record (`recordMismatch`), the drawn operator (type and WGSL) and
 * how to replay it in `file`; `undefined` when they agree.
 *
 * @example
 * ```ts
 * expect(propertyProblem(drawn, op, 'scan inclusive', got, want, 'test/operator-properties.test.ts')).toBeUndefined();
 * ```
 */
export function propertyProblem(
  d: DrawnOperator,
  op: Operator<unknown>,
  what: string,
  got: ArrayBuffer | HostArray,
  want: HostArray,
  file: string,
): string | undefined {
  const problem = recordMismatch(op, got, want);
  if (problem === undefined) return undefined;
  return `seed ${d.seed}: ${what}: ${problem}\n${describeDrawn(d)}\ntype ${JSON.stringify(d.type)}\nWGSL:\n${d.wgsl}\nreplay: VITE_OPERATOR_SEED=${d.seed} npx vitest run --project browser ${file}`;
}
