import { operatorOfKey } from '../operators/define-operator.js';
import { operatorBlockOp } from '../operators/operator-block-op.js';
import { composeBlocks } from './blocks/block.js';
import { blockReduce } from './blocks/block-reduce.js';
import { tileIo } from './blocks/tile-io.js';
import { defineKernel, read, readWrite } from './define-kernel.js';
import { groupIdentityWgsl } from './group-scan.js';
import { operatorTileSource } from './operator-tile-source.js';
import { unroll } from './unroll.js';

/** What the reduction of an operator's records is specialized on (plain data). */
export interface OperatorReduceSpec {
  /** The operator's content key (`Operator.key`). */
  readonly opKey: string;
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  /** Records per invocation and tile load. */
  readonly itemsPerThread: number;
  /** `'partials'`: each workgroup reduces its run of tiles; `'combine'`: one workgroup reduces the partials. */
  readonly phase: 'partials' | 'combine';
  /**
   * Records formed from a plain array (`'partials'` only): `src` holds elements of this type, and
   * item i is the record `{ value: x_i, index: base + i }` of the operator (whose record type is
   * `{ value: <this type>, index: 'u32' }`, in that order). The elements come as whole vec4s in a
   * striped tile (`src`; the 1–3 after the last whole vec4 through `src_words`), and each invocation
   * folds its items of every tile of its run into one record before a single block reduce, so the
   * records meet in an order other than the array's: the operator must commute (an arg-min/max
   * does: ties are broken by the index, which no two records share). `itemsPerThread` counts
   * elements, a multiple of 4. Absent: `src` holds the records themselves.
   */
  readonly indexed?: 'u32' | 'i32' | 'f32';
}

/**
 * The parameters: records in this dispatch's range, its tiles, tiles per workgroup, the partials'
 * count, and the carry records read and written (`NONE`: none).
 */
export const OPERATOR_REDUCE_PARAMS = {
  count: 'u32',
  tiles: 'u32',
  per: 'u32',
  partials: 'u32',
  carry_in: 'u32',
  carry_out: 'u32',
  /** The array index of the range's first element (`indexed` only; 0 otherwise). */
  base: 'u32',
} as const;

/**
 * The reduction of a user-defined operator's records, `x0 ⊕ … ⊕ x(n−1)` in array order, in two
 * phases written from the kit's blocks. `'partials'`: workgroup w reduces tiles `[w·per, (w+1)·per)`
 * in order (tile load → block reduce, the leader combining tile after tile) into `partials[w]`.
 * `'combine'`: one workgroup reduces the partials in order (blocked: invocation i holds partials
 * `iK … iK+K−1`), combines the carry of the previous chunk before them, and writes the result to
 * `carry[carry_out]` and `result[0]`. A run of contiguous tiles per workgroup, not a grid stride,
 * keeps an operator that does not commute in order.
 *
 * Bindings: `src` (the records as `array<vec4<u32>>` with the `array<u32>` view `src_words` of the
 * same buffer; f16: `array<f16>`) and `partials` (`'partials'`); `partials`, `carry` and `result` (`'combine'`).
 *
 * @example
 * ```ts
 * const argmax = defineOperator({ type: { value: 'f32', index: 'u32' }, identity: { value: -Infinity, index: 0xffffffff },
 *   wgsl: 'var r = a;\nif (b.value > a.value || (b.value == a.value && b.index < a.index)) { r = b; }\nreturn r;',
 *   cpu: (a, b) => (b.value > a.value || (b.value === a.value && b.index < a.index) ? b : a) });
 * const partials = operatorReduceKernel({ opKey: argmax.key, subgroups: true, workgroupSize: 256, itemsPerThread: 4, phase: 'partials' });
 * ```
 */
export const operatorReduceKernel = defineKernel({
  name: 'core/operator-reduce',
  bindings: (spec: OperatorReduceSpec) => {
    const T = operatorOfKey(spec.opKey).wgslType;
    const loaded = blocksOf(spec).needs.bindings;
    // 'partials': src (with its words view src_words, unless the records are f16) and the partials
    // written; 'combine': the partials read, the carry and the result.
    const partials = spec.phase === 'partials';
    return {
      ...loaded,
      src_words: spec.indexed && partials ? read('array<u32>') : loaded['src_words'],
      partials: partials ? readWrite(`array<${T}>`) : loaded['partials'],
      carry: partials ? undefined : readWrite(`array<${T}>`),
      result: partials ? undefined : readWrite(`array<${T}>`),
    };
  },
  params: OPERATOR_REDUCE_PARAMS,
  enable: (spec) => [...new Set([...blocksOf(spec).needs.enable, ...operatorOfKey(spec.opKey).enable])],
  wgsl: (spec) => (spec.phase === 'combine' ? combineWgsl(spec) : spec.indexed ? indexedPartialsWgsl(spec) : partialsWgsl(spec)),
});

/** The blocks of one specialization: the tile load (of the input, or of the partials) and the block reduce. */
function blocksOf(spec: OperatorReduceSpec) {
  const op = operatorOfKey(spec.opKey);
  const o = operatorBlockOp(op);
  // Blocked either way: each invocation reduces its run of K records in order first, so a tile takes
  // one subgroup step even for an operator that does not commute. The records come a vec4 of words
  // at a time (f16: element by element); the few partials of the combine, element by element.
  const shape = { workgroupSize: spec.workgroupSize, itemsPerThread: spec.itemsPerThread, arrangement: 'blocked' } as const;
  // Indexed: the tile holds the plain elements' whole vec4s, striped (the operator commutes, so the
  // order is free: every load instruction of a subgroup reads one contiguous piece), and the kernel
  // forms the records; the 1–3 elements past the last whole vec4 are read through src_words.
  const indexed = spec.phase === 'partials' ? spec.indexed : undefined;
  const io = indexed
    ? tileIo({
        name: 'tile',
        // vec4s of words; tileIo's element path only names the type.
        type: 'vec4<u32>' as 'u32',
        workgroupSize: spec.workgroupSize,
        itemsPerThread: spec.itemsPerThread / 4,
        arrangement: 'striped',
        fill: 'vec4<u32>()',
        source: { kind: 'elements', load: 'src', count: '(params.count / 4u)' },
      })
    : tileIo({
        name: 'tile',
        // A record's WGSL type (a struct or vector); tileIo's element path only names it.
        type: op.wgslType as 'u32',
        ...shape,
        fill: o.identity,
        source:
          spec.phase === 'partials'
            ? operatorTileSource(op, { load: 'src' })
            : { kind: 'elements', load: 'partials', count: 'params.partials' },
      });
  const reduce = blockReduce({ name: 'block', op: o, subgroups: spec.subgroups, ...shape, result: 'leader' });
  return { op, o, io, reduce, needs: composeBlocks(io, reduce) };
}

function partialsWgsl(spec: OperatorReduceSpec): string {
  const { op, o, io, reduce, needs } = blocksOf(spec);
  const id = groupIdentityWgsl(spec.subgroups, spec.workgroupSize);
  return `${op.declarations}
${needs.decls}
${id.decls}

@compute @workgroup_size(${spec.workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>${id.builtins}) {
  ${id.body}
  let leader = group == 0u && lane == 0u;
  // This workgroup's run of tiles, reduced in order: tile load → block reduce, the leader combining.
  var acc = ${o.identity};
  let first = wid.x * params.per;
  let last = min(first + params.per, params.tiles);
  for (var t = first; t < last; t++) {
    let total = ${reduce.reduceItems(io.load('t'))};
    if (leader) { acc = ${o.combine('acc', 'total')}; }
    workgroupBarrier();   // the block reduce's workgroup memory, before the next tile writes it
  }
  if (leader) { partials[wid.x] = acc; }
}
`;
}

function indexedPartialsWgsl(spec: OperatorReduceSpec): string {
  const { op, o, io, reduce, needs } = blocksOf(spec);
  const id = groupIdentityWgsl(spec.subgroups, spec.workgroupSize);
  const fields = typeof op.type === 'object' ? Object.keys(op.type) : [];
  if (fields.join() !== 'value,index' || (op.type as Record<string, string>)['index'] !== 'u32') {
    throw new Error(`internal error: an indexed reduction needs records { value, index: u32 }, not ${op.wgslType}`);
  }
  const T = spec.indexed as string;
  const value = (w: string) => (T === 'u32' ? w : `bitcast<${T}>(${w})`);
  const record = (w: string, i: string) => `${op.wgslType}(${value(w)}, params.base + ${i})`;
  const V = spec.itemsPerThread / 4;
  return `${op.declarations}
${needs.decls}
${id.decls}

@compute @workgroup_size(${spec.workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>${id.builtins}) {
  ${id.body}
  // This workgroup's run of tiles: each invocation folds the records (x_i, i) of its vec4s into one
  // (the operator commutes, so no block step per tile and no barrier in the loop), then one block reduce.
  var acc = ${o.identity};
  let whole = params.count / 4u;
  let first = wid.x * params.per;
  let last = min(first + params.per, params.tiles);
  for (var t = first; t < last; t++) {
    let items = ${io.load('t')};
${unroll(
  V,
  (k) => `    { let q = t * tile_TILE + ${io.position(`${k}u`)}; if (q < whole) {
      let i = 4u * q;
      acc = ${o.combine('acc', record(`items[${k}].x`, 'i'))};
      acc = ${o.combine('acc', record(`items[${k}].y`, 'i + 1u'))};
      acc = ${o.combine('acc', record(`items[${k}].z`, 'i + 2u'))};
      acc = ${o.combine('acc', record(`items[${k}].w`, 'i + 3u'))};
    } }`,
)}
  }
  // The 1–3 elements after the last whole vec4: the first invocation folds them.
  if (wid.x == 0u && lid == 0u) {
    for (var i = 4u * whole; i < params.count; i++) { acc = ${o.combine('acc', record('src_words[i]', 'i'))}; }
  }
  let total = ${reduce.reduce('acc')};
  if (group == 0u && lane == 0u) { partials[wid.x] = total; }
}
`;
}

function combineWgsl(spec: OperatorReduceSpec): string {
  const { op, o, io, reduce, needs } = blocksOf(spec);
  const id = groupIdentityWgsl(spec.subgroups, spec.workgroupSize);
  return `${op.declarations}
${needs.decls}
${id.decls}
const NONE: u32 = 0xffffffffu;

@compute @workgroup_size(${spec.workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32${id.builtins}) {
  ${id.body}
  // The partials in order, after the carry of the chunks before.
  let total = ${reduce.reduceItems(io.load('0u'))};
  if (group == 0u && lane == 0u) {
    var before = ${o.identity};
    if (params.carry_in != NONE) { before = carry[params.carry_in]; }
    let value = ${o.combine('before', 'total')};
    if (params.carry_out != NONE) { carry[params.carry_out] = value; }
    result[0] = value;
  }
}
`;
}
