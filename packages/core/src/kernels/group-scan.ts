import type { WgslOp } from './wgsl-ops.js';

/** A WGSL scalar type that subgroup shuffles take. */
export type ShuffleScalarType = 'u32' | 'i32' | 'f32' | 'f16';

/** A WGSL type that subgroup shuffles take: a scalar or a vector of one (`vec4<u32>`, …). */
export type ShuffleType = ShuffleScalarType | `vec${2 | 3 | 4}<${ShuffleScalarType}>`;

/** A member of a record operator's struct ({@link BlockOp.fields}). */
export interface BlockField {
  /** The member's name in the WGSL struct. */
  readonly name: string;
  /** The member's type: one that subgroup shuffles take. */
  readonly type: ShuffleType;
}

/**
 * An operator as the cooperative scans and reductions take it: {@link WgslOp} is one, and so is a
 * user-defined operator that names no subgroup built-in (WGSL has built-ins for add, mul, min, max,
 * and, or, xor only): the subgroup form then runs on shuffles. A value may be a scalar, a vector,
 * or a record: a WGSL struct the kernel declares, whose members {@link BlockOp.fields} lists.
 *
 * @example
 * ```ts
 * // Affine maps x ↦ a·x + b mod 2^16, packed a << 16 | b: associative, not commutative, no built-in.
 * const compose: BlockOp = { type: 'u32', identity: '0x10000u', combine: (f, g) => `affine_then(${f}, ${g})` };
 * const add: BlockOp = wgslOp('add', 'u32');
 * // A record: the kernel declares `struct ArgMax { value: f32, index: u32 }` and `fn argmax(a, b)`.
 * const argmax: BlockOp = {
 *   type: 'ArgMax',
 *   fields: [{ name: 'value', type: 'f32' }, { name: 'index', type: 'u32' }],
 *   identity: 'ArgMax(f32_neg_inf(), 0xffffffffu)',
 *   combine: (a, b) => `argmax(${a}, ${b})`,
 * };
 * ```
 */
export interface BlockOp {
  /**
   * The WGSL type of a value (`u32`, `i32`, `f32`, `vec4<u32>`, …, or a struct with
   * {@link BlockOp.fields}): one that workgroup memory can hold, and in the subgroup form one that
   * subgroup shuffles take, unless it is a record.
   */
  readonly type: string;
  /**
   * A record: `type` names a WGSL struct (declared by the kernel) and these are all its members, in
   * declaration order, each of a type that subgroup shuffles take. WGSL's shuffles do not take
   * structs, so the subgroup form shuffles a record member by member (helpers the group level
   * declares, `T(subgroupShuffle(x.value, lane), subgroupShuffle(x.index, lane))`). A record names
   * no subgroup built-in. Absent: `type` is a scalar or a vector, shuffled whole (the workgroup
   * form takes a struct without its fields too).
   */
  readonly fields?: readonly BlockField[] | undefined;
  /** The identity, a WGSL expression of `type`. */
  readonly identity: string;
  /**
   * `combine(a, b)` as a WGSL expression, `a` coming first in the array (backward scans too: they
   * combine in the array's order, `out[i] = xi ⊕ … ⊕ x(n−1)`). Must be associative.
   */
  combine(a: string, b: string): string;
  /** The subgroup reduction built-in (`subgroupAdd`, …); absent: a butterfly of shuffles. */
  readonly subgroupReduce?: string | undefined;
  /** The inclusive subgroup scan built-in (`subgroupInclusiveAdd`, …); absent: Kogge–Stone on shuffles. */
  readonly subgroupInclusive?: string | undefined;
  /**
   * Whether `combine(a, b) = combine(b, a)`, which lets a reduction combine in any order. Default:
   * whether the operator names a `subgroupReduce` built-in (WGSL has those only for commutative
   * operators).
   */
  readonly commutative?: boolean;
}

/**
 * Whether `op` may be combined in any order ({@link BlockOp.commutative}).
 *
 * @example
 * ```ts
 * commutes(wgslOp('max', 'i32')); // true
 * ```
 */
export function commutes(op: BlockOp): boolean {
  return op.commutative ?? op.subgroupReduce !== undefined;
}

/**
 * `op.combine` for operands written in the scan's order, `a` visited before `b`. The blocks write
 * every combination that way; forward that is the array's order. A backward scan visits the array
 * from its end, but combines in the array's order (`out[i] = xi ⊕ … ⊕ x(n−1)`, a seed from the
 * elements after on the right): the value at the lower index goes on the left, `combine(b, a)`, the
 * mirror of the forward expression. An operator that commutes keeps `combine(a, b)`: the same
 * result, and the WGSL the kernels were measured with.
 *
 * @example
 * ```ts
 * const c = scanOrderCombine({ type: 'u32', identity: '0x10000u', combine: (f, g) => `then(${f}, ${g})` }, true);
 * c('acc', 'x'); // 'then(x, acc)': x lies before everything accumulated so far
 * ```
 */
export function scanOrderCombine(op: BlockOp, backward: boolean): (a: string, b: string) => string {
  return backward && !commutes(op) ? (a, b) => op.combine(b, a) : op.combine;
}

/** Scalars and vectors (`select` takes them; the shuffles too, but for bool). Anything else is a struct here. */
const SCALAR_OR_VECTOR = /^(?:(?:u32|i32|f32|f16|bool)|vec[234](?:<\s*(?:u32|i32|f32|f16|bool)\s*>|[uifh]))$/;

/**
 * Throws (a usage error) when `op` describes a record badly: no members, a member name that is not
 * a WGSL identifier, a member type shuffles do not take, a scalar or vector type, or a built-in.
 */
function checkRecord(op: BlockOp, fields: readonly BlockField[]): void {
  const what = `record operator of type "${op.type}"`;
  if (fields.length === 0) throw new Error(`the ${what} lists no fields`);
  if (SCALAR_OR_VECTOR.test(op.type)) throw new Error(`the ${what} lists fields, but ${op.type} is not a struct`);
  if (op.subgroupReduce !== undefined || op.subgroupInclusive !== undefined)
    throw new Error(`the ${what} names a subgroup built-in, which does not take structs`);
  for (const f of fields) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(f.name)) throw new Error(`the ${what} has a field named "${f.name}"`);
    if (!/^(?:u32|i32|f32|f16|vec[234]<(?:u32|i32|f32|f16)>)$/.test(f.type))
      throw new Error(`field "${f.name}" of the ${what} has type "${f.type}", which subgroup shuffles do not take`);
  }
}

/** The subgroup shuffles the group level calls, with the suffix and the argument of a record's helper. */
const SHUFFLES = {
  Shuffle: { suffix: '', arg: 'lane' },
  ShuffleUp: { suffix: '_up', arg: 'delta' },
  ShuffleDown: { suffix: '_down', arg: 'delta' },
  ShuffleXor: { suffix: '_xor', arg: 'mask' },
} as const;
type ShuffleKind = keyof typeof SHUFFLES;

/**
 * How the group level moves and chooses values of `op`. Scalars and vectors: the built-ins
 * themselves, so their WGSL is what it always was. A record: helpers named after `prefix`,
 * declared by `decls` — in the subgroup form a shuffle of each kind that shuffles member by member
 * (WGSL's shuffles take no structs). Any type that is not a scalar or a vector: a choice in place
 * of `select` (which takes no structs).
 */
function valueOps(op: BlockOp, prefix: string, subgroups: boolean) {
  const T = op.type;
  const fields = op.fields;
  if (fields) checkRecord(op, fields);
  const selects = SCALAR_OR_VECTOR.test(T);
  const helpers: string[] = [];
  if (subgroups && fields) {
    for (const [kind, { suffix, arg }] of Object.entries(SHUFFLES)) {
      const members = fields.map((f) => `subgroup${kind}(x.${f.name}, ${arg})`).join(', ');
      helpers.push(`fn ${prefix}_shuffle${suffix}(x: ${T}, ${arg}: u32) -> ${T} { return ${T}(${members}); }`);
    }
  }
  if (!selects) helpers.push(recordSelectWgsl(`${prefix}_select`, T, fields));
  const about = subgroups && fields ? 'shuffled member by member and chosen' : 'chosen';
  return {
    /** The helpers' declarations ('' for scalars and vectors). */
    decls: helpers.length > 0 ? `\n// ${T} is ${about} by these (WGSL's built-ins take no structs).\n${helpers.join('\n')}\n` : '',
    /** `subgroup<kind>(x, arg)`, or the record's helper. */
    shuffle: (kind: ShuffleKind, x: string, arg: string) =>
      fields ? `${prefix}_shuffle${SHUFFLES[kind].suffix}(${x}, ${arg})` : `subgroup${kind}(${x}, ${arg})`,
    /** `select(f, t, cond)`, or the helper. */
    select: (f: string, t: string, cond: string) => `${selects ? 'select' : `${prefix}_select`}(${f}, ${t}, ${cond})`,
  };
}

type ValueOps = ReturnType<typeof valueOps>;

/** What {@link groupLevelWgsl} writes: the names it declares, the operator and the form. */
export interface GroupLevelSpec {
  /** Names of the scan function, the reduce function, the result struct and (workgroup form) the buffer. */
  readonly names: { readonly scan: string; readonly reduce: string; readonly struct: string; readonly buf: string };
  readonly op: BlockOp;
  /** Subgroup form (shuffles and built-ins); else the workgroup is the group (workgroup memory). */
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  /**
   * The scan runs from the last lane to the first, combining in the lanes' order: lane `l`'s
   * `inclusive` is `x(l) ⊕ … ⊕ x(size−1)`, `exclusive` is `x(l+1) ⊕ … ⊕ x(size−1)` (the identity
   * in the last lane), and `total` (and the reduction) is `x(0) ⊕ … ⊕ x(size−1)`, as forward.
   */
  readonly backward?: boolean;
}

/**
 * Cooperative scans and reductions over a "group" of invocations, in two interchangeable forms: a
 * subgroup (hardware shuffles; its size is read at run time, never assumed) or the whole workgroup
 * (workgroup memory and barriers, for devices without the `subgroups` feature). Declares
 * `struct names.struct { inclusive, exclusive, total }`, `fn names.scan(x, lane, size)` and
 * `fn names.reduce(x, lane, size)` (both valid in every lane), and in the workgroup form
 * `names.buf`. In the workgroup form every invocation must call them (they contain barriers); in
 * the subgroup form every invocation of the subgroup must. The combination follows the lanes'
 * order, a `backward` scan's too (it runs from the last lane, but the lower lane's value stays on
 * the left: {@link scanOrderCombine}), so the operator need not commute, except where a built-in
 * does the work or a commutative operator's workgroup reduction pairs lanes freely.
 *
 * Values may be scalars, vectors or records ({@link BlockOp.fields}). For a record the subgroup
 * form also declares `names.scan` + `_shuffle`, `_shuffle_up`, `_shuffle_down` and `_shuffle_xor`
 * (the built-ins' arguments, member by member), and any struct type gets `names.scan` + `_select`
 * (`select` takes no structs); scalars and vectors call the built-ins themselves.
 *
 * @example
 * ```ts
 * const wgsl = groupLevelWgsl({
 *   names: { scan: 'bs_group_scan', reduce: 'bs_group_reduce', struct: 'bs_GroupScan', buf: 'bs_group_buf' },
 *   op: wgslOp('add', 'u32'), subgroups: true, workgroupSize: 256, backward: true,
 * });
 * ```
 */
export function groupLevelWgsl(spec: GroupLevelSpec): string {
  const { names, op: o, workgroupSize } = spec;
  const T = o.type;
  const S = names.struct;
  const v = valueOps(o, names.scan, spec.subgroups);
  // Backward, lanes above come first in the scan's order: `c` puts them on the right.
  const c = scanOrderCombine(o, spec.backward === true);
  const header = `struct ${S} { inclusive: ${T}, exclusive: ${T}, total: ${T} }\n${v.decls}`;
  if (spec.subgroups) {
    return `${header}
fn ${names.scan}(x: ${T}, lane: u32, size: u32) -> ${S} {
  ${spec.backward ? subgroupBackwardScanWgsl(o, v, c) : subgroupForwardScanWgsl(o, v)}
  return ${S}(inc, exc, total);
}

fn ${names.reduce}(x: ${T}, lane: u32, size: u32) -> ${T} {
  ${subgroupReduceWgsl(o, v, spec.backward === true)}
}
`;
  }
  const B = names.buf;
  const last = workgroupSize - 1;
  const scan = spec.backward
    ? `// Kogge–Stone over the workgroup in workgroup memory, from the last invocation to the first.
  var inc = x;
  for (var d = 1u; d < ${workgroupSize}u; d = d << 1u) {
    ${B}[lane] = inc;
    workgroupBarrier();
    if (lane + d < ${workgroupSize}u) { inc = ${c(`${B}[lane + d]`, 'inc')}; }
    workgroupBarrier();
  }
  ${B}[lane] = inc;
  workgroupBarrier();
  let exc = ${v.select(o.identity, `${B}[min(lane + 1u, ${last}u)]`, `lane < ${last}u`)};
  let total = ${B}[0];`
    : `// Kogge–Stone over the workgroup in workgroup memory.
  var inc = x;
  for (var d = 1u; d < ${workgroupSize}u; d = d << 1u) {
    ${B}[lane] = inc;
    workgroupBarrier();
    if (lane >= d) { inc = ${o.combine(`${B}[lane - d]`, 'inc')}; }
    workgroupBarrier();
  }
  ${B}[lane] = inc;
  workgroupBarrier();
  let exc = ${v.select(o.identity, `${B}[max(lane, 1u) - 1u]`, 'lane > 0u')};
  let total = ${B}[${last}u];`;
  // An operator that does not commute is reduced in the lanes' order, the lower lane on the left,
  // whichever way the scan runs.
  const reduce = commutes(o)
    ? `// Tree reduction (the up-sweep of the paper's Algorithm 1) in workgroup memory.
  ${B}[lane] = x;
  workgroupBarrier();
  for (var d = ${workgroupSize / 2}u; d > 0u; d = d >> 1u) {
    if (lane < d) { ${B}[lane] = ${o.combine(`${B}[lane]`, `${B}[lane + d]`)}; }
    workgroupBarrier();
  }`
    : `// Tree reduction in workgroup memory that pairs neighbours, so the order of combination is kept
  // (the operator need not commute).
  ${B}[lane] = x;
  workgroupBarrier();
  for (var d = 1u; d < ${workgroupSize}u; d = d << 1u) {
    if ((lane & (2u * d - 1u)) == 0u) { ${B}[lane] = ${o.combine(`${B}[lane]`, `${B}[lane + d]`)}; }
    workgroupBarrier();
  }`;
  return `${header}
var<workgroup> ${B}: array<${T}, ${workgroupSize}>;

fn ${names.scan}(x: ${T}, lane: u32, size: u32) -> ${S} {
  ${scan}
  workgroupBarrier();
  return ${S}(inc, exc, total);
}

fn ${names.reduce}(x: ${T}, lane: u32, size: u32) -> ${T} {
  ${reduce}
  let r = ${B}[0];
  workgroupBarrier();
  return r;
}
`;
}

/** Subgroup inclusive scan by lane (`inc`), its exclusive form (`exc`) and the subgroup's total. */
function subgroupForwardScanWgsl(o: BlockOp, v: ValueOps): string {
  const inclusive = o.subgroupInclusive
    ? `let inc = ${o.subgroupInclusive}(x);`
    : `var inc = x;
  // Kogge–Stone over the subgroup with shuffles (WGSL has inclusive built-ins for add and mul only).
  for (var d = 1u; d < size; d = d << 1u) {
    let y = ${v.shuffle('ShuffleUp', 'inc', 'd')};
    if (lane >= d) { inc = ${o.combine('y', 'inc')}; }
  }`;
  return `${inclusive}
  let up = ${v.shuffle('ShuffleUp', 'inc', '1u')};
  let exc = ${v.select(o.identity, 'up', 'lane > 0u')};
  let total = ${v.shuffle('Shuffle', 'inc', 'size - 1u')};`;
}

/** The same from the last lane to the first; `c` takes operands in that order ({@link scanOrderCombine}). */
function subgroupBackwardScanWgsl(o: BlockOp, v: ValueOps, c: (a: string, b: string) => string): string {
  const inclusive = o.subgroupInclusive
    ? `// The built-in scans up the lanes: mirror the lanes, scan, mirror back.
  let mirror = size - 1u - lane;
  let inc = ${v.shuffle('Shuffle', `${o.subgroupInclusive}(${v.shuffle('Shuffle', 'x', 'mirror')})`, 'mirror')};`
    : `var inc = x;
  // Kogge–Stone down the subgroup with shuffles.
  for (var d = 1u; d < size; d = d << 1u) {
    let y = ${v.shuffle('ShuffleDown', 'inc', 'd')};
    if (lane + d < size) { inc = ${c('y', 'inc')}; }
  }`;
  return `${inclusive}
  let down = ${v.shuffle('ShuffleDown', 'inc', '1u')};
  let exc = ${v.select(o.identity, 'down', 'lane + 1u < size')};
  let total = ${v.shuffle('Shuffle', 'inc', '0u')};`;
}

/** The body of a subgroup reduction: the built-in, or a butterfly that keeps the lanes' order. */
function subgroupReduceWgsl(o: BlockOp, v: ValueOps, backward: boolean): string {
  if (o.subgroupReduce) return `return ${o.subgroupReduce}(x);`;
  // After the step of distance d, every lane holds the reduction of its aligned run of 2d lanes.
  // Written in the scan's order, where the lower half of a run comes first (last, backward); `c`
  // puts the lower half on the left either way, unless the operator commutes.
  const c = scanOrderCombine(o, backward);
  const [lower, upper] = backward ? [c('y', 'r'), c('r', 'y')] : [c('r', 'y'), c('y', 'r')];
  return `var r = x;
  for (var d = 1u; d < size; d = d << 1u) {
    let y = ${v.shuffle('ShuffleXor', 'r', 'd')};
    if ((lane & d) == 0u) { r = ${lower}; } else { r = ${upper}; }
  }
  return r;`;
}

/**
 * Cooperative scans and reductions over a "group" of invocations, in two interchangeable forms:
 * a subgroup (hardware shuffles; its size is read at run time, never assumed) or the whole
 * workgroup (workgroup memory and barriers, for devices without the `subgroups` feature).
 * Kernels are written once against `group_scan`/`group_reduce` and get either form. The code is
 * `groupLevelWgsl`'s (the block scan's group level) under these names.
 *
 * Emits: `struct GroupScan { inclusive, exclusive, total }`, `fn group_scan(x, lane, size)`,
 * `fn group_reduce(x, lane, size)`. In the workgroup form every invocation must call them
 * (they contain barriers); in the subgroup form every invocation of the subgroup must.
 *
 * @example
 * ```ts
 * const wgsl = `${groupScanWgsl(wgslOp('add', 'u32'), true, 256)}\nfn total(x: u32, lane: u32, size: u32) -> u32 { return group_reduce(x, lane, size); }`;
 * ```
 */
export function groupScanWgsl(o: WgslOp, subgroups: boolean, workgroupSize: number): string {
  return groupLevelWgsl({
    names: { scan: 'group_scan', reduce: 'group_reduce', struct: 'GroupScan', buf: 'group_buf' },
    op: o,
    subgroups,
    workgroupSize,
  });
}

/**
 * WGSL that gives each invocation its group index, lane and group size, and the group count.
 * With subgroups the group index comes from a per-workgroup ticket rather than
 * `local_invocation_index / subgroup_size`, because WebGPU does not promise that subgroups are made
 * of consecutive invocations.
 *
 * @example
 * ```ts
 * const id = groupIdentityWgsl(true, 256);
 * const wgsl = `${id.decls}
 * @compute @workgroup_size(256)
 * fn main(@builtin(local_invocation_index) lid: u32${id.builtins}) {
 *   ${id.body}
 * }`;
 * ```
 */
export function groupIdentityWgsl(subgroups: boolean, workgroupSize: number): { decls: string; body: string; builtins: string } {
  if (!subgroups) {
    return {
      decls: '',
      builtins: '',
      body: `let group = 0u; let lane = lid; let gsize = ${workgroupSize}u; let groups = 1u;`,
    };
  }
  return {
    decls: 'var<workgroup> group_ticket: atomic<u32>;',
    builtins: ', @builtin(subgroup_invocation_id) sg_lane: u32, @builtin(subgroup_size) sg_size: u32',
    body: `var ticket = 0u;
  if (subgroupElect()) { ticket = atomicAdd(&group_ticket, 1u); }
  let group = subgroupBroadcastFirst(ticket);
  let lane = sg_lane; let gsize = sg_size; let groups = ${workgroupSize}u / sg_size;`,
  };
}

/**
 * `fn NAME(f: T, t: T, cond: bool) -> T`: `select` for a record, member by member — no branch, so
 * no early return: a function that returns from inside a branch, called between subgroup
 * operations, left NVIDIA's invocations unconverged at the next shuffle (wrong results on H100 and
 * H200 through Dawn on Vulkan, 2026-12-07, which SwiftShader never showed). Without the members
 * (a type that is no record), a branch with one exit.
 *
 * @example
 * ```ts
 * recordSelectWgsl('lb_select', 'pair', [{ name: 'count' }, { name: 'v' }]);
 * // fn lb_select(f: pair, t: pair, cond: bool) -> pair { return pair(select(f.count, t.count, cond), select(f.v, t.v, cond)); }
 * ```
 */
export function recordSelectWgsl(name: string, T: string, fields: readonly { readonly name: string }[] | undefined): string {
  if (!fields || fields.length === 0)
    return `fn ${name}(f: ${T}, t: ${T}, cond: bool) -> ${T} { var r = f; if (cond) { r = t; } return r; }`;
  return `fn ${name}(f: ${T}, t: ${T}, cond: bool) -> ${T} { return ${T}(${fields.map((m) => `select(f.${m.name}, t.${m.name}, cond)`).join(', ')}); }`;
}
