// The frame's first pass: per splat, its view-space depth as a sort key and whether it is in the
// view frustum. Plain WGSL: one invocation per splat, nothing shared between them.

/** Clip-space slack around the screen, so splats centred just outside it (whose ellipses reach in) are kept. */
export const CULL_MARGIN = 1.3;

/** Bytes of the cull pass's uniform block: view·projection, view, then four scalars (and padding). */
export const CULL_PARAMS_BYTES = 160;

/** Invocations per workgroup of the cull pass. */
export const CULL_WORKGROUP = 256;

/** WGSL of the cull pass. */
export const CULL_WGSL = /* wgsl */ `
struct Params {
  view_proj: mat4x4<f32>,
  view: mat4x4<f32>,
  count: u32,
  key_bits: u32,
  depth_min: f32,
  depth_scale: f32,
  row_invocations: u32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> keys: array<u32>;
@group(0) @binding(3) var<storage, read_write> flags: array<u32>;

@compute @workgroup_size(${CULL_WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  // Past 65535 workgroups the dispatch has rows: row_invocations invocations each.
  let i = gid.x + gid.y * params.row_invocations;
  if (i >= params.count) { return; }
  let p = vec4<f32>(positions[i].xyz, 1.0);
  let clip = params.view_proj * p;
  // Distance in front of the eye: the view looks down -z.
  let depth = -(params.view * p).z;
  let lim = ${CULL_MARGIN} * clip.w;
  let visible = clip.w > 0.0 && clip.z >= 0.0 && clip.z <= clip.w && abs(clip.x) <= lim && abs(clip.y) <= lim;
  flags[i] = select(0u, 1u, visible);
  if (params.key_bits == 16u) {
    // 16 bits over the scene's depth range, in the low half of a u32 key (sorted on bits [0, 16)).
    keys[i] = u32(floor(clamp((depth - params.depth_min) * params.depth_scale, 0.0, 1.0) * 65535.0 + 0.5));
  } else {
    keys[i] = bitcast<u32>(depth);
  }
}
`;

/** WGSL that writes 0..count-1 into `ids` (the indices the second pack moves), once at creation. */
export const IOTA_WGSL = /* wgsl */ `
struct Params { count: u32, row_invocations: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> ids: array<u32>;
@compute @workgroup_size(${CULL_WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x + gid.y * params.row_invocations;
  if (i < params.count) { ids[i] = i; }
}
`;
