import { unroll } from '@scan/core/kit';

// The matrix formulation shared by every kernel of the package. A kernel is written once, as a
// sequence of phases on S×S tiles held in workgroup memory — stage a tile (scalar loop), multiply
// tiles (D = A·B + C), read a tile (scalar loop) — and only `mma` differs between the two paths:
// `subgroupMatrixMultiplyAccumulate` over M×K·K×N blocks of the tiles (subgroup-matrix path), or the
// same product by scalar FMAs spread over the workgroup (emulated path). Results of a product live
// in the accumulator pool and must be staged back into the operand pool (`wideMma`) before they
// can feed another product: subgroup-matrix results cannot be multiplied directly, and on the
// subgroup-matrix path u32 values are split into u8 limbs first and f32 values are multiplied with
// scalar FMAs (see `wideMma`).

/** A subgroup-matrix shape: left M×K, right K×N, result M×N. */
export type MatrixShape = {
  readonly M: number;
  readonly N: number;
  readonly K: number;
};

/** Operand family: f16 data (f32 accumulation) or u8 flags (u32 accumulation). */
export type Family = 'f16' | 'u8';

/** How a kernel multiplies: everything a generator needs to know, and part of its specialization. */
export type MatrixPath = {
  readonly kind: 'subgroup-matrix' | 'emulated';
  readonly family: Family;
  readonly shape: MatrixShape;
  /** Tile side: the least common multiple of M, N and K (16 for all the H100's configs with f16). */
  readonly S: number;
  /** WGSL spelling of the subgroup-matrix built-ins Dawn accepts (subgroup-matrix path only). */
  readonly syntax: 'template' | 'bool';
  readonly workgroupSize: number;
  /**
   * Whether the direct kernels (direct-*.ts: tiles straight from storage, several subgroups
   * per workgroup) may run: the device check of {@link prepareTcu} passed and the shape suits them.
   */
  readonly direct: boolean;
};

/** What the staged kernels' WGSL reads of a path: all of it but `direct`, which only steers the plans. */
export type KernelPath = Omit<MatrixPath, 'direct'>;

/**
 * The part of `p` a staged kernel's specialization holds: `direct` left out (it changes no WGSL),
 * and the spelling only where the subgroup-matrix built-ins are written (the emulated path writes
 * none, so every spelling shares its kernels).
 *
 * @example
 * ```ts
 * kernelPath(path); // what tcuReduceKernel({ path, cls: 'warp', input: 'f16', tiles: 4 }) specializes on
 * ```
 */
export function kernelPath(p: MatrixPath): KernelPath {
  return {
    kind: p.kind,
    family: p.family,
    shape: { M: p.shape.M, N: p.shape.N, K: p.shape.K },
    S: p.S,
    syntax: p.kind === 'emulated' ? 'template' : p.syntax,
    workgroupSize: p.workgroupSize,
  };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * The tile side of a shape: lcm(M, N, K).
 *
 * @example
 * ```ts
 * tileSide({ M: 16, N: 8, K: 16 }); // 16
 * ```
 */
export function tileSide(shape: MatrixShape): number {
  const l = (a: number, b: number) => (a / gcd(a, b)) * b;
  return l(l(shape.M, shape.N), shape.K);
}

/** Value type of the kernel's scalar code: f32 for the f16 family, u32 for the u8 family. */
export const valueType = (p: KernelPath): 'f32' | 'u32' => (p.family === 'f16' ? 'f32' : 'u32');

/** Elements per operand storage word: u8 operands are packed four per u32 on the subgroup-matrix path. */
const packOf = (p: KernelPath): number => (p.kind === 'subgroup-matrix' && p.family === 'u8' ? 4 : 1);

/** Limbs an accumulator value is split into to become an operand again. */
const limbsOf = (p: KernelPath): number => (p.kind === 'subgroup-matrix' && p.family === 'u8' ? 4 : 1);

/**
 * The WGSL emitters of a path over `opSlots` operand tiles and `accSlots` accumulator tiles.
 * Slots are numbers; offsets are in elements.
 */
export class MatrixCode {
  readonly S: number;
  readonly SS: number;
  readonly VT: 'f32' | 'u32';
  readonly WG: number;
  readonly pack: number;
  readonly limbs: number;

  constructor(
    readonly path: KernelPath,
    readonly opSlots: number,
    readonly accSlots: number,
  ) {
    this.S = path.S;
    this.SS = path.S * path.S;
    this.VT = valueType(path);
    this.WG = path.workgroupSize;
    this.pack = packOf(path);
    this.limbs = limbsOf(path);
  }

  /** Workgroup-memory bytes of the pools. */
  static bytes(path: KernelPath, opSlots: number, accSlots: number): number {
    const SS = path.S * path.S;
    const opBytes = path.kind === 'emulated' ? 4 : path.family === 'f16' ? 2 : 1;
    return opSlots * SS * opBytes + accSlots * SS * 4 + 16;
  }

  /** Extensions the path's WGSL enables. */
  extensions(): string[] {
    if (this.path.kind === 'emulated') return [];
    return this.path.family === 'f16' ? ['f16', 'chromium_experimental_subgroup_matrix'] : ['chromium_experimental_subgroup_matrix'];
  }

  /** The operand and accumulator pools. */
  decls(): string {
    const p = this.path;
    const opType = p.kind === 'emulated' ? this.VT : p.family === 'f16' ? 'f16' : 'u32';
    return `var<workgroup> opnd: array<${opType}, ${(this.opSlots * this.SS) / this.pack}>;
var<workgroup> acc: array<${this.VT}, ${this.accSlots * this.SS}>;`;
  }

  /** Element `e` (a u32 expression) of accumulator tile `slot`, as an lvalue. */
  acc(slot: number, e: string): string {
    return `acc[${slot * this.SS}u + (${e})]`;
  }

  /** Element `e` of operand tile `slot`, read as the value type. */
  readOp(slot: number, e: string): string {
    const i = `(${slot * this.SS}u + (${e}))`;
    if (this.pack === 4) return `extractBits(opnd[${i} >> 2u], (${i} & 3u) * 8u, 8u)`;
    return this.path.kind === 'subgroup-matrix' ? `f32(opnd[${i}])` : `opnd[${i}]`;
  }

  /**
   * Fills operand tile `slot`: element e (row-major, row e / S, column e % S) becomes `value(e)`,
   * a WGSL expression in `e` of the value type (exactly representable in the operand type).
   */
  stageOp(slot: number, value: (e: string) => string): string {
    const { SS, WG, pack } = this;
    if (pack === 1) {
      const store = this.path.kind === 'subgroup-matrix' ? `f16(${value('e')})` : value('e');
      return `for (var e = lid; e < ${SS}u; e += ${WG}u) { opnd[${slot * SS}u + e] = ${store}; }\nworkgroupBarrier();`;
    }
    const parts = [0, 1, 2, 3].map((j) => `(min(${value(`(gw * 4u + ${j}u)`)}, 255u) << ${8 * j}u)`).join(' | ');
    return `for (var gw = lid; gw < ${SS / 4}u; gw += ${WG}u) { opnd[${(slot * SS) / 4}u + gw] = ${parts}; }\nworkgroupBarrier();`;
  }

  /** Fills accumulator tile `slot` with `value(e)`. */
  stageAcc(slot: number, value: (e: string) => string): string {
    return `for (var e = lid; e < ${this.SS}u; e += ${this.WG}u) { ${this.acc(slot, 'e')} = ${value('e')}; }\nworkgroupBarrier();`;
  }

  /** D = A·B + C on tiles (A, B operand slots; C, D accumulator slots, D may be C). */
  mma(d: number, a: number, b: number, c: number): string {
    const { S, SS, WG } = this;
    if (this.path.kind === 'emulated') {
      const prod =
        this.VT === 'f32'
          ? (x: string, y: string, z: string) => `fma(${x}, ${y}, ${z})`
          : (x: string, y: string, z: string) => `${z} + ${x} * ${y}`;
      return `for (var e = lid; e < ${SS}u; e += ${WG}u) {
  let r = e / ${S}u; let col = e % ${S}u;
  var sum = ${this.acc(c, 'e')};
  for (var k = 0u; k < ${S}u; k++) { sum = ${prod(this.readOp(a, `r * ${S}u + k`), this.readOp(b, `k * ${S}u + col`), 'sum')}; }
  ${this.acc(d, 'e')} = sum;
}
workgroupBarrier();`;
    }
    const { M, N, K } = this.path.shape;
    const ct = this.path.family === 'f16' ? 'f16' : 'u8';
    const load = (type: string, arr: string, off: string) =>
      this.path.syntax === 'template'
        ? `subgroupMatrixLoad<${type}, row_major>(&${arr}, ${off}, ${S}u)`
        : `subgroupMatrixLoad<${type}>(&${arr}, ${off}, false, ${S}u)`;
    const store = (arr: string, off: string, m: string) =>
      this.path.syntax === 'template'
        ? `subgroupMatrixStore<row_major>(&${arr}, ${off}, ${m}, ${S}u);`
        : `subgroupMatrixStore(&${arr}, ${off}, ${m}, false, ${S}u);`;
    // Template parameters are <type, columns, rows>: left M×K is <T, K, M>, right K×N is <T, N, K>, result M×N is <T, N, M>.
    // One block of the result per (bi, bj), accumulated over the K-blocks bk.
    const block = (bi: number, bj: number) => {
      const cOff = bi * M * S + bj * N;
      const terms = unroll(S / K, (bk) => {
        const aOff = a * SS + bi * M * S + bk * K;
        const bOff = b * SS + bk * K * S + bj * N;
        return `  m = subgroupMatrixMultiplyAccumulate(${load(`subgroup_matrix_left<${ct}, ${K}, ${M}>`, 'opnd', `${aOff}u`)}, ${load(`subgroup_matrix_right<${ct}, ${N}, ${K}>`, 'opnd', `${bOff}u`)}, m);`;
      });
      return `{ var m = ${load(`subgroup_matrix_result<${this.VT}, ${N}, ${M}>`, 'acc', `${c * SS + cOff}u`)};
${terms}
  ${store('acc', `${d * SS + cOff}u`, 'm')} }`;
    };
    return `${unroll(S / M, (bi) => unroll(S / N, (bj) => block(bi, bj)))}
workgroupBarrier();`;
  }

  /**
   * D = src·X (side 'left': the accumulator tile `src` is the left factor) or X·src (side
   * 'right'), plus D when `accumulate`. `src` holds f32/u32 results, which cannot be multiplied as
   * they are:
   * - emulated path: the product of {@link mma} over the tile itself (one limb);
   * - subgroup-matrix path, u8 family: four u8 limbs (bytes, weights 256^l), each multiplied into
   *   `tmp` with the matrix units and added to D with its weight — exact;
   * - subgroup-matrix path, f16 family: scalar FMAs in f32 over workgroup memory. Splitting the
   *   f32 values into hi/lo f16 limbs and multiplying those with the matrix units was tried: on the
   *   H100 (Dawn `webgpu@0.6.2`, driver 580) the kernels that did so came out wrong — even tiles
   *   written before the split were corrupted — while the same sequence without that step was
   *   exact (BENCHMARKS.md). These products are one tile per part (reduce) or per chunk (scan's
   *   L·A·1), a small share of the work, and in f32 they are also more accurate than two limbs.
   */
  wideMma(o: { d: number; src: number; x: number; side: 'left' | 'right'; accumulate: boolean; limb: number; tmp: number }): string {
    const { S, SS, WG, VT } = this;
    if (this.path.kind === 'subgroup-matrix' && this.path.family === 'f16') {
      // The two factors of term k of element (r, c).
      const factors = (r: string, c: string, k: string) =>
        o.side === 'left'
          ? `${this.acc(o.src, `${r} * ${S}u + ${k}`)}, ${this.readOp(o.x, `${k} * ${S}u + ${c}`)}`
          : `${this.readOp(o.x, `${r} * ${S}u + ${k}`)}, ${this.acc(o.src, `${k} * ${S}u + ${c}`)}`;
      return `{
for (var e = lid; e < ${SS}u; e += ${WG}u) {
  let r = e / ${S}u; let c = e % ${S}u;
  var sum = ${o.accumulate ? this.acc(o.d, 'e') : '0.0'};
  for (var k = 0u; k < ${S}u; k++) { sum = fma(${factors('r', 'c', 'k')}, sum); }
  ${this.acc(o.tmp, 'e')} = sum;
}
workgroupBarrier();
for (var e = lid; e < ${SS}u; e += ${WG}u) { ${this.acc(o.d, 'e')} = ${this.acc(o.tmp, 'e')}; }
workgroupBarrier();
}`;
    }
    // Limb l of each source value, multiplied into tmp and added to D with its weight 256^l.
    const limbTerm = (l: number) => {
      const limb: (e: string) => string =
        this.path.kind === 'emulated' ? (e) => this.acc(o.src, e) : (e) => `((${this.acc(o.src, e)} >> ${8 * l}u) & 255u)`;
      const weight = this.path.kind === 'emulated' ? '' : ` << ${8 * l}u`;
      const keep = o.accumulate || l > 0;
      return `${this.stageOp(o.limb, limb)}
${this.stageAcc(o.tmp, () => (VT === 'f32' ? '0.0' : '0u'))}
${o.side === 'left' ? this.mma(o.tmp, o.limb, o.x, o.tmp) : this.mma(o.tmp, o.x, o.limb, o.tmp)}
for (var e = lid; e < ${SS}u; e += ${WG}u) { ${this.acc(o.d, 'e')} = ${keep ? `${this.acc(o.d, 'e')} + ` : ''}(${this.acc(o.tmp, 'e')}${weight}); }
workgroupBarrier();`;
    };
    return `{\n${unroll(this.limbs, limbTerm)}\n}`;
  }
}
