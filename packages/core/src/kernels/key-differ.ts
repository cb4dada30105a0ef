/**
 * How the run-based kernels compare two keys: `'int'` by their bits (u32, i32), `'f32'` as
 * JavaScript's and WGSL's `==` (NaN unlike everything, itself included; −0 like +0).
 */
export type KeyCompare = 'int' | 'f32';

/**
 * WGSL `fn key_differ(a: u32, b: u32) -> bool`: whether the keys whose bits are `a` and `b` lie in
 * different runs (the discontinuity of a run-based pass). f32 keys are compared by their bits, not
 * by f32 compares, which a compiler may assume free of NaN. One exit, so a kernel may call it
 * between subgroup operations.
 *
 * @example
 * ```ts
 * const wgsl = `${keyDifferWgsl('f32')}
 * fn head(e: u32) -> bool { return e == 0u || key_differ(keys[e - 1u], keys[e]); }`;
 * ```
 */
export function keyDifferWgsl(compare: KeyCompare): string {
  if (compare === 'int') return 'fn key_differ(a: u32, b: u32) -> bool { return a != b; }';
  return `fn key_differ(a: u32, b: u32) -> bool {
  let nan = (a & 0x7fffffffu) > 0x7f800000u || (b & 0x7fffffffu) > 0x7f800000u;
  return nan || (a != b && ((a | b) & 0x7fffffffu) != 0u);
}`;
}
