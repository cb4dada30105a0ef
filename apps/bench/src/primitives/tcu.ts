import type { ScanContext } from '@scan/core';
import { defineKernel, read, readWrite } from '@scan/core/kit';
import { createTcuReducePlan, createTcuScanPlan, prepareTcu, type TcuPlan } from '@scan/tcu';
import { benchModule } from '../bench-module.js';
import type { Case, CaseShape } from '../case-types.js';
import { encodeFill, runCheck } from '../child/device-ops.js';
import { BufferPool, encodeKernel, readWords, submitAndWait } from '../child/gpu.js';
import { COMMON_WGSL, ENTRY_ARGS, ERROR_BINDING, ERROR_WGSL } from '../child/kernels/common.js';
import { HASH_WGSL } from '../child/kernels/fill.js';
import { POISON, UnsupportedCaseError, type Workload } from '../child/workload.js';
import { bytesMoved } from '../metrics.js';

/**
 * The cases of `@scan/tcu` (`--only tcu-reduce,tcu-scan`): the regular segmented sum and the
 * inclusive segmented prefix sum of f16 values with f32 results, as matrix products.
 */
export const TCU_PRIMITIVES = ['tcu-reduce', 'tcu-scan'] as const;
export type TcuPrimitive = (typeof TCU_PRIMITIVES)[number];

/** The two paths of `@scan/tcu`, run side by side; the case's `algorithm` names the path. */
export const TCU_PATHS = ['subgroup-matrix', 'emulated'] as const;
export type TcuPathName = (typeof TCU_PATHS)[number];

/** A tcu case: the path, the f16 input type (`type` is the f32 output's) and the segment size. */
export type TcuCase = Case<TcuPrimitive, { algorithm: TcuPathName; inputType: 'f16'; segmentSize: number }>;

/** Segment sizes of the tcu cases: warp level (16), block level (256, 4096) and grid level (65536). */
export const TCU_SEGMENT_SIZES: readonly number[] = [16, 256, 4096, 65536];

/**
 * The tcu configurations: per primitive, per segment size, both paths (subgroup-matrix first), f16
 * inputs (`inputType`) with f32 output and accumulation (`type`).
 *
 * @example
 * ```ts
 * tcuShapes().length; // 2 primitives × 4 segment sizes × 2 paths = 16
 * tcuShapes()[0]; // { primitive: 'tcu-reduce', algorithm: 'subgroup-matrix', type: 'f32', inputType: 'f16', segmentSize: 16 }
 * ```
 */
export function tcuShapes(segmentSizes: readonly number[] = TCU_SEGMENT_SIZES): CaseShape<TcuCase>[] {
  return TCU_PRIMITIVES.flatMap((primitive) =>
    segmentSizes.flatMap((segmentSize) =>
      TCU_PATHS.map((algorithm): CaseShape<TcuCase> => ({ primitive, algorithm, type: 'f32', inputType: 'f16', segmentSize })),
    ),
  );
}

/**
 * Segments of a case of n elements with segment size s (the last may be shorter).
 *
 * @example
 * ```ts
 * tcuSegments(2 ** 16, 256); // 256
 * tcuSegments(1000, 16); // 63
 * ```
 */
export function tcuSegments(n: number, segmentSize: number): number {
  return Math.ceil(n / segmentSize);
}

/**
 * Relative error allowed between two f32 sums of the same `terms` f16 values in different orders:
 * (2·terms + 8)·2^-24, to be multiplied by Σ|x| (each order is within terms·2^-24·Σ|x| of the exact
 * sum; 8 more units cover the rounding of the bound itself and of Σ|x|).
 *
 * @example
 * ```ts
 * tcuErrorFactor(16) * 2 ** 24; // 40
 * ```
 */
export function tcuErrorFactor(terms: number): number {
  return (2 * terms + 8) * 2 ** -24;
}

/**
 * The generator, on the GPU: element i gets k/256 − 4 with k = hash(i, seed) mod 2048, a value in
 * [−4, 4) that f16 holds exactly; two per u32 word (`pack2x16float`, element 2w in the low half),
 * 0 in the high half of the last word when n is odd. Parameters: `n` elements, `seed`.
 */
const generateKernel = defineKernel({
  name: 'bench/tcu-generate-f16',
  bindings: { words: readWrite('array<u32>') },
  params: { n: 'u32', seed: 'u32' },
  wgsl: () => `${COMMON_WGSL}${HASH_WGSL}
fn value(i: u32) -> f32 {
  if (i >= params.n) { return 0.0; }
  return f32(rand(i, params.seed) & 2047u) / 256.0 - 4.0;
}
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let w = global_index(wid, nwg, lid);
  if (2u * w >= params.n) { return; }
  words[w] = pack2x16float(vec2<f32>(value(2u * w), value(2u * w + 1u)));
}
`,
})({});

/** WGSL shared by the checks: element i of the packed f16 input (binding `words`), as f32. */
const HALF_AT_WGSL = `
fn half_at(i: u32) -> f32 {
  let pair = unpack2x16float(words[i >> 1u]);
  return select(pair.x, pair.y, (i & 1u) == 1u);
}
`;

/**
 * The checks, independent of `@scan/tcu`: one invocation per segment runs the sequential sum of its
 * f16 values in f32 and compares the plan's output with it within (2·terms + 8)·2^-24·Σ|x| — the
 * segment's total for reduce, every element's inclusive prefix for scan (mismatches then name
 * elements). A NaN, infinite or poisoned output fails. Bindings: `words` (the input), `out`, `err`;
 * parameters `n` elements, `segmentSize`, `segments`.
 */
const checkKernel = defineKernel({
  name: 'bench/check-tcu',
  bindings: { words: read('array<u32>'), out: read('array<f32>'), ...ERROR_BINDING },
  params: { n: 'u32', segmentSize: 'u32', segments: 'u32' },
  wgsl: (spec: { scan: boolean }) => {
    const scan = spec.scan;
    const compare = (terms: string, got: string, at: string) =>
      `if (!(abs(${got} - sum) <= (2.0 * f32(${terms}) + 8.0) * 5.9604645e-8 * mag)) { mismatch(${at}); }`;
    return `${COMMON_WGSL}${HALF_AT_WGSL}${ERROR_WGSL}
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let k = global_index(wid, nwg, lid);
  if (k >= params.segments) { return; }
  let start = k * params.segmentSize;
  let end = min(start + params.segmentSize, params.n);
  var sum = 0.0;
  var mag = 0.0;
  for (var i = start; i < end; i++) {
    let x = half_at(i);
    sum += x;
    mag += abs(x);
    ${scan ? compare('i - start + 1u', 'out[i]', 'i') : ''}
  }
  ${scan ? '' : compare('end - start', 'out[k]', 'k')}
}
`;
  },
});

/** Offset between the seed of the data and the case seed, so they differ from other cases' data. */
const SEED_OFFSET = 0x7c01;

/**
 * An IEEE half (16 bits) as a number (for the CPU comparison).
 *
 * @example
 * ```ts
 * halfToNumber(0x3c00); // 1
 * halfToNumber(0xc400); // -4
 * ```
 */
export function halfToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 31) return mantissa ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1024 + mantissa) * 2 ** (exponent - 25);
}

/**
 * Why the subgroup-matrix path cannot run here (`prepareTcu` found no usable f16 config), or
 * undefined when it can.
 */
async function subgroupMatrixUnsupported(ctx: ScanContext): Promise<string | undefined> {
  if (!ctx.caps.features.subgroupMatrix) return 'the device has no chromium-experimental-subgroup-matrix';
  const support = await prepareTcu(ctx);
  if (!support.f16.syntax || !support.f16.config || support.subgroupSize === undefined) {
    return support.f16.reason || 'no usable f16 subgroup-matrix config';
  }
  return undefined;
}

async function tcuWorkload(ctx: ScanContext, c: TcuCase): Promise<Workload> {
  const primitive = c.primitive;
  const path = c.algorithm;
  if (!(TCU_PATHS as readonly string[]).includes(path)) throw new Error(`${primitive}: unknown path ${String(c.algorithm)}`);
  const segmentSize = c.segmentSize;
  if (segmentSize === undefined || !Number.isInteger(segmentSize) || segmentSize < 1) {
    throw new Error(`${primitive}: the case has no segment size`);
  }
  if (path === 'subgroup-matrix') {
    const why = await subgroupMatrixUnsupported(ctx);
    if (why) throw new UnsupportedCaseError(`unsupported on this device: subgroup-matrix path: ${why}`);
  }
  const n = c.n;
  const segments = tcuSegments(n, segmentSize);
  const outputs = primitive === 'tcu-reduce' ? segments : n;
  const pool = new BufferPool(ctx);
  const input = pool.storage(4 * Math.ceil(n / 2), 'tcu f16 input');
  const output = pool.storage(4 * outputs, 'tcu f32 output');
  const setup = ctx.device.createCommandEncoder();
  const generateParams = pool.params(generateKernel, { n, seed: c.seed + SEED_OFFSET });
  encodeKernel(ctx, setup, generateKernel, { words: input, params: generateParams }, { invocations: Math.ceil(n / 2) });
  encodeFill(ctx, pool, setup, output, outputs, 'constant', 0, POISON);
  await submitAndWait(ctx, setup);
  let plan: TcuPlan;
  try {
    plan = primitive === 'tcu-reduce' ? createTcuReducePlan(ctx, { path }) : createTcuScanPlan(ctx, { inclusive: true, path });
  } catch (error) {
    pool.destroy();
    throw error;
  }
  if (plan.path.kind !== path) {
    plan.destroy();
    pool.destroy();
    throw new Error(`${primitive}: asked for the ${path} path, the plan took ${plan.path.kind}`);
  }
  const args = { input, output, count: n, segmentSize };
  const check = checkKernel({ scan: primitive === 'tcu-scan' });
  return {
    bytes: bytesMoved(primitive, n, segments),
    output,
    segments,
    encode: (encoder) => plan.encode(encoder, args),
    verify: () =>
      runCheck(ctx, pool, (encoder, errors) =>
        encodeKernel(
          ctx,
          encoder,
          check,
          { words: input, out: output, err: errors, params: pool.params(check, { n, segmentSize, segments }) },
          { invocations: segments },
        ),
      ),
    async compareWithCpu() {
      // f64 sums of the exact f16 inputs; the plan's f32 results within the same bound as the GPU check.
      const words = await readWords(ctx, input, Math.ceil(n / 2));
      const got = new Float32Array((await readWords(ctx, output, outputs)).buffer);
      let wrong = 0;
      for (let k = 0; k < segments; k++) {
        const start = k * segmentSize;
        const end = Math.min(start + segmentSize, n);
        let sum = 0;
        let mag = 0;
        for (let i = start; i < end; i++) {
          const x = halfToNumber(((words[i >> 1] as number) >>> (16 * (i & 1))) & 0xffff);
          sum += x;
          mag += Math.abs(x);
          if (primitive === 'tcu-scan' && !(Math.abs((got[i] as number) - sum) <= tcuErrorFactor(i - start + 1) * mag)) wrong++;
        }
        if (primitive === 'tcu-reduce' && !(Math.abs((got[k] as number) - sum) <= tcuErrorFactor(end - start) * mag)) wrong++;
      }
      return wrong;
    },
    destroy() {
      plan.destroy();
      pool.destroy();
    },
  };
}

/**
 * `@scan/tcu` in the registry: both paths at three segment sizes (on SwiftShader, where the
 * subgroup-matrix cases are skipped at once, the twelve take about half a minute at 2^12). A case: n f16 values
 * in [−4, 4) generated on the GPU, the plan of the case's path and segment size, checked on the
 * GPU by one sequential f32 sum per segment (and against f64 sums at n ≤ 2^16). The
 * subgroup-matrix path on a device without subgroup matrices (or where `prepareTcu` finds the f16
 * family unusable) throws `UnsupportedCaseError`: the case becomes `skipped`, "unsupported on this
 * device".
 *
 * @example
 * ```ts
 * TCU.primitives; // ['tcu-reduce', 'tcu-scan']
 * ```
 */
export const TCU = benchModule<TcuCase>({
  package: '@scan/tcu',
  primitives: TCU_PRIMITIVES,
  shapes: () => tcuShapes(),
  // A fixed segment longer than the array would just be the whole array again.
  runsAt: (shape, n) => shape.segmentSize <= n,
  workload: tcuWorkload,
});
