import { statusAccessWgsl } from '@scan/core/kit';

/**
 * WGSL of the segmented reduce's head counts: every range publishes how many segment heads it holds,
 * and a decoupled look-back with fallback over those counts gives each range the number of heads
 * before it — the output index of its first segment. The counts sit in words 2 and 3 of each
 * range's status line (core's look-back owns words 0 and 1), read and written by core's
 * `statusAccessWgsl`. A stalled predecessor is counted directly from its head bits (1/32 of its
 * data), so the fallback is cheap.
 *
 * Declares `read_count(t)`, `publish_count(t, flag, count)`, `heads_in(e0, e1, lane, stride)` and
 * `range_heads(t, lane, stride)`. Expects the bindings `status` (core's `LOOK_BACK_STATUS`),
 * `head_bits` and `ranges` (`ranges.steps` / `ranges.total`), which the kernel's definition declares,
 * and core's look-back declarations (`Status`, the flags, `STATUS_LINE`, `MAX_SPIN`).
 *
 * @example
 * ```ts
 * const decls = headCountDeclsWgsl({ tileElements: 4096, forceFallback: false });
 * ```
 */
export function headCountDeclsWgsl(spec: { tileElements: number; forceFallback?: boolean }): string {
  return `${statusAccessWgsl({ read: 'read_count', publish: 'publish_count', word: 2, type: 'u32', forceNotReady: spec.forceFallback })}
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

// The fallback's count of a stalled predecessor: this invocation's share of global range t's heads.
fn range_heads(t: u32, lane: u32, stride: u32) -> u32 {
  let elements = ranges.steps * ${spec.tileElements}u;
  return heads_in(t * elements, min((t + 1u) * elements, ranges.total), lane, stride);
}
`;
}

/**
 * The look-back over head counts, as a WGSL block run after the range published its own count
 * (AGGREGATE, or INCLUSIVE for range 0): walks back from `tile − 1` adding AGGREGATE counts until an
 * INCLUSIVE ends it, counts a predecessor still not ready after `MAX_SPIN` reads from its head bits
 * (fallback), then sets `wg_heads_before` and publishes this range's INCLUSIVE count
 * (`wg_heads_before + wg_range_heads`). With subgroups the first group reads a window of
 * `subgroup_size` predecessors per step; without, the leader walks alone. Expects `tile > 0`,
 * `leader`, `group`, `lane`, `gsize` in scope.
 *
 * @example
 * ```ts
 * const code = `if (tile > 0u) { ${headCountLookBackWgsl(true)} }`;
 * ```
 */
export function headCountLookBackWgsl(subgroups: boolean): string {
  if (!subgroups) {
    return `if (leader) {
      var cursor = tile - 1u;
      var before = 0u;
      var spins = 0u;
      loop {
        let st = read_count(cursor);
        if (st.flag == FLAG_NOT_READY) {
          spins++;
          if (spins < MAX_SPIN) { continue; }
          before = before + range_heads(cursor, 0u, 1u);
        } else {
          before = before + st.bits;
          if (st.flag == FLAG_INCLUSIVE) { break; }
        }
        if (cursor == 0u) { break; }
        cursor = cursor - 1u;
        spins = 0u;
      }
      wg_heads_before = before;
      publish_count(tile, FLAG_INCLUSIVE, before + wg_range_heads);
    }`;
  }
  return `if (group == 0u) {
      var cursor = tile - 1u;
      var before = 0u;
      var spins = 0u;
      loop {
        // Lane i reads range cursor − i; lanes past range 0 stand for "nothing before", an INCLUSIVE 0.
        var st = Status(FLAG_INCLUSIVE, 0u);
        if (lane <= cursor) { st = read_count(cursor - lane); }
        let first_inclusive = subgroupMin(select(NONE, lane, st.flag == FLAG_INCLUSIVE));
        let first_not_ready = subgroupMin(select(NONE, lane, st.flag == FLAG_NOT_READY));
        if (first_inclusive < first_not_ready) {
          before = before + subgroupAdd(select(0u, st.bits, lane <= first_inclusive));
          break;
        }
        if (first_not_ready > 0u) {
          // AGGREGATEs before the first range not ready are consumed; the window moves past them.
          before = before + subgroupAdd(select(0u, st.bits, lane < first_not_ready));
          let consumed = min(first_not_ready, gsize);
          if (cursor < consumed) { break; }
          cursor = cursor - consumed;
          spins = 0u;
          continue;
        }
        spins++;
        if (spins < MAX_SPIN) { continue; }
        // Fallback: count the stalled range from its head bits.
        before = before + subgroupAdd(range_heads(cursor, lane, gsize));
        if (cursor == 0u) { break; }
        cursor = cursor - 1u;
        spins = 0u;
      }
      if (lane == 0u) {
        wg_heads_before = before;
        publish_count(tile, FLAG_INCLUSIVE, before + wg_range_heads);
      }
    }`;
}
