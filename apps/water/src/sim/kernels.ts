import { defineKernel, type Kernel, type ParamFields, read, readWrite } from '@scan/core/kit';

/** Workgroup edge of the 2-D grid kernels: 16×16 = 256 invocations, one per cell. */
export const TILE = 16;

/** What a grid kernel is specialized on: its workgroup edge (`tile`×`tile` invocations, one per cell). */
export type GridSpec = { readonly tile: number };

/**
 * Parameters shared by the coefficient kernels and the increment: grid size, k = gΔt²/(2Δx²), and
 * the kept fraction of the velocity (1 − damping). One uniform buffer holds them for all three.
 *
 * @example
 * ```ts
 * device.queue.writeBuffer(buffer, 0, paramsData(APPLY_KERNEL, { n: 256, k: 0.44, keep: 1 }));
 * ```
 */
export const STEP_PARAMS = { n: 'u32', k: 'f32', keep: 'f32' } as const satisfies ParamFields;

/** Along which grid direction a sweep's systems run. */
export type SweepAxis = 'rows' | 'columns';

/** The coefficient kernels of the two sweeps (see {@link coefficientsWgsl}). */
const coefficients = defineKernel({
  name: 'water/coefficients',
  bindings: {
    height: read('array<f32>'),
    bottom: read('array<f32>'),
    lower: readWrite('array<f32>'),
    diag: readWrite('array<f32>'),
    upper: readWrite('array<f32>'),
    source: read('array<f32>'),
    rhs: readWrite('array<f32>'),
  },
  params: STEP_PARAMS,
  wgsl: (spec: GridSpec & { readonly axis: SweepAxis }) => {
    const rows = spec.axis === 'rows';
    return `
fn depth(i: u32) -> f32 {
  return max(height[i] - bottom[i], 0.0);
}

@compute @workgroup_size(${spec.tile}, ${spec.tile})
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
  },
});

/**
 * The coefficient kernel of one ADI sweep along `axis` (see {@link coefficientsWgsl}). Bindings:
 * `height`, `bottom`, `lower`, `diag`, `upper`, `source`, `rhs`; parameters {@link STEP_PARAMS}.
 *
 * @example
 * ```ts
 * const kernel = coefficientsKernel('rows');
 * const group = bindGroupByName(device, kernel, getPipeline(ctx, kernel),
 *   { height, bottom, lower, diag, upper, source: previous, rhs, params: stepParams });
 * ```
 */
export function coefficientsKernel(axis: SweepAxis) {
  return coefficients({ axis, tile: TILE });
}

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
 *   and the column solve yields Δ = hⁿ − h, added to h by {@link APPLY_KERNEL}.
 * `source` is hⁿ⁻² for the rows and δz for the columns.
 *
 * @example
 * ```ts
 * const code = coefficientsWgsl('columns'); // the whole module, declarations included
 * ```
 */
export function coefficientsWgsl(axis: SweepAxis): string {
  return coefficientsKernel(axis).wgsl();
}

/** The last pass of a step: hⁿ = hⁿ⁻¹ + Δ, in place in the buffer that holds Δ. */
const apply = defineKernel({
  name: 'water/apply',
  bindings: { height: read('array<f32>'), next: readWrite('array<f32>') },
  params: STEP_PARAMS,
  wgsl: (spec: GridSpec) => `
@compute @workgroup_size(${spec.tile}, ${spec.tile})
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let n = params.n;
  if (gid.x >= n || gid.y >= n) {
    return;
  }
  let i = gid.y * n + gid.x;
  next[i] = height[i] + next[i];
}
`,
});

/**
 * Sets every element of an N×N grid to one value (the water level), so a large grid starts
 * without uploading N² floats from the host.
 */
const fill = defineKernel({
  name: 'water/fill',
  bindings: { grid: readWrite('array<f32>') },
  params: { n: 'u32', value: 'f32' },
  wgsl: (spec: GridSpec) => `
@compute @workgroup_size(${spec.tile}, ${spec.tile})
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let n = params.n;
  if (gid.x >= n || gid.y >= n) {
    return;
  }
  grid[gid.y * n + gid.x] = params.value;
}
`,
});

/**
 * Adds a smooth cosine bump amount·(1 + cos(πr/R))/2 (r < R = `radius`, in cells, from the centre
 * (cx, cy) in cell coordinates where cell (x, y) sits at (x, y)) to both the current and the
 * previous heights, so the disturbance starts at rest.
 */
const drop = defineKernel({
  name: 'water/drop',
  bindings: { current: readWrite('array<f32>'), previous: readWrite('array<f32>') },
  params: { n: 'u32', cx: 'f32', cy: 'f32', radius: 'f32', amount: 'f32' },
  wgsl: (spec: GridSpec) => `
@compute @workgroup_size(${spec.tile}, ${spec.tile})
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
`,
});

/**
 * The kernel that fills a grid with one value (the water level, at the start). Bindings: `grid`;
 * parameters `n`, `value`.
 *
 * @example
 * ```ts
 * device.queue.writeBuffer(uniform, 0, paramsData(FILL_KERNEL, { n, value: 1 }));
 * const group = bindGroupByName(device, FILL_KERNEL, getPipeline(ctx, FILL_KERNEL), { grid, params: uniform });
 * ```
 */
export const FILL_KERNEL = fill({ tile: TILE });

/**
 * The kernel of the last pass of a step, hⁿ = hⁿ⁻¹ + Δ, in place in `next` (which holds Δ).
 * Bindings: `height`, `next`; parameters {@link STEP_PARAMS} (it reads `n`).
 *
 * @example
 * ```ts
 * const group = bindGroupByName(device, APPLY_KERNEL, getPipeline(ctx, APPLY_KERNEL), { height, next, params: stepParams });
 * ```
 */
export const APPLY_KERNEL = apply({ tile: TILE });

/**
 * The drop kernel: a smooth bump of `amount` within `radius` cells of (`cx`, `cy`), added to the
 * current and the previous heights. Bindings: `current`, `previous`; parameters `n`, `cx`, `cy`,
 * `radius`, `amount`.
 *
 * @example
 * ```ts
 * device.queue.writeBuffer(dropParams, 0, paramsData(DROP_KERNEL, { n, cx: 10, cy: 20, radius: 4, amount: 0.5 }));
 * ```
 */
export const DROP_KERNEL = drop({ tile: TILE });

/**
 * Workgroups per dimension of a grid kernel on an N×N grid (N ≤ 4096 → at most 256).
 *
 * @example
 * ```ts
 * pass.dispatchWorkgroups(gridWorkgroups(n), gridWorkgroups(n));
 * ```
 */
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
export const WATER_KERNELS: readonly Kernel[] = [
  FILL_KERNEL,
  coefficientsKernel('rows'),
  coefficientsKernel('columns'),
  APPLY_KERNEL,
  DROP_KERNEL,
];
