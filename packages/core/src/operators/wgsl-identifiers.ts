/**
 * Words no WGSL identifier may spell: the keywords and reserved words of the current WGSL
 * specification, and those of earlier drafts (type names such as `f32`, `vec2`, `array` were
 * keywords there, and naga still rejects them), so a name accepted here compiles on every browser.
 */
const WGSL_RESERVED: ReadonlySet<string> = new Set(
  [
    // Keywords (current specification).
    'alias break case const const_assert continue continuing default diagnostic discard else enable false fn for if let',
    'loop override requires return struct switch true var while',
    // Keywords of earlier drafts, still reserved by naga.
    'array atomic bitcast bool f16 f32 i32 i64 mat2x2 mat2x3 mat2x4 mat3x2 mat3x3 mat3x4 mat4x2 mat4x3 mat4x4 ptr sampler',
    'sampler_comparison texture_1d texture_2d texture_2d_array texture_3d texture_cube texture_cube_array',
    'texture_multisampled_2d texture_storage_1d texture_storage_2d texture_storage_2d_array texture_storage_3d',
    'texture_depth_2d texture_depth_2d_array texture_depth_cube texture_depth_cube_array texture_depth_multisampled_2d',
    'type u32 u64 vec2 vec3 vec4 static_assert CompileShader ComputeShader DomainShader GeometryShader Hullshader handle inout signed',
    // Reserved words.
    'NULL Self abstract active alignas alignof as asm asm_fragment async attribute auto await become binding_array cast catch',
    'class co_await co_return co_yield coherent column_major common compile compile_fragment concept const_cast consteval',
    'constexpr constinit crate debugger decltype delete demote demote_to_helper do dynamic_cast enum explicit export extends',
    'extern external fallthrough filter final finally friend from fxgroup get goto groupshared highp impl implements import',
    'inline instanceof interface layout lowp macro macro_rules match mediump meta mod module move mut mutable namespace new',
    'nil noexcept noinline nointerpolation non_coherent noncoherent noperspective null nullptr of operator package packoffset',
    'partition pass patch pixelfragment precise precision premerge priv protected pub public readonly ref regardless register',
    'reinterpret_cast require resource restrict self set shared sizeof smooth snorm static static_cast std subroutine super',
    'target template this thread_local throw trait try typedef typeid typename typeof union unless unorm unsafe unsized use',
    'using varying virtual volatile wgsl where with writeonly yield',
  ]
    .join(' ')
    .split(' '),
);

/**
 * Why `name` cannot be a WGSL identifier (a phrase to follow the name), or `undefined` when it can. ASCII only: WGSL allows
 * Unicode identifiers (XID), but JavaScript's regular expressions have no XID classes to check them
 * with, and a name the shader compiler rejects should fail here, not at pipeline creation.
 *
 * @example
 * ```ts
 * wgslIdentifierProblem('index'); // undefined
 * wgslIdentifierProblem('__x'); // 'starts with two underscores, which WGSL reserves'
 * wgslIdentifierProblem('loop'); // 'is a WGSL keyword or reserved word'
 * ```
 */
export function wgslIdentifierProblem(name: string): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return 'is not an ASCII identifier (a letter or _, then letters, digits or _)';
  if (name === '_') return 'is a single underscore, which WGSL reserves';
  if (name.startsWith('__')) return 'starts with two underscores, which WGSL reserves';
  if (WGSL_RESERVED.has(name)) return 'is a WGSL keyword or reserved word';
  return undefined;
}
