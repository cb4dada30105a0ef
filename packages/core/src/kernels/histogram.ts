import { defineKernel, read, readWrite, uniform } from './define-kernel.js';
import { unroll } from './unroll.js';

/**
 * How the kernel finds a sample's bin (see `HistogramBinning`): `'shift'` and `'exact'` for even
 * bins of u32/i32 samples (a shift when the bin width is a power of two, else an exact 64-bit
 * product and quotient), `'float'` for even bins of f32 samples, `'edges'` for a binary search.
 */
export type HistogramBinningKind = 'shift' | 'exact' | 'float' | 'edges';

/** What a histogram kernel is specialized on. */
export type HistogramSpec = {
  /**
   * How samples become keys: `'int'` for u32 and i32 (the word xor `params.upper`, which flips the
   * sign bit of i32; one kernel serves both), `'f32'` for floats.
   */
  readonly keys: 'int' | 'f32';
  readonly binning: HistogramBinningKind;
  /**
   * Bins of the workgroup-private sub-histogram (a window of bins `[base, base + privateBins)`
   * per dispatch), or 0 for the global path: every sample an atomic add into the histogram.
   */
  readonly privateBins: number;
  /** Copies of the private sub-histogram (invocation i adds into copy i mod copies), a power of two. */
  readonly copies: number;
  /** Edges held in workgroup memory (capacity in words), or 0 to search them in global memory. */
  readonly edgeWords: number;
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  /** vec4s each invocation loads per round of the grid-stride loop. */
  readonly unroll: number;
  /**
   * The count is min(`count_src[gpu_count.word]`, `params.count`): a count the GPU wrote, with
   * `params.count` the plan's maxCount (the dispatch is sized for it).
   */
  readonly gpuCount: boolean;
};

/**
 * The parameters: `lower` is bits (a key, or f32), `upper` the f32 upper bound's bits (`'float'`)
 * or the key flip of integer samples, `scale` the f32 bins / width.
 */
export const HISTOGRAM_PARAMS = {
  count: 'u32',
  bins: 'u32',
  base: 'u32',
  lower: 'u32',
  upper: 'u32',
  scale: 'f32',
  width_m1: 'u32',
  shift: 'u32',
} as const;

/** The uniform block that says which word of `count_src` holds a GPU-written count. */
export const GPU_COUNT_FIELDS = { word: 'u32' } as const;

/** The order-preserving key of a sample word (see `sampleKey`); f32 NaNs are dropped before. */
function keyWgsl(keys: 'int' | 'f32'): string {
  if (keys === 'int') return 'fn key_of(w: u32) -> u32 { return w ^ params.upper; }';
  return `fn key_of(w: u32) -> u32 {
  // -0 counts as +0; then negative floats reversed below the positive ones.
  let v = select(w, 0u, w == 0x80000000u);
  return select(v | 0x80000000u, ~v, (v & 0x80000000u) != 0u);
}`;
}

/** `bin_of(w) -> u32`: the bin of sample word w, or NONE. The CPU reference's `binOf`, bit for bit. */
function binWgsl(spec: HistogramSpec): string {
  // A compiler may assume floats are never NaN in WGSL: NaNs are found by their bits.
  const nan = spec.keys === 'f32' ? '  if ((w & 0x7fffffffu) > 0x7f800000u) { return NONE; }\n' : '';
  if (spec.binning === 'float') {
    return `fn bin_of(w: u32) -> u32 {
${nan}  let x = bitcast<f32>(w);
  let lo = bitcast<f32>(params.lower);
  if (!(x >= lo && x < bitcast<f32>(params.upper))) { return NONE; }
  // Two correctly rounded f32 operations, as the CPU's Math.fround; rounding up may reach bins, and
  // x − lo may overflow to +∞ on a range wider than f32's largest value. Clamped before the
  // conversion, which not every compiler saturates.
  let t = (x - lo) * params.scale;
  return u32(min(t, f32(params.bins - 1u)));
}`;
  }
  if (spec.binning === 'edges') {
    const edge = spec.edgeWords > 0 ? 'wg_edges' : 'edges';
    return `fn bin_of(w: u32) -> u32 {
${nan}  let k = key_of(w);
  if (k < ${edge}[0] || k >= ${edge}[params.bins]) { return NONE; }
  // The last edge ≤ k: branchless, the same steps for every sample.
  var base = 0u;
  var len = params.bins + 1u;
  while (len > 1u) {
    let half = len >> 1u;
    base = select(base, base + half, ${edge}[base + half] <= k);
    len -= half;
  }
  return base;
}`;
  }
  const range = `${nan}  let k = key_of(w);
  let d = k - params.lower;
  if (k < params.lower || d > params.width_m1) { return NONE; }`;
  if (spec.binning === 'shift') {
    return `fn bin_of(w: u32) -> u32 {
${range}
  return d >> params.shift;
}`;
  }
  // ⌊d · bins / width⌋ with width = width_m1 + 1 ≤ 2^32: an f32 guess within one of the quotient
  // (three roundings of 2^-24 on a quotient below 2^20), corrected with exact 64-bit products.
  return `fn mul_wide(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu; let a1 = a >> 16u; let b0 = b & 0xffffu; let b1 = b >> 16u;
  let p00 = a0 * b0; let p01 = a0 * b1; let p10 = a1 * b0;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  return vec2<u32>((mid << 16u) | (p00 & 0xffffu), a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u));
}
fn bin_of(w: u32) -> u32 {
${range}
  let q = min(u32(f32(d) * params.scale), params.bins);
  let p = mul_wide(d, params.bins);
  let m = mul_wide(q, params.width_m1);
  // t = q · width = q · width_m1 + q
  let tl = m.x + q;
  let th = m.y + select(0u, 1u, tl < q);
  if (th > p.y || (th == p.y && tl > p.x)) { return q - 1u; }
  let rl = p.x - tl;
  let rh = p.y - th - select(0u, 1u, p.x < tl);
  return select(q, q + 1u, rh > 0u || rl > params.width_m1);
}`;
}

/**
 * The histogram kernel: a grid-stride loop over the samples as vec4s (a fixed number of
 * workgroups, so any count fits one 1-D dispatch), each sample's bin computed without a search for
 * even bins (or by a binary search over the edges), then counted:
 *
 * - **private** (`privateBins > 0`): into `copies` sub-histograms in workgroup memory (interleaved,
 *   `bin · copies + copy`, so lanes that hit one bin in different copies hit different banks), then
 *   each workgroup adds its non-zero bins into the histogram with one atomic each. A dispatch counts
 *   the window of bins `[params.base, params.base + privateBins)`; more bins take more dispatches.
 * - **global** (`privateBins = 0`): an atomic add into the histogram per sample.
 *
 * With subgroups, a vec4 whose four samples fall in the same bin as every other lane's (constant or
 * sorted data) is counted by one atomic of the whole subgroup. Workgroup memory is zeroed by WGSL's
 * initialization. Bindings: `samples4` and `samples` (the same buffer, as vec4s and as words for the
 * last partial vec4), `edges` (keys, for `'edges'`), `histogram` (u32 atomics), and with a GPU
 * count `count_src` and `gpu_count` ({@link GPU_COUNT_FIELDS}); parameters {@link HISTOGRAM_PARAMS}.
 *
 * @example
 * ```ts
 * const k = histogramKernel({ keys: 'int', binning: 'shift', privateBins: 256, copies: 8, edgeWords: 0, subgroups: true, workgroupSize: 256, unroll: 2, gpuCount: false });
 * b.dispatch(k, { samples4, samples, histogram: counts }, workgroups, params);
 * ```
 */
export const histogramKernel = defineKernel({
  name: 'core/histogram',
  bindings: (spec: HistogramSpec) => ({
    samples4: read('array<vec4<u32>>'),
    samples: read('array<u32>'),
    edges: spec.binning === 'edges' ? read('array<u32>') : undefined,
    histogram: readWrite('array<atomic<u32>>'),
    count_src: spec.gpuCount ? read('array<u32>') : undefined,
    gpu_count: spec.gpuCount ? uniform('GpuCount', GPU_COUNT_FIELDS) : undefined,
  }),
  params: HISTOGRAM_PARAMS,
  enable: (spec) => (spec.subgroups ? ['subgroups'] : []),
  wgsl: (spec) => {
    const { workgroupSize: WG, privateBins: C, copies: R, unroll: U } = spec;
    const priv = C > 0;
    const decls = [
      priv ? `var<workgroup> wg_hist: array<atomic<u32>, ${C * R}>;` : '',
      spec.edgeWords > 0 ? `var<workgroup> wg_edges: array<u32, ${spec.edgeWords}>;` : '',
    ].join('\n');
    const add = priv
      ? `fn add_count(bin: u32, copy: u32, n: u32) {
  let j = bin - params.base;
  if (j < ${C}u) { atomicAdd(&wg_hist[j * ${R}u + copy], n); }
}`
      : `fn add_count(bin: u32, copy: u32, n: u32) {
  if (bin != NONE) { atomicAdd(&histogram[bin], n); }
}`;
    const loadEdges =
      spec.edgeWords > 0
        ? `  for (var i = lid; i <= params.bins; i += ${WG}u) { wg_edges[i] = edges[i]; }
  workgroupBarrier();`
        : '';
    // With subgroups: one atomic for a vec4 whose samples and all the subgroup's share one bin.
    const count = (u: number) =>
      spec.subgroups
        ? `    {
      let f = subgroupBroadcastFirst(b${u}.x);
      if (subgroupAll(all(b${u} == vec4<u32>(f)))) {
        let n = subgroupAdd(4u);
        if (subgroupElect()) { add_count(f, copy, n); }
      } else {
        add_each(b${u}, copy);
      }
    }`
        : `    add_each(b${u}, copy);`;
    const flush = priv
      ? `  workgroupBarrier();
  // The window's non-zero bins into the histogram, one atomic each.
  for (var j = lid; j < ${C}u; j += ${WG}u) {
    let bin = params.base + j;
    if (bin < params.bins) {
      var sum = 0u;
      for (var c = 0u; c < ${R}u; c++) { sum += atomicLoad(&wg_hist[j * ${R}u + c]); }
      if (sum != 0u) { atomicAdd(&histogram[bin], sum); }
    }
  }`
      : '';
    return `const NONE = 0xffffffffu;
${decls}
${keyWgsl(spec.keys)}
${binWgsl(spec)}
${add}

// The bins of the four samples of vec4 slot s, NONE past the end.
fn bins4(s: u32, full: u32, count: u32) -> vec4<u32> {
  var w: vec4<u32>;
  var valid = 4u;
  if (s < full) {
    w = samples4[s];
  } else {
    // The last partial vec4 (or nothing), read word by word.
    valid = select(0u, count - 4u * s, 4u * s < count);
    let last = count - 1u;
    w = vec4<u32>(samples[min(4u * s, last)], samples[min(4u * s + 1u, last)], samples[min(4u * s + 2u, last)], samples[min(4u * s + 3u, last)]);
  }
  // A loop, not four copies of bin_of: GPU compilers unroll it, and software ones compile less.
  var b: vec4<u32>;
  for (var k = 0u; k < 4u; k++) { b[k] = select(NONE, bin_of(w[k]), k < valid); }
  return b;
}

fn add_each(b: vec4<u32>, copy: u32) {
  for (var k = 0u; k < 4u; k++) { add_count(b[k], copy, 1u); }
}

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
${loadEdges}
  let copy = lid % ${R}u;
  let count = ${spec.gpuCount ? 'min(count_src[gpu_count.word], params.count)' : 'params.count'};
  let full = count >> 2u;
  let slots = (count + 3u) >> 2u;
  let stride = nwg.x * ${WG}u;
  let first = wid.x * ${WG}u + lid;
  let rounds = (slots + stride * ${U}u - 1u) / (stride * ${U}u);
  // Every invocation runs every round (past the end its bins are NONE): the subgroup operations
  // stay in uniform control flow.
  for (var r = 0u; r < rounds; r++) {
    let s = r * ${U}u * stride + first;
${unroll(U, (u) => `    let b${u} = bins4(s + ${u}u * stride, full, count);`)}
${unroll(U, count)}
  }
${flush}
}
`;
  },
});
