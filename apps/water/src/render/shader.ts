/**
 * WGSL of the surface renderer: a full-screen triangle whose fragment shader reads the height and
 * bottom buffers directly (storage buffers, no read-back, no vertex mesh to rebuild) and lights
 * them as height maps seen from above: terrain colored by elevation, water over it colored by depth,
 * both shaded by normals from central differences, with a specular highlight on the waves.
 */
export const SURFACE_WGSL = /* wgsl */ `
struct View {
  n: u32,
  _pad: u32,
  waterLevel: f32,
  dx: f32,
}
@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var<storage, read> height: array<f32>;
@group(0) @binding(2) var<storage, read> bottom: array<f32>;

struct Varyings {
  @builtin(position) position: vec4f,
  @location(0) uv: vec2f,
}

@vertex
fn vs(@builtin(vertex_index) index: u32) -> Varyings {
  // One triangle covering the screen: (0,0), (2,0), (0,2) in [0,1]-units.
  let p = vec2f(f32((index << 1u) & 2u), f32(index & 2u));
  var out: Varyings;
  out.position = vec4f(p * 2.0 - 1.0, 0.0, 1.0);
  // uv (0,0) is the top-left corner, where cell (0,0) of the row-major grid is drawn.
  out.uv = vec2f(p.x, 1.0 - p.y);
  return out;
}

// (h, bottom) of cell (x, y), clamped to the grid so the border repeats.
fn cell(x: i32, y: i32) -> vec2f {
  let last = i32(view.n) - 1;
  let i = u32(clamp(y, 0, last)) * view.n + u32(clamp(x, 0, last));
  return vec2f(height[i], bottom[i]);
}

// Bilinear (h, bottom) at grid coordinates p (cell centres at integers), so small grids look smooth.
fn sampleGrid(p: vec2f) -> vec2f {
  let f = floor(p);
  let t = p - f;
  let x = i32(f.x);
  let y = i32(f.y);
  let top = mix(cell(x, y), cell(x + 1, y), t.x);
  let below = mix(cell(x, y + 1), cell(x + 1, y + 1), t.x);
  return mix(top, below, t.y);
}

fn terrainColor(elevation: f32) -> vec3f {
  // elevation is bottom − water level.
  let seabed = mix(vec3f(0.62, 0.56, 0.42), vec3f(0.78, 0.72, 0.54), smoothstep(-1.2, 0.0, elevation));
  let sand = vec3f(0.86, 0.80, 0.60);
  let grass = vec3f(0.33, 0.52, 0.24);
  let rock = vec3f(0.52, 0.47, 0.42);
  var c = seabed;
  c = mix(c, sand, smoothstep(-0.02, 0.02, elevation));
  c = mix(c, grass, smoothstep(0.08, 0.2, elevation));
  c = mix(c, rock, smoothstep(0.45, 0.7, elevation));
  return c;
}

// Towards the sun, in screen axes with y up: light from the top left.
const SUN = vec3f(-0.45, 0.55, 0.70);

@fragment
fn fs(in: Varyings) -> @location(0) vec4f {
  let n = f32(view.n);
  let p = in.uv * n - 0.5;
  let here = sampleGrid(p);
  let east = sampleGrid(p + vec2f(1.0, 0.0));
  let west = sampleGrid(p - vec2f(1.0, 0.0));
  let south = sampleGrid(p + vec2f(0.0, 1.0));
  let north = sampleGrid(p - vec2f(0.0, 1.0));
  // Slopes per unit length: (east − west) / 2Δx, likewise along y.
  let slopeX = (east - west) / (2.0 * view.dx);
  let slopeY = (south - north) / (2.0 * view.dx);
  let sun = normalize(SUN);

  // Terrain: slopes exaggerated 6× so gentle relief reads from above.
  let terrainNormal = normalize(vec3f(-6.0 * slopeX.y, 6.0 * slopeY.y, 1.0));
  let ground = terrainColor(here.y - view.waterLevel) * (0.35 + 0.65 * max(dot(terrainNormal, sun), 0.0));

  let depth = here.x - here.y;
  if (depth <= 0.002) {
    return vec4f(ground, 1.0);
  }
  // Water: waves are small, so their slopes are exaggerated more (80×) for the lighting.
  let waterNormal = normalize(vec3f(-80.0 * slopeX.x, 80.0 * slopeY.x, 1.0));
  let absorbed = 1.0 - exp(-1.8 * depth);
  let shallow = vec3f(0.22, 0.68, 0.72);
  let deep = vec3f(0.03, 0.16, 0.38);
  let diffuse = 0.55 + 0.45 * max(dot(waterNormal, sun), 0.0);
  let halfway = normalize(sun + vec3f(0.0, 0.0, 1.0));
  let specular = pow(max(dot(waterNormal, halfway), 0.0), 80.0) * 0.7;
  // Crests a little lighter and troughs darker than the rest level, so the wave pattern shows even
  // where the lighting is flat; a thin lighter rim where the water is very shallow.
  let swell = clamp((here.x - view.waterLevel) * 3.0, -0.3, 0.3);
  var water = mix(shallow, deep, absorbed) * diffuse + vec3f(specular) + vec3f(swell * 0.5);
  water = mix(water, vec3f(0.9, 0.95, 0.95), 0.35 * (1.0 - smoothstep(0.0, 0.05, depth)));
  let opacity = clamp(0.45 + 0.55 * absorbed, 0.0, 1.0) * smoothstep(0.002, 0.02, depth);
  return vec4f(mix(ground, water, opacity), 1.0);
}
`;
