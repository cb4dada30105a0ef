import { type BindingDecl, defineKernel, type Kernel, type ParamFields, read, readWrite } from '@scan/core/kit';
import { type KernelPath, kernelPath, MatrixCode, type MatrixPath, valueType } from './matrix.js';

/**
 * What a kernel reads: f16 values packed two per u32 word (the upload format), u8 flags packed four
 * per word, or f32/u32 partials of an earlier pass ("wide": on the subgroup-matrix path they are
 * split into limbs before each product).
 */
export type InputKind = 'f16' | 'f32' | 'u8' | 'u32';

/** Segment-size class: `warp` for s ≤ S (Reduction16/Scan16 with masked constants), `block` for longer parts (Reduction256N/Scan256N). */
export type SegmentClass = 'warp' | 'block';

/** Specialization of {@link tcuReduceKernel} and {@link tcuScanKernel}. */
export type TcuKernelSpec = {
  readonly path: MatrixPath;
  readonly cls: SegmentClass;
  readonly input: InputKind;
  /** Tiles per workgroup in the warp class (the paper's coarsening factor). */
  readonly tiles: number;
  /** Scan only. */
  readonly inclusive?: boolean;
};

/** The specialization the staged families take: {@link TcuKernelSpec} with the path as the WGSL reads it. */
type StagedSpec = {
  readonly path: KernelPath;
  readonly cls: SegmentClass;
  readonly input: InputKind;
  readonly tiles: number;
  readonly inclusive?: boolean;
};

const isWide = (k: InputKind) => k === 'f32' || k === 'u32';

/**
 * The parameters every tcu kernel reads: the array's elements `n`, segment size `s` and segments
 * `nseg`; `parts` per segment of `partLen` elements each; the dispatch width `nx` and the
 * workgroups (or units) `groups`; and `first`, the first segment a pass handles: the staged kernels
 * number segments, elements and partials from the start of the whole array (`n` and `nseg` are the
 * array's), so a pass over the segments the direct kernels left binds the same whole buffers as
 * any other and one bind group serves every count.
 */
export const TCU_PARAMS = {
  n: 'u32',
  s: 'u32',
  nseg: 'u32',
  parts: 'u32',
  partLen: 'u32',
  nx: 'u32',
  groups: 'u32',
  first: 'u32',
} as const satisfies ParamFields;

/**
 * The two bindings every tcu kernel but the propagate one has, `input` and `output`, with the
 * given element types.
 *
 * @example
 * ```ts
 * const bindings = tcuBindings('u32', 'f32'); // input: array<u32> (read), output: array<f32>
 * ```
 */
export function tcuBindings(input: string, output: string): { readonly input: BindingDecl; readonly output: BindingDecl } {
  return { input: read(`array<${input}>`), output: readWrite(`array<${output}>`) };
}

function loadInWgsl(kind: InputKind): string {
  switch (kind) {
    case 'f16':
      return 'fn loadIn(i: u32) -> f32 { return unpack2x16float(input[i >> 1u])[i & 1u]; }';
    case 'f32':
      return 'fn loadIn(i: u32) -> f32 { return bitcast<f32>(input[i]); }';
    case 'u8':
      return 'fn loadIn(i: u32) -> u32 { return extractBits(input[i >> 2u], (i & 3u) * 8u, 8u); }';
    case 'u32':
      return 'fn loadIn(i: u32) -> u32 { return input[i]; }';
  }
}

/** What the staged kernels declare after their bindings: the tile pools, the tile cursor, `loadIn`. */
function header(code: MatrixCode, kind: InputKind): string {
  return `${code.decls()}
var<private> cur: u32;
var<private> lim: u32;
${loadInWgsl(kind)}
`;
}

const one = (code: MatrixCode, cond: string) => (code.VT === 'f32' ? `select(0.0, 1.0, ${cond})` : `select(0u, 1u, ${cond})`);
const zero = (code: MatrixCode) => (code.VT === 'f32' ? '0.0' : '0u');
const MAIN = `@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let g = wid.x + wid.y * params.nx;
  if (g >= params.groups) { return; }`;

/** Slots: reduce operands P, Pᵀ, A, limb; accumulators V, R, X (wide staging), tmp. */
export const REDUCE_SLOTS = { op: 4, acc: 4 } as const;
/** Slots: scan operands U, L, 1, A, limb; accumulators AU, LA, X, tmp. */
export const SCAN_SLOTS = { op: 5, acc: 4 } as const;

/**
 * Regular segmented reduction as matrix products (Dakkak et al. 2019, §4), one generator for both
 * paths and both classes:
 *
 * - `warp` (segment size s ≤ S, the tile side): **Reduction16** with a masked P. A tile A holds
 *   q = ⌊S/s⌋ segments per column (column-major, zero-padded); P has ones at (r, k) for
 *   k ∈ [r·s, r·s + s), r < q — for s = S exactly the paper's P (ones in the first row). Row r of
 *   V = P·A holds the sums of the r-th segments of every column. `tiles` tiles per workgroup.
 * - `block` (longer parts): the work-efficient **Reduction256N**: each workgroup reduces one part
 *   [lo, hi) of a segment, V = P·Aᵢ + V over its S×S chunks (column-major, the tail masked with
 *   zeros), then R = V·Pᵀ and R[0][0] is the part's sum. With one part per segment this is the
 *   block level; with several it is the first kernel of the grid level (the plan reduces the
 *   partials with this kernel again).
 *
 * Output: one value per segment (warp) or per part (block), at its index in the whole array: a
 * pass handles the segments from `params.first` on (see {@link TCU_PARAMS}).
 *
 * @example
 * ```ts
 * const kernel = tcuReduceKernel({ path, cls: 'warp', input: 'f16', tiles: 4 });
 * b.dispatch(kernel, { input, output }, groups, { n, s, nseg, parts: 1, partLen: s, nx, groups, first: 0 });
 * ```
 */
export function tcuReduceKernel(spec: TcuKernelSpec): Kernel<'input' | 'output', typeof TCU_PARAMS> {
  return reduceFamily({ path: kernelPath(spec.path), cls: spec.cls, input: spec.input, tiles: spec.tiles });
}

const reduceFamily = defineKernel({
  name: 'tcu/reduce',
  bindings: (spec: StagedSpec) => tcuBindings('u32', valueType(spec.path)),
  params: TCU_PARAMS,
  enable: (spec) => new MatrixCode(spec.path, REDUCE_SLOTS.op, REDUCE_SLOTS.acc).extensions(),
  wgsl: reduceWgsl,
});

function reduceWgsl(spec: StagedSpec): string {
  const code = new MatrixCode(spec.path, REDUCE_SLOTS.op, REDUCE_SLOTS.acc);
  const { S, SS } = code;
  const [P, PT, A, LIMB] = [0, 1, 2, 3];
  const [V, R, X, TMP] = [0, 1, 2, 3];
  const wide = isWide(spec.input);
  const VT = code.VT;
  const stage = (fn: string) =>
    wide
      ? `${code.stageAcc(X, (e) => fn.replace('E', e))}\n${code.wideMma({ d: V, src: X, x: P, side: 'right', accumulate: spec.cls === 'block', limb: LIMB, tmp: TMP })}`
      : `${code.stageOp(A, (e) => fn.replace('E', e))}\n${code.mma(V, P, A, V)}`;
  let tileValue: string;
  let body: string;
  if (spec.cls === 'warp') {
    tileValue = `fn tileValue(e: u32, q: u32, sw: u32) -> ${VT} {
  let r = e / ${S}u; let c = e % ${S}u;
  if (r >= q * sw) { return ${zero(code)}; }
  let seg = cur + c * q + r / sw;
  if (seg >= params.nseg) { return ${zero(code)}; }
  let idx = seg * params.s + r % sw;
  if (idx >= params.n) { return ${zero(code)}; }
  return loadIn(idx);
}`;
    body = `  let sw = min(params.s, ${S}u); let q = ${S}u / sw;
${code.stageOp(P, (e) => one(code, `(${e} % ${S}u) < q * sw && (${e} % ${S}u) / sw == ${e} / ${S}u`))}
  for (var w = 0u; w < ${spec.tiles}u; w++) {
    cur = params.first + (g * ${spec.tiles}u + w) * q * ${S}u;
${code.stageAcc(V, () => zero(code))}
${stage('tileValue(E, q, sw)')}
    for (var j = lid; j < q * ${S}u; j += ${code.WG}u) {
      let r = j / ${S}u; let c = j % ${S}u; let seg = cur + c * q + r;
      if (seg < params.nseg) { output[seg] = ${code.acc(V, `r * ${S}u + c`)}; }
    }
    workgroupBarrier();
  }`;
  } else {
    tileValue = `fn tileValue(e: u32) -> ${VT} {
  let idx = cur + (e % ${S}u) * ${S}u + e / ${S}u;
  if (idx >= lim) { return ${zero(code)}; }
  return loadIn(idx);
}`;
    body = `${code.stageOp(P, (e) => one(code, `${e} / ${S}u == 0u`))}
${code.stageOp(PT, (e) => one(code, `${e} % ${S}u == 0u`))}
  let seg = params.first + g / params.parts; let blk = g % params.parts;
  let segEnd = min(seg * params.s + params.s, params.n);
  let lo = seg * params.s + blk * params.partLen;
  let hi = min(segEnd, lo + params.partLen);
  lim = hi;
${code.stageAcc(V, () => zero(code))}
  for (var base = lo; base < hi; base += ${SS}u) {
    cur = base;
${stage('tileValue(E)')}
  }
${code.wideMma({ d: R, src: V, x: PT, side: 'left', accumulate: false, limb: LIMB, tmp: TMP })}
  if (lid == 0u) { output[params.first * params.parts + g] = ${code.acc(R, '0u')}; }`;
  }
  return `${header(code, spec.input)}\n${tileValue}\n${MAIN.replace('WG', String(code.WG))}\n${body}\n}\n`;
}

/**
 * Regular segmented scan as matrix products (Dakkak et al. 2019, §5), both paths and classes:
 *
 * - `warp` (s ≤ S): **Scan16** with a masked U. Each row of the tile A holds q = ⌊S/s⌋ segments
 *   (row-major, zero-padded); U is block-diagonal with s×s upper-triangular blocks (r ≤ c for an
 *   inclusive scan, r < c for exclusive), so R = A·U scans every segment of every row at once.
 * - `block` (longer parts): **Scan256N**: for each S×S chunk (row-major), AU = A·U + S where S is
 *   the broadcast carry, LA = L·A (L strictly lower-triangular), R = LA·1 + AU; then the carry
 *   becomes R's last element (plus the chunk's last input when exclusive). With several parts per
 *   segment it is the first kernel of the grid level's scan-then-propagate and writes each part's
 *   total to `partials` (bound by the block class only; one part per segment never writes it).
 *
 * Segments, elements and partials are numbered from the start of the whole array; a pass handles
 * the segments from `params.first` on (see {@link TCU_PARAMS}).
 *
 * @example
 * ```ts
 * const kernel = tcuScanKernel({ path, cls: 'block', input: 'f16', tiles: 1, inclusive: true });
 * b.dispatch(kernel, { input, output, partials }, groups, { n, s, nseg, parts, partLen, nx, groups, first: 0 });
 * ```
 */
export function tcuScanKernel(spec: TcuKernelSpec): Kernel<'input' | 'output' | 'partials', typeof TCU_PARAMS> {
  return scanFamily({
    path: kernelPath(spec.path),
    cls: spec.cls,
    input: spec.input,
    tiles: spec.tiles,
    inclusive: spec.inclusive === true,
  });
}

const scanFamily = defineKernel({
  name: 'tcu/scan',
  bindings: (spec: StagedSpec) => {
    const VT = valueType(spec.path);
    return { ...tcuBindings('u32', VT), partials: spec.cls === 'block' ? readWrite(`array<${VT}>`) : undefined };
  },
  params: TCU_PARAMS,
  enable: (spec) => new MatrixCode(spec.path, SCAN_SLOTS.op, SCAN_SLOTS.acc).extensions(),
  wgsl: scanWgsl,
});

function scanWgsl(spec: StagedSpec): string {
  const code = new MatrixCode(spec.path, SCAN_SLOTS.op, SCAN_SLOTS.acc);
  const { S, SS } = code;
  const [U, L, ONES, A, LIMB] = [0, 1, 2, 3, 4];
  const [AU, LA, X, TMP] = [0, 1, 2, 3];
  const wide = isWide(spec.input);
  const VT = code.VT;
  const cmp = spec.inclusive ? '<=' : '<';
  let tileValue: string;
  let body: string;
  if (spec.cls === 'warp') {
    tileValue = `fn tileValue(e: u32, q: u32, sw: u32) -> ${VT} {
  let r = e / ${S}u; let c = e % ${S}u;
  if (c >= q * sw) { return ${zero(code)}; }
  let seg = cur + r * q + c / sw;
  if (seg >= params.nseg) { return ${zero(code)}; }
  let idx = seg * params.s + c % sw;
  if (idx >= params.n) { return ${zero(code)}; }
  return loadIn(idx);
}`;
    const upper = code.stageOp(U, (e) => {
      const r = `(${e} / ${S}u)`;
      const c = `(${e} % ${S}u)`;
      return one(code, `${r} < q * sw && ${c} < q * sw && ${r} / sw == ${c} / sw && ${r} ${cmp} ${c}`);
    });
    const product = wide
      ? `${code.stageAcc(X, (e) => `tileValue(${e}, q, sw)`)}\n${code.wideMma({ d: AU, src: X, x: U, side: 'left', accumulate: false, limb: LIMB, tmp: TMP })}`
      : `${code.stageOp(A, (e) => `tileValue(${e}, q, sw)`)}\n${code.stageAcc(AU, () => zero(code))}\n${code.mma(AU, A, U, AU)}`;
    body = `  let sw = min(params.s, ${S}u); let q = ${S}u / sw;
${upper}
  for (var w = 0u; w < ${spec.tiles}u; w++) {
    cur = params.first + (g * ${spec.tiles}u + w) * q * ${S}u;
${product}
    for (var e = lid; e < ${SS}u; e += ${code.WG}u) {
      let r = e / ${S}u; let c = e % ${S}u;
      let seg = cur + r * q + c / sw; let idx = seg * params.s + c % sw;
      if (c < q * sw && seg < params.nseg && idx < params.n) { output[idx] = ${code.acc(AU, 'e')}; }
    }
    workgroupBarrier();
  }`;
  } else {
    tileValue = `fn tileValue(e: u32) -> ${VT} {
  let idx = cur + e;
  if (idx >= lim) { return ${zero(code)}; }
  return loadIn(idx);
}`;
    const products = wide
      ? `${code.stageAcc(X, (e) => `tileValue(${e})`)}
${code.wideMma({ d: AU, src: X, x: U, side: 'left', accumulate: true, limb: LIMB, tmp: TMP })}
${code.wideMma({ d: LA, src: X, x: L, side: 'right', accumulate: false, limb: LIMB, tmp: TMP })}`
      : `${code.stageOp(A, (e) => `tileValue(${e})`)}
${code.mma(AU, A, U, AU)}
${code.stageAcc(LA, () => zero(code))}
${code.mma(LA, L, A, LA)}`;
    body = `${code.stageOp(U, (e) => one(code, `${e} / ${S}u ${cmp} ${e} % ${S}u`))}
${code.stageOp(L, (e) => one(code, `${e} / ${S}u > ${e} % ${S}u`))}
${code.stageOp(ONES, () => one(code, 'true'))}
  let seg = params.first + g / params.parts; let blk = g % params.parts;
  let segEnd = min(seg * params.s + params.s, params.n);
  let lo = seg * params.s + blk * params.partLen;
  let hi = min(segEnd, lo + params.partLen);
  lim = hi;
  var carry = ${zero(code)};
  for (var base = lo; base < hi; base += ${SS}u) {
    cur = base;
${code.stageAcc(AU, () => 'carry')}
${products}
${code.wideMma({ d: AU, src: LA, x: ONES, side: 'left', accumulate: true, limb: LIMB, tmp: TMP })}
    for (var e = lid; e < ${SS}u; e += ${code.WG}u) { if (base + e < hi) { output[base + e] = ${code.acc(AU, 'e')}; } }
    carry = ${code.acc(AU, `${SS - 1}u`)}${spec.inclusive ? '' : ` + tileValue(${SS - 1}u)`};
    workgroupBarrier();
  }
  if (params.parts > 1u && lid == 0u) { partials[params.first * params.parts + g] = carry; }`;
  }
  return `${header(code, spec.input)}\n${tileValue}\n${MAIN.replace('WG', String(code.WG))}\n${body}\n}\n`;
}

/**
 * The third kernel of the grid-level scan (scan-then-propagate): adds each part's exclusive
 * prefix (the scanned partials) to every output element of the part.
 *
 * @example
 * ```ts
 * b.dispatch(tcuPropagateKernel(), { output, scanned }, Math.ceil(n / 256), { n, s, nseg, parts, partLen, nx, groups, first: 0 });
 * ```
 */
export function tcuPropagateKernel(): Kernel<'output' | 'scanned', typeof TCU_PARAMS> {
  return propagateFamily({});
}

const propagateFamily = defineKernel({
  name: 'tcu/propagate',
  bindings: { output: readWrite('array<f32>'), scanned: read('array<f32>') },
  params: TCU_PARAMS,
  wgsl: () => `@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let g = wid.x + wid.y * params.nx;
  let i = params.first * params.s + g * 256u + lid;
  if (g >= params.groups || i >= params.n) { return; }
  let seg = i / params.s;
  let blk = (i - seg * params.s) / params.partLen;
  if (blk > 0u) { output[i] = output[i] + scanned[seg * params.parts + blk]; }
}
`,
});
