import { defineKernel, type ParamFields, read, readWrite, unroll } from '@scan/core/kit';
import { orderBitsWgsl } from '../key-order.js';
import type { SortValueType } from '../types.js';
import { ELEMENTWISE_PARAMS, elementwiseWgsl } from './elementwise.js';

// The radix select of `topK` (after AIR top-k, Zhang et al. 2023, CUB's DeviceTopK). Keys are
// compared by their order bits (`orderBitsWgsl`, reversed for the largest keys), so the k best are
// always the k smallest order values. Three digits from the most significant: 11, 11 and 10 bits.
// Level 0 is a histogram of every key; a select finds the bucket of the k-th key; each filter pass
// then writes the keys of better buckets to the output, keeps those of the chosen bucket as the next
// level's candidates (their indices, in scratch) and counts their next digit; the last writes as
// many keys equal to the k-th as are still missing. Everything lives in one small `state` buffer
// the kernels read, so nothing is read back between passes and every dispatch is sized on the host.

/** Bit shift of each digit level (bits [21, 32), [10, 21), [0, 10) of the order bits). */
export const TOPK_SHIFTS = [21, 10, 0] as const;
/** Buckets of each digit level. */
export const TOPK_BINS = [2048, 2048, 1024] as const;

/** Words of `state`: the prefix found so far (its chosen digits in place), then the k still missing. */
export const STATE_PREFIX = 0;
export const STATE_K_LEFT = 1;
/** Keys written to the output so far that are strictly better than the k-th. */
export const STATE_OUT = 2;
/** Candidates found by filter level 1 and 2 (may pass the capacity: then the next pass rescans). */
export const STATE_CANDIDATES = [3, 4] as const;
/** Keys equal to the k-th seen by the last filter. */
export const STATE_TIES = 5;
/** Where each level's histogram starts in `state`. */
export const STATE_HIST = [16, 16 + 2048, 16 + 4096] as const;
/** Bytes of `state`: 16 words, then the three histograms. */
export const TOPK_STATE_BYTES = 4 * (16 + 2048 + 2048 + 1024);

/**
 * The parameters every radix-select kernel reads: the key count, the workgroups of a grid-stride
 * pass and their row length in a 2-D dispatch, the candidate capacity, and k.
 *
 * @example
 * ```ts
 * b.paramsFor(kernel, { count: n, tiles, dispatch_x: dispatchShape(tiles, maxDim).x, cap, k });
 * ```
 */
export const TOPK_PARAMS = { count: 'u32', tiles: 'u32', dispatch_x: 'u32', cap: 'u32', k: 'u32' } as const satisfies ParamFields;

/** What the histogram and filter passes are specialized on. */
export interface TopKPassSpec {
  readonly keyType: SortValueType;
  readonly largest: boolean;
  /** 0: the histogram of every key; 1–3: the filter pass after select `level − 1`. */
  readonly level: 0 | 1 | 2 | 3;
  readonly workgroupSize: number;
  readonly elementsPerThread: number;
  /**
   * Count into a workgroup histogram, added to the global one once per workgroup (true: the fast
   * path), or straight into the global one (SwiftShader compiles an 8 KiB workgroup array for
   * seconds).
   */
  readonly privateHistogram: boolean;
  /** The per-key steps unrolled (constant indices keep the keys in registers), or loops (SwiftShader compiles those faster). */
  readonly unrolled: boolean;
}

/** The per-key steps `body` (which reads its key's number as \`j\`): unrolled, or a loop. */
function perKey(spec: TopKPassSpec, body: string): string {
  if (!spec.unrolled) return `for (var j = 0u; j < ${spec.elementsPerThread}u; j++) {\n${body}\n    }`;
  return unroll(spec.elementsPerThread, (k) => `{\n      let j = ${k}u;\n${body}\n    }`);
}

/**
 * A pass of the radix select over the keys (level 0: the histogram of the top digit; levels 1–3:
 * the filters, see the module notes). Grid-stride: `params.tiles` workgroups, each counting into
 * workgroup memory and adding its counts to `state` once at the end. A filter of level 2 or 3 reads
 * the previous level's candidates when they fit the capacity, else every key again, keeping those
 * that match the prefix (bounded scratch, whatever the data).
 *
 * @example
 * ```ts
 * const k = topKPassKernel({ keyType: 'f32', largest: true, level: 1, workgroupSize: 256, elementsPerThread: 16, privateHistogram: true, unrolled: true });
 * b.dispatch(k, { keys, cand_out, out_keys, out_idx, state }, tiles, params);
 * ```
 */
export const topKPassKernel = defineKernel({
  name: 'sort/top-k/pass',
  bindings: (spec: TopKPassSpec) => ({
    keys: read('array<u32>'),
    cand_in: spec.level >= 2 ? read('array<u32>') : undefined,
    cand_out: spec.level === 1 || spec.level === 2 ? readWrite('array<u32>') : undefined,
    out_keys: spec.level >= 1 ? readWrite('array<u32>') : undefined,
    out_idx: spec.level >= 1 ? readWrite('array<u32>') : undefined,
    state: readWrite('array<atomic<u32>>'),
  }),
  params: TOPK_PARAMS,
  wgsl: (spec: TopKPassSpec) => (spec.level === 0 ? histogramWgsl(spec) : filterWgsl(spec)),
});

/** The statement that counts digit `digit` of `level`: in the workgroup histogram, or in `state` itself. */
function countDigit(spec: TopKPassSpec, level: 0 | 1 | 2, digit: string): string {
  return spec.privateHistogram ? `atomicAdd(&hist[${digit}], 1u);` : `atomicAdd(&state[${STATE_HIST[level]}u + (${digit})], 1u);`;
}

/** The end of a pass with a workgroup histogram of `level`: its counts added to the global one. */
function flush(spec: TopKPassSpec, level: 0 | 1 | 2): string {
  if (!spec.privateHistogram) return '';
  return `  workgroupBarrier();
  for (var b = lid; b < ${TOPK_BINS[level]}u; b += ${spec.workgroupSize}u) {
    let v = atomicLoad(&hist[b]);
    if (v > 0u) { atomicAdd(&state[${STATE_HIST[level]}u + b], v); }
  }`;
}

function histogramWgsl(spec: TopKPassSpec): string {
  const WG = spec.workgroupSize;
  const E = spec.elementsPerThread;
  return `${orderBitsWgsl(spec.keyType, spec.largest)}

${spec.privateHistogram ? `var<workgroup> hist: array<atomic<u32>, ${TOPK_BINS[0]}>;` : ''}

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let w = wid.x + wid.y * params.dispatch_x;
  if (w >= params.tiles) { return; }
  let n = params.count;
  for (var c = w; c * ${WG * E}u < n; c += params.tiles) {
    let base = c * ${WG * E}u + lid;
    // Every load first (in flight together), then the counting.
    var kv: array<u32, ${E}>;
    ${perKey(
      spec,
      `      let i = base + j * ${WG}u;
      if (i < n) { kv[j] = keys[i]; }`,
    )}
    ${perKey(spec, `      if (base + j * ${WG}u < n) { ${countDigit(spec, 0, `order_bits(kv[j]) >> ${TOPK_SHIFTS[0]}u`)} }`)}
  }
${flush(spec, 0)}
}
`;
}

function filterWgsl(spec: TopKPassSpec): string {
  const WG = spec.workgroupSize;
  const E = spec.elementsPerThread;
  const L = spec.level;
  const shift = TOPK_SHIFTS[L - 1] as number;
  const last = L === 3;
  const fromCands = L >= 2;
  const prev = L >= 2 ? (TOPK_SHIFTS[L - 2] as number) : 0;
  const nextShift = last ? 0 : (TOPK_SHIFTS[L] as number);
  const nextBins = last ? 0 : (TOPK_BINS[L] as number);
  const counter = last ? STATE_TIES : (STATE_CANDIDATES[L - 1] as number);
  // Keys equal to the k-th's prefix so far: candidates of the next level (and their next digit
  // counted), or, at the last level, ties: the first k_left of them complete the output.
  const onEqual = last
    ? `if (pe < k_left) {
          let p = params.k - k_left + pe;
          out_keys[p] = kv[j];
          out_idx[p] = iv[j];
        }`
    : `if (pe < params.cap) { cand_out[pe] = iv[j]; }`;
  return `${orderBitsWgsl(spec.keyType, spec.largest)}

${last || !spec.privateHistogram ? '' : `var<workgroup> hist: array<atomic<u32>, ${nextBins}>;`}
var<workgroup> wg_total: u32;
var<workgroup> wg_from_cands: u32;
var<workgroup> wg_strict: atomic<u32>;
var<workgroup> wg_equal: atomic<u32>;
var<workgroup> wg_base: vec2<u32>;

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let w = wid.x + wid.y * params.dispatch_x;
  if (w >= params.tiles) { return; }
  if (lid == 0u) {
    var total = params.count;
    var from_cands = 0u;
${
  fromCands
    ? `    // The previous level's candidates when they all fit the scratch; else every key again.
    let c = atomicLoad(&state[${STATE_CANDIDATES[L - 2]}u]);
    if (c <= params.cap) {
      total = c;
      from_cands = 1u;
    }`
    : ''
}
    wg_total = total;
    wg_from_cands = from_cands;
  }
  let total = workgroupUniformLoad(&wg_total);
  let from_cands = workgroupUniformLoad(&wg_from_cands);
  let prefix = atomicLoad(&state[${STATE_PREFIX}u]);
  let goal = prefix >> ${shift}u;
  let k_left = atomicLoad(&state[${STATE_K_LEFT}u]);
  for (var c = w; c * ${WG * E}u < total; c += params.tiles) {
    let base = c * ${WG * E}u + lid;
    var kv: array<u32, ${E}>;
    var iv: array<u32, ${E}>;
    var cls: array<u32, ${E}>;
    ${perKey(
      spec,
      `      let i = base + j * ${WG}u;
      var idx = i;
${fromCands ? '      if (from_cands != 0u && i < total) { idx = cand_in[i]; }\n' : ''}      iv[j] = idx;
      if (i < total) { kv[j] = keys[idx]; }`,
    )}
    var ns = 0u;
    var ne = 0u;
    ${perKey(
      spec,
      `      cls[j] = 0u;
      if (base + j * ${WG}u < total) {
        let o = order_bits(kv[j]);
        ${fromCands ? `let keep = from_cands != 0u || (o >> ${prev}u) == (prefix >> ${prev}u);` : 'let keep = true;'}
        let hi = o >> ${shift}u;
        if (keep && hi < goal) {
          cls[j] = 1u;
          ns += 1u;
        } else if (keep && hi == goal) {
          cls[j] = 2u;
          ne += 1u;
          ${last ? '' : countDigit(spec, L as 1 | 2, `(o >> ${nextShift}u) & ${nextBins - 1}u`)}
        }
      }`,
    )}
    // One global reservation per workgroup and chunk (not one atomic per key: all keys equal would
    // put every key on one address).
    var ps = 0u;
    var pe = 0u;
    if (ns > 0u) { ps = atomicAdd(&wg_strict, ns); }
    if (ne > 0u) { pe = atomicAdd(&wg_equal, ne); }
    workgroupBarrier();
    if (lid == 0u) {
      let s = atomicExchange(&wg_strict, 0u);
      let e = atomicExchange(&wg_equal, 0u);
      var b = vec2<u32>(0u, 0u);
      if (s > 0u) { b.x = atomicAdd(&state[${STATE_OUT}u], s); }
      if (e > 0u) { b.y = atomicAdd(&state[${counter}u], e); }
      wg_base = b;
    }
    workgroupBarrier();
    let bases = wg_base;
    ps += bases.x;
    pe += bases.y;
    ${perKey(
      spec,
      `      if (cls[j] == 1u) {
        out_keys[ps] = kv[j];
        out_idx[ps] = iv[j];
        ps += 1u;
      } else if (cls[j] == 2u) {
        ${onEqual}
        pe += 1u;
      }`,
    )}
  }
${last ? '' : flush(spec, L as 1 | 2)}
}
`;
}

/** Invocations of the select kernel (one workgroup). */
const SELECT_WG = 256;

/**
 * The select after a histogram of `level`: ONE workgroup scans the level's buckets, finds the one
 * holding the k-th best key (k itself at level 0, then the k still missing), and writes the digit
 * into the prefix and the k left into `state`. A Kogge–Stone scan of per-invocation sums in
 * workgroup memory: 256 values, not worth more.
 *
 * @example
 * ```ts
 * b.dispatch(topKSelectKernel({ level: 0 }), { state }, 1, params);
 * ```
 */
export const topKSelectKernel = defineKernel({
  name: 'sort/top-k/select',
  bindings: { state: readWrite('array<atomic<u32>>') },
  params: TOPK_PARAMS,
  wgsl: ({ level }: { readonly level: 0 | 1 | 2 }) => {
    const per = TOPK_BINS[level] / SELECT_WG;
    const hist = STATE_HIST[level];
    return `var<workgroup> sums: array<u32, ${SELECT_WG}>;

@compute @workgroup_size(${SELECT_WG})
fn main(@builtin(local_invocation_index) lid: u32) {
  // Read before any invocation writes it (after the scan's barriers).
  let k_left = ${level === 0 ? 'params.k' : `atomicLoad(&state[${STATE_K_LEFT}u])`};
  let first = ${hist}u + lid * ${per}u;
  var own = 0u;
  for (var j = 0u; j < ${per}u; j++) { own += atomicLoad(&state[first + j]); }
  var inc = own;
  for (var step = 1u; step < ${SELECT_WG}u; step = step << 1u) {
    sums[lid] = inc;
    workgroupBarrier();
    if (lid >= step) { inc += sums[lid - step]; }
    workgroupBarrier();
  }
  var before = inc - own;
  if (before < k_left && k_left <= inc) {
    for (var j = 0u; j < ${per}u; j++) {
      let c = atomicLoad(&state[first + j]);
      if (before + c >= k_left) {
        let prefix = atomicLoad(&state[${STATE_PREFIX}u]) | ((lid * ${per}u + j) << ${TOPK_SHIFTS[level]}u);
        atomicStore(&state[${STATE_PREFIX}u], prefix);
        atomicStore(&state[${STATE_K_LEFT}u], k_left - before);
        break;
      }
      before += c;
    }
  }
}
`;
  },
});

/**
 * `out[i] = values[indices[i]]` for the first `count` elements: the values of the chosen keys,
 * gathered after the k keys are sorted (values are raw 32-bit words, any type).
 *
 * @example
 * ```ts
 * b.dispatch(topKGatherKernel({}), { values, indices, out }, Math.ceil(k / ELEMENTWISE_WORKGROUP), { count: k, dispatch_x });
 * ```
 */
export const topKGatherKernel = defineKernel({
  name: 'sort/top-k/gather',
  bindings: { values: read('array<u32>'), indices: read('array<u32>'), out: readWrite('array<u32>') },
  params: ELEMENTWISE_PARAMS,
  wgsl: () => elementwiseWgsl('', 'out[i] = values[indices[i]];'),
});
