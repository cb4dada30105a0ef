import type { BlockField } from './group-scan.js';

/** A WGSL scalar type a value is made of: 32-bit words, or f16 halves. */
type PartType = 'u32' | 'i32' | 'f32' | 'f16';

/** WGSL vector types, in either spelling: `vec4<u32>` or `vec4u`. */
const VECTOR = /^vec([234])(?:<\s*(u32|i32|f32|f16)\s*>|([uifh]))$/;
const SHORT: Record<string, PartType> = { u: 'u32', i: 'i32', f: 'f32', h: 'f16' };
const COMPONENTS = ['x', 'y', 'z', 'w'];

/** One scalar of a value: where it is (`.x`, `.index`, `.pos.y`, or '' for a scalar value) and its type. */
interface Part {
  readonly path: string;
  readonly type: PartType;
}

/** A scalar or vector type's scalars, under `path`; `undefined` for any other type. */
function partsOfPlain(type: string, path: string): Part[] | undefined {
  if (type === 'u32' || type === 'i32' || type === 'f32' || type === 'f16') return [{ path, type }];
  const m = VECTOR.exec(type);
  if (!m) return undefined;
  const scalar = (m[2] as PartType | undefined) ?? SHORT[m[3]!]!;
  return COMPONENTS.slice(0, Number(m[1])).map((c) => ({ path: `${path}.${c}`, type: scalar }));
}

/** The WGSL value of a scalar or vector type from its scalars' expressions, in order. */
function buildPlain(type: string, scalars: readonly string[]): string {
  return scalars.length === 1 && !VECTOR.test(type) ? scalars[0]! : `${type}(${scalars.join(', ')})`;
}

/**
 * A value type as 16-bit halves, the unit in which the look-back's split statuses store it (the
 * other 16 bits of each status word hold its flag).
 *
 * @example
 * ```ts
 * const w: ValueWords = valueWords('vec2<f32>');
 * const store = w.halvesOf('value').map((h, k) => `atomicStore(&status[base + ${k}u], (flag << 16u) | ${h});`);
 * const value = w.fromHalves(['s0', 's1', 's2', 's3']); // 'vec2<f32>(bitcast<f32>((s0 & 0xffffu) | (s1 << 16u)), …)'
 * ```
 */
export interface ValueWords {
  /** The WGSL type. */
  readonly type: string;
  /** Halves a value takes: two per 32-bit scalar (low, then high), one per f16, in member order. */
  readonly halves: number;
  /** Whether a value is one u32, i32 or f32 (two halves; the look-back's original one-word path). */
  readonly word32: boolean;
  /** WGSL u32 expressions of the halves of the value `v` (a WGSL expression), each below 2^16. */
  halvesOf(v: string): string[];
  /**
   * The WGSL value from `halves` u32 expressions, one per half: the low 16 bits of each are the
   * half, the high 16 bits are ignored (a status word's flag may stand there).
   */
  fromHalves(words: readonly string[]): string;
  /** 32-bit words a value takes (its 32-bit scalars); `undefined` when it holds an f16. */
  readonly words: number | undefined;
  /** WGSL u32 expressions of the words of the value `v`, in member order (no f16: throws). */
  wordsOf(v: string): string[];
  /** The WGSL value from `words` u32 expressions, one per word, in member order (no f16: throws). */
  fromWords(words: readonly string[]): string;
}

/**
 * How a value of a WGSL type splits into 16-bit halves and is put back together, bit for bit: a
 * 32-bit scalar (u32, i32, f32) is two halves, low then high; an f16 is one (through a
 * `vec2<f16>` that holds it twice, so the cast's component order does not matter, and
 * infinities and NaNs keep their bits, which `pack2x16float` does not promise); a vector
 * (`vecN<T>` or `vecNT`) is its components in order; a record (a struct, `fields` listing all its
 * members in declaration order, each a scalar or a vector: {@link BlockField}) is its members in
 * order. Any other type throws: a struct must list its fields. f16 needs `enable f16;` in the module.
 *
 * @example
 * ```ts
 * const w = valueWords('Pair', [{ name: 'a', type: 'f32' }, { name: 'b', type: 'u32' }]);
 * w.halves; // 4
 * w.halvesOf('v')[1]; // '(bitcast<u32>(v.a) >> 16u)'
 * w.fromHalves(['s0', 's1', 's2', 's3']); // 'Pair(bitcast<f32>((s0 & 0xffffu) | (s1 << 16u)), …)'
 * w.fromWords(['x', 'y']); // 'Pair(bitcast<f32>(x), y)': whole words, for vector loads of records
 * ```
 */
export function valueWords(type: string, fields?: readonly BlockField[]): ValueWords {
  const members = fields
    ? fields.map((f) => {
        const parts = partsOfPlain(f.type, `.${f.name}`);
        if (!parts) throw new Error(`valueWords: field "${f.name}" of ${type} has type ${f.type}, not a scalar or vector`);
        return { type: f.type, parts };
      })
    : [{ type, parts: partsOfPlain(type, '') }];
  if (members.some((m) => m.parts === undefined)) {
    throw new Error(`valueWords: ${type} is not a u32, i32, f32 or f16 scalar or vector, and lists no fields`);
  }
  const all = members.flatMap((m) => m.parts!);
  const span = (p: Part) => (p.type === 'f16' ? 1 : 2);
  const whole = all.every((p) => p.type !== 'f16');
  const noHalf = () => {
    throw new Error(`valueWords: ${type} holds an f16, which is not a whole 32-bit word`);
  };
  // A value from one expression per scalar, each made by `scalar` in member order.
  const build = (scalar: (p: Part) => string) => {
    const built = members.map((m) => buildPlain(m.type, m.parts!.map(scalar)));
    return fields ? `${type}(${built.join(', ')})` : built[0]!;
  };
  return {
    type,
    halves: all.reduce((sum, p) => sum + span(p), 0),
    word32: !fields && all.length === 1 && all[0]!.type !== 'f16',
    halvesOf: (v) =>
      all.flatMap((p) =>
        p.type === 'f16'
          ? [`(bitcast<u32>(vec2<f16>(${v}${p.path}, ${v}${p.path})) & 0xffffu)`]
          : [`(bitcast<u32>(${v}${p.path}) & 0xffffu)`, `(bitcast<u32>(${v}${p.path}) >> 16u)`],
      ),
    fromHalves: (words) => {
      let next = 0;
      const scalar = (p: Part): string => {
        const lo = words[next++]!;
        if (p.type === 'f16') return `bitcast<vec2<f16>>((${lo} & 0xffffu) * 0x10001u).x`;
        const hi = words[next++]!;
        return `bitcast<${p.type}>((${lo} & 0xffffu) | (${hi} << 16u))`;
      };
      return build(scalar);
    },
    words: whole ? all.length : undefined,
    wordsOf: (v) => (whole ? all.map((p) => (p.type === 'u32' ? `${v}${p.path}` : `bitcast<u32>(${v}${p.path})`)) : noHalf()),
    fromWords: (words) => {
      if (!whole) return noHalf();
      let next = 0;
      return build((p) => {
        const w = words[next++]!;
        return p.type === 'u32' ? w : `bitcast<${p.type}>(${w})`;
      });
    },
  };
}
