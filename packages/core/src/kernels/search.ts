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
  /**
   * Narrow each tile first (for sorted or clustered needles): the tile's least and greatest needle
   * bound every answer of the tile to `[L, R]`, and when `R − L` keys fit the cache, the workgroup
   * loads exactly those keys (one coalesced read) and every search stays in workgroup memory —
   * a merge of sorted needles in all but name. Correct for needles in any order; it costs two
   * barriers and two searches per tile where the range does not fit.
   */
  readonly narrow: boolean;
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
 * const kernel = searchKernel({ type: 'f32', side: 'lower', workgroupSize: 256, needlesPerThread: 8, cacheSize: 2048, narrow: false });
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
${spec.narrow ? 'var<workgroup> bounds: array<atomic<u32>, 2>;\nvar<workgroup> range: array<u32, 2>;\n' : ''}
fn order_of(k: u32) -> u32 { return ${orderBitsWgsl(spec.type, 'k')}; }


// The strided path: each needle searched in the cache of every stride-th key, then in device memory.
fn search_strided(items: array<u32, ${K}>) -> array<u32, ${K}> {
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
  return lo;
}

// How many keys come before order bits v (or_equal: keys <= v, else keys < v), for one value.
fn count_before(v: u32, or_equal: bool) -> u32 {
  var c = 0u;
  for (var step = params.cache_span / 2u; step > 0u; step = step / 2u) {
    let k = cache[c + step - 1u];
    if (k < v || (or_equal && k == v)) { c += step; }
  }
  { let k = cache[c]; if (k < v || (or_equal && k == v)) { c += 1u; } }
  c = min(c, params.cache_count);
  var lo = select(0u, (c - 1u) * params.stride + 1u, c > 0u);
  let hi = min(c * params.stride, params.sorted_count);
  for (var step = params.stride / 2u; step > 0u; step = step / 2u) {
    let j = lo + step - 1u;
    if (j < hi) { let k = order_of(sorted[j]); if (k < v || (or_equal && k == v)) { lo += step; } }
  }
  return lo;
}

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
${
  spec.narrow
    ? `  if (lid == 0u) { atomicStore(&bounds[0], 0xffffffffu); atomicStore(&bounds[1], 0u); }
  workgroupBarrier();
  // The tile's least and greatest needle (of those before the end).
  var least = 0xffffffffu;
  var most = 0u;
${unroll(K, (k) => `  if (tile * tile_TILE + ${io.position(`${k}u`, ...args)} < params.needle_count) { let o = order_of(items[${k}]); least = min(least, o); most = max(most, o); }`)}
  atomicMin(&bounds[0], least);
  atomicMax(&bounds[1], most);
  workgroupBarrier();
  // Every answer of the tile lies in [L, R]: L = keys < least, R = keys <= greatest.
  if (lid < 2u) { range[lid] = count_before(select(atomicLoad(&bounds[1]), atomicLoad(&bounds[0]), lid == 0u), lid == 1u); }
  workgroupBarrier();
  let first = range[0];
  let span = range[1] - first;
  let dense = span <= CACHE;
  // Keys L … R − 1 in the cache (padded with the largest order bits), read once, coalesced.
  if (dense) {
    for (var j = lid; j < CACHE; j += ${WG}u) {
      var k = 0xffffffffu;
      if (j < span) { k = order_of(sorted[first + j]); }
      cache[j] = k;
    }
  }
  workgroupBarrier();
  var lo: array<u32, ${K}>;
  if (dense) {
    var c: array<u32, ${K}>;
    var v: array<u32, ${K}>;
${unroll(K, (k) => `    v[${k}] = order_of(items[${k}]);\n    c[${k}] = 0u;`)}
    for (var step = CACHE / 2u; step > 0u; step = step / 2u) {
${unroll(K, (k) => `      if (cache[c[${k}] + step - 1u] ${before} v[${k}]) { c[${k}] += step; }`)}
    }
${unroll(K, (k) => `    if (cache[c[${k}]] ${before} v[${k}]) { c[${k}] += 1u; }\n    lo[${k}] = first + min(c[${k}], span);`)}
  } else {
    lo = search_strided(items);
  }`
    : `  workgroupBarrier();
  let lo = search_strided(items);`
}
  ${io.store('tile', 'lo', ...args)}
}
`;
}
