/** Picks the rows of one library (or of ours) that stand for a summary line. */
export interface CaseMatcher {
  /** The bench primitive (`scan`, `sort-pairs`, …). */
  readonly primitive: string;
  /** Our rows: the exact series (`scan decoupled-fallback u32 add excl fwd`). */
  readonly series?: string;
  /** A baseline's rows: the library call (`case.baseline`), e.g. `cupy.sort`. */
  readonly baseline?: string;
  /** Further fields the case must have (`segmentMean: 16`). */
  readonly fields?: Readonly<Record<string, string | number | boolean>>;
}

/** One line of the summary: our case and the cases of the other libraries it is set against. */
export interface SummaryRow {
  /** What a reader sees (`scan u32 add, exclusive`). */
  readonly label: string;
  /**
   * `sizes` (default): one column per size of the summary. `suite`: every case of ours (the SpMV
   * suite's matrices, the solver's one size) set against the other library's case of the same size
   * and matrix, summed up as a geometric mean.
   */
  readonly kind?: 'sizes' | 'suite';
  readonly ours: CaseMatcher;
  /**
   * The CUDA libraries' calls for the same work; the fastest present is the comparison (CUB through
   * `cupy.sort` beats `torch.sort` for keys, for example).
   */
  readonly cuda: readonly CaseMatcher[];
  /** WebGPU libraries: every row of a `webgpu` baseline report with this primitive (and fields) competes. */
  readonly webgpu: readonly CaseMatcher[];
  /** What differs between the compared cases, said once under the table. */
  readonly note?: string;
}

/**
 * The primitives of the summary at the top of BENCHMARKS.md, in reading order. Ours is the default
 * a user gets for 32-bit data; the CUDA side is what `baselines/cuda.py` times, the WebGPU side what
 * `baselines/luma` times.
 */
export const SUMMARY_ROWS: readonly SummaryRow[] = [
  {
    label: 'scan u32 add, exclusive',
    ours: { primitive: 'scan', series: 'scan decoupled-fallback u32 add excl fwd' },
    cuda: [{ primitive: 'scan', baseline: 'torch.cumsum' }],
    webgpu: [{ primitive: 'scan' }],
    note: 'torch.cumsum (CUB) is inclusive; luma.gl GPUScan is exclusive.',
  },
  {
    label: 'reduce u32 add',
    ours: { primitive: 'reduce', series: 'reduce u32 add' },
    cuda: [{ primitive: 'reduce', baseline: 'torch.sum' }],
    webgpu: [{ primitive: 'reduce' }],
    note: 'torch.sum runs on f32 (the same bytes).',
  },
  {
    label: 'pack u32, u32 flags, density 0.5',
    ours: { primitive: 'pack', series: 'pack single-pass u32 u32 flags' },
    cuda: [{ primitive: 'pack', baseline: 'torch.masked_select' }],
    webgpu: [{ primitive: 'pack' }],
    note: 'torch.masked_select reads bool (1-byte) flags.',
  },
  {
    label: 'sort u32 keys',
    ours: { primitive: 'sort', series: 'sort radix u32' },
    // By key type: cuda.py also sorts u64/i64 and u16/i16 keys (--sort-keys), gridwise u64 keys.
    cuda: [
      { primitive: 'sort', baseline: 'cupy.sort', fields: { type: 'u32' } },
      { primitive: 'sort', baseline: 'torch.sort', fields: { type: 'i32' } },
    ],
    webgpu: [{ primitive: 'sort', fields: { type: 'u32' } }],
    note: 'cupy.sort is CUB’s radix sort; luma.gl 9.4 has no key-only sort; gridwise OneSweepSort keys only.',
  },
  {
    label: 'sort u64 keys',
    ours: { primitive: 'sort', fields: { algorithm: 'radix', type: 'u64' } },
    cuda: [
      { primitive: 'sort', baseline: 'cupy.sort', fields: { type: 'u64' } },
      { primitive: 'sort', baseline: 'torch.sort', fields: { type: 'i64' } },
    ],
    webgpu: [{ primitive: 'sort', fields: { type: 'u64' } }],
    note: 'cupy.sort on uint64 is CUB’s radix sort (torch.sort on int64 beside it); gridwise OneSweepSort on u64 keys, keys only.',
  },
  {
    label: 'sort u16 keys',
    ours: { primitive: 'sort', fields: { algorithm: 'radix', type: 'u16' } },
    cuda: [
      { primitive: 'sort', baseline: 'cupy.sort', fields: { type: 'u16' } },
      { primitive: 'sort', baseline: 'torch.sort', fields: { type: 'i16' } },
    ],
    webgpu: [{ primitive: 'sort', fields: { type: 'u16' } }],
    note: 'cupy.sort on uint16 (CUB, two 8-bit passes); torch.sort on int16.',
  },
  {
    label: 'sort u32 keys + u32 values',
    ours: { primitive: 'sort-pairs', series: 'sort-pairs radix u32 u32 values' },
    cuda: [{ primitive: 'sort-pairs', baseline: 'torch.sort(stable)' }],
    webgpu: [{ primitive: 'sort-pairs' }],
    note: 'torch.sort(stable) sorts i32 keys and returns i64 indices.',
  },
  {
    label: 'sort u32 keys + 16-byte values',
    ours: { primitive: 'sort-pairs', fields: { algorithm: 'radix', type: 'u32', valueWidth: 16 } },
    cuda: [{ primitive: 'sort-pairs', baseline: 'torch.sort(stable)+index_select', fields: { valueWidth: 16 } }],
    webgpu: [{ primitive: 'sort-pairs', fields: { valueWidth: 16 } }],
    note: 'torch.sort(stable) of i32 keys, then index_select of the (n, 4) i32 values by its indices, timed together.',
  },
  {
    label: 'segmented reduce u32 add, mean segment 16',
    ours: { primitive: 'segmented-reduce', series: 'segmented-reduce u32 add mean 16' },
    cuda: [{ primitive: 'segmented-reduce', baseline: 'torch.segment_reduce', fields: { segmentMean: 16 } }],
    webgpu: [{ primitive: 'segmented-reduce', fields: { segmentMean: 16 } }],
    note: 'torch.segment_reduce runs on f32.',
  },
  {
    label: 'SpMV A·x (f32, `auto`)',
    kind: 'suite',
    ours: { primitive: 'spmv', fields: { algorithm: 'auto' } },
    cuda: [{ primitive: 'spmv', baseline: 'cusparse' }],
    webgpu: [{ primitive: 'spmv' }],
  },
  {
    label: 'SpMV Aᵀ·x (f32, `auto`)',
    kind: 'suite',
    ours: { primitive: 'spmv-t', fields: { algorithm: 'auto' } },
    cuda: [{ primitive: 'spmv-t', baseline: 'cusparse' }],
    webgpu: [{ primitive: 'spmv-t' }],
  },
  {
    label: 'HiSparse A·x (node size 64)',
    kind: 'suite',
    ours: { primitive: 'hisparse-spmv', fields: { nodeSize: 64 } },
    cuda: [{ primitive: 'spmv', baseline: 'cusparse' }],
    webgpu: [],
    note: 'against cuSPARSE’s CSR product of the same matrix.',
  },
  {
    label: 'HiSparse A + 2A (node size 64)',
    kind: 'suite',
    ours: { primitive: 'hisparse-add', fields: { nodeSize: 64, add: 'a+2a' } },
    cuda: [{ primitive: 'sparse-add', baseline: 'cusparse.csrgeam', fields: { add: 'a+2a' } }],
    webgpu: [],
    note: 'against cuSPARSE’s csrgeam on CSR.',
  },
  {
    label: 'HiSparse A + B, B = A perturbed (σ = 10; node size 64)',
    kind: 'suite',
    ours: { primitive: 'hisparse-add', fields: { nodeSize: 64, add: 'a+b' } },
    cuda: [{ primitive: 'sparse-add', baseline: 'cusparse.csrgeam', fields: { add: 'a+b' } }],
    webgpu: [],
    note: 'HiSparse’s own workload, against cuSPARSE’s csrgeam of the same CSR pair.',
  },
  {
    label: 'HiSparse Aᵀ + Bᵀ (node size 64)',
    kind: 'suite',
    ours: { primitive: 'hisparse-add', fields: { nodeSize: 64, add: 'at+bt' } },
    cuda: [
      { primitive: 'sparse-add', baseline: 'cusparse.csrgeam', fields: { add: 'at+bt', transposition: 'timed' } },
      { primitive: 'sparse-add', baseline: 'cusparse.csrgeam', fields: { add: 'at+bt', transposition: 'untimed' } },
    ],
    webgpu: [],
    note: 'HiSparse transposes by a state flag; cuSPARSE with its csr2csc of A and B timed, and with the transposes made before timing.',
  },
  {
    label: 'batched tridiagonal solve (f32, partition method)',
    kind: 'suite',
    ours: { primitive: 'tridiag-partition' },
    cuda: [{ primitive: 'tridiag', baseline: 'cusparse.gtsv2StridedBatch' }],
    webgpu: [],
    note: 'cuSPARSE gtsv2StridedBatch, the faster of 1024 × 4096 and 2048 × 2048 unknowns.',
  },
  {
    label: 'split u32, u32 flags, density 0.5',
    ours: { primitive: 'split', series: 'split single-pass u32 u32 flags' },
    cuda: [],
    webgpu: [{ primitive: 'split' }],
  },
  {
    label: 'segmented scan u32 add, exclusive, mean segment 16',
    ours: { primitive: 'segmented-scan', series: 'segmented-scan single-pass u32 add excl fwd mean 16' },
    cuda: [],
    webgpu: [{ primitive: 'segmented-scan', fields: { segmentMean: 16 } }],
  },
];
