import { defineKernel, readWrite } from '@scan/core/kit';

// Hot outputs of the compare-and-swap combine. When hundreds of workgroups add into one word of y
// (the full row of a `biased` matrix, the heavy rows and columns of a power-law one), every
// addition retries until it wins the word, so N contenders cost about N² attempts. An addition
// that loses SPILL_AFTER attempts goes instead to one of SPILL_REPLICAS slots of its output in a
// spill table (chosen by the workgroup), which splits the contenders among the replicas; after the
// leaf kernels, one pass adds every used slot into y. Outputs that a few workgroups share win
// within a few attempts and never leave y (spilling them would fill the table for nothing).

/**
 * Slots of the spill table (two words each: output + 1, then the f32 bits of the sum): 2^16, 512
 * KiB, cleared before every product. When an output finds no slot in eight probes it keeps
 * retrying on y, so a full table only costs speed.
 *
 * @example
 * ```ts
 * const spill = createStorageBuffer(ctx, 8 * SPILL_SLOTS, 'hisparse spill');
 * ```
 */
export const SPILL_SLOTS = 1 << 16;

/**
 * Replicas of one output in the spill table: a workgroup adds a contended output into replica
 * (workgroup index mod 32), so each replica has about 1/32 of the contenders.
 *
 * @example
 * ```ts
 * const replica = workgroupIndex % SPILL_REPLICAS;
 * ```
 */
export const SPILL_REPLICAS = 32;

/**
 * Failed compare-and-swap attempts on y after which a sum spills: a handful of contenders (the
 * two or three blocks that share a row of a stencil matrix) rarely need more.
 *
 * @example
 * ```ts
 * const wgsl = `for (var attempt = 0u; attempt < ${SPILL_AFTER}u; attempt++) { ... }`;
 * ```
 */
export const SPILL_AFTER = 8;

/**
 * WGSL of the leaf kernels' combine into y with spilling, over the bindings `y` and `spill` (the
 * spill table: {@link SPILL_TABLE}) the kernel declares: `var<private> replica` (set by the kernel
 * from its workgroup index), and `add_y(i, v)` —
 * {@link SPILL_AFTER} compare-and-swap attempts on y, then the output's replica slot
 * (`spill_add`), and only if the table has no room more retries on y. `always` (tests) spills every sum, so the spill path
 * runs where nothing contends.
 *
 * @example
 * ```ts
 * const wgsl = `${spillAddWgsl()} fn main() { replica = wg % ${SPILL_REPLICAS}u; add_y(3u, 1.0); }`;
 * ```
 */
export function spillAddWgsl(always = false): string {
  return `
var<private> replica: u32;
const SPILL_SLOTS: u32 = ${SPILL_SLOTS}u;

// Adds v into the slot (output i, this workgroup's replica); false when eight probes find no room.
fn spill_add(i: u32, v: f32) -> bool {
  let home = ((i * 2654435761u) >> 16u) + replica * 977u;
  for (var probe = 0u; probe < 8u; probe++) {
    let slot = (home + probe) & (SPILL_SLOTS - 1u);
    let claim = atomicCompareExchangeWeak(&spill[2u * slot], 0u, i + 1u);
    if (claim.exchanged || claim.old_value == i + 1u) {
      var old = atomicLoad(&spill[2u * slot + 1u]);
      loop {
        let r = atomicCompareExchangeWeak(&spill[2u * slot + 1u], old, bitcast<u32>(bitcast<f32>(old) + v));
        if (r.exchanged) { return true; }
        old = r.old_value;
      }
    }
  }
  return false;
}

// y[i] += v: compare-and-swap on the f32 bits (no float atomics in WebGPU); after SPILL_AFTER
// attempts lost to other invocations the sum goes to a spill replica, and only when the table is
// full does it go on retrying on y.
fn add_y(i: u32, v: f32) {
  ${always ? 'if (spill_add(i, v)) { return; }' : ''}
  var old = atomicLoad(&y[i]);
  for (var attempt = 0u; attempt < ${SPILL_AFTER}u; attempt++) {
    let r = atomicCompareExchangeWeak(&y[i], old, bitcast<u32>(bitcast<f32>(old) + v));
    if (r.exchanged) { return; }
    old = r.old_value;
  }
  if (spill_add(i, v)) { return; }
  loop {
    let r = atomicCompareExchangeWeak(&y[i], old, bitcast<u32>(bitcast<f32>(old) + v));
    if (r.exchanged) { break; }
    old = r.old_value;
  }
}
`;
}

/**
 * The spill table as a kernel declares it (binding `spill`): two words per slot, output + 1 and the
 * f32 bits of the sum, claimed and added by compare-and-swap.
 *
 * @example
 * ```ts
 * const bindings = { y: readWrite('array<atomic<u32>>'), spill: SPILL_TABLE };
 * ```
 */
export const SPILL_TABLE = readWrite('array<atomic<u32>>');

const spillFlush = defineKernel({
  name: 'hisparse/spill-flush',
  bindings: { spill: SPILL_TABLE, y: readWrite('array<atomic<u32>>') },
  wgsl: () => `
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let slot = gid.x;
  if (slot >= ${SPILL_SLOTS}u) { return; }
  let key = atomicLoad(&spill[2u * slot]);
  if (key == 0u) { return; }
  let v = bitcast<f32>(atomicLoad(&spill[2u * slot + 1u]));
  var old = atomicLoad(&y[key - 1u]);
  loop {
    let r = atomicCompareExchangeWeak(&y[key - 1u], old, bitcast<u32>(bitcast<f32>(old) + v));
    if (r.exchanged) { break; }
    old = r.old_value;
  }
}
`,
});

/**
 * The pass after a product's leaf kernels: every used slot of the spill table adds its sum into y
 * (compare-and-swap; a few dozen replicas per hot output at most contend now). One invocation per
 * slot, {@link SPILL_SLOTS} / 256 workgroups.
 *
 * @example
 * ```ts
 * b.dispatch(spillFlushKernel(), { spill: { role: 'spill', offset: 0 }, y: { role: 'y', offset: 0 } }, SPILL_SLOTS / 256);
 * ```
 */
export function spillFlushKernel() {
  return spillFlush({});
}
