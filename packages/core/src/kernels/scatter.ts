import { defineKernel, read, readWrite } from './define-kernel.js';

/** What the scatter kernel is specialized on. */
export type ScatterSpec = {
  readonly mode: 'split' | 'pack';
  readonly workgroupSize: number;
};

/**
 * The scatter after the enumerate of split and pack. Elements are moved as raw 32-bit words, so one
 * kernel serves every element type.
 *
 * - `split` (the paper's one-enumerate split): `addr` is the exclusive scan of the negated flags, so
 *   a false element goes to `addr[i]`, and a true one to `falses + i − addr[i]`, where
 *   `falses = addr[n−1] + !flag[n−1]` — the trues' addresses are derived, not scanned again.
 * - `pack`: `addr` is the exclusive scan of the flags; a true element goes to `addr[i]`.
 * Invocation 0 also writes the number of falses (split) or of kept elements (pack) to `count_out`.
 * Bindings: `data`, `flags`, `addr`, `moved` (the output), `count_out`; parameters `count`, `dispatch_x`.
 *
 * @example
 * ```ts
 * b.dispatch(scatterKernel({ mode: 'pack', workgroupSize: 256 }), { data, flags, addr, moved, count_out }, groups, { count, dispatch_x: x });
 * ```
 */
export const scatterKernel = defineKernel({
  name: 'core/scatter',
  bindings: {
    data: read('array<u32>'),
    flags: read('array<u32>'),
    addr: read('array<u32>'),
    moved: readWrite('array<u32>'),
    count_out: readWrite('array<u32>'),
  },
  params: { count: 'u32', dispatch_x: 'u32' },
  wgsl: ({ mode, workgroupSize }: ScatterSpec) => `
@compute @workgroup_size(${workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let i = (wid.x + wid.y * params.dispatch_x) * ${workgroupSize}u + lid;
  let n = params.count;
  if (i >= n) { return; }
  let last = n - 1u;
${
  mode === 'split'
    ? `  let falses = addr[last] + (1u - flags[last]);
  if (i == 0u) { count_out[0] = falses; }
  let a = addr[i];
  let dest = select(a, falses + i - a, flags[i] != 0u);
  moved[dest] = data[i];`
    : `  if (i == 0u) { count_out[0] = addr[last] + flags[last]; }
  if (flags[i] != 0u) { moved[addr[i]] = data[i]; }`
}
}
`,
});
