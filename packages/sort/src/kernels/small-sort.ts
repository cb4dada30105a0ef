import { defineKernel, readWrite, unroll } from '@scan/core/kit';
import { isHalfKey, keyWgslType, keyWordsOf, orderBitsWgsl, orderShiftWgsl } from '../key-order.js';
import type { ValueWords } from '../plans/sort-shape.js';
import type { BitRange, SortKeyType } from '../types.js';
import { SORT_COUNT_PARAMS } from './radix-digits.js';
import type { ValueMode } from './radix-onesweep.js';

/** What the one-workgroup sort is specialized on. */
export type SmallSortSpec = {
  readonly keyType: SortKeyType;
  readonly descending: boolean;
  /** Order bits `[begin, end)` compared. */
  readonly bits: BitRange;
  /** 'none', 'move' (values follow their keys), or 'index' (argsort: each key's index is written). */
  readonly values: ValueMode;
  /** 32-bit words of one moved value, 1 to 4 (default 1): the record at word `i · valueWords` of `values`. */
  readonly valueWords?: ValueWords;
  /** Invocations (a power of two, at most 1024 and the device's limits). */
  readonly workgroupSize: number;
  /** Keys sorted at most, a power of two: the size of the bitonic network. */
  readonly capacity: number;
  /**
   * Stages of the network per barrier (S ≥ 1): each invocation runs S consecutive stages on a group
   * of 2^S slots in registers between two barriers (default {@link SMALL_SORT_STAGES_PER_ROUND}).
   */
  readonly stagesPerRound?: number;
  /** Pad the slots (1 pair in 16, see {@link smallSortWorkgroupBytes}) against bank conflicts. */
  readonly padded?: boolean;
};

/**
 * Stages per barrier by default: 3 (groups of 8 slots in registers). On the H100 (1024 invocations,
 * padded slots, key–value, the dispatch alone) the 4096-slot network took 38.8 µs a sort with 3
 * stages per round against 42.6 with 2, 45.7 with 4 and 55.9 with a barrier per stage; the
 * 1024-slot one 19.4 against 20.2, 26.1 and 22.8. Padding mattered as much: 58.5 µs unpadded with 3.
 * (512 invocations: 37.7 and 18.2 µs; 256: 40.5 and 17.8.)
 */
export const SMALL_SORT_STAGES_PER_ROUND = 3;

/**
 * Bytes of workgroup memory the kernel declares for `capacity` keys: a key and an index per slot
 * (8 bytes; 16 for `keyWords` 2, a `vec4` of the key's two words and the index), and with `padded`
 * one more slot every 16.
 */
export function smallSortWorkgroupBytes(capacity: number, padded = false, keyWords: 1 | 2 = 1): number {
  return 8 * keyWords * (capacity + (padded ? capacity / 16 : 0));
}

/**
 * A whole sort in ONE dispatch of ONE workgroup, for counts up to `capacity`: where launches
 * dominate (a few thousand keys), one bitonic network in workgroup memory beats the radix sort's
 * six dispatches. It sorts (masked order bits, original index) pairs, so equal keys keep their input
 * order — the index breaks every tie — and the result is exactly the radix sort's, ascending and
 * descending alike (`order_bits` reverses the order for descending, not the ties).
 *
 * Phases:
 * 1. **load** — slot i < n gets `(order_bits(keys[i]) >> begin) & mask` and index i; padding slots
 *    get key 0xffffffff and their own index (≥ n), so they sort after every real key;
 * 2. **bitonic network** — the classic k/j double loop over `capacity`, bounds constant (uniform
 *    control flow), comparing (key, index) lexicographically. A barrier per stage made the network
 *    bound by workgroup-memory traffic on the one SM it runs on, so a *round* runs S stages
 *    (`stagesPerRound`, 3 by default) between two barriers: each invocation loads a group of 2^S
 *    slots into registers, runs the S stages there and stores them back — a third of the barriers
 *    and of the traffic; with `padded`, a spare pair every 16 slots keeps the strided groups off
 *    the same banks;
 * 3. **gather** — each invocation reads, for its output positions p < n, `keys[src]` and the value
 *    (`values[src]`, or `src` itself for argsort) into registers, `src` being slot p's index;
 * 4. `storageBarrier()` — every read of the caller's buffers is done before any write (the sort is
 *    in place);
 * 5. **write** — `keys[p]` and `values[p]`.
 *
 * Workgroup memory ({@link smallSortWorkgroupBytes}): 8 bytes per slot, 8 KiB at 1024 slots and
 * 32 KiB at 4096; padded 8.5 and 34 KiB. H100, key–value, one sort timed alone: 19.5 µs at 2^10
 * keys, 38.8 at 2^12, against 49.8 and 52.7 for the radix passes (luma.gl's `GPUSort`: 69.0, 72.2).
 *
 * @example
 * ```ts
 * const kernel = smallSortKernel({ keyType: 'f32', descending: true, bits: [0, 32], values: 'move', workgroupSize: 1024, capacity: 4096, padded: true });
 * b.dispatch(kernel, { keys, values }, 1, { count });
 * ```
 */
export const smallSortKernel = defineKernel({
  name: 'sort/small',
  bindings: (spec: SmallSortSpec) => ({
    keys: readWrite(`array<${keyWgslType(spec.keyType)}>`),
    values: spec.values === 'none' ? undefined : readWrite('array<u32>'),
  }),
  params: SORT_COUNT_PARAMS,
  wgsl: (spec) => smallSortWgsl(spec),
});

/**
 * WGSL of one compare-exchange of register slots `a` and `b`: ascending where slot a's bit k is clear
 * (a round's group may hold both directions when it spans bit k, at the end of a short phase).
 */
function exchange(a: number, b: number): string {
  const up = `((base + ${a}u * jlow) & k) == 0u`;
  return `      { let swap = after(v[${a}], v[${b}]) == (${up}); let lo = select(v[${a}], v[${b}], swap); v[${b}] = select(v[${b}], v[${a}], swap); v[${a}] = lo; }`;
}

/**
 * The in-register part of a round, unrolled: the group's 2^S slots lie `jlow` apart, so register
 * distance d is slot distance d · jlow; the stages run from distance 2^(S−1) down to 1, each only
 * when it is a stage of this round (d · jlow ≤ j: fewer than S stages are left at the end of a phase).
 */
function roundWgsl(stages: number): string {
  const E = 2 ** stages;
  let text = '';
  for (let d = E / 2; d >= 1; d /= 2) {
    let exchanges = '';
    for (let m = 0; m < E; m++) if ((m & d) === 0) exchanges += `${exchange(m, m + d)}\n`;
    text += `${text ? '\n' : ''}    if (${d}u * jlow <= j) {\n${exchanges}    }`;
  }
  return text;
}

function smallSortWgsl(spec: SmallSortSpec): string {
  const WG = spec.workgroupSize;
  const CAP = spec.capacity;
  const S = Math.min(spec.stagesPerRound ?? SMALL_SORT_STAGES_PER_ROUND, Math.log2(CAP));
  const E = 2 ** S;
  const PER = Math.max(1, CAP / WG);
  const [begin, end] = spec.bits;
  const W = keyWordsOf(spec.keyType);
  const K = keyWgslType(spec.keyType);
  // Slots: (masked order bits, index) as a vec2, or for two-word keys (low, high, index, unused).
  const slot = W === 2 ? 'vec4<u32>' : 'vec2<u32>';
  const width = end - begin;
  const mask = (2 ** Math.min(width, 32) - 1) >>> 0;
  const highMask = (2 ** Math.max(0, width - 32) - 1) >>> 0;
  const sortKey =
    W === 2
      ? `// The bits compared: order bits [${begin}, ${end}), low word first.
fn sort_key(k: vec2<u32>) -> vec2<u32> {
  let o = order_bits(k);
  let hi = select(0u, o.y >> ${begin % 32}u, ${begin}u < 32u);
  return vec2<u32>(order_shift(o, ${begin}u) & 0x${mask.toString(16)}u, hi & 0x${highMask.toString(16)}u);
}
// Whether slot value a goes after b: the high words, then the low, ties broken by the index.
fn after(a: vec4<u32>, b: vec4<u32>) -> bool {
  return a.y > b.y || (a.y == b.y && (a.x > b.x || (a.x == b.x && a.z > b.z)));
}`
      : `// The bits compared: order bits [${begin}, ${end}).
fn sort_key(k: u32) -> u32 { return (order_bits(k) >> ${begin}u) & 0x${mask.toString(16)}u; }
// Whether slot value a (masked order bits, original index) goes after b: ties broken by the index.
fn after(a: vec2<u32>, b: vec2<u32>) -> bool { return a.x > b.x || (a.x == b.x && a.y > b.y); }`;
  // 16-bit keys lie two to a word: key i is the half of word i / 2.
  const half = isHalfKey(spec.keyType);
  const keyAt = (i: string) => (half ? `key_at(${i})` : `keys[${i}]`);
  const loadSlot =
    W === 2
      ? `{ let i = ROWu + lid; let s = select(vec2<u32>(0xffffffffu), sort_key(${keyAt('min(i, last)')}), i < n); slots[at(i)] = vec4<u32>(s, i, 0u); }`
      : `{ let i = ROWu + lid; slots[at(i)] = vec2<u32>(select(0xffffffffu, sort_key(${keyAt('min(i, last)')}), i < n), i); }`;
  const indexOf = W === 2 ? 'z' : 'y';
  const moves = spec.values === 'move';
  const hasValues = spec.values !== 'none';
  // A moved value is VW words (argsort's index one), gathered word by word into registers.
  const VW = moves ? (spec.valueWords ?? 1) : 1;
  const word = (i: string, c: number) => (VW === 1 ? i : `${i} * ${VW}u${c === 0 ? '' : ` + ${c}u`}`);
  // Output positions of this invocation: r · WG + lid, for each r < PER.
  const perPosition = (body: (p: string, r: number) => string) => unroll(PER, (r) => body(`${r * WG}u + lid`, r));
  return `${orderBitsWgsl(spec.keyType, spec.descending)}
${orderShiftWgsl(spec.keyType)}
${sortKey}
// Where slot i lives in \`slots\`${spec.padded ? ': one word pair of padding every 16, so that groups of slots a power of two apart fall in distinct banks' : ''}.
${half ? 'fn key_at(i: u32) -> u32 { return (keys[i >> 1u] >> ((i & 1u) << 4u)) & 0xffffu; }' : ''}
fn at(i: u32) -> u32 { return ${spec.padded ? 'i + (i >> 4u)' : 'i'}; }

const WG: u32 = ${WG}u;
const CAP: u32 = ${CAP}u;
const S: u32 = ${S}u;   // stages per round
const E: u32 = ${E}u;   // slots per group (2^S)

var<workgroup> slots: array<${slot}, ${smallSortWorkgroupBytes(CAP, spec.padded ?? false, W) / (8 * W)}>;   // (masked order bits, original index)

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32) {
  let n = min(params.count, CAP);
  let last = max(n, 1u) - 1u;

  // 1. Load: real keys as masked order bits; padding sorts last (largest key, index ≥ n).
${unroll(CAP / Math.min(WG, CAP), (r) => `  ${loadSlot.replace('ROW', `${r * WG}`)}`)}
  workgroupBarrier();

  // 2. Bitonic network: phase k merges runs of k slots, stage j compare-exchanges slot a with a + j
  // (a's bit j clear), ascending where a's bit k is clear. The (key, index) pairs are all distinct,
  // so the order is total. A round runs S stages (j, j/2, …, j >> (S − 1)) at once: each invocation
  // takes groups of E slots jlow = j >> (S − 1) apart into registers, and one barrier ends the round.
  for (var k = 2u; k <= CAP; k <<= 1u) {
    for (var j = k >> 1u; j > 0u; j >>= S) {
      let jlow = max(j >> (S - 1u), 1u);
      for (var g = lid; g < CAP / E; g += WG) {
        // Group g's first slot: g with S zero bits inserted at jlow's bit.
        let base = ((g & ~(jlow - 1u)) << S) | (g & (jlow - 1u));
        var v: array<${slot}, ${E}>;
${unroll(E, (m) => `        v[${m}] = slots[at(base + ${m}u * jlow)];`)}
${roundWgsl(S)}
${unroll(E, (m) => `        slots[at(base + ${m}u * jlow)] = v[${m}];`)}
      }
      workgroupBarrier();
    }
  }

  // 3. Gather: the keys (and values) of this invocation's output positions, into registers.
  var out_keys: array<${K}, ${PER}>;
  ${hasValues ? `var out_values: array<u32, ${PER * VW}>;` : ''}
  ${half ? `var out_high: array<u32, ${PER}>;` : ''}
${perPosition(
  (p, r) => `  {
    let src = slots[at(min(${p}, CAP - 1u))].${indexOf};
    if (${p} < n) {
      out_keys[${r}] = ${keyAt('src')};${
        half
          ? `
      // The word of an even position: its key and the next one (or, past the count, the caller's half).
      if (((${p}) & 1u) == 0u) {
        out_high[${r}] = select(keys[(${p}) >> 1u] >> 16u, key_at(slots[at(min(${p} + 1u, CAP - 1u))].${indexOf}), ${p} + 1u < n);
      }`
          : ''
      }
      ${hasValues ? unroll(VW, (c) => `out_values[${r * VW + c}] = ${moves ? `values[${word('src', c)}]` : 'src'};`) : ''}
    }
  }`,
)}
  // 4. Every read of the caller's buffers before any write: the sort is in place.
  storageBarrier();

  // 5. Write.
${perPosition(
  (p, r) => `  if (${p} < n) {
    ${half ? `if (((${p}) & 1u) == 0u) { keys[(${p}) >> 1u] = out_keys[${r}] | (out_high[${r}] << 16u); }` : `keys[${p}] = out_keys[${r}];`}
    ${hasValues ? unroll(VW, (c) => `values[${word(`(${p})`, c)}] = out_values[${r * VW + c}];`) : ''}
  }`,
)}
}
`;
}
