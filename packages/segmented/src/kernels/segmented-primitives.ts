import { defineKernel, type Kernel, type ParamFields, read, readWrite } from '@scan/core/kit';

// The element-wise kernels around the segmented scans of distribute and split-and-segment. The
// scans themselves are the segmented scan plan's; these only prepare their inputs and scatter their
// results. Data moves as raw 32-bit words, so one kernel serves u32, i32 and f32 and every f32 bit
// pattern (NaN payloads, -0) arrives unchanged. One invocation per element; dispatches may be 2-D
// (`dispatch_x` workgroups per row, see core's `dispatchShape`), so every kernel bounds-checks its
// linear index.

/**
 * Invocations per workgroup of every kernel here (WebGPU guarantees at least 256).
 *
 * @example
 * ```ts
 * const workgroups = Math.ceil(count / PRIMITIVE_WORKGROUP);
 * ```
 */
export const PRIMITIVE_WORKGROUP = 256;

/**
 * WGSL reading element i's head flag from bit-packed head bits bound as `head_bits`: element 0
 * always starts a segment, whatever its bit says.
 */
const HEAD_AT_WGSL = `fn head_at(i: u32) -> bool {
  return i == 0u || ((head_bits[i >> 5u] >> (i & 31u)) & 1u) != 0u;
}`;

/**
 * Keeps each segment's first element (backward: its last) and writes 0 everywhere else, the
 * paper's temporary vector for a segmented distribute: a segmented inclusive `or`-scan of it then
 * copies the kept word across the segment exactly, whatever the bits mean. Backward, an element is
 * kept when it is the array's last or the next element starts a segment.
 *
 * Bindings: `input` (the chunk's words), `kept` (the chunk's words), `head_bits` (the whole
 * array's); parameters `{ count, start, chunk_count, dispatch_x }` (`count` of the whole array,
 * `start` the chunk's first element).
 *
 * @example
 * ```ts
 * b.dispatch(keepHeadsKernel(false), { input: inputRange, kept: keptRange, head_bits: headBits }, workgroups,
 *   { count, start, chunk_count: n, dispatch_x: x });
 * ```
 */
export function keepHeadsKernel(backward: boolean): Kernel<'input' | 'kept' | 'head_bits', typeof KEEP_PARAMS> {
  return keepHeads({ backward, workgroupSize: PRIMITIVE_WORKGROUP });
}

const KEEP_PARAMS = { count: 'u32', start: 'u32', chunk_count: 'u32', dispatch_x: 'u32' } as const satisfies ParamFields;

const keepHeads = defineKernel({
  name: 'segmented/keep-heads',
  bindings: { input: read('array<u32>'), kept: readWrite('array<u32>'), head_bits: read('array<u32>') },
  params: KEEP_PARAMS,
  wgsl: (spec: { backward: boolean; workgroupSize: number }) => {
    const wg = spec.workgroupSize;
    const keep = spec.backward ? 'i + 1u == params.count || head_at(i + 1u)' : 'head_at(i)';
    return `
${HEAD_AT_WGSL}

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let local = (wid.x + wid.y * params.dispatch_x) * ${wg}u + lid;
  if (local >= params.chunk_count) { return; }
  let i = params.start + local;
  kept[local] = select(0u, input[local], ${keep});
}
`;
  },
});

/** Parameters of both split-and-segment kernels. */
const SPLIT_PARAMS = { count: 'u32', dispatch_x: 'u32' } as const satisfies ParamFields;

/**
 * First step of split-and-segment: `start_falses[i]` = (i if element i starts a segment, else 0)
 * + (1 if its flag is 0), whose segmented inclusive add-scan is f(i) = s + (falses of the segment
 * up to and including i), s being the segment's first element. It also writes the output head
 * bits' starting point — the input head bits with element 0's bit set and bits past `count`
 * cleared — which the scatter then ORs the true parts' heads into.
 *
 * Bindings: `flags` (u32, nonzero = true), `head_bits`, `start_falses` (out), `out_bits` (the
 * output head bits, ⌈count / 32⌉ words); parameters `{ count, dispatch_x }`.
 *
 * @example
 * ```ts
 * b.dispatch(splitStartsKernel(), { flags, head_bits: headBits, start_falses: v, out_bits: outBits }, workgroups, { count, dispatch_x: x });
 * ```
 */
export function splitStartsKernel(): Kernel<'flags' | 'head_bits' | 'start_falses' | 'out_bits', typeof SPLIT_PARAMS> {
  return splitStarts({ workgroupSize: PRIMITIVE_WORKGROUP });
}

const splitStarts = defineKernel({
  name: 'segmented/split-starts',
  bindings: {
    flags: read('array<u32>'),
    head_bits: read('array<u32>'),
    start_falses: readWrite('array<u32>'),
    out_bits: readWrite('array<u32>'),
  },
  params: SPLIT_PARAMS,
  wgsl: (spec: { workgroupSize: number }) => `
${HEAD_AT_WGSL}

@compute @workgroup_size(${spec.workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let i = (wid.x + wid.y * params.dispatch_x) * ${spec.workgroupSize}u + lid;
  if (i >= params.count) { return; }
  start_falses[i] = select(0u, i, head_at(i)) + select(1u, 0u, flags[i] != 0u);
  if ((i & 31u) == 0u) {
    // Every segment start stays a head (of its false part, or of its true part when it has no
    // falses); a partial last word keeps only the bits of real elements.
    let live = params.count - i;
    let mask = select((1u << live) - 1u, 0xffffffffu, live >= 32u);
    out_bits[i >> 5u] = (head_bits[i >> 5u] & mask) | select(0u, 1u, i == 0u);
  }
}
`,
});

/**
 * Last step of split-and-segment: the scatter. With f(i) = s + (falses up to i) from the first
 * scan and b(i) = s + (the segment's falses) from the second (the first true's destination), a
 * false goes to f(i) − 1 and a true to b(i) + (trues before it), which is i − f(i) — the segment
 * start cancels out, so it never has to be distributed. The first true of a segment (i == f(i))
 * ORs its destination's bit into the output head bits; where the segment has no falses that bit
 * is the segment's start, already set.
 *
 * Bindings: `input`, `flags`, `falses_to` (f), `trues_at` (b), `output`, `out_bits` (atomic
 * words); parameters `{ count, dispatch_x }`.
 *
 * @example
 * ```ts
 * b.dispatch(splitScatterKernel(), { input, flags, falses_to: f, trues_at: v, output, out_bits: outBits }, workgroups,
 *   { count, dispatch_x: x });
 * ```
 */
export function splitScatterKernel(): Kernel<'input' | 'flags' | 'falses_to' | 'trues_at' | 'output' | 'out_bits', typeof SPLIT_PARAMS> {
  return splitScatter({ workgroupSize: PRIMITIVE_WORKGROUP });
}

const splitScatter = defineKernel({
  name: 'segmented/split-scatter',
  bindings: {
    input: read('array<u32>'),
    flags: read('array<u32>'),
    falses_to: read('array<u32>'),
    trues_at: read('array<u32>'),
    output: readWrite('array<u32>'),
    out_bits: readWrite('array<atomic<u32>>'),
  },
  params: SPLIT_PARAMS,
  wgsl: (spec: { workgroupSize: number }) => `
@compute @workgroup_size(${spec.workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let i = (wid.x + wid.y * params.dispatch_x) * ${spec.workgroupSize}u + lid;
  if (i >= params.count) { return; }
  let f = falses_to[i];
  if (flags[i] == 0u) {
    output[f - 1u] = input[i];
  } else {
    let dest = trues_at[i] + (i - f);
    output[dest] = input[i];
    if (i == f) { atomicOr(&out_bits[dest >> 5u], 1u << (dest & 31u)); }
  }
}
`,
});
