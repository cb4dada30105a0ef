import { type DecoupledLookBack, decoupledLookBack, wgslOp } from '@scan/core/kit';

/** What the look-back over head counts depends on. */
export interface HeadCountSpec {
  /** Elements of one range: `ranges.steps` times this many. */
  readonly tileElements: number;
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  readonly maxSpin: number;
  readonly forceFallback?: boolean;
}

/**
 * The segmented reduce's head counts: every range publishes how many segment heads it holds, and
 * core's decoupled look-back with fallback over those counts gives each range the number of heads
 * before it — the output index of its first segment. The counts are the chain `heads`, in words 2
 * and 3 of each range's status line (the value look-back `lb` owns words 0 and 1). A stalled
 * predecessor is counted by the whole workgroup from its head bits (1/32 of its data), so the
 * fallback is cheap.
 *
 * Besides the look-back's functions, `decls` declares `heads_in(e0, e1, lane, stride)` and
 * `range_heads(t, lane, stride)`. Once resolved, a range publishes `wg_heads_before +
 * wg_range_heads` and sets `wg_heads_before`. Expects the bindings `status`, `head_bits` and
 * `ranges` (`ranges.steps` / `ranges.total`) and core's `lookBackCommonWgsl`.
 *
 * @example
 * ```ts
 * const heads = headCountLookBack({ tileElements: 4096, subgroups: true, workgroupSize: 256, maxSpin: 64 });
 * const body = `${heads.start}\n${heads.finish}`;
 * ```
 */
export function headCountLookBack(spec: HeadCountSpec): DecoupledLookBack {
  const lb = decoupledLookBack({
    name: 'heads',
    op: wgslOp('add', 'u32'),
    encoding: 'split',
    word: (t) => `STATUS_LINE * (${t} + 1u) + 2u`,
    walkers: spec.subgroups ? 'first-subgroup' : 'leader',
    maxSpin: spec.maxSpin,
    forceFallback: spec.forceFallback,
    inclusive: (p) => `${p} + wg_range_heads`,
    resolved: (p) => `wg_heads_before = ${p};`,
    fallback: {
      run: (t) => `if (lid == 0u) { atomicStore(&wg_fallback_heads, 0u); }
    workgroupBarrier();
    atomicAdd(&wg_fallback_heads, range_heads(${t}, lid, ${spec.workgroupSize}u));
    workgroupBarrier();`,
      value: () => 'atomicLoad(&wg_fallback_heads)',
    },
  });
  return {
    ...lb,
    decls: `${lb.decls}
var<workgroup> wg_fallback_heads: atomic<u32>;   // the fallback's count of a stalled range

// The heads among global elements [e0, e1) in word x of the head bits (word w): element 0 of the
// array always counts as a head.
fn heads_of_word(x: u32, w: u32, e0: u32, e1: u32) -> u32 {
  if (32u * w >= e1) { return 0u; }
  let lo = max(e0, 32u * w) - 32u * w;
  let hi = min(e1, 32u * w + 32u) - 32u * w;
  let keep = select((1u << (hi - lo)) - 1u, 0xffffffffu, hi - lo == 32u);
  return countOneBits((select(x, x | 1u, w == 0u) >> lo) & keep);
}

// This invocation's share (words lane, lane + stride, … of the span) of the heads among global
// elements [e0, e1), e1 ≤ the array's length.
fn heads_in(e0: u32, e1: u32, lane: u32, stride: u32) -> u32 {
  var n = 0u;
  for (var w = e0 / 32u + lane; 32u * w < e1; w += stride) { n = n + heads_of_word(head_bits[w], w, e0, e1); }
  return n;
}

// This invocation's share of global range t's heads (the fallback's count of a stalled range).
fn range_heads(t: u32, lane: u32, stride: u32) -> u32 {
  let elements = ranges.steps * ${spec.tileElements}u;
  return heads_in(t * elements, min((t + 1u) * elements, ranges.total), lane, stride);
}
`,
  };
}
