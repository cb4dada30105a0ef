import type { KernelSpec } from '@scan/core/kit';

/** Workgroup edge of the 2-D grid kernels: 16×16 = 256 invocations, one per cell. */
export const TILE = 16;

/**
 * Uniform block shared by the coefficient kernels: grid size, k = gΔt²/(2Δx²), and the kept
 * fraction of the velocity (1 − damping). 16 bytes.
 */
export const STEP_PARAMS_WGSL = /* wgsl */ `
struct StepParams {
  n: u32,
  k: f32,
  keep: f32,
  _pad: f32,
}`;

/** Along which grid direction a sweep's systems run. */
export type SweepAxis = 'rows' | 'columns';

/**
 * WGSL of the coefficient kernel of one ADI sweep. One invocation per cell i = y·N + x writes the
 * row i of the tridiagonal system (Kass & Miller 1990, eq. 15) into `lower`, `diag`, `upper` at
 * index i — which is where the tridiagonal plan expects it in both layouts: a row sweep is `N`
 * contiguous systems (element x of system y at y·N + x), a column sweep is `N` interleaved systems
 * (element y of system x at y·N + x), so neither sweep needs a transpose.
 *
 * With d = max(h − bottom, 0) taken from the current heights h = hⁿ⁻¹ (both sweeps use the same
 * depth, so the step is the factored implicit scheme (I − Lx)(I − Ly)hⁿ = 2hⁿ⁻¹ − hⁿ⁻²):
 *   lower_i = −k(d_{i−1} + d_i),  upper_i = −k(d_i + d_{i+1}),  diag_i = 1 + k(d_{i−1} + 2d_i + d_{i+1}),
 * k = gΔt²/(2Δx²); a neighbour past the border contributes nothing to diag and its coupling is
 * zero, so every column of the matrix sums to 1 and Σh is conserved.
 *
 * The right-hand side is written in **increment form**: instead of A·z = r the solve is
 * A·(z − h) = r − A·h, the same equation, whose unknown (the change of a step) is ~100× smaller
 * than h, so the solver's f32 rounding errors — which the volume would otherwise integrate step
 * after step — shrink with it:
 * - rows: r = 2h − hⁿ⁻² (the right-hand side; with damping h + keep·(h − hⁿ⁻²)), so
 *   r − A·h = keep·(h − hⁿ⁻²) + below·(h_{i−1} − h_i) + above·(h_{i+1} − h_i), and the row solve
 *   yields δz = z − h;
 * - columns: r = z (the row solution), so r − A·h = δz + below·(h_{i−N} − h_i) + above·(h_{i+N} − h_i),
 *   and the column solve yields Δ = hⁿ − h, added to h by {@link APPLY_WGSL}.
 * `source` is hⁿ⁻² for the rows and δz for the columns.
 */
export function coefficientsWgsl(axis: SweepAxis): string {
  const rows = axis === 'rows';
  return /* wgsl */ `${STEP_PARAMS_WGSL}
@group(0) @binding(0) var<uniform> params: StepParams;
@group(0) @binding(1) var<storage, read> height: array<f32>;
@group(0) @binding(2) var<storage, read> bottom: array<f32>;
@group(0) @binding(3) var<storage, read_write> lower: array<f32>;
@group(0) @binding(4) var<storage, read_write> diag: array<f32>;
@group(0) @binding(5) var<storage, read_write> upper: array<f32>;
@group(0) @binding(6) var<storage, read> source: array<f32>;
@group(0) @binding(7) var<storage, read_write> rhs: array<f32>;

fn depth(i: u32) -> f32 {
  return max(height[i] - bottom[i], 0.0);
}

@compute @workgroup_size(${TILE}, ${TILE})
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let n = params.n;
  if (gid.x >= n || gid.y >= n) {
    return;
  }
  let i = gid.y * n + gid.x;
  // Position along the system and the index distance to the next element of the same system.
  let p = ${rows ? 'gid.x' : 'gid.y'};
  let next = ${rows ? '1u' : 'n'};
  let h = height[i];
  let d = max(h - bottom[i], 0.0);
  var below = 0.0;
  var above = 0.0;
  var flux = 0.0;
  if (p > 0u) {
    // The same operands in the same order as the neighbour's "above", so both see the same coupling.
    below = params.k * (depth(i - next) + d);
    flux += below * (height[i - next] - h);
  }
  if (p + 1u < n) {
    above = params.k * (d + depth(i + next));
    flux += above * (height[i + next] - h);
  }
  lower[i] = -below;
  upper[i] = -above;
  diag[i] = 1.0 + below + above;
  rhs[i] = ${rows ? 'params.keep * (h - source[i])' : 'source[i]'} + flux;
}
`;
}

/** WGSL of the last pass of a step: hⁿ = hⁿ⁻¹ + Δ, in place in the buffer that holds Δ. */
export const APPLY_WGSL = /* wgsl */ `${STEP_PARAMS_WGSL}
@group(0) @binding(0) var<uniform> params: StepParams;
@group(0) @binding(1) var<storage, read> height: array<f32>;
@group(0) @binding(2) var<storage, read_write> next: array<f32>;

@compute @workgroup_size(${TILE}, ${TILE})
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let n = params.n;
  if (gid.x >= n || gid.y >= n) {
    return;
  }
  let i = gid.y * n + gid.x;
  next[i] = height[i] + next[i];
}
`;

/**
 * WGSL that sets every element of an N×N grid to one value (the water level), so a large grid
 * starts without uploading N² floats from the host.
 */
export const FILL_WGSL = /* wgsl */ `
struct FillParams {
  n: u32,
  value: f32,
  _pad0: f32,
  _pad1: f32,
}
@group(0) @binding(0) var<uniform> params: FillParams;
@group(0) @binding(1) var<storage, read_write> grid: array<f32>;

@compute @workgroup_size(${TILE}, ${TILE})
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let n = params.n;
  if (gid.x >= n || gid.y >= n) {
    return;
  }
  grid[gid.y * n + gid.x] = params.value;
}
`;

/** The pipeline spec of {@link FILL_WGSL}. */
export const FILL_KERNEL: KernelSpec = { key: `water/fill/${TILE}x${TILE}`, wgsl: () => FILL_WGSL };

/** The pipeline spec of {@link APPLY_WGSL}. */
export const APPLY_KERNEL: KernelSpec = { key: `water/apply/${TILE}x${TILE}`, wgsl: () => APPLY_WGSL };

/** The pipeline spec of {@link coefficientsWgsl}. */
export function coefficientsKernel(axis: SweepAxis): KernelSpec {
  return { key: `water/coefficients/${axis}/${TILE}x${TILE}`, wgsl: () => coefficientsWgsl(axis) };
}

/**
 * WGSL of the drop kernel: adds a smooth cosine bump height·(1 + cos(πr/R))/2 (r < R, in cells,
 * from the centre (cx, cy) in cell coordinates where cell (x, y) sits at (x, y)) to both the
 * current and the previous heights, so the disturbance starts at rest.
 */
export const DROP_WGSL = /* wgsl */ `
struct DropParams {
  n: u32,
  cx: f32,
  cy: f32,
  radius: f32,
  amount: f32,
  _pad0: f32,
  _pad1: f32,
  _pad2: f32,
}
@group(0) @binding(0) var<uniform> params: DropParams;
@group(0) @binding(1) var<storage, read_write> current: array<f32>;
@group(0) @binding(2) var<storage, read_write> previous: array<f32>;

@compute @workgroup_size(${TILE}, ${TILE})
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let n = params.n;
  if (gid.x >= n || gid.y >= n) {
    return;
  }
  let r = distance(vec2f(f32(gid.x), f32(gid.y)), vec2f(params.cx, params.cy));
  if (r >= params.radius) {
    return;
  }
  let bump = params.amount * 0.5 * (1.0 + cos(3.14159265 * r / params.radius));
  let i = gid.y * n + gid.x;
  current[i] += bump;
  previous[i] += bump;
}
`;

/** The pipeline spec of {@link DROP_WGSL}. */
export const DROP_KERNEL: KernelSpec = { key: `water/drop/${TILE}x${TILE}`, wgsl: () => DROP_WGSL };

/** Workgroups per dimension of a grid kernel on an N×N grid (N ≤ 4096 → at most 256). */
export function gridWorkgroups(n: number): number {
  return Math.ceil(n / TILE);
}

/**
 * Every kernel of the simulation (besides the tridiagonal plans'): what `createWaterSim` compiles
 * ahead with `loadPipelines`, so that neither its setup nor its first frame waits for a compilation.
 *
 * @example
 * ```ts
 * await loadPipelines(ctx, WATER_KERNELS);
 * ```
 */
export const WATER_KERNELS: readonly KernelSpec[] = [
  FILL_KERNEL,
  coefficientsKernel('rows'),
  coefficientsKernel('columns'),
  APPLY_KERNEL,
  DROP_KERNEL,
];
