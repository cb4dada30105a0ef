import { defineKernel, read, readWrite } from '@scan/core/kit';
import { reduceByKeyWgsl } from './reduce-by-key.js';
import { blendWgsl, SPMV_PARAMS, WORKGROUP_INDEX_WGSL } from './wgsl-common.js';

// Merge-path SpMV (Merrill & Garland, "Merge-based parallel sparse matrix-vector multiplication",
// SC 2016). The row ends (row_ptr[1…rows]) and the nonzero indices 0…nnz−1 are two sorted lists;
// merging them gives a path of rows + nnz items — "consume nonzero j" while j < row_end[i], else
// "end row i". Every workgroup takes an equal share of that path (a tile of `tile` items), every
// invocation `itemsPerThread` of it, so no row length can unbalance the work.

/** How a merge-path kernel is specialized. */
export type MergeShape = {
  readonly workgroupSize: number;
  readonly itemsPerThread: number;
  /** Right-hand sides per dispatch (1…8). */
  readonly columns: number;
};

/** Items of the merge path per workgroup. */
export const mergeTile = (shape: MergeShape): number => shape.workgroupSize * shape.itemsPerThread;

/**
 * Workgroup memory (bytes) of the merge-path kernel: row ends, the staged nonzeros (products for
 * one column; value and column index for several) and the reduce-by-key arrays.
 *
 * @example
 * ```ts
 * mergeWorkgroupBytes({ workgroupSize: 256, itemsPerThread: 8, columns: 1 }); // 21508
 * ```
 */
export function mergeWorkgroupBytes(shape: MergeShape): number {
  const tile = mergeTile(shape);
  const staged = shape.columns === 1 ? tile : 2 * tile;
  return 4 * (tile + 1) + 4 * staged + 4 * shape.workgroupSize * (1 + shape.columns);
}

/** `merge_search(diagonal, a_len, b_len)`: CUB's merge-path search over `row_end_at` / counting `b_base + j`. */
const MERGE_SEARCH_WGSL = `
fn merge_search(diagonal: u32, a_len: u32, b_len: u32, b_base: u32) -> vec2<u32> {
  var lo = select(0u, diagonal - b_len, diagonal > b_len);
  var hi = min(diagonal, a_len);
  while (lo < hi) {
    let pivot = (lo + hi) >> 1u;
    if (row_end_at(pivot) <= b_base + diagonal - pivot - 1u) { lo = pivot + 1u; } else { hi = pivot; }
  }
  return vec2<u32>(lo, diagonal - lo);
}
`;

/**
 * The plan's partition (once per matrix): the merge-path coordinates (row, nonzero) where every
 * tile starts, `tiles + 1` pairs, found by binary search on the diagonal `t·tile`.
 *
 * Parameters: n0 rows, n1 nnz, n2 tiles, n3 tile. Bindings: row_ptr, coords (vec2 per tile).
 *
 * @example
 * ```ts
 * b.dispatch(mergePartitionKernel({}), { row_ptr: rowPtr, coords }, groups, spmvParamValues({ n0: rows, n1: nnz, n2: tiles, n3: tile, dispatch_x }));
 * ```
 */
export const mergePartitionKernel = defineKernel({
  name: 'spmv/merge-partition',
  bindings: { row_ptr: read('array<u32>'), coords: readWrite('array<vec2<u32>>') },
  params: { ...SPMV_PARAMS },
  wgsl: (_: Record<string, never>) => `
fn row_end_at(i: u32) -> u32 { return row_ptr[i + 1u]; }
${MERGE_SEARCH_WGSL}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let t = wg_index * 64u + lid;
  if (t > params.n2) { return; }
  let diagonal = min(t * params.n3, params.n0 + params.n1);
  coords[t] = merge_search(diagonal, params.n0, params.n1, 0u);
}
`,
});

/**
 * The merge-path SpMV, one tile per workgroup, in the paper's phases:
 *
 * 1. **stage** — the tile's row ends and its nonzeros go to workgroup memory (coalesced; with one
 *    right-hand side the products values·x are formed here, so the gathers of x run in parallel);
 * 2. **search** — each invocation finds where its `itemsPerThread` items start on the tile's path;
 * 3. **consume** — it walks them: a nonzero adds to the running sum, a row end emits the row.
 *    Rows after the first one it ends lie wholly in its items and are written at once;
 * 4. **reduce-by-key** — the sums still open at each invocation's end are scanned by row across
 *    the workgroup, which completes the first row each invocation ends (written now);
 * 5. **carry-out** — what is open at the tile's end (row, sums) goes to `carries` for the fix-up.
 *
 * Parameters: n0 rows, n1 k = stride of x and y, n2 c0 = first column, n3 tiles; alpha, beta.
 * Bindings: row_ptr, col_idx, values, x, y, coords, carry_rows, carry_sums (tiles·columns).
 * `readY`: beta ≠ 0, y is read.
 *
 * @example
 * ```ts
 * const kernel = mergeSpmvKernel({ workgroupSize: 256, itemsPerThread: 8, columns: 1, readY: false });
 * const bindings = { row_ptr: rowPtr, col_idx: colIdx, values, x, y, coords, carry_rows: carryRows, carry_sums: carrySums };
 * b.dispatch(kernel, bindings, tiles, spmvParamValues({ n0: rows, n1: k, n2: c0, n3: tiles, alpha, beta, dispatch_x }));
 * ```
 */
export const mergeSpmvKernel = defineKernel({
  name: 'spmv/merge',
  bindings: {
    row_ptr: read('array<u32>'),
    col_idx: read('array<u32>'),
    values: read('array<f32>'),
    x: read('array<f32>'),
    y: readWrite('array<f32>'),
    coords: read('array<vec2<u32>>'),
    carry_rows: readWrite('array<u32>'),
    carry_sums: readWrite('array<f32>'),
  },
  params: { ...SPMV_PARAMS },
  wgsl: mergeSpmvWgsl,
});

function mergeSpmvWgsl(spec: MergeShape & { readonly readY: boolean }): string {
  const { workgroupSize: wg, itemsPerThread: ipt, columns: c, readY } = spec;
  const tile = mergeTile(spec);
  const each = (body: (t: number) => string) => [...Array(c).keys()].map(body).join('\n');
  const single = c === 1;
  const stage = single
    ? `    staged[i] = values[n_begin + i] * x[col_idx[n_begin + i] * k + c0];`
    : `    staged[2u * i] = bitcast<u32>(values[n_begin + i]);
    staged[2u * i + 1u] = col_idx[n_begin + i] * k + c0;`;
  const consume = single
    ? `        sum[0] += staged[local_nz];`
    : `        let a = bitcast<f32>(staged[2u * local_nz]);
        let xb = staged[2u * local_nz + 1u];
${each((t) => `        sum[${t}] += a * x[xb + ${t}u];`)}`;
  const write = (row: string, value: (t: number) => string) =>
    each((t) => `y[${row} * k + c0 + ${t}u] = ${blendWgsl(value(t), `y[${row} * k + c0 + ${t}u]`, readY)};`);
  return `
var<workgroup> row_ends: array<u32, ${tile + 1}>;
var<workgroup> staged: array<${single ? 'f32' : 'u32'}, ${single ? tile : 2 * tile}>;
${reduceByKeyWgsl(wg, c)}

fn row_end_at(i: u32) -> u32 { return row_ends[i]; }
${MERGE_SEARCH_WGSL}

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  // Rounding a 2-D dispatch up adds workgroups past the last tile; the whole workgroup leaves.
  if (wg_index >= params.n3) { return; }
  let t = wg_index;
  let rows = params.n0;
  let k = params.n1;
  let c0 = params.n2;
  let begin = coords[t];
  let end = coords[t + 1u];
  let r_begin = begin.x;
  let n_begin = begin.y;
  let tile_rows = end.x - begin.x;
  let tile_nnz = end.y - begin.y;

  // 1. stage: the row ends of rows r_begin … end.x (one past the tile's last ended row, so the
  // walk knows where the open row stops) and the tile's nonzeros.
  for (var i = lid; i <= tile_rows; i += ${wg}u) {
    let r = r_begin + i;
    row_ends[i] = select(0xffffffffu, row_ptr[r + 1u], r < rows);
  }
  for (var i = lid; i < tile_nnz; i += ${wg}u) {
${stage}
  }
  workgroupBarrier();

  // 2. search: this invocation's start on the tile's path.
  let items = tile_rows + tile_nnz;
  let start = merge_search(min(lid * ${ipt}u, items), tile_rows, tile_nnz, n_begin);
  var local_row = start.x;
  var local_nz = start.y;

  // 3. consume.
  var sum = array<f32, ${c}>();
  var first_row = 0xffffffffu;
  var first_sum = array<f32, ${c}>();
  for (var item = 0u; item < ${ipt}u; item++) {
    if (local_row + local_nz < items) {
      if (n_begin + local_nz < row_ends[local_row]) {
${consume}
        local_nz++;
      } else {
        let row = r_begin + local_row;
        if (first_row == 0xffffffffu) {
          first_row = row;
          first_sum = sum;
        } else {
${write('row', (t) => `sum[${t}]`)
  .split('\n')
  .map((l) => `          ${l}`)
  .join('\n')}
        }
        sum = array<f32, ${c}>();
        local_row++;
      }
    }
  }

  // 4. reduce-by-key: the sums open at each invocation's end, by row.
  let open_row = r_begin + local_row;
  reduce_by_key(lid, open_row, sum);
  if (first_row != 0xffffffffu) {
    // What the invocations before this one left open belongs to the first row this one ends.
    var prefix = array<f32, ${c}>();
    if (lid > 0u && rbk_key[lid - 1u] == first_row) {
${each((t) => `      prefix[${t}] = rbk_sum[(lid - 1u) * ${c}u + ${t}u];`)}
    }
${write('first_row', (t) => `(first_sum[${t}] + prefix[${t}])`)
  .split('\n')
  .map((l) => `    ${l}`)
  .join('\n')}
  }

  // 5. carry-out: the row open at the tile's end and its partial sums.
  if (lid == ${wg - 1}u) {
    carry_rows[t] = open_row;
${each((t) => `    carry_sums[t * ${c}u + ${t}u] = rbk_sum[lid * ${c}u + ${t}u];`)}
  }
}
`;
}

/**
 * The fix-up after the merge-path kernel: adds each tile's carry-out to its row. Consecutive tiles
 * inside one long row carry into the same row, so the carries are reduced by key first — one
 * workgroup walks them in rounds of `workgroupSize·itemsPerThread`, each invocation reducing its
 * items serially, then a reduce-by-key across the workgroup; the sum of a run of equal rows is
 * added (times alpha) to y where the run ends, and a run still open at a round's end goes on into
 * the next round. No float atomics needed (WebGPU has none).
 *
 * Parameters: n0 rows, n1 k, n2 c0, n3 tiles; alpha (the merge-path kernel's block serves).
 * Bindings: carry_rows, carry_sums, y.
 *
 * @example
 * ```ts
 * const kernel = mergeFixupKernel({ workgroupSize: 256, itemsPerThread: 16, columns: 1 });
 * b.dispatch(kernel, { carry_rows: carryRows, carry_sums: carrySums, y }, 1, b.paramsFor(kernel, values));
 * ```
 */
export const mergeFixupKernel = defineKernel({
  name: 'spmv/merge-fixup',
  bindings: { carry_rows: read('array<u32>'), carry_sums: read('array<f32>'), y: readWrite('array<f32>') },
  params: { ...SPMV_PARAMS },
  wgsl: mergeFixupWgsl,
});

function mergeFixupWgsl(shape: MergeShape): string {
  const { workgroupSize: wg, itemsPerThread: ipt, columns: c } = shape;
  const each = (body: (t: number) => string) => [...Array(c).keys()].map(body).join('\n');
  const addTo = (row: string, value: (t: number) => string, indent: string) =>
    each((t) => `${indent}y[${row} * k + c0 + ${t}u] += params.alpha * ${value(t)};`);
  return `${reduceByKeyWgsl(wg, c)}
var<workgroup> round_row: u32;
var<workgroup> round_sum: array<f32, ${c}>;

fn key_at(i: u32, n: u32) -> u32 { return select(0xffffffffu, carry_rows[i], i < n); }

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32) {
  let rows = params.n0;
  let k = params.n1;
  let c0 = params.n2;
  let n = params.n3;
  if (lid == 0u) { round_row = 0xffffffffu; }
  for (var base = 0u; base < n; base += ${wg * ipt}u) {
    workgroupBarrier();
    // What the previous round left open (a run that went on past its end).
    let in_row = round_row;
    var in_sum = array<f32, ${c}>();
${each((t) => `    in_sum[${t}] = round_sum[${t}];`)}
    let first = base + lid * ${ipt}u;
    var key = key_at(first, n);
    var sum = array<f32, ${c}>();
    var first_key = 0xffffffffu;
    var first_sum = array<f32, ${c}>();
    for (var i = 0u; i < ${ipt}u; i++) {
      let e = first + i;
      if (e < n) {
${each((t) => `        sum[${t}] += carry_sums[e * ${c}u + ${t}u];`)}
        let next = key_at(e + 1u, n);
        let round_end = e + 1u == base + ${wg * ipt}u;
        if (next != key && !round_end) {
          // A run of key ends at e.
          if (first_key == 0xffffffffu) {
            first_key = key;
            first_sum = sum;
          } else if (key < rows) {
${addTo('key', (t) => `sum[${t}]`, '            ')}
          }
          sum = array<f32, ${c}>();
          key = next;
        }
      }
    }
    reduce_by_key(lid, key, sum);
    if (first_key != 0xffffffffu) {
      var prefix = array<f32, ${c}>();
      if (lid > 0u && rbk_key[lid - 1u] == first_key) {
${each((t) => `        prefix[${t}] = rbk_sum[(lid - 1u) * ${c}u + ${t}u];`)}
      }
      // Keys never decrease, so a first run with the key left open by the previous round began there.
      if (first_key == in_row) {
${each((t) => `        prefix[${t}] += in_sum[${t}];`)}
      }
      if (first_key < rows) {
${addTo('first_key', (t) => `(first_sum[${t}] + prefix[${t}])`, '        ')}
      }
    }
    workgroupBarrier();
    if (lid == ${wg - 1}u) {
      // The run open at the round's end: continued by the next round, or finished here.
      var total = array<f32, ${c}>();
${each((t) => `      total[${t}] = rbk_sum[lid * ${c}u + ${t}u];`)}
      if (key == in_row && rbk_key[0] == in_row) {
${each((t) => `        total[${t}] += in_sum[${t}];`)}
      }
      if (base + ${wg * ipt}u < n && key_at(base + ${wg * ipt}u, n) == key) {
        round_row = key;
${each((t) => `        round_sum[${t}] = total[${t}];`)}
      } else {
        round_row = 0xffffffffu;
        if (key < rows) {
${addTo('key', (t) => `total[${t}]`, '          ')}
        }
      }
    }
  }
}
`;
}
