/**
 * WGSL of a workgroup-wide inclusive scan **by key** (reduce-by-key), shared by the merge-path
 * kernel and its carry fix-up. Each invocation brings `key` (non-decreasing over the invocations,
 * as row numbers along a merge path are) and `columns` sums in `carry`; afterwards `rbk_sum[lid·C +
 * t]` holds the sum of column t over the invocations ≤ lid that have lid's key, and `rbk_key[lid]`
 * lid's key. Because keys never decrease, the invocations sharing a key are contiguous, so the
 * combine "(k₁, v₁) ⊕ (k₂, v₂) = (k₂, v₂ + (k₁ = k₂ ? v₁ : 0))" is associative and a
 * Hillis–Steele scan of log2(workgroup) steps computes it.
 *
 * Declares `rbk_key` and `rbk_sum` in workgroup memory and the function `reduce_by_key(lid, key,
 * carry)`; it must be called by every invocation (it has barriers).
 *
 * @example
 * ```ts
 * const wgsl = `${reduceByKeyWgsl(256, 1)} ... reduce_by_key(lid, row, sums);`;
 * ```
 */
export function reduceByKeyWgsl(workgroupSize: number, columns: number): string {
  const c = columns;
  const each = (body: (t: number) => string) => [...Array(c).keys()].map(body).join('\n');
  return `
var<workgroup> rbk_key: array<u32, ${workgroupSize}>;
var<workgroup> rbk_sum: array<f32, ${workgroupSize * c}>;

fn reduce_by_key(lid: u32, key: u32, carry: array<f32, ${c}>) {
  var v = carry;
  rbk_key[lid] = key;
${each((t) => `  rbk_sum[lid * ${c}u + ${t}u] = v[${t}];`)}
  workgroupBarrier();
  for (var off = 1u; off < ${workgroupSize}u; off <<= 1u) {
    var add = array<f32, ${c}>();
    if (lid >= off && rbk_key[lid - off] == key) {
${each((t) => `      add[${t}] = rbk_sum[(lid - off) * ${c}u + ${t}u];`)}
    }
    workgroupBarrier();
${each((t) => `    v[${t}] += add[${t}];\n    rbk_sum[lid * ${c}u + ${t}u] = v[${t}];`)}
    workgroupBarrier();
  }
}
`;
}
