import type { ElementType } from '../element-types.js';
import { orderBitsWgsl } from '../key-order.js';
import { composeBlocks } from './blocks/block.js';
import { tileIo } from './blocks/tile-io.js';
import { defineKernel, read } from './define-kernel.js';
import { unroll } from './unroll.js';

/** What the sorted search kernel is specialized on (plain data). */
export interface SearchSpec {
  readonly type: ElementType;
  /** `'lower'`: the first index whose key is not less than the needle; `'upper'`: the first greater. */
  readonly side: 'lower' | 'upper';
  readonly workgroupSize: number;
  /** Needles per invocation (striped, so the loads and stores of a tile coalesce). */
  readonly needlesPerThread: number;
  /** Keys the workgroup caches, a power of two (workgroup memory: 4 bytes each). */
  readonly cacheSize: number;
}

/**
 * The parameters: the sorted keys (`sorted_count`), the needles of this dispatch, the cache's
 * stride (a power of two) and its real entries, the power of two the cache search covers, the
 * needle tiles and the row width of a 2-D dispatch.
 */
export const SEARCH_PARAMS = {
  sorted_count: 'u32',
  needle_count: 'u32',
  stride: 'u32',
  cache_count: 'u32',
  cache_span: 'u32',
  tiles: 'u32',
  dispatch_x: 'u32',
} as const;

/**
 * Sorted search (`lowerBound`/`upperBound`) of many needles: each workgroup first caches every
 * `stride`-th key of `sorted` (as order bits, `orderBitsWgsl`) in workgroup memory, so the first
 * levels of every binary search hit workgroup memory, not the device's; then each invocation
 * searches its needles in lock step — a branchless search of the cache (which narrows each needle
 * to fewer than `stride` keys), then `log2(stride)` branchless steps over global memory, all of the
 * invocation's needles at each step, so their loads are in flight together. Keys and needles are
 * compared by their order bits, so u32, i32 and f32 (NaN last, −0 before +0) share one kernel shape.
 *
 * Bindings: `sorted`, `needles` (both `array<u32>`, bit patterns) and `output` (`array<u32>`).
 *
 * @example
 * ```ts
 * const kernel = searchKernel({ type: 'f32', side: 'lower', workgroupSize: 256, needlesPerThread: 8, cacheSize: 2048 });
 * ```
 */
export const searchKernel = defineKernel({
  name: 'core/search',
  bindings: (spec: SearchSpec) => {
    const io = ioOf(spec).needs.bindings;
    return { sorted: read('array<u32>'), needles: io['needles'], output: io['output'] };
  },
  params: SEARCH_PARAMS,
  wgsl: (spec) => searchWgsl(spec),
});

function ioOf(spec: SearchSpec) {
  const io = tileIo({
    name: 'tile',
    type: 'u32',
    workgroupSize: spec.workgroupSize,
    itemsPerThread: spec.needlesPerThread,
    arrangement: 'striped',
    fill: '0u',
    source: { kind: 'elements', load: 'needles', store: 'output', count: 'params.needle_count' },
  });
  return { io, needs: composeBlocks(io) };
}

function searchWgsl(spec: SearchSpec): string {
  const { io, needs } = ioOf(spec);
  const WG = spec.workgroupSize;
  const K = spec.needlesPerThread;
  const C = spec.cacheSize;
  // lower: keys before the answer are < the needle; upper: <= it. Either way a prefix of the keys.
  const before = spec.side === 'lower' ? '<' : '<=';
  const args = ['0u', 'lid', `${WG}u`] as const;
  return `${needs.decls}
const CACHE: u32 = ${C}u;
var<workgroup> cache: array<u32, ${C}>;

fn order_of(k: u32) -> u32 { return ${orderBitsWgsl(spec.type, 'k')}; }

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let tile = wid.x + wid.y * params.dispatch_x;
  if (tile >= params.tiles) { return; }   // uniform: the rest of a 2-D grid's last row
  // The cache: key j·stride for j < cache_count, then the largest order bits up to cache_span (a
  // power of two), which the search below counts and then clamps away.
  for (var j = lid; j < params.cache_span; j += ${WG}u) {
    var k = 0xffffffffu;
    if (j < params.cache_count) { k = order_of(sorted[j * params.stride]); }
    cache[j] = k;
  }
  let items = ${io.load('tile', ...args)};
  workgroupBarrier();
  var v: array<u32, ${K}>;
  var c: array<u32, ${K}>;
${unroll(K, (k) => `  v[${k}] = order_of(items[${k}]);\n  c[${k}] = 0u;`)}
  // How many cached keys come before each needle: a branchless search of cache_span entries.
  for (var step = params.cache_span / 2u; step > 0u; step = step / 2u) {
${unroll(K, (k) => `    if (cache[c[${k}] + step - 1u] ${before} v[${k}]) { c[${k}] += step; }`)}
  }
  var lo: array<u32, ${K}>;
  var hi: array<u32, ${K}>;
${unroll(
  K,
  (k) => `  {
    var n = c[${k}];
    if (cache[n] ${before} v[${k}]) { n += 1u; }
    n = min(n, params.cache_count);
    // Key (n−1)·stride comes before the needle, key n·stride does not: the answer is in
    // ((n−1)·stride, n·stride], fewer than stride keys to search.
    lo[${k}] = select(0u, (n - 1u) * params.stride + 1u, n > 0u);
    hi[${k}] = min(n * params.stride, params.sorted_count);
  }`,
)}
  // The keys in [lo, hi) that come before each needle, a power of two at a time (hi − lo < stride):
  // every needle's load of a step in flight at once.
  for (var step = params.stride / 2u; step > 0u; step = step / 2u) {
${unroll(K, (k) => `    { let j = lo[${k}] + step - 1u; if (j < hi[${k}]) { if (order_of(sorted[j]) ${before} v[${k}]) { lo[${k}] += step; } } }`)}
  }
  ${io.store('tile', 'lo', ...args)}
}
`;
}
