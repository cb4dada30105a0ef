// The splats' draw: an instanced triangle strip per visible splat, in the order the frame sorted.
// The vertex stage projects the splat's 3D Gaussian to a 2D one (EWA splatting as in 3D Gaussian
// splatting: J W Σ Wᵀ Jᵀ plus a 0.3 px² low-pass) and spans its 3σ ellipse; the fragment stage
// weighs the colour by opacity · exp(−½ dᵀ Σ⁻¹ d), premultiplied for back-to-front blending.

/** Bytes of the draw's uniform block: view, projection, viewport and focal lengths (px). */
export const CAMERA_BYTES = 144;

export const SPLAT_WGSL = /* wgsl */ `
struct Camera {
  view: mat4x4<f32>,
  proj: mat4x4<f32>,
  viewport: vec2<f32>,
  focal: vec2<f32>,
}
@group(0) @binding(0) var<uniform> cam: Camera;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> attrs: array<u32>;
@group(0) @binding(3) var<storage, read> order: array<u32>;

struct VOut {
  @builtin(position) pos: vec4<f32>,
  @location(0) color: vec4<f32>,
  @location(1) uv: vec2<f32>,
}

@vertex
fn vs(@builtin(vertex_index) v: u32, @builtin(instance_index) inst: u32) -> VOut {
  var out: VOut;
  // Off-screen (clipped) unless the splat is drawable.
  out.pos = vec4<f32>(0.0, 0.0, 2.0, 1.0);
  let idx = order[inst];
  let t = cam.view * vec4<f32>(positions[idx].xyz, 1.0);
  let clip = cam.proj * t;
  let d = -t.z;
  if (clip.w <= 0.0 || d <= 0.0) { return out; }
  let b = idx * 8u;
  let c0 = bitcast<f32>(attrs[b]);
  let c1 = bitcast<f32>(attrs[b + 1u]);
  let c2 = bitcast<f32>(attrs[b + 2u]);
  let c3 = bitcast<f32>(attrs[b + 3u]);
  let c4 = bitcast<f32>(attrs[b + 4u]);
  let c5 = bitcast<f32>(attrs[b + 5u]);
  let sigma = mat3x3<f32>(vec3<f32>(c0, c1, c2), vec3<f32>(c1, c3, c4), vec3<f32>(c2, c4, c5));
  // The Jacobian of the perspective projection (px, y up), its x/d and y/d clamped to 1.3 × the
  // half field of view as in 3DGS, so splats far off-axis do not blow up.
  let lim = 1.3 * 0.5 * cam.viewport / cam.focal;
  let tx = clamp(t.x / d, -lim.x, lim.x) * d;
  let ty = clamp(t.y / d, -lim.y, lim.y) * d;
  let J = mat3x3<f32>(
    vec3<f32>(cam.focal.x / d, 0.0, 0.0),
    vec3<f32>(0.0, cam.focal.y / d, 0.0),
    vec3<f32>(cam.focal.x * tx / (d * d), cam.focal.y * ty / (d * d), 0.0),
  );
  let W = mat3x3<f32>(cam.view[0].xyz, cam.view[1].xyz, cam.view[2].xyz);
  let T = J * W;
  let cov = T * sigma * transpose(T);
  let a = cov[0][0] + 0.3;
  let bb = cov[0][1];
  let c = cov[1][1] + 0.3;
  let mid = 0.5 * (a + c);
  let r = length(vec2<f32>(0.5 * (a - c), bb));
  let l1 = mid + r;
  let l2 = max(mid - r, 0.01);
  var dir = vec2<f32>(bb, l1 - a);
  if (dot(dir, dir) < 1e-20) { dir = select(vec2<f32>(1.0, 0.0), vec2<f32>(0.0, 1.0), c > a); }
  dir = normalize(dir);
  let major = 3.0 * sqrt(l1) * dir;
  let minor = 3.0 * sqrt(l2) * vec2<f32>(-dir.y, dir.x);
  // Triangle-strip corners: (-1,-1), (1,-1), (-1,1), (1,1).
  let corner = vec2<f32>(f32(v & 1u), f32(v >> 1u)) * 2.0 - 1.0;
  let offset = corner.x * major + corner.y * minor;
  out.pos = vec4<f32>(clip.xy / clip.w + offset * 2.0 / cam.viewport, 0.5, 1.0);
  out.uv = corner * 3.0;
  out.color = unpack4x8unorm(attrs[b + 6u]);
  return out;
}

@fragment
fn fs(in: VOut) -> @location(0) vec4<f32> {
  // uv is the offset in σ along the ellipse's axes, so dᵀ Σ⁻¹ d = |uv|².
  let alpha = min(0.99, in.color.a * exp(-0.5 * dot(in.uv, in.uv)));
  if (alpha < 1.0 / 255.0) { discard; }
  return vec4<f32>(in.color.rgb * alpha, alpha);
}
`;
