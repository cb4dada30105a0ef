import type { ElementType } from '../element-types.js';
import { type BindingDecl, type ParamFields, read, readWrite } from './define-kernel.js';
import { WGSL_PRELUDE } from './wgsl-ops.js';

/**
 * The "slot" view every scan-family kernel uses to read and write an array of any length with vec4
 * accesses. An array of `count` elements is `slots = ceil(count / 4)` vec4 slots in *logical* order
 * (the order of the scan). The whole vec4s live in the bound buffers; the last partial vec4 (the
 * `count % 4` trailing elements) is copied by the plan into `aux[0..3]` before the dispatch and out
 * of `aux[4..7]` after it, because a vec4 store would run past the caller's data and WebGPU cannot
 * bind a partial vec4. A backward scan reads slots from the end and reverses each vec4, which is the
 * paper's "reverse the input when it is read from memory". Padding lanes read as the identity; note
 * that in a backward view the padding of the partial vec4 comes *first* in logical order (logical
 * element j is physical 4·slots − 1 − j), so per-element side data (flags) must be indexed likewise.
 *
 * `aux` layout (u32 words): [0..3] tail in, [4..7] tail out, [8..9] carry slots between chunks,
 * [10..] free for the algorithm.
 */
export const AUX_TAIL_IN = 0;
export const AUX_TAIL_OUT = 4;
export const AUX_CARRY = 8;
/** `Params.carry_in`/`carry_out` value meaning "no carry". */
export const NO_CARRY = 0xffffffff;

export interface SlotSpec {
  readonly type: ElementType;
  /** WGSL expression of the identity (padding value). */
  readonly identity: string;
  readonly backward: boolean;
  /** `'not'` maps each input x to 1 - x while reading (0/1 flags → their negation, for split). */
  readonly mapInput?: 'none' | 'not';
  /** Whether the kernel writes output slots (declares `dst` and `store_slot`). */
  readonly writes: boolean;
  /** Whether the kernel reads input slots (declares `src` and `load_slot`; default true). */
  readonly reads?: boolean;
  /**
   * Where the partial last vec4 goes: `'staged'` (default) through aux, copied in and out by the
   * plan (a buffer of exactly `4·count` bytes cannot bind it), or `'direct'`: read in place and
   * written back lane by lane, keeping the buffer's values past the end — for buffers that hold
   * whole vec4s (any size a multiple of 16 does), which saves the plan two copies.
   */
  readonly tail?: 'staged' | 'direct';
  /**
   * Whether the kernel uses the carry between chunks (`load_carry_in`, `store_carry_out`; default
   * true). Without it, and with a `'direct'` tail, the functions do not touch `aux`, which
   * {@link slotBindings} then leaves out, so the plan need not bind it.
   */
  readonly carry?: boolean;
}

/**
 * The bindings a slot kernel declares for `spec` (see {@link slotFunctionsWgsl}): `src` (when it
 * reads), `dst` (when it writes) and `aux` (unless `carry` is false and the tail `'direct'`: then
 * nothing touches it); its parameters are {@link SLOT_PARAMS}.
 *
 * @example
 * ```ts
 * const bindings = { ...slotBindings({ type: 'u32', writes: true }), status: readWrite('array<atomic<u32>>') };
 * ```
 */
export function slotBindings(spec: Pick<SlotSpec, 'type' | 'writes' | 'reads' | 'tail' | 'carry'>): {
  readonly src: BindingDecl | undefined;
  readonly dst: BindingDecl | undefined;
  readonly aux: BindingDecl | undefined;
} {
  const reads = spec.reads ?? true;
  // aux holds the carry and the staged partial last vec4.
  const aux = (spec.carry ?? true) || ((spec.tail ?? 'staged') === 'staged' && (reads || spec.writes));
  return {
    src: reads ? read(`array<vec4<${spec.type}>>`) : undefined,
    dst: spec.writes ? readWrite(`array<vec4<${spec.type}>>`) : undefined,
    aux: aux ? readWrite('array<u32>') : undefined,
  };
}

/**
 * The slot functions over the bindings of {@link slotBindings} and the parameters of
 * {@link SLOT_PARAMS}: `load_slot(s)`, `store_slot(s, v)`, `slots_whole`, the unchecked
 * `load_slot_whole`/`store_slot_whole`, `load_carry_in()` and `store_carry_out(v)` (unless `carry`
 * is false), with the WGSL prelude (`f32_pos_inf`, `f32_neg_inf`).
 *
 * @example
 * ```ts
 * const code = slotFunctionsWgsl({ type: 'u32', identity: '0u', backward: false, writes: true });
 * ```
 */
export function slotFunctionsWgsl(spec: SlotSpec): string {
  const T = spec.type;
  const map = spec.mapInput === 'not' ? (x: string) => `(${vecOf(T, '1')} - ${x})` : (x: string) => x;
  const mapScalar =
    spec.mapInput === 'not' ? (x: string) => `(1${T === 'f32' ? '.0f' : T === 'u32' ? 'u' : 'i'} - ${x})` : (x: string) => x;
  const physicalOf = (slot: string) => (spec.backward ? `params.slots - 1u - ${slot}` : slot);
  const physical = physicalOf('s');
  const orient = (x: string) => (spec.backward ? `${x}.wzyx` : x);
  const reads = spec.reads ?? true;
  return `${WGSL_PRELUDE}
${
  reads
    ? `
// Logical slot s (scan order) as a vec4; slots at or past params.slots read as the identity.
fn load_slot(s: u32) -> vec4<${T}> {
  if (s >= params.slots) { return ${vecOf(T, spec.identity)}; }
  let v = ${physical};
  var x: vec4<${T}>;
  if (v < params.full_vecs) {
    x = ${map('src[v]')};
  } else {${
    spec.tail === 'direct'
      ? `
    // The partial last vec4, read in place; lanes past the end are the identity.
    let r = params.count - 4u * params.full_vecs;
    let whole = src[v];
    x = ${vecOf(T, spec.identity)};
    for (var i = 0u; i < r; i++) { x[i] = ${mapScalar('whole[i]')}; }`
      : `
    // The partial last vec4, staged in aux by the plan; lanes past the end are the identity.
    let r = params.count - 4u * params.full_vecs;
    x = ${vecOf(T, spec.identity)};
    for (var i = 0u; i < r; i++) { x[i] = ${mapScalar(`bitcast<${T}>(aux[${AUX_TAIL_IN}u + i])`)}; }`
  }
  }
  return ${orient('x')};
}

// Whether logical slots [first, last] all lie in whole vec4s of src/dst (no tail, no padding), so
// the unchecked accessors below may be used — the common case, kept free of branches.
fn slots_whole(first: u32, last: u32) -> bool {
  if (last >= params.slots) { return false; }
  let a = ${physicalOf('first')};
  let b = ${physicalOf('last')};
  return max(a, b) < params.full_vecs;
}

fn load_slot_whole(s: u32) -> vec4<${T}> {
  let x = ${map(`src[${physical}]`)};
  return ${orient('x')};
}`
    : ''
}
${
  spec.writes
    ? `
// Writes logical slot s; lanes past the end of the data are dropped.
fn store_slot(s: u32, value: vec4<${T}>) {
  if (s >= params.slots) { return; }
  let v = ${physical};
  let x = ${orient('value')};
  if (v < params.full_vecs) {
    dst[v] = x;
  } else {
    let r = params.count - 4u * params.full_vecs;${
      spec.tail === 'direct'
        ? `
    // The partial last vec4, written back in place: lanes past the end keep the buffer's values.
    var merged = dst[v];
    for (var i = 0u; i < r; i++) { merged[i] = x[i]; }
    dst[v] = merged;`
        : `
    for (var i = 0u; i < r; i++) { aux[${AUX_TAIL_OUT}u + i] = bitcast<u32>(x[i]); }`
    }
  }
}

fn store_slot_whole(s: u32, value: vec4<${T}>) {
  dst[${physical}] = ${orient('value')};
}`
    : ''
}
${
  (spec.carry ?? true)
    ? `
// The running total carried in from the previous chunk (identity for the first chunk).
fn load_carry_in() -> ${T} {
  if (params.carry_in == 0xffffffffu) { return ${spec.identity}; }
  return bitcast<${T}>(aux[params.carry_in]);
}

// Publishes this chunk's inclusive total for the next chunk.
fn store_carry_out(total: ${T}) {
  if (params.carry_out != 0xffffffffu) { aux[params.carry_out] = bitcast<u32>(total); }
}
`
    : ''
}`;
}

/** `vec4<T>(x)` splat. */
export function vecOf(type: ElementType, scalar: string): string {
  return `vec4<${type}>(${scalar})`;
}

/** Linear workgroup index of a possibly 2-D dispatch (see `dispatchShape`). */
export const LINEAR_WORKGROUP_WGSL = `fn linear_workgroup(wid: vec3<u32>) -> u32 { return wid.x + wid.y * params.dispatch_x; }`;

/**
 * The parameters every slot kernel reads (see `chunkParamValues`): the elements of this chunk (or
 * scratch array) `count`; `slots` = ceil(count / 4); `full_vecs` = floor(count / 4), the vec4s that
 * live in src/dst; the workgroups (blocks or tiles) of the dispatch, `tiles`, and per row of a 2-D
 * dispatch, `dispatch_x`; the aux words of the carry from the previous chunk and of the chunk's
 * total, `carry_in`/`carry_out` ({@link NO_CARRY} for none); and one word the algorithm uses.
 */
export const SLOT_PARAMS = {
  count: 'u32',
  slots: 'u32',
  full_vecs: 'u32',
  tiles: 'u32',
  dispatch_x: 'u32',
  carry_in: 'u32',
  carry_out: 'u32',
  extra: 'u32',
} as const satisfies ParamFields;

/**
 * The bindings of {@link scratchSlotFunctionsWgsl}: `data` (written when `writes`), and `aux` when
 * the kernel carries between chunks; its parameters are {@link SLOT_PARAMS}. The slot view over a
 * scratch array lets a kernel body written against the slot functions also scan the block sums of a
 * recursion level in place (a workgroup reads its whole block before writing it).
 *
 * @example
 * ```ts
 * const bindings = scratchSlotBindings({ type: 'u32', writes: true, carry: true });
 * ```
 */
export function scratchSlotBindings(spec: { readonly type: ElementType; readonly writes: boolean; readonly carry: boolean }): {
  readonly data: BindingDecl;
  readonly aux: BindingDecl | undefined;
} {
  return {
    data: spec.writes ? readWrite(`array<${spec.type}>`) : read(`array<${spec.type}>`),
    aux: spec.carry ? readWrite('array<u32>') : undefined,
  };
}

/**
 * The slot view (`load_slot`, `store_slot`, and with `carry` the carry functions) over a plain
 * scratch array `data: array<T>` of `params.count` elements in scan order (bindings from
 * {@link scratchSlotBindings}), so a kernel body written against the slot functions also scans the
 * block sums of a recursion level. Slot `s` is elements `4s .. 4s+3`; elements past the end read as
 * the identity and are not written.
 *
 * @example
 * ```ts
 * const code = scratchSlotFunctionsWgsl({ type: 'u32', identity: '0u', writes: true, carry: true });
 * ```
 */
export function scratchSlotFunctionsWgsl(spec: {
  readonly type: ElementType;
  readonly identity: string;
  readonly writes: boolean;
  readonly carry: boolean;
}): string {
  const T = spec.type;
  const carry = !spec.carry
    ? ''
    : `
fn load_carry_in() -> ${T} {
  if (params.carry_in == 0xffffffffu) { return ${spec.identity}; }
  return bitcast<${T}>(aux[params.carry_in]);
}

fn store_carry_out(total: ${T}) {
  if (params.carry_out != 0xffffffffu) { aux[params.carry_out] = bitcast<u32>(total); }
}
`;
  const store = spec.writes
    ? `
fn store_slot(s: u32, value: vec4<${T}>) {
  for (var i = 0u; i < 4u; i++) {
    let e = 4u * s + i;
    if (e < params.count) { data[e] = value[i]; }
  }
}
`
    : '';
  return `${WGSL_PRELUDE}
${carry}
fn load_slot(s: u32) -> vec4<${T}> {
  var x = vec4<${T}>(${spec.identity});
  for (var i = 0u; i < 4u; i++) {
    let e = 4u * s + i;
    if (e < params.count) { x[i] = data[e]; }
  }
  return x;
}
${store}`;
}
