import {
  type BlockOp,
  blockDiscontinuity,
  blockReduce,
  blockScan,
  composeBlocks,
  defineKernel,
  type KeyCompare,
  keyDifferWgsl,
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
  valueWords,
  type WgslBlock,
} from '@scan/core/kit';

/** What the segmented single pass of a user-defined operator is specialized on (plain data). */
export interface OperatorSegmentedSpec {
  /** The operator's content key (`Operator.key`). */
  readonly opKey: string;
  /**
   * `'scan'`: a scan within every segment; `'reduce'`: each segment's combination, at its ordinal.
   * (The run-based functions that only move each run's head — unique, unique-by-key, run-length
   * encode — are the kit's run-heads compaction, not this pass.)
   */
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
  /**
   * Where the segments come from: one head bit per record (absent), or runs of equal consecutive
   * keys (`keys`, u32 words), compared as integers (`'int'`: u32 and i32) or as f32 with `==`
   * (`'f32'`: NaN never equal, -0 equal to +0), forward only.
   */
  readonly keys?: KeyCompare;
}

/** Whether a pass writes each run's first key at its ordinal (`keys_out`): a reduction by key. */
function writesRunKeys(spec: OperatorSegmentedSpec): boolean {
  return spec.keys !== undefined && spec.mode === 'reduce';
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
  /** A keyed reduction: the status word past the look-back's where the run count goes. */
  count_word: 'u32',
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
// Branch-free, member by member: with \`if (q.count != 0u) { return … }\` the pair made NVIDIA's
// subgroup scans wrong (H100 and H200, Dawn on Vulkan, 2026-12-07; SwiftShader never showed it):
// a function returning from inside a branch, inlined between shuffles, left the subgroup's
// invocations unconverged at the next shuffle. The operator is applied to every pair.
fn seg_combine(p: seg_pair, q: seg_pair) -> seg_pair {
  let joined = seg_pair_of(p.count, ${value.combine('seg_value(p)', 'seg_value(q)')});
  let restart = q.count != 0u;
  return seg_pair(p.count + q.count, ${members.map((m) => `select(joined.${m.name}, q.${m.name}, restart)`).join(', ')});
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
  // The keys (u32 words), a vec4 at a time where an invocation's run is whole vec4s: a second tile
  // beside the values.
  const keys =
    spec.keys === undefined
      ? undefined
      : tileIo({
          name: 'keys',
          type: 'u32',
          ...shape,
          fill: '0u',
          source: K % 4 === 0 ? { kind: 'words', words: valueWords('u32'), load: 'keys' } : { kind: 'elements', load: 'keys' },
        });
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
  // The runs' heads (and tails) among the tile's keys, with the keys before and after the tile.
  const bounds =
    spec.keys === undefined
      ? undefined
      : blockDiscontinuity({ name: 'runs', type: 'u32', ...shape, differ: (a, b) => `key_differ(${a}, ${b})` });
  const blocks: WgslBlock[] = [io, ...(keys ? [keys] : []), scan, stalled, ...(bounds ? [bounds] : [])];
  return { op, value, pair, io, keys, bounds, scan, stalled, needs: composeBlocks(...blocks) };
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
 * With `keys` (the run-based reductions and scans: reduce-by-key, scan-by-key) the
 * segments are runs of equal consecutive keys instead: each tile loads its keys (`keys`, u32 words,
 * a vec4 at a time with the `keys_words` view) and finds the runs' heads and tails with a block
 * discontinuity, the keys either side of the tile read from memory (before a range, the previous
 * range's last key, left in `carry[2 + carry_in]`); the fallback reads `keys[i − 1]` and `keys[i]`.
 * A reduction also writes each run's first key at its ordinal (`keys_out`), and the run count to
 * `status[count_word]`. A range's last record is a tail only in the last range: the next range
 * writes that run's tail outputs when its first record is a head.
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
    const keyed = spec.keys !== undefined;
    return {
      // src (and its words view), and for a scan dst (and its tail) as the tile declares them;
      // with keys, keys (and its words view).
      ...loaded,
      // A reduction's records, one per segment, written one by one.
      dst: spec.mode === 'scan' ? loaded['dst'] : spec.mode === 'reduce' ? readWrite(`array<${T}>`) : undefined,
      bits: keyed ? undefined : read('array<u32>'),
      keys_out: writesRunKeys(spec) ? readWrite('array<u32>') : undefined,
      carry: readWrite('array<seg_pair>'),
      status: LOOK_BACK_STATUS,
    };
  },
  params: OPERATOR_SEGMENTED_PARAMS,
  enable: (spec) => [...new Set([...partsOf(spec).needs.enable, ...operatorOfKey(spec.opKey).enable])],
  wgsl: (spec) => operatorSegmentedWgsl(spec),
});

function operatorSegmentedWgsl(spec: OperatorSegmentedSpec): string {
  if (spec.mode !== 'scan' && spec.backward) throw new Error('internal error: a segmented reduction runs forward');
  if (spec.keys !== undefined && spec.backward) throw new Error('internal error: a keyed pass runs forward');
  const parts = partsOf(spec);
  const { op, value, pair, io, scan, stalled, needs } = parts;
  const K = spec.itemsPerThread;
  const at = (k: number) => `tile * tile_TILE + ${io.position(`${k}u`)}`;
  const keyed = spec.keys !== undefined;
  // Whether this invocation's record k starts (ends) a segment, as a WGSL bool: from the head bits,
  // or from the tile's block discontinuity over the keys.
  const starts = (k: number) => (keyed ? `((key_heads >> ${k}u) & 1u) != 0u` : `starts(${at(k)}) != 0u`);
  const ends = (k: number) => (keyed ? `((key_tails >> ${k}u) & 1u) != 0u` : `ends(${at(k)})`);
  const needsTails = spec.mode === 'reduce';
  // A scan stores each pair's value (exclusive: the identity at a segment's first record); a
  // reduction writes each segment's value, at its last record, to the segment's ordinal (and with
  // keys the segment's first key at its first record).
  const atHead: string[] = [];
  const atTail: string[] = [];
  if (spec.mode === 'reduce') atTail.push('dst[ord] = seg_value(scanned[K_]);');
  if (writesRunKeys(spec)) atHead.push('keys_out[ord] = key_items[K_];');
  let finish: string;
  if (spec.mode === 'scan') {
    finish = `  var out: array<${op.wgslType}, ${K}>;
${unroll(K, (k) =>
  spec.inclusive
    ? `  out[${k}] = seg_value(scanned[${k}]);`
    : `  out[${k}] = seg_value(scanned[${k}]);\n  if (${starts(k)}) { out[${k}] = ${value.identity}; }`,
)}
  ${io.store('tile', 'out')}`;
  } else {
    finish = unroll(K, (k) => {
      const body = [
        ...(atHead.length > 0 ? [`if (${starts(k)}) { ${atHead.join(' ').replaceAll('K_', `${k}`)} }`] : []),
        ...(atTail.length > 0 ? [`if (${ends(k)}) { ${atTail.join(' ').replaceAll('K_', `${k}`)} }`] : []),
      ];
      return `  { let i = ${at(k)}; if (i < params.count) { let ord = scanned[${k}].count - 1u; ${body.join(' ')} } }`;
    });
  }
  if (keyed) {
    const tails = atTail.map((w) => w.replace('scanned[K_]', 'before'));
    // The runs counted, written by the last tile of the last range (within the per-stage limit of 8
    // storage bindings, left in status[count_word] for the plan to copy out).
    const counted = spec.mode === 'scan' ? '' : 'atomicStore(&status[params.count_word], through.count);';
    finish += `
  if (tile == params.tiles - 1u && leader) {
    let through = ${pair.op.combine('prefix', 'wg_aggregate')};
    if (params.carry_out == NONE) {
      // The runs of every range: the last tile of the last range writes them.
      ${counted}
    } else {
      // The range's last key, for the next range's first head.
      carry[2u + params.carry_out].count = ${parts.keys?.loadItem('params.count - 1u')};
    }
  }${
    tails.length > 0
      ? `
  // The previous range's last run ends before this range when its first record starts one (a
  // range's last record is no tail until the next range knows): its outputs are written here.
  if (tile == 0u && leader && params.carry_in != NONE && key_head(0u) != 0u) {
    let before = carry[params.carry_in];
    let ord = before.count - 1u;
    ${tails.join(' ')}
  }`
      : ''
  }`;
  }
  const bitsPrelude = `// The head bit of record g among all (record 0 always starts a segment).
fn head_at(g: u32) -> u32 {
  return select((bits[g >> 5u] >> (g & 31u)) & 1u, 1u, g == 0u);
}

// Whether logical record i of the range starts a segment in the scan's order${spec.backward ? ' (backward: it ends one in the array, being the last record or followed by a head)' : ''}.
fn starts(i: u32) -> u32 {
  let p = ${io.physical('i')};
  let g = params.first + p;
  var s = 0u;
  ${spec.backward ? 'if (p < params.count) { s = 1u; if (g + 1u < params.total) { s = head_at(g + 1u); } }' : 'if (p < params.count) { s = head_at(g); }'}
  return s;
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
  const keysTile = parts.keys;
  const key = (i: string) => keysTile?.loadItem(i) ?? '';
  const keysPrelude = `${keyDifferWgsl(spec.keys ?? 'int')}

// The key before logical record i of the range (before the range: the last key of the previous
// range, which it left in carry[2 + carry_in]).
// (Functions here have one exit each: they run between subgroup operations; see seg_combine.)
fn key_before(i: u32) -> u32 {
  var k = 0u;
  if (i == 0u) { k = carry[2u + params.carry_in].count; } else { k = ${key('i - 1u')}; }
  return k;
}

// Whether logical record i of the range starts a run (the fallback's items, from memory): record
// 0 of all, or a key unlike the one before.
fn key_head(i: u32) -> u32 {
  var head = 0u;
  if (i < params.count) {
    if (i == 0u && params.carry_in == NONE) {
      head = 1u;
    } else {
      head = u32(key_differ(key_before(i), ${key('i')}));
    }
  }
  return head;
}
`;
  const prelude = `${op.declarations}
${pair.decls}
${keyed ? keysPrelude : bitsPrelude}`;
  // Keyed, the main path's heads (and tails) come from the tile's keys at once, the neighbouring
  // keys read from memory (the tile before's last, the tile after's first; before the range, the
  // previous range's last). A range's last record is a tail only in the last range.
  const bounds = parts.bounds;
  const tileItems =
    keyed && keysTile && bounds
      ? {
          setup: `  let key_items = ${keysTile.load('tile')};
  let key_valid = ${keysTile.valid('tile')};
  let key_pred = key_before(tile * tile_TILE);
  let key_heads = ${bounds.heads('key_items', 'key_pred', 'tile > 0u || params.carry_in != NONE', 'key_valid')};
${
  needsTails
    ? `  let key_succ = ${key('(tile + 1u) * tile_TILE')};
  var key_tails = ${bounds.tails('key_items', 'key_succ', 'tile + 1u < params.tiles', 'key_valid')};
  if (tile + 1u == params.tiles && params.carry_out != NONE && group * gsize + lane == (key_valid - 1u) / ${K}u) {
    key_tails = key_tails & ~(1u << ((key_valid - 1u) % ${K}u));
  }`
    : ''
}`,
          item: (k: number, x: string) => `seg_pair_of((key_heads >> ${k}u) & 1u, ${x})`,
        }
      : undefined;
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
    inclusive: spec.mode !== 'scan' || spec.inclusive,
    itemOf: keyed ? (i, x) => `seg_pair_of(key_head(${i}), ${x})` : (i, x) => `seg_pair_of(starts(${i}), ${x})`,
    tileItems,
    finish,
  });
}
