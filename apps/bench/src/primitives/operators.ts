import { createReducePlan, createScanPlan, defineOperator, type Operator, type ScanContext } from '@scan/core';
import { reduce as cpuReduce, scan as cpuScan } from '@scan/core/cpu';
import { defineKernel, read, readWrite } from '@scan/core/kit';
import { benchModule } from '../bench-module.js';
import type { Case, CaseShape } from '../case-types.js';
import { type CheckOutcome, encodeCheckScalar, encodeFill, encodeReduceTree, runCheck, runElementCheck } from '../child/device-ops.js';
import { BufferPool, encodeKernel, readWords, submitAndWait } from '../child/gpu.js';
import { checkScanKernel } from '../child/kernels/check-scan.js';
import { COMMON_WGSL, ENTRY_ARGS, ERROR_BINDING, ERROR_WGSL } from '../child/kernels/common.js';
import { HASH_WGSL } from '../child/kernels/fill.js';
import { checkFitsBinding, POISON } from '../child/workload.js';
import { recordBytesMoved } from '../metrics.js';
import type { ScanCase } from './scan.js';

// User-defined operators of @scan/core (`defineOperator`, issue 48) through the buffer-level plans:
// scans and reductions of scalar, vector and record elements, each checked on the GPU by the bench's
// own WGSL (sharing nothing with the operator's body) and against `@scan/core/cpu` at small sizes.

/**
 * The operators measured, by the case's `op`: each has one element type.
 * - `user-add`: u32 `a + b` written as a user operator, for the cost of the operator path against
 *   the built-in add (the scan's companion, `×scan`);
 * - `add`: vec4<f32> componentwise add;
 * - `affine`: vec2<f32> (a, b) standing for x ↦ a·x + b, composed in array order:
 *   (p ⊕ q) = (p.a·q.a, p.b·q.a + q.b) — first-order linear recurrences (not commutative);
 * - `argmax`: the record { value: f32, index: u32 }, the largest value and the lowest index among
 *   equal ones.
 */
export type OperatorCaseOp = 'user-add' | 'add' | 'affine' | 'argmax';

/** What a case names of its operator: `op`, and its element type as written (`inputType`, the series' first word). */
type OperatorFields = { op: OperatorCaseOp; inputType: string };

/** An operator-scan case: the operator and the direction. */
export type OperatorScanCase = Case<'operator-scan', OperatorFields & { inclusive: boolean; backward: boolean }>;

/** An operator-reduce case: the operator. */
export type OperatorReduceCase = Case<'operator-reduce', OperatorFields>;

/**
 * The operator of a case, made when its workload starts (the parent and the dashboard import this
 * module too, and need only the shapes). The WGSL bodies are the ones a user would write; the checks
 * below never call them.
 */
function makeOperator(op: OperatorCaseOp): Operator<unknown> {
  switch (op) {
    case 'user-add':
      return defineOperator({
        type: 'u32',
        identity: 0,
        wgsl: 'return a + b;',
        cpu: (a, b) => (a + b) >>> 0,
        name: 'user-add',
      }) as Operator<unknown>;
    case 'add':
      return defineOperator({
        type: 'vec4<f32>',
        identity: [0, 0, 0, 0],
        wgsl: 'return a + b;',
        cpu: (a, b) => [a[0]! + b[0]!, a[1]! + b[1]!, a[2]! + b[2]!, a[3]! + b[3]!],
        name: 'vec4-add',
      }) as Operator<unknown>;
    case 'affine':
      // (a, b) in (.x, .y): x ↦ a·x + b; p then q is x ↦ q.a·(p.a·x + p.b) + q.b.
      return defineOperator({
        type: 'vec2<f32>',
        identity: [1, 0],
        wgsl: 'return vec2<f32>(a.x * b.x, a.y * b.x + b.y);',
        cpu: (p, q) => [p[0]! * q[0]!, p[1]! * q[0]! + q[1]!],
        name: 'affine',
      }) as Operator<unknown>;
    case 'argmax':
      return defineOperator({
        type: { value: 'f32', index: 'u32' },
        identity: { value: Number.NEGATIVE_INFINITY, index: 0xffffffff },
        wgsl: 'var r = a;\nif (b.value > a.value || (b.value == a.value && b.index < a.index)) { r = b; }\nreturn r;',
        cpu: (a, b) => (b.value > a.value || (b.value === a.value && b.index < a.index) ? b : a),
        name: 'argmax',
      }) as Operator<unknown>;
  }
}

/** Words per record of each operator (the host layout, also the GPU's: see `OperatorLayout.words`). */
const WORDS: Readonly<Record<OperatorCaseOp, number>> = { 'user-add': 1, add: 4, affine: 2, argmax: 2 };

/** Which lanes of a record are floats (compared as numbers: +0 equals −0), by operator. */
const FLOAT_LANES: Readonly<Record<OperatorCaseOp, readonly boolean[]>> = {
  'user-add': [false],
  add: [true, true, true, true],
  affine: [true, true],
  argmax: [true, false],
};

/**
 * The operator-scan configurations, in report order: the u32 user add exclusive forward (against the
 * built-in add), vec4<f32> add inclusive forward, and the affine recurrence inclusive forward and backward.
 *
 * @example
 * ```ts
 * operatorScanShapes().map((s) => `${s.inputType} ${s.op}`); // ['u32 user-add', 'vec4<f32> add', 'vec2<f32> affine', 'vec2<f32> affine']
 * ```
 */
export function operatorScanShapes(): CaseShape<OperatorScanCase>[] {
  const base = { primitive: 'operator-scan', inclusive: true, backward: false } as const;
  return [
    { ...base, type: 'u32', inputType: 'u32', op: 'user-add', inclusive: false },
    { ...base, type: 'f32', inputType: 'vec4<f32>', op: 'add' },
    { ...base, type: 'f32', inputType: 'vec2<f32>', op: 'affine' },
    { ...base, type: 'f32', inputType: 'vec2<f32>', op: 'affine', backward: true },
  ];
}

/**
 * The built-in scan an operator-scan case of the u32 user add is timed beside (`×scan`, a time
 * ratio): the `decoupled-fallback` u32 add exclusive forward scan at the same size and seed.
 *
 * @example
 * ```ts
 * builtinScanCase(c).algorithm; // 'decoupled-fallback' (u32 add, exclusive, forward; c's n, seed and runs)
 * ```
 */
export function builtinScanCase(c: OperatorScanCase): ScanCase {
  const { op: _op, inputType: _inputType, ...rest } = c;
  return { ...rest, primitive: 'scan', algorithm: 'decoupled-fallback', type: 'u32', op: 'add', inclusive: false, backward: false };
}

/**
 * A case's operator and its words per record, once `n` records are known to fit one binding (else
 * the case is skipped); throws if the operator's layout is not the one the bench's checks assume.
 */
function caseOperator(ctx: ScanContext, op: OperatorCaseOp, n: number): { W: number; operator: Operator<unknown> } {
  const W = WORDS[op];
  checkFitsBinding(ctx, n, 4 * W, 'records');
  const operator = makeOperator(op);
  if (operator.words !== W) throw new Error(`internal error: ${op} has ${operator.words} words per record, the bench assumes ${W}`);
  return { W, operator };
}

/**
 * The records' generator (per record i, from the bench's seeded hash r = rand(i, seed)):
 * - `affine`: a = ±1 (bit 0 of r), b an integer in [−8, 8]: every composition of a range is
 *   (±1, an integer sum of magnitude at most 8·n), exact in f32 while below 2^24 — a random walk,
 *   about 5·√n (n = 2^28: ~80 000), so every association order gives the same bits;
 * - `argmax`: value r mod m as f32, m = {@link argmaxValues}(n) ≈ n/8, so about 8 records share the
 *   largest value at every size, scattered over the array (ties between tiles and chunks decide the
 *   result; lowest index wins), index i.
 */
const recordFillKernel = defineKernel({
  name: 'bench/operator-record-fill',
  bindings: { out: readWrite('array<u32>') },
  params: { n: 'u32', seed: 'u32', values: 'u32' },
  wgsl: (spec: { mode: 'affine' | 'argmax' }) => `${COMMON_WGSL}${HASH_WGSL}
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i >= params.n) { return; }
  let r = rand(i, params.seed);
${
  spec.mode === 'affine'
    ? `  out[2u * i] = bitcast<u32>(select(1.0f, -1.0f, (r & 1u) == 1u));
  out[2u * i + 1u] = bitcast<u32>(f32(i32((r >> 1u) % 17u) - 8));`
    : `  out[2u * i] = bitcast<u32>(f32(r % params.values));
  out[2u * i + 1u] = i;`
}
}
`,
});

/**
 * The number of distinct argmax values at n records: about n/8 (at least 2, at most 2^24, where f32
 * still holds every integer), so the largest value appears about 8 times.
 *
 * @example
 * ```ts
 * argmaxValues(1 << 20); // 131072
 * ```
 */
export function argmaxValues(n: number): number {
  return Math.min(2 ** 24, Math.max(2, Math.floor(n / 8)));
}

/**
 * The check of a vec4<f32> add or affine scan, record by record against the scan recurrence in
 * scan order j (record `n-1-j` when backward), with the operator written here (not the operator's
 * WGSL): forward `out[j] = out[j-1] ⊕ x`, backward `out[i] = x ⊕ out[i+1]` (array order), x the
 * record's own input (inclusive) or its predecessor's (exclusive); the first record is its input
 * (inclusive) or the identity. Exact (the inputs keep every value an f32 integer), so by induction
 * a passing output is the scan; records are compared bit for bit. Reports the array index of the
 * record. Bindings `inp`, `out`, `err`.
 */
const recordScanCheckKernel = defineKernel({
  name: 'bench/operator-scan-check',
  bindings: (spec: { op: 'add' | 'affine'; inclusive: boolean; backward: boolean }) => {
    const T = spec.op === 'add' ? 'vec4<f32>' : 'vec2<f32>';
    return { inp: read(`array<${T}>`), out: read(`array<${T}>`), ...ERROR_BINDING };
  },
  params: { n: 'u32' },
  wgsl: (spec) => {
    const T = spec.op === 'add' ? 'vec4<f32>' : 'vec2<f32>';
    const U = spec.op === 'add' ? 'vec4<u32>' : 'vec2<u32>';
    const identity = spec.op === 'add' ? 'vec4<f32>(0.0f)' : 'vec2<f32>(1.0f, 0.0f)';
    const combine =
      spec.op === 'add'
        ? 'fn combine(p: vec4<f32>, q: vec4<f32>) -> vec4<f32> { return vec4<f32>(p.x + q.x, p.y + q.y, p.z + q.z, p.w + q.w); }'
        : 'fn combine(p: vec2<f32>, q: vec2<f32>) -> vec2<f32> { let a = p.x * q.x; let b = p.y * q.x + q.y; return vec2<f32>(a, b); }';
    const phys = spec.backward ? (j: string) => `(params.n - 1u - ${j})` : (j: string) => j;
    const first = spec.inclusive ? `inp[${phys('0u')}]` : identity;
    const operand = spec.inclusive ? `inp[${phys('j')}]` : `inp[${phys('(j - 1u)')}]`;
    const previous = `out[${phys('(j - 1u)')}]`;
    const step = spec.backward ? `combine(${operand}, ${previous})` : `combine(${previous}, ${operand})`;
    return `${COMMON_WGSL}${ERROR_WGSL}
${combine}
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let j = global_index(wid, nwg, lid);
  if (j >= params.n) { return; }
  var expected: ${T};
  if (j == 0u) {
    expected = ${first};
  } else {
    expected = ${step};
  }
  // By bits: WGSL may assume no NaN, so a float comparison could miss a corrupted NaN record
  // (no −0 arises: every input and partial result is +0 or a nonzero integer).
  if (any(bitcast<${U}>(out[${phys('j')}]) != bitcast<${U}>(expected))) { mismatch(${phys('j')}); }
}
`;
  },
});

/**
 * The check of an argmax reduction over records (value, index) whose index is the position: with
 * (V, K) the plan's result, no record may beat it (value > V, or value == V at an index < K), and
 * record K must exist and be (V, K) bit for bit — together: (V, K) is the largest value at its
 * lowest index. One invocation per record; bindings `inp` (2n words), `out` (the result), `err`.
 */
const argmaxCheckKernel = defineKernel({
  name: 'bench/operator-argmax-check',
  bindings: { inp: read('array<u32>'), out: read('array<u32>'), ...ERROR_BINDING },
  params: { n: 'u32' },
  wgsl: () => `${COMMON_WGSL}${ERROR_WGSL}
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i >= params.n) { return; }
  let best = bitcast<f32>(out[0]);
  let at = out[1];
  let value = bitcast<f32>(inp[2u * i]);
  let index = inp[2u * i + 1u];
  if (value > best || (value == best && index < at)) { mismatch(i); }
  if (i == 0u) {
    if (at >= params.n) { mismatch(0u); }
    else if (inp[2u * at] != out[0] || inp[2u * at + 1u] != at) { mismatch(at); }
  }
}
`,
})({});

/** Words of a reduction's output buffer: the result record, then poison the plan must leave alone. */
const REDUCE_OUTPUT_WORDS = 128;

/**
 * The check that words [first, end) of `out` still hold `value` (a reduction writes its record and
 * nothing after it). Bindings `out`, `err`; one invocation per word.
 */
const untouchedCheckKernel = defineKernel({
  name: 'bench/operator-untouched-check',
  bindings: { out: read('array<u32>'), ...ERROR_BINDING },
  params: { first: 'u32', end: 'u32', value: 'u32' },
  wgsl: () => `${COMMON_WGSL}${ERROR_WGSL}
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let i = params.first + global_index(wid, nwg, lid);
  if (i >= params.end) { return; }
  if (out[i] != params.value) { mismatch(i); }
}
`,
})({});

/** Records the inputs of `op`'s case: n records, from the seeded hash. */
function encodeInputs(
  ctx: ScanContext,
  pool: BufferPool,
  encoder: GPUCommandEncoder,
  input: GPUBuffer,
  op: OperatorCaseOp,
  n: number,
  seed: number,
) {
  switch (op) {
    case 'user-add':
      return encodeFill(ctx, pool, encoder, input, n, 'random', seed);
    case 'add':
      // Four independent integers in [−8, 8] per record: every partial sum stays an exact f32.
      return encodeFill(ctx, pool, encoder, input, 4 * n, 'small-f32', seed);
    case 'affine':
    case 'argmax': {
      const kernel = recordFillKernel({ mode: op });
      encodeKernel(
        ctx,
        encoder,
        kernel,
        { out: input, params: pool.params(kernel, { n, seed, values: argmaxValues(n) }) },
        { invocations: n },
      );
    }
  }
}

/** Largest number of words one CPU comparison holds in one typed array (the bench's 256 KiB read-back rule). */
const CPU_CHUNK_WORDS = 1 << 16;

/** Records of `words` words where `expected` and `actual` differ (float lanes as numbers, the others bit for bit). */
function recordsDiffer(expected: Uint32Array, actual: Uint32Array, floats: readonly boolean[]): number {
  const words = floats.length;
  const fe = new Float32Array(expected.buffer, expected.byteOffset, expected.length);
  const fa = new Float32Array(actual.buffer, actual.byteOffset, actual.length);
  let wrong = 0;
  for (let r = 0; r * words < expected.length; r++) {
    for (let k = 0; k < words; k++) {
      const i = r * words + k;
      const same = floats[k] ? fe[i] === fa[i] || (Number.isNaN(fe[i]!) && Number.isNaN(fa[i]!)) : expected[i] === actual[i];
      if (!same) {
        wrong++;
        break;
      }
    }
  }
  return wrong;
}

/** The host array `@scan/core/cpu` takes for `op`'s records: a view of the same words. */
function hostView(op: OperatorCaseOp, words: Uint32Array): Uint32Array | Float32Array {
  return op === 'add' || op === 'affine' ? new Float32Array(words.buffer, words.byteOffset, words.length) : words;
}

/** The words of a value of `op`'s type (what `@scan/core/cpu`'s `reduce` returns), as the GPU stores them. */
function valueWords(op: OperatorCaseOp, value: unknown): Uint32Array {
  const words = new Uint32Array(WORDS[op]);
  const floats = new Float32Array(words.buffer);
  if (op === 'user-add') words[0] = (value as number) >>> 0;
  else if (op === 'argmax') {
    const v = value as { value: number; index: number };
    floats[0] = v.value;
    words[1] = v.index >>> 0;
  } else floats.set(value as number[]);
  return words;
}

/**
 * Compares a scan's whole output with `@scan/core/cpu`'s `scan`, in pieces of at most
 * {@link CPU_CHUNK_WORDS} words (never a large array on the JS heap): each piece's expected records
 * are the inclusive CPU scan of [carry, its inputs] (backward: [its inputs, carry]), the carry being
 * the last expected inclusive record of the pieces before it (or, exclusive, the identity first):
 * the CPU reference itself combines the carry in, in array order. Returns the records that differ.
 */
async function compareScanWithCpu(
  ctx: ScanContext,
  operator: Operator<unknown>,
  c: OperatorScanCase,
  input: GPUBuffer,
  output: GPUBuffer,
): Promise<number> {
  const W = WORDS[c.op];
  const floats = FLOAT_LANES[c.op];
  const per = Math.floor(CPU_CHUNK_WORDS / W) - 1;
  const n = c.n;
  // The carry: the composition of every record before the piece (in scan order), or none.
  let carry: Uint32Array | undefined = c.inclusive ? undefined : valueWords(c.op, operator.identity);
  let wrong = 0;
  for (let done = 0; done < n; done += per) {
    const m = Math.min(per, n - done);
    // Forward pieces from the start, backward pieces from the end.
    const start = c.backward ? n - done - m : done;
    const inp = await readWords(ctx, input, m * W, 4 * W * start);
    const out = await readWords(ctx, output, m * W, 4 * W * start);
    const k = carry ? 1 : 0;
    const data = new Uint32Array((m + k) * W);
    if (carry) data.set(carry, c.backward ? m * W : 0);
    data.set(inp, c.backward ? 0 : k * W);
    const inclusive = new Uint32Array(cpuScan(hostView(c.op, data), { op: operator, inclusive: true, backward: c.backward }).buffer);
    // The piece's records of the inclusive scan of [carry, inputs]: exclusive takes the m before
    // each input (the carry's own record first), inclusive the m at the inputs.
    let expected: Uint32Array;
    if (c.backward) expected = c.inclusive ? inclusive.subarray(0, m * W) : inclusive.subarray(W, (m + 1) * W);
    else expected = c.inclusive ? inclusive.subarray(k * W, (k + m) * W) : inclusive.subarray(0, m * W);
    wrong += recordsDiffer(expected, out, floats);
    carry = c.backward ? inclusive.slice(0, W) : inclusive.slice((m + k - 1) * W, (m + k) * W);
  }
  return wrong;
}

/**
 * Compares a reduction's output with `@scan/core/cpu`'s `reduce`: the CPU reduce of each piece of at
 * most {@link CPU_CHUNK_WORDS} words, then the CPU reduce of those results in order (the operator is
 * associative); plus every word after the record that is not the poison. Returns the differences.
 */
async function compareReduceWithCpu(
  ctx: ScanContext,
  operator: Operator<unknown>,
  c: OperatorReduceCase,
  input: GPUBuffer,
  output: GPUBuffer,
) {
  const W = WORDS[c.op];
  const per = Math.floor(CPU_CHUNK_WORDS / W);
  const partials: Uint32Array[] = [];
  for (let start = 0; start < c.n; start += per) {
    const m = Math.min(per, c.n - start);
    const words = await readWords(ctx, input, m * W, 4 * W * start);
    partials.push(valueWords(c.op, cpuReduce(hostView(c.op, words), { op: operator })));
  }
  const all = new Uint32Array(partials.length * W);
  partials.forEach((p, i) => all.set(p, i * W));
  const expected = valueWords(c.op, cpuReduce(hostView(c.op, all), { op: operator }));
  const out = await readWords(ctx, output, REDUCE_OUTPUT_WORDS);
  let wrong = recordsDiffer(expected, out.subarray(0, W), FLOAT_LANES[c.op]);
  for (let i = W; i < REDUCE_OUTPUT_WORDS; i++) if (out[i] !== POISON) wrong++;
  return wrong;
}

/**
 * `operator-scan` in the registry: scans with user-defined operators through `createScanPlan(ctx,
 * { op })` — the u32 user add (exclusive forward; timed beside the built-in add, `×scan`), vec4<f32>
 * add and the affine recurrence (inclusive forward, and backward). Checked on the GPU record by
 * record against the recurrence at every size, and against `@scan/core/cpu` in full at n ≤ 2^16.
 * Bytes: 2·n·record bytes.
 *
 * @example
 * ```ts
 * const w = await OPERATOR_SCAN.workload?.(ctx, c);
 * ```
 */
export const OPERATOR_SCAN = benchModule<OperatorScanCase>({
  package: '@scan/core',
  primitives: ['operator-scan'],
  shapes: operatorScanShapes,
  companion: (c) => (c.op === 'user-add' ? { field: 'scan', case: builtinScanCase(c) } : undefined),
  async workload(ctx, c) {
    const n = c.n;
    const { W, operator } = caseOperator(ctx, c.op, n);
    const pool = new BufferPool(ctx);
    const input = pool.storage(4 * W * n, 'operator-scan input');
    const output = pool.storage(4 * W * n, 'operator-scan output');
    const setup = ctx.device.createCommandEncoder();
    encodeInputs(ctx, pool, setup, input, c.op, n, c.seed);
    encodeFill(ctx, pool, setup, output, W * n, 'constant', 0, POISON);
    await submitAndWait(ctx, setup);
    const plan = createScanPlan(ctx, { op: operator, inclusive: c.inclusive, backward: c.backward, maxCount: n });
    await plan.ready;
    const verify = (): Promise<CheckOutcome> => {
      if (c.op === 'user-add') {
        // The built-in u32 add's own check (independent WGSL): the same recurrence.
        return runElementCheck(
          ctx,
          pool,
          checkScanKernel({ type: 'u32', op: 'add', inclusive: c.inclusive, backward: c.backward }),
          input,
          output,
          n,
        );
      }
      if (c.op === 'argmax') throw new Error('operator-scan: no argmax scan case');
      return runElementCheck(
        ctx,
        pool,
        recordScanCheckKernel({ op: c.op, inclusive: c.inclusive, backward: c.backward }),
        input,
        output,
        n,
      );
    };
    return {
      bytes: recordBytesMoved('operator-scan', n, operator.bytes),
      output,
      encode: (encoder) => plan.encode(encoder, { input, output, count: n }),
      verify,
      compareWithCpu: () => compareScanWithCpu(ctx, operator, c, input, output),
      destroy() {
        plan.destroy();
        pool.destroy();
      },
    };
  },
});

/**
 * `operator-reduce` in the registry: reductions with user-defined operators through
 * `createReducePlan(ctx, { op })` — the u32 user add (against the bench's own tree reduction on the
 * GPU) and argmax over { value: f32, index: u32 } records (the record checked against every input
 * record on the GPU); the output's words after the record must keep their poison. At n ≤ 2^16 also
 * against `@scan/core/cpu`. Bound by reading the input once: the read-only baseline runs beside it.
 * Bytes: n·record bytes.
 *
 * @example
 * ```ts
 * OPERATOR_REDUCE.shapes(selection).map((s) => s.op); // ['user-add', 'argmax']
 * ```
 */
export const OPERATOR_REDUCE = benchModule<OperatorReduceCase>({
  package: '@scan/core',
  primitives: ['operator-reduce'],
  readBound: true,
  shapes: () => [
    { primitive: 'operator-reduce', type: 'u32', inputType: 'u32', op: 'user-add' },
    { primitive: 'operator-reduce', type: 'f32', inputType: '{value,index}', op: 'argmax' },
  ],
  async workload(ctx, c) {
    const n = c.n;
    const { W, operator } = caseOperator(ctx, c.op, n);
    const pool = new BufferPool(ctx);
    const input = pool.storage(4 * W * n, 'operator-reduce input');
    const output = pool.storage(4 * REDUCE_OUTPUT_WORDS, 'operator-reduce output');
    const setup = ctx.device.createCommandEncoder();
    encodeInputs(ctx, pool, setup, input, c.op, n, c.seed);
    encodeFill(ctx, pool, setup, output, REDUCE_OUTPUT_WORDS, 'constant', 0, POISON);
    await submitAndWait(ctx, setup);
    const plan = createReducePlan(ctx, { op: operator, maxCount: n });
    await plan.ready;
    const untouched = pool.params(untouchedCheckKernel, { first: W, end: REDUCE_OUTPUT_WORDS, value: POISON });
    return {
      bytes: recordBytesMoved('operator-reduce', n, operator.bytes),
      output,
      encode: (encoder) => plan.encode(encoder, { input, output, count: n }),
      verify: () =>
        runCheck(ctx, pool, (encoder, errors) => {
          if (c.op === 'user-add') {
            const expected = encodeReduceTree(ctx, pool, encoder, input, n, 'u32', 'add');
            encodeCheckScalar(ctx, encoder, 'u32', output, expected, errors);
          } else {
            encodeKernel(
              ctx,
              encoder,
              argmaxCheckKernel,
              { inp: input, out: output, err: errors, params: pool.params(argmaxCheckKernel, { n }) },
              { invocations: n },
            );
          }
          encodeKernel(
            ctx,
            encoder,
            untouchedCheckKernel,
            { out: output, err: errors, params: untouched },
            { invocations: REDUCE_OUTPUT_WORDS - W },
          );
        }),
      compareWithCpu: () => compareReduceWithCpu(ctx, operator, c, input, output),
      destroy() {
        plan.destroy();
        pool.destroy();
      },
    };
  },
});
