import { type ElementType, ScanError, type ScanOp } from '@scan/core';
import {
  defineKernel,
  type Kernel,
  LINEAR_WORKGROUP_WGSL,
  read,
  readWrite,
  SLOT_PARAMS,
  scratchSlotBindings,
  scratchSlotFunctionsWgsl,
  slotBindings,
  slotFunctionsWgsl,
  unroll,
  wgslOp,
} from '@scan/core/kit';

/**
 * The segmented scan of Sengupta, Harris, Zhang & Owens, "Scan Primitives for GPU Computing"
 * (2007), §2.2: the work-efficient up-/down-sweep tree of the unsegmented scan extended with a
 * partial-OR tree of the head flags.
 *
 * - **reduce (up-sweep)**, Algorithm 3: a node's partial sum combines its two children unless the
 *   right child's partial OR is set (then it keeps the right child's value); its partial OR is the
 *   OR of the children's.
 * - **down-sweep**, Algorithm 4: a right child gets the identity when the *original* flag of its
 *   first element is set, else its left sibling's partial sum alone when the left sibling's partial
 *   OR is set, else the parent's value combined with the left sibling's partial sum; the left child
 *   gets the parent's value.
 * - **multi-block**, Algorithm 5: the reduce kernel saves both trees of every block to global
 *   memory and hands the second level three values per block (the root of the partial-sum tree, the
 *   root of the partial-OR tree and the original flag of the block's first element); after the
 *   second-level scan the down-sweep kernel reloads the trees, puts the block's second-level result
 *   at the root, and sweeps down.
 *
 * As in `@scan/core`'s Blelloch scan, each invocation holds two vec4 slots (the paper's "two
 * elements", four elements each): a leaf of the tree is one vec4, reduced serially in registers
 * with the same rule (Algorithm 3 over four elements), and finished serially after the down-sweep
 * (Algorithm 4 at the element level). A block is `2 × workgroupSize` slots, `8 × workgroupSize`
 * elements. Tree indices are padded by one word every 32 (the paper's bank-conflict avoidance).
 *
 * Flags, per level:
 * - `'chunk'` (the caller's array, through core's slot view): the bit-packed head flags of
 *   `@scan/segmented` (bit `i % 32` of word `⌊i / 32⌋`), read in logical order: element 0 is always
 *   a head; a backward scan reads the flag of logical element j (physical n−1−j) from physical
 *   element n−j, the paper's "flags shifted by one" (j starts a reversed segment where n−1−j ends
 *   one; the slot view puts the `4·slots − n` padding lanes of a backward scan first, so offsets
 *   are taken from the padded end). Here the original flag and the partial OR are the same bit.
 * - `'sums'` (a recursion level, a scratch array of one value per block below): one `u32` per
 *   element, bit 0 the original flag of the block's first element, bit 1 the block's partial OR —
 *   the paper's "three inputs" of the second-level scan.
 */

/** The three kernels of the tree algorithm. */
export type SegmentedTreeMode =
  /** Algorithm 3 per block; saves the trees and the block's three second-level inputs. */
  | 'reduce'
  /** Algorithm 5 lines 4–6: reloads the trees, seeds the root from the second level, Algorithm 4. */
  | 'down-sweep'
  /** One block alone: Algorithms 3 and 4 in one kernel, root seeded with the identity. */
  | 'block';

/** Which array a kernel scans: the caller's data (`'chunk'`) or a recursion level's block values (`'sums'`). */
export type SegmentedTreeLevel = 'chunk' | 'sums';

/** What the tree kernels are specialized on. */
export type SegmentedTreeSpec = {
  readonly type: ElementType;
  readonly op: ScanOp;
  /** Ignored (always exclusive) at the `'sums'` level and in `'reduce'`. */
  readonly inclusive: boolean;
  /** Ignored (always forward) at the `'sums'` level. */
  readonly backward: boolean;
  /** Invocations per workgroup; a power of two. */
  readonly workgroupSize: number;
  readonly level: SegmentedTreeLevel;
  readonly mode: SegmentedTreeMode;
};

/** log2 of the banks the tree padding is laid out for (32 banks of 4 bytes, as in the paper). */
const LOG_NUM_BANKS = 5;

/**
 * vec4 slots of one block: each invocation holds two.
 *
 * @example
 * ```ts
 * segmentedTreeBlockSlots(256); // 512 slots = 2048 elements
 * ```
 */
export function segmentedTreeBlockSlots(workgroupSize: number): number {
  return 2 * workgroupSize;
}

/**
 * u32 words of one block's saved partial-OR tree (one bit per node, 32 per word).
 *
 * @example
 * ```ts
 * segmentedTreeOrWords(256); // 16
 * ```
 */
export function segmentedTreeOrWords(workgroupSize: number): number {
  return Math.ceil(segmentedTreeBlockSlots(workgroupSize) / 32);
}

/**
 * Bytes of workgroup memory a tree kernel of `workgroupSize` invocations needs (the down-sweep's
 * three padded trees: partial sums, partial ORs, original flags).
 *
 * @example
 * ```ts
 * segmentedTreeWorkgroupBytes(256); // 6336
 * ```
 */
export function segmentedTreeWorkgroupBytes(workgroupSize: number): number {
  const b = segmentedTreeBlockSlots(workgroupSize);
  return 3 * 4 * (b + (b >> LOG_NUM_BANKS));
}

function checkSpec(spec: SegmentedTreeSpec): void {
  const wg = spec.workgroupSize;
  if (!Number.isInteger(wg) || wg < 1 || (wg & (wg - 1)) !== 0) {
    throw new ScanError('INVALID_ARGUMENT', `segmented tree: workgroupSize = ${wg}: the scan tree needs a power of two`, {
      argument: 'workgroupSize',
    });
  }
}

/**
 * The kernel of one phase of the tree algorithm at one level. Fields a kernel ignores (`inclusive`
 * outside the `'chunk'` level's down-sweep and block, `backward` at the `'sums'` level) are cleared
 * before the kernel is made, so specializations that generate the same WGSL share one pipeline.
 *
 * Bindings, `'chunk'`: `src`, `dst` (not in `'reduce'`), `aux` (core's slot view), `head_bits`.
 * `'sums'`: `data` (read in `'reduce'`, scanned in place otherwise), `level_flags`. Both:
 * `tree_sums` and `tree_ors` (the saved trees; `'reduce'` writes, `'down-sweep'` reads);
 * `'reduce'`: `block_sums` (the partial-sum roots it writes) and `block_flags` (original flag |
 * partial OR << 1); `'down-sweep'`: `block_prefix` (the scanned second level it reads). Parameters
 * {@link SLOT_PARAMS}.
 *
 * @example
 * ```ts
 * const k = segmentedTreeKernel({ type: 'u32', op: 'add', inclusive: false, backward: false, workgroupSize: 256, level: 'chunk', mode: 'reduce' });
 * b.dispatch(k, { src: input, aux, head_bits: headBits, tree_sums, tree_ors, block_sums, block_flags }, blocks, params);
 * ```
 */
export function segmentedTreeKernel(spec: SegmentedTreeSpec): Kernel<SegmentedTreeBinding, typeof SLOT_PARAMS> {
  checkSpec(spec);
  const chunk = spec.level === 'chunk';
  return segmentedTree({
    ...spec,
    inclusive: chunk && spec.mode !== 'reduce' && spec.inclusive,
    backward: chunk && spec.backward,
  });
}

/** The binding names of the tree kernels (each specialization declares some of them). */
type SegmentedTreeBinding =
  | 'src'
  | 'dst'
  | 'aux'
  | 'head_bits'
  | 'data'
  | 'level_flags'
  | 'tree_sums'
  | 'tree_ors'
  | 'block_sums'
  | 'block_flags'
  | 'block_prefix';

const segmentedTree = defineKernel({
  name: 'segmented/tree',
  bindings: (spec: SegmentedTreeSpec) => {
    const chunk = spec.level === 'chunk';
    const writes = spec.mode !== 'reduce';
    const T = spec.type;
    const slots = chunk ? slotBindings({ type: T, writes }) : undefined;
    const scratch = chunk ? undefined : scratchSlotBindings({ type: T, writes, carry: false });
    const reduce = spec.mode === 'reduce';
    const down = spec.mode === 'down-sweep';
    return {
      src: slots?.src,
      dst: slots?.dst,
      aux: slots?.aux,
      head_bits: chunk ? read('array<u32>') : undefined,
      data: scratch?.data,
      // Per block of the level below: bit 0 the original flag of its first element, bit 1 its partial OR.
      level_flags: chunk ? undefined : read('array<u32>'),
      // Algorithm 5, line 2: the saved trees (logical node order; partial ORs one bit per node),
      // which the reduce kernel writes and the down-sweep kernel reloads (line 4).
      tree_sums: reduce ? readWrite(`array<${T}>`) : down ? read(`array<${T}>`) : undefined,
      tree_ors: reduce ? readWrite('array<u32>') : down ? read('array<u32>') : undefined,
      // The second level's inputs, one per block: the root of the partial-sum tree, and the original
      // flag of the block's first element | the root of the partial-OR tree << 1.
      block_sums: reduce ? readWrite(`array<${T}>`) : undefined,
      block_flags: reduce ? readWrite('array<u32>') : undefined,
      // The second-level segmented scan's output, one per block.
      block_prefix: down ? read(`array<${T}>`) : undefined,
    };
  },
  params: SLOT_PARAMS,
  wgsl: (spec) => segmentedTreeWgsl(spec),
});

/** WGSL of the `'chunk'` level's data and flag access: `load_leaf(s)` from the slot view and the head bits. */
function chunkAccessWgsl(spec: SegmentedTreeSpec, identity: string): string {
  const heads = spec.backward
    ? `// A backward slot view reverses the padded array: logical element e is physical P-1-e with
  // P = 4 * slots, so the padding lanes (P - n of them, all in slot 0) come first, and the first
  // real element is e = P - n. Logical e starts a reversed segment where physical P-1-e ends one,
  // i.e. where physical P-e is a head: the paper's flags shifted by one. Bits P-e-3 .. P-e of the
  // slot, reversed so that bit k belongs to lane k.
  let padded = 4u * params.slots;
  let e = 4u * s;
  if (e >= padded) { return 0u; }
  var m = reverseBits(head_bits4(i32(padded) - i32(e) - 3)) >> 28u;
  if (s == 0u) {
    // Padding lanes are no heads; the first real element always starts a segment.
    let first = padded - params.count;
    m = (m | (1u << first)) & (0xfu << first) & 0xfu;
  }
  return m;`
    : `let n = params.count;
  let e = 4u * s;
  if (e >= n) { return 0u; }
  var m = (head_bits[e >> 5u] >> (e & 31u)) & 0xfu;
  // Element 0 always starts a segment; lanes past the end of the data are no heads.
  if (s == 0u) { m = m | 1u; }
  return m & ((1u << min(n - e, 4u)) - 1u);`;
  return `${slotFunctionsWgsl({ type: spec.type, identity, backward: spec.backward, writes: spec.mode !== 'reduce' })}

// Word w of the head bits; words outside the data's ⌈count / 32⌉ read as 0. The binding is the
// caller's whole buffer (one bind group serves every count), so the count bounds the reads, not
// arrayLength: words past the data may hold anything.
fn head_word(w: i32) -> u32 {
  if (w < 0 || u32(w) >= (params.count + 31u) / 32u) { return 0u; }
  return head_bits[w];
}

// Head bits start .. start+3 (start may be negative) as the low 4 bits.
fn head_bits4(start: i32) -> u32 {
  let w = start >> 5u;
  let sh = u32(start & 31);
  var bits = head_word(w) >> sh;
  if (sh > 28u) { bits = bits | (head_word(w + 1) << (32u - sh)); }
  return bits & 0xfu;
}

// Logical head flags of slot s: bit k for lane k.
fn load_heads(s: u32) -> u32 {
  ${heads}
}

// One leaf: four elements with their original flags and partial ORs (the same bits at this level).
fn load_leaf(s: u32) -> Leaf {
  let heads = load_heads(s);
  return Leaf(load_slot(s), heads, heads);
}`;
}

/** WGSL of a `'sums'` level's access: the block values of the level below and their two flags. */
function sumsAccessWgsl(spec: SegmentedTreeSpec, identity: string): string {
  return `${scratchSlotFunctionsWgsl({ type: spec.type, identity, writes: spec.mode !== 'reduce', carry: false })}

// The paper's three inputs of a second-level scan: values, original flags, partial ORs.
fn load_leaf(s: u32) -> Leaf {
  var heads = 0u;
  var ors = 0u;
  for (var k = 0u; k < 4u; k++) {
    let e = 4u * s + k;
    if (e < params.count) {
      let f = level_flags[e];
      heads = heads | ((f & 1u) << k);
      ors = ors | (((f >> 1u) & 1u) << k);
    }
  }
  return Leaf(load_slot(s), heads, ors);
}`;
}

/** Indents the continuation lines of generated WGSL by two spaces. */
function indent(code: string): string {
  return code.replace(/\n/g, '\n  ');
}

function segmentedTreeWgsl(spec: SegmentedTreeSpec): string {
  const o = wgslOp(spec.op, spec.type);
  const T = spec.type;
  const V = `vec4<${T}>`;
  const c = o.combine;
  const id = o.identity;
  const WG = spec.workgroupSize;
  const B = segmentedTreeBlockSlots(WG);
  const W = segmentedTreeOrWords(WG);
  const padded = B + (B >> LOG_NUM_BANKS);
  const chunk = spec.level === 'chunk';
  const inclusive = chunk && spec.inclusive;
  const mode = spec.mode;
  const access = chunk ? chunkAccessWgsl(spec, id) : sumsAccessWgsl(spec, id);

  // Leaves: built from the data (reduce, block) or reloaded from the saved trees (down-sweep).
  const leaves =
    mode === 'down-sweep'
      ? `// Algorithm 5, line 4: load the partial-sum and partial-OR trees into workgroup memory.
  let tree_base = block * BLOCK_SLOTS;
  let or_base = block * OR_WORDS;
  sums[conflict_free(ai)] = tree_sums[tree_base + ai];
  sums[conflict_free(bi)] = tree_sums[tree_base + bi];
  ors[conflict_free(ai)] = (tree_ors[or_base + (ai >> 5u)] >> (ai & 31u)) & 1u;
  ors[conflict_free(bi)] = (tree_ors[or_base + (bi >> 5u)] >> (bi & 31u)) & 1u;`
      : `sums[conflict_free(ai)] = leaf_reduce(a);
  sums[conflict_free(bi)] = leaf_reduce(b);
  ors[conflict_free(ai)] = select(0u, 1u, a.ors != 0u);
  ors[conflict_free(bi)] = select(0u, 1u, b.ors != 0u);

  // Reduce (up-sweep), Algorithm 3: a node keeps its right child's partial sum when the right
  // child's partial OR is set (a segment starts in it), else combines both; partial ORs OR up.
  var offset = 1u;
  for (var d = BLOCK_SLOTS >> 1u; d > 0u; d = d >> 1u) {
    workgroupBarrier();
    if (lid < d) {
      let i = conflict_free(offset * (2u * lid + 1u) - 1u);
      let j = conflict_free(offset * (2u * lid + 2u) - 1u);
      if (ors[j] == 0u) { sums[j] = ${c('sums[i]', 'sums[j]')}; }
      ors[j] = ors[i] | ors[j];
    }
    offset = offset << 1u;
  }`;

  const save = `workgroupBarrier();

  // Algorithm 5, line 2: save the partial-sum and partial-OR trees for the down-sweep kernel.
  let tree_base = block * BLOCK_SLOTS;
  tree_sums[tree_base + ai] = sums[conflict_free(ai)];
  tree_sums[tree_base + bi] = sums[conflict_free(bi)];
  if (lid < OR_WORDS) {
    var word = 0u;
    for (var k = 0u; k < min(32u, BLOCK_SLOTS); k++) {
      word = word | (ors[conflict_free(32u * lid + k)] << k);
    }
    tree_ors[block * OR_WORDS + lid] = word;
  }
  // The second level's three inputs (the paper's footnote: values, partial OR, first flag).
  if (lid == 0u) {
    let root = conflict_free(BLOCK_SLOTS - 1u);
    block_sums[block] = sums[root];
    block_flags[block] = (a.heads & 1u) | (ors[root] << 1u);
  }`;

  const downSweep = `heads[conflict_free(ai)] = a.heads & 1u;
  heads[conflict_free(bi)] = b.heads & 1u;
  workgroupBarrier();

  // Algorithm 4, line 1 (Algorithm 5, line 5): the root gets ${
    mode === 'down-sweep' ? "the block's element of the second-level scan" : 'the identity'
  }.
  if (lid == 0u) { sums[conflict_free(BLOCK_SLOTS - 1u)] = ${mode === 'down-sweep' ? 'block_prefix[block]' : id}; }

  // Down-sweep, Algorithm 4: the left child takes the parent's value; the right child takes the
  // identity if its first element is a head (original flag), else the left sibling's partial sum
  // alone if the left sibling holds a head (partial OR), else parent ⊕ left sibling.
  var step = BLOCK_SLOTS;
  for (var d = 1u; d < BLOCK_SLOTS; d = d << 1u) {
    step = step >> 1u;
    workgroupBarrier();
    if (lid < d) {
      let l = step * (2u * lid + 1u) - 1u;
      let i = conflict_free(l);
      let j = conflict_free(l + step);
      let t = sums[i];
      sums[i] = sums[j];
      if (heads[conflict_free(l + 1u)] != 0u) {
        sums[j] = ${id};
      } else if (ors[i] != 0u) {
        sums[j] = t;
      } else {
        sums[j] = ${c('sums[j]', 't')};
      }
      // Algorithm 4, line 12. (No later level reads this node's partial OR again.)
      ors[i] = 0u;
    }
  }
  workgroupBarrier();

  store_slot(base + ai, finish(sums[conflict_free(ai)], a));
  store_slot(base + bi, finish(sums[conflict_free(bi)], b));`;

  const lane = (k: number) => 'xyzw'[k];
  const finishLane = (k: number) => `if ((l.heads & ${1 << k}u) != 0u) { run = ${id}; }
out.${lane(k)} = ${inclusive ? `select(${c('run', `l.v.${lane(k)}`)}, l.v.${lane(k)}, (l.heads & ${1 << k}u) != 0u)` : 'run'};
run = select(${c('run', `l.v.${lane(k)}`)}, l.v.${lane(k)}, (l.ors & ${1 << k}u) != 0u);`;

  return `${access}

${LINEAR_WORKGROUP_WGSL}

const WG: u32 = ${WG}u;
const BLOCK_SLOTS: u32 = ${B}u;
const OR_WORDS: u32 = ${W}u;
const LOG_NUM_BANKS: u32 = ${LOG_NUM_BANKS}u;

// A leaf of the tree: one vec4 of elements, the original head flags of its elements (bit k for
// lane k) and their partial ORs.
struct Leaf { v: ${V}, heads: u32, ors: u32 }

// The partial-sum tree (the paper's x), the partial-OR tree (f)${mode === 'reduce' ? '' : ' and the original flag of each leaf (fi)'}.
var<workgroup> sums: array<${T}, ${padded}>;
var<workgroup> ors: array<u32, ${padded}>;
${mode === 'reduce' ? '' : `var<workgroup> heads: array<u32, ${padded}>;`}

// The paper's bank-conflict avoidance: one pad word per 32.
fn conflict_free(i: u32) -> u32 { return i + (i >> LOG_NUM_BANKS); }

// Algorithm 3 over the four elements of a leaf: its segmented reduction (from its last head on).
fn leaf_reduce(l: Leaf) -> ${T} {
  var r = l.v.x;
  ${indent(unroll(3, (k) => `r = select(${c('r', `l.v.${lane(k + 1)}`)}, l.v.${lane(k + 1)}, (l.ors & ${2 << k}u) != 0u);`))}
  return r;
}
${
  mode === 'reduce'
    ? ''
    : `
// Algorithm 4 over the four elements of a leaf, from the leaf's value p of the down-sweep:
// ${inclusive ? 'inclusive' : 'exclusive'} results.
fn finish(p: ${T}, l: Leaf) -> ${V} {
  var out: ${V};
  var run = p;
  ${indent(unroll(4, finishLane))}
  return out;
}
`
}
@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let block = linear_workgroup(wid);
  if (block >= params.tiles) { return; }
  let base = block * BLOCK_SLOTS;

  // Two leaves per invocation, one in each half of the block (coalesced, conflict-free). No kit
  // block in this kernel: the up- and down-sweep over (sum, OR) pairs in workgroup memory is the
  // paper's algorithm, which a block scan would replace with another; a leaf is a slot with its
  // flags, at the 'sums' level from the scratch view, which the tile load does not read; and the
  // tile load's whole/partial split would change these two guarded loads.
  let ai = lid;
  let bi = lid + WG;
  let a = load_leaf(base + ai);
  let b = load_leaf(base + bi);
  ${leaves}
  ${mode === 'reduce' ? save : downSweep}
}
`;
}
