import type { ElementType, ScanOp } from '@scan/core';
import { readWrite } from '@scan/core/kit';

/** Invocations per workgroup of every bench kernel. */
export const WG = 256;

/**
 * WGSL shared by the bench kernels: `global_index`, which linearizes a possibly 2-D dispatch
 * (`dispatchShape`) so sizes past 65 535 × 256 work, and `group_index`. Each kernel's parameters
 * are its own `Params` block, which its definition declares (`defineKernel`).
 */
export const COMMON_WGSL = `
fn global_index(wid: vec3<u32>, nwg: vec3<u32>, lid: vec3<u32>) -> u32 {
  return (wid.x + wid.y * nwg.x) * ${WG}u + lid.x;
}
fn group_index(wid: vec3<u32>, nwg: vec3<u32>) -> u32 { return wid.x + wid.y * nwg.x; }
// An f32 from its bits at run time: WGSL rejects a constant bitcast to ±∞ (an identity of min and max).
fn f32_of_bits(b: u32) -> f32 { return bitcast<f32>(b); }
`;

/** The builtin parameters every entry point takes. */
export const ENTRY_ARGS =
  '@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>';

/**
 * `op(a, b)` as WGSL — written here rather than taken from `@scan/core`, so that a bug in the
 * library's operator code cannot hide in its own verification.
 *
 * @example
 * ```ts
 * combineWgsl('max', 'x', 'y'); // 'max(x, y)'
 * ```
 */
export function combineWgsl(op: ScanOp, a: string, b: string): string {
  switch (op) {
    case 'add':
      return `(${a} + ${b})`;
    case 'mul':
      return `(${a} * ${b})`;
    case 'min':
      return `min(${a}, ${b})`;
    case 'max':
      return `max(${a}, ${b})`;
    case 'and':
      return `(${a} & ${b})`;
    case 'or':
      return `(${a} | ${b})`;
    case 'xor':
      return `(${a} ^ ${b})`;
  }
}

/**
 * The identity of `op` on `type` as a WGSL expression (infinities and the smallest i32 as bit casts,
 * which WGSL has no literal for).
 *
 * @example
 * ```ts
 * identityWgsl('min', 'u32'); // '0xffffffffu'
 * ```
 */
export function identityWgsl(op: ScanOp, type: ElementType): string {
  const zero = type === 'u32' ? '0u' : type === 'i32' ? '0i' : '0.0f';
  const one = type === 'u32' ? '1u' : type === 'i32' ? '1i' : '1.0f';
  switch (op) {
    case 'add':
    case 'or':
    case 'xor':
      return zero;
    case 'mul':
      return one;
    case 'and':
      return type === 'u32' ? '0xffffffffu' : 'bitcast<i32>(0xffffffffu)';
    case 'min':
      return type === 'u32' ? '0xffffffffu' : type === 'i32' ? 'bitcast<i32>(0x7fffffffu)' : 'f32_of_bits(0x7f800000u)';
    case 'max':
      return type === 'u32' ? '0u' : type === 'i32' ? 'bitcast<i32>(0x80000000u)' : 'f32_of_bits(0xff800000u)';
  }
}

/**
 * Index encoding used for split and pack inputs: element i holds a value that names i, so an output
 * position tells which input it came from. u32/i32 store i itself; f32 stores a normal float whose
 * exponent and mantissa spell i (order-preserving, never subnormal, so no flush-to-zero can alter it).
 */
export const INDEX_CODEC_WGSL = `
fn encode_index_f32(i: u32) -> u32 { return ((127u + (i >> 23u)) << 23u) | (i & 0x7fffffu); }
fn decode_index_f32(bits: u32) -> u32 { return (((bits >> 23u) - 127u) << 23u) | (bits & 0x7fffffu); }
`;

/** Largest index the f32 index encoding represents (exponents up to 127 + 127). */
export const MAX_F32_INDEX = 2 ** 30;

/**
 * The error counter every check kernel binds as `err`: [0] mismatches, [1] first mismatching index
 * (see `runCheck`). Spread into a definition's bindings where the counter goes.
 *
 * @example
 * ```ts
 * bindings: { inp: read('array<u32>'), out: read('array<u32>'), ...ERROR_BINDING }
 * ```
 */
export const ERROR_BINDING = { err: readWrite('array<atomic<u32>, 2>') } as const;

/**
 * `mismatch(i)`: counts a mismatch at index i into {@link ERROR_BINDING}'s counter.
 *
 * @example
 * ```ts
 * wgsl: () => `${COMMON_WGSL}${ERROR_WGSL}
 * @compute @workgroup_size(256) fn main(…) { if (out[i] != inp[i]) { mismatch(i); } }`
 * ```
 */
export const ERROR_WGSL = `
fn mismatch(i: u32) { atomicAdd(&err[0], 1u); atomicMin(&err[1], i); }
`;
