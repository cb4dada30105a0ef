import { defineKernel, read, readWrite, unroll } from '@scan/core/kit';
import { EQUATION_WGSL, STATUS_BINDING, SYSTEM_PARAMS } from './common.js';
import { solverDeclsWgsl, solverPhasesWgsl } from './workgroup-solve.js';

/** What the partition solve is specialized on. */
export type PartitionSolveSpec = {
  /** Unknowns per invocation, a multiple of 4 (vec4 loads and stores). */
  readonly block: number;
  /** Invocations per workgroup: one block each, so systems of up to block·workgroupSize unknowns. */
  readonly workgroupSize: number;
  /** Unknowns left when forward reduction of the reduced system stops (see the workgroup solve). */
  readonly switchSize: number;
};

/**
 * Unknowns of the reduced system the kernel of `spec` holds in workgroup memory: 2 per block
 * (with `workgroupSolveBytes` of it, the kernel's workgroup memory).
 *
 * @example
 * ```ts
 * partitionReducedCapacity({ workgroupSize: 128 }); // 256
 * ```
 */
export function partitionReducedCapacity(spec: Pick<PartitionSolveSpec, 'workgroupSize'>): number {
  return 2 * spec.workgroupSize;
}

/**
 * One workgroup solves one contiguous system of up to `block`·`workgroupSize` unknowns (n a
 * multiple of 4) by the **partition method** (Wang 1981; the Thomas–PCR hybrids of Kim et al. 2011
 * and Zhang et al. 2010 follow it): every invocation loads its own block of `block` consecutive
 * rows with vec4 loads and keeps them in registers, then
 *
 * 1. **eliminates the block's interior** serially in registers: a downward sweep writes every row
 *    k ≥ 1 in terms of the block's first unknown (λ_k·x_first + μ_k·x_k + c_k·x_{k+1} = ρ_k), an
 *    upward sweep writes row 0 in terms of the block's last unknown (a_0·x_prev + B·x_first +
 *    G·x_last = D). The first and last unknowns of all blocks form a tridiagonal **reduced
 *    system** of 2 unknowns per block;
 * 2. **solves the reduced system** in workgroup memory with the workgroup solve's phases (forward
 *    reduction, PCR, backward substitution);
 * 3. **back-substitutes the interior** in registers (x_k = (ρ_k − λ_k·x_first − c_k·x_{k+1}) / μ_k)
 *    and stores the block with vec4 stores.
 *
 * Only the reduced system (2/`block` of the rows) passes through workgroup memory and the
 * barrier-bound phases, and the loads are full vec4s per invocation. No pivoting, as everywhere in
 * the package: the sweeps are Thomas steps, stable for diagonally dominant systems. Zero divisors
 * and non-finite results mark the system as the workgroup solve does.
 *
 * Bindings: `a4`…`d4` and `x4`, the caller's a–d and x as vec4 arrays, and `status`. Parameters:
 * `n`, `batch`, `dispatch_x`, and `padded` / `stride` of the reduced system of 2·⌈n / block⌉ unknowns.
 *
 * @example
 * ```ts
 * const kernel = partitionSolveKernel({ block: 4, workgroupSize: 256, switchSize: 128 });
 * b.dispatch(kernel, { a4, b4, c4, d4, x4, status }, batch, { n: 1024, batch, dispatch_x: batch, padded: 512, stride: 4 });
 * ```
 */
export const partitionSolveKernel = defineKernel({
  name: 'tridiag/partition-solve',
  bindings: {
    a4: read('array<vec4<f32>>'),
    b4: read('array<vec4<f32>>'),
    c4: read('array<vec4<f32>>'),
    d4: read('array<vec4<f32>>'),
    x4: readWrite('array<vec4<f32>>'),
    status: STATUS_BINDING,
  },
  params: { ...SYSTEM_PARAMS, padded: 'u32', stride: 'u32' },
  wgsl: partitionSolveWgsl,
});

function partitionSolveWgsl(spec: PartitionSolveSpec): string {
  const B = spec.block;
  const WG = spec.workgroupSize;
  const V = B / 4;
  const solver = { capacity: partitionReducedCapacity(spec), workgroupSize: WG, switchSize: spec.switchSize };
  const comp = (k: number) => `[${Math.floor(k / 4)}].${'xyzw'[k % 4]}`;
  const el = (arr: string, k: number) => `${arr}${comp(k)}`;
  return `${EQUATION_WGSL}
${solverDeclsWgsl(solver)}

@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let sys = wid.x + wid.y * params.dispatch_x;
  if (sys >= params.batch) { return; }
  let full = params.n;
  let first = lid * ${B}u;
  let base = (sys * full + first) / 4u;

  // The block, identity rows past the end (b = 1); a_0 and c_{n−1} read as 0.
  var a: array<vec4<f32>, ${V}>;
  var b: array<vec4<f32>, ${V}>;
  var c: array<vec4<f32>, ${V}>;
  var d: array<vec4<f32>, ${V}>;
${unroll(
  V,
  (q) => `  if (first + ${4 * q}u < full) {
    a[${q}] = a4[base + ${q}u];
    b[${q}] = b4[base + ${q}u];
    c[${q}] = c4[base + ${q}u];
    d[${q}] = d4[base + ${q}u];
  } else {
    a[${q}] = vec4<f32>(0.0);
    b[${q}] = vec4<f32>(1.0);
    c[${q}] = vec4<f32>(0.0);
    d[${q}] = vec4<f32>(0.0);
  }`,
)}
  if (lid == 0u) { a[0].x = 0.0; }
  if (full > first && full - first <= ${B}u) {
${unroll(B, (k) => `    if (full - first == ${k + 1}u) { c${comp(k)} = 0.0; }`)}
  }

  // 1. Downward sweep: rows k ≥ 1 in terms of x_first (λ_k x_first + μ_k x_k + c_k x_{k+1} = ρ_k).
  var lam: array<f32, ${B}>;
  var mu: array<f32, ${B}>;
  var rho: array<f32, ${B}>;
  lam[1] = ${el('a', 1)};
  mu[1] = ${el('b', 1)};
  rho[1] = ${el('d', 1)};
${unroll(B - 2, (r) => {
  const k = r + 2;
  return `  {
    if (mu[${k - 1}] == 0.0) { fail(); }
    let f = ${el('a', k)} / mu[${k - 1}];
    lam[${k}] = -f * lam[${k - 1}];
    mu[${k}] = ${el('b', k)} - f * ${el('c', k - 1)};
    rho[${k}] = ${el('d', k)} - f * rho[${k - 1}];
  }`;
})}
  // Upward sweep: row 0 in terms of x_last (a_0 x_prev + up_b x_first + up_g x_last = up_d).
  var up_b = ${el('b', B - 2)};
  var up_g = ${el('c', B - 2)};
  var up_d = ${el('d', B - 2)};
${unroll(B - 2, (r) => {
  const k = B - 3 - r;
  return `  {
    if (up_b == 0.0) { fail(); }
    let g = ${el('c', k)} / up_b;
    let next_b = ${el('b', k)} - g * ${el('a', k + 1)};
    up_g = -g * up_g;
    up_d = ${el('d', k)} - g * up_d;
    up_b = next_b;
  }`;
})}
  // The reduced system: x_first and x_last of every block, rows 2j and 2j + 1.
  set_row(2u * lid, Eq(${el('a', 0)}, up_b, up_g, up_d));
  set_row(2u * lid + 1u, Eq(lam[${B - 1}], mu[${B - 1}], ${el('c', B - 1)}, rho[${B - 1}]));
  workgroupBarrier();

  // 2. Solve the reduced system.
  let n = 2u * ((full + ${B - 1}u) / ${B}u);
  let N = params.padded;
  let S = params.stride;
${solverPhasesWgsl(solver)}

  // 3. Back-substitute the interior and store the block.
  var x: array<vec4<f32>, ${V}>;
  let x_first = wd[p(2u * lid)];
  let x_last = wd[p(2u * lid + 1u)];
  x${comp(0)} = x_first;
  x${comp(B - 1)} = x_last;
${unroll(B - 2, (r) => {
  const k = B - 2 - r;
  return `  {
    if (mu[${k}] == 0.0) { fail(); }
    x${comp(k)} = (rho[${k}] - lam[${k}] * x_first - ${el('c', k)} * x${comp(k + 1)}) / mu[${k}];
  }`;
})}
${unroll(
  V,
  (q) => `  if (first + ${4 * q}u < full) {
    let v = x[${q}];
    if (not_finite(v.x) || not_finite(v.y) || not_finite(v.z) || not_finite(v.w)) { fail(); }
    x4[base + ${q}u] = v;
  }`,
)}
  workgroupBarrier();
  if (lid == 0u && atomicLoad(&wg_failed) != 0u) { atomicMin(&status[0], sys); }
}
`;
}
