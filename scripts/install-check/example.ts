// What a new user writes after `npm install @scan/core webgpu` (and the other packages): typed with
// the packages' own declarations (no @webgpu/types in this project's tsconfig), run in Node on
// whatever adapter Dawn finds (SwiftShader in CI). Every result is compared with the CPU reference.
import { type ScanContext, ScanError, scan } from '@scan/core';
import { scan as cpuScan } from '@scan/core/cpu';
import { createNodeContext } from '@scan/core/node';
import { HiSparseMatrix } from '@scan/hisparse';
import { hisparseFromCsr, hisparseSpmv, transpose } from '@scan/hisparse/cpu';
import { segmentedScan } from '@scan/segmented';
import { segmentedScan as cpuSegmentedScan } from '@scan/segmented/cpu';
import { sort } from '@scan/sort';
import { type CsrMatrix, poisson2d, spmv } from '@scan/spmv';
import { spmv as cpuSpmv } from '@scan/spmv/cpu';
import { tcuReduce } from '@scan/tcu';
import { solveTridiagonal } from '@scan/tridiag';
import { solveTridiagonal as cpuSolve } from '@scan/tridiag/cpu';

function check(name: string, ok: boolean): void {
  if (!ok) throw new Error(`${name}: the GPU result differs from the CPU reference`);
  console.log(`ok  ${name}`);
}
const near = (a: ArrayLike<number>, b: ArrayLike<number>, tol: number): boolean =>
  a.length === b.length && Array.from(a).every((v, i) => Math.abs(v - (b[i] as number)) <= tol * (1 + Math.abs(b[i] as number)));

const ctx: ScanContext = await createNodeContext();
const device: GPUDevice = ctx.device;
console.log(
  `adapter: ${ctx.caps.adapter.description || ctx.caps.adapter.vendor} (limits: ${device.limits.maxStorageBufferBindingSize} bytes per binding)`,
);

const data = Uint32Array.from({ length: 1000 }, (_, i) => (i * 7919) % 101);
check('scan', near(await scan(ctx, data), cpuScan(data), 0));

const heads = Uint8Array.from({ length: 1000 }, (_, i) => (i % 37 === 0 ? 1 : 0));
check('segmentedScan', near(await segmentedScan(ctx, data, heads), cpuSegmentedScan(data, heads), 0));

const keys = Float32Array.from({ length: 1000 }, (_, i) => Math.sin(i) * 100);
const sorted = await sort(ctx, keys);
check('sort', near(sorted.keys, Float32Array.from(keys).sort(), 0));

const A: CsrMatrix = poisson2d(20);
const x = Float32Array.from({ length: A.cols }, (_, i) => i % 3);
check('spmv', near(await spmv(ctx, A, x), cpuSpmv(A, x), 1e-5));

const H = await HiSparseMatrix.fromCsr(ctx, A, { nodeSize: 16 });
check(
  'HiSparseMatrix.spmv (transpose)',
  near(await H.spmv(x, { transpose: true }), hisparseSpmv(transpose(hisparseFromCsr(A, { nodeSize: 16 })), x), 1e-5),
);
H.destroy();

const n = 16;
const batch = 4;
const system = {
  a: Float32Array.from({ length: n * batch }, () => -1),
  b: Float32Array.from({ length: n * batch }, () => 4),
  c: Float32Array.from({ length: n * batch }, () => -1),
  d: Float32Array.from({ length: n * batch }, (_, i) => i % 5),
  n,
  batch,
};
check('solveTridiagonal', near(await solveTridiagonal(ctx, system), cpuSolve(system), 1e-4));

// Tensor cores need the subgroup-matrix feature; elsewhere the call says so with a ScanError.
try {
  const sums = await tcuReduce(ctx, new Float32Array(256).fill(1));
  check('tcuReduce', sums[0] === 256);
} catch (error) {
  if (!(error instanceof ScanError && error.code === 'UNSUPPORTED')) throw error;
  console.log(`ok  tcuReduce: ${error.code} on this adapter, as documented`);
}
ctx.destroy();
