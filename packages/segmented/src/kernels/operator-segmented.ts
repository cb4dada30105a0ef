import {
  type BlockOp,
  blockReduce,
  blockScan,
  composeBlocks,
  defineKernel,
  LOOK_BACK_STATUS,
  operatorBlockOp,
  operatorOfKey,
  operatorTileSource,
  read,
  readWrite,
  scanOrderOp,
  singlePassScanWgsl,
  tileIo,
  unroll,
} from '@scan/core/kit';

/** What the segmented single pass of a user-defined operator is specialized on (plain data). */
export interface OperatorSegmentedSpec {
  /** The operator's content key (`Operator.key`). */
  readonly opKey: string;
  /** `'scan'`: a scan within every segment; `'reduce'`: each segment's combination, at its ordinal. */
  readonly mode: 'scan' | 'reduce';
  readonly inclusive: boolean;
  /** Scan each segment from its last record; operands still combine in array order. Not with `'reduce'`. */
  readonly backward: boolean;
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  /** Records per invocation. */
  readonly itemsPerThread: number;
  readonly maxSpin: number;
  /** Test hook: every predecessor reads as not ready. */
  readonly forceFallback?: boolean;
}

/**
 * The parameters: records in this dispatch's range and its tiles, the range's first record among
 * all `total` (for the head bits, which are bound whole), and the carries read and written (`NONE`).
 */
export const OPERATOR_SEGMENTED_PARAMS = {
  count: 'u32',
  tiles: 'u32',
  first: 'u32',
  total: 'u32',
  carry_in: 'u32',
  carry_out: 'u32',
} as const;

/**
 * The operator on (heads, value) pairs that makes a scan segmented (Schwartz; Blelloch 1990): a
 * pair counts the segment heads in its range and holds the combination since the last of them, so
 * `(c1, v1) ⊕ (c2, v2) = (c1 + c2, c2 > 0 ? v2 : v1 ⊕ v2)` — associative whenever ⊕ is, and one
 * u32 serves as both the "a head is inside" flag and, for a reduction, the segment's ordinal. The
 * pair is one flat struct (the value's members after the count), as the blocks shuffle and the
 * look-back stores records member by member.
 */
function pairOp(value: BlockOp, valueFields: readonly { name: string; type: string }[] | undefined): { op: BlockOp; decls: string } {
  const T = value.type;
  const members = valueFields
    ? valueFields.map((f) => ({ name: `v_${f.name}`, type: f.type, of: `v.${f.name}` }))
    : [{ name: 'v', type: T, of: 'v' }];
  const back = valueFields ? `${T}(${members.map((m) => `p.${m.name}`).join(', ')})` : 'p.v';
  const decls = `// A segment pair: the heads in its range, and the value since the last of them.
struct seg_pair { count: u32, ${members.map((m) => `${m.name}: ${m.type}`).join(', ')} }
fn seg_value(p: seg_pair) -> ${T} { return ${back}; }
fn seg_pair_of(count: u32, v: ${T}) -> seg_pair { return seg_pair(count, ${members.map((m) => m.of).join(', ')}); }
fn seg_combine(p: seg_pair, q: seg_pair) -> seg_pair {
  if (q.count != 0u) { return seg_pair_of(p.count + q.count, seg_value(q)); }
  return seg_pair_of(p.count, ${value.combine('seg_value(p)', 'seg_value(q)')});
}
`;
  return {
    decls,
    op: {
      type: 'seg_pair',
      identity: `seg_pair_of(0u, ${value.identity})`,
      combine: (a, b) => `seg_combine(${a}, ${b})`,
      fields: [{ name: 'count', type: 'u32' }, ...members.map((m) => ({ name: m.name, type: m.type as 'u32' }))],
      commutative: false,
    },
  };
}

/** The blocks and pieces of one specialization. */
function partsOf(spec: OperatorSegmentedSpec) {
  const op = operatorOfKey(spec.opKey);
  const value = scanOrderOp(operatorBlockOp(op), spec.backward);
  const pair = pairOp(value, value.fields);
  const WG = spec.workgroupSize;
  const K = spec.itemsPerThread;
  // Blocked runs of K records, a vec4 of words at a time (f16: element by element): one subgroup
  // step per tile for the pairs, which never commute.
  const shape = { workgroupSize: WG, itemsPerThread: K, arrangement: 'blocked' } as const;
  const io = tileIo({
    name: 'tile',
    // A record's WGSL type; tileIo's element path only names it.
    type: op.wgslType as 'u32',
    ...shape,
    backward: spec.backward,
    fill: value.identity,
    // A reduction writes each segment's value at its ordinal (not a tile store).
    source: operatorTileSource(op, spec.mode === 'scan' ? { load: 'src', store: 'dst' } : { load: 'src' }),
  });
  const scan = blockScan({ name: 'block', op: pair.op, subgroups: spec.subgroups, ...shape });
  const stalled = blockReduce({ name: 'stalled', op: pair.op, subgroups: spec.subgroups, workgroupSize: WG, result: 'leader' });
  return { op, value, pair, io, scan, stalled, needs: composeBlocks(io, scan, stalled) };
}

/**
 * The segmented scan and the segmented reduction of a user-defined operator in one single pass
 * each: the kit's single-pass scan (`singlePassScanWgsl`: decoupled look-back with fallback, from
 * the blocks) of the records' (heads, value) pairs (see `pairOp`). A scan stores each pair's value (exclusive: the identity at a
 * segment's first record); a reduction writes the inclusive value at each segment's last record to
 * `dst[ordinal]`, the ordinal being the heads counted so far, minus one. Segments come as one head
 * bit per record (`bits`, bound whole; record 0 always starts one). Backward, the range is read
 * from its end and a record starts a segment in the scan's order when it ends one in the array's.
 *
 * Bindings: `src` (the records as `array<vec4<u32>>`, with the `array<u32>` view `src_words`; f16:
 * `array<f16>`), `dst` (a scan: the range's records as `src`, with `dst_tail`, the words past the
 * last whole vec4; a reduction: every segment's value, `array<T>`),
 * `bits` (`array<u32>`), `carry` (`array<seg_pair>`, two), `status`.
 *
 * @example
 * ```ts
 * const kernel = operatorSegmentedKernel({ opKey: affine.key, mode: 'scan', inclusive: true, backward: false,
 *   subgroups: true, workgroupSize: 256, itemsPerThread: 8, maxSpin: 64 });
 * ```
 */
export const operatorSegmentedKernel = defineKernel({
  name: 'segmented/operator-single-pass',
  bindings: (spec: OperatorSegmentedSpec) => {
    const T = operatorOfKey(spec.opKey).wgslType;
    const loaded = partsOf(spec).needs.bindings;
    return {
      // src (and its words view), and for a scan dst (and its tail) as the tile declares them.
      ...loaded,
      // A reduction's records, one per segment, written one by one.
      dst: spec.mode === 'scan' ? loaded['dst'] : readWrite(`array<${T}>`),
      bits: read('array<u32>'),
      carry: readWrite('array<seg_pair>'),
      status: LOOK_BACK_STATUS,
    };
  },
  params: OPERATOR_SEGMENTED_PARAMS,
  enable: (spec) => [...new Set([...partsOf(spec).needs.enable, ...operatorOfKey(spec.opKey).enable])],
  wgsl: (spec) => operatorSegmentedWgsl(spec),
});

function operatorSegmentedWgsl(spec: OperatorSegmentedSpec): string {
  if (spec.mode === 'reduce' && spec.backward) throw new Error('internal error: a segmented reduction runs forward');
  const { op, value, pair, io, scan, stalled, needs } = partsOf(spec);
  const K = spec.itemsPerThread;
  const at = (k: number) => `tile * tile_TILE + ${io.position(`${k}u`)}`;
  // A scan stores each pair's value (exclusive: the identity at a segment's first record); a
  // reduction writes each segment's value, at its last record, to the segment's ordinal.
  const finish =
    spec.mode === 'scan'
      ? `  var out: array<${op.wgslType}, ${K}>;
${unroll(K, (k) =>
  spec.inclusive
    ? `  out[${k}] = seg_value(scanned[${k}]);`
    : `  out[${k}] = seg_value(scanned[${k}]);\n  if (starts(${at(k)}) != 0u) { out[${k}] = ${value.identity}; }`,
)}
  ${io.store('tile', 'out')}`
      : unroll(
          K,
          (k) => `  { let i = ${at(k)}; if (i < params.count && ends(i)) { dst[scanned[${k}].count - 1u] = seg_value(scanned[${k}]); } }`,
        );
  const prelude = `${op.declarations}
${pair.decls}
// The head bit of record g among all (record 0 always starts a segment).
fn head_at(g: u32) -> u32 {
  if (g == 0u) { return 1u; }
  return (bits[g >> 5u] >> (g & 31u)) & 1u;
}

// Whether logical record i of the range starts a segment in the scan's order${spec.backward ? ' (backward: it ends one in the array, being the last record or followed by a head)' : ''}.
fn starts(i: u32) -> u32 {
  let p = ${io.physical('i')};
  if (p >= params.count) { return 0u; }
  let g = params.first + p;
  ${spec.backward ? 'if (g + 1u >= params.total) { return 1u; }\n  return head_at(g + 1u);' : 'return head_at(g);'}
}
${
  spec.mode === 'reduce'
    ? `
// Whether record i of the range ends its segment: the last record, or followed by a head.
fn ends(i: u32) -> bool {
  let g = params.first + i;
  return g + 1u >= params.total || head_at(g + 1u) != 0u;
}
`
    : ''
}`;
  return singlePassScanWgsl({
    prelude,
    op: pair.op,
    io,
    scan,
    stalled,
    needs,
    subgroups: spec.subgroups,
    workgroupSize: spec.workgroupSize,
    itemsPerThread: K,
    maxSpin: spec.maxSpin,
    forceFallback: spec.forceFallback,
    // A reduction needs each segment's inclusive value.
    inclusive: spec.mode === 'reduce' || spec.inclusive,
    itemOf: (i, x) => `seg_pair_of(starts(${i}), ${x})`,
    finish,
  });
}
