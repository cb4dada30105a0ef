import { type ScanContext, ScanError } from '@scan/core';
import {
  assertUsable,
  type BufferRef,
  checkEncodeArgs,
  checkOptions,
  dispatchShape,
  planOf,
  type Recipe,
  RecipeBuilder,
  RecipeExecutor,
} from '@scan/core/kit';
import { backwardSubstitutionKernel, forwardReductionKernel } from '../kernels/global-levels.js';
import { partitionReducedCapacity, partitionSolveKernel } from '../kernels/partition-solve.js';
import { type WorkgroupSolveSpec, workgroupSolveBytes, workgroupSolveKernel } from '../kernels/workgroup-solve.js';
import type { TridiagonalAlgorithm, TridiagonalEncodeArgs, TridiagonalPlan, TridiagonalPlanOptions } from '../types.js';
import { checkAlgorithm, checkLayout, checkPositiveInteger, invalidTridiagonalArgument } from '../validate.js';

/**
 * Unknowns left to PCR by the CR+PCR hybrid, by default (Zhang et al. found intermediate sizes best).
 *
 * @example
 * ```ts
 * DEFAULT_SWITCH_SIZE; // 128
 * ```
 */
export const DEFAULT_SWITCH_SIZE = 128;
/**
 * Invocations per workgroup of the workgroup solve, by default (fewer on devices that allow fewer,
 * and at most half the system's padded size).
 *
 * @example
 * ```ts
 * DEFAULT_WORKGROUP_SIZE; // 512
 * ```
 */
// Measured on the H100 (BENCHMARKS.md): 4096 × 1024 took 0.121 ms at 256, 0.111 ms at 512, 0.161 ms at 128.
export const DEFAULT_WORKGROUP_SIZE = 512;
/**
 * Workgroup memory the solve aims to stay within, so several workgroups share a multiprocessor.
 *
 * @example
 * ```ts
 * WORKGROUP_MEMORY_TARGET; // 38912
 * ```
 */
// 38 KiB: room for 2048 unknowns at 16.5 bytes each (the padding), the hybrid's PCR row exchange
// (4 KiB) and the pivot flag.
export const WORKGROUP_MEMORY_TARGET = 38 * 1024;
/**
 * Rows per invocation of the partition method (two vec4s of each array), measured on the H100 at
 * 4096 × 1024 (BENCHMARKS.md): blocks of 8 took 0.044 ms, of 4 0.051–0.056, of 16 0.046–0.053
 * (PCR from 32, 64 or 128 unknowns of the reduced system: within 3%; 128, the hybrid's default,
 * is also the fastest at 2048 × 2048).
 *
 * @example
 * ```ts
 * DEFAULT_PARTITION_BLOCK; // 8
 * ```
 */
export const DEFAULT_PARTITION_BLOCK = 8;
/** Smallest capacity a workgroup solve is compiled for (tiny systems share one kernel). */
const MIN_CAPACITY = 32;
/** Invocations per workgroup of the global levels. */
const LEVEL_WORKGROUP_SIZE = 256;

/** Options of {@link createTridiagonalPlan}, with the internal tuning knobs. */
interface InternalPlanOptions extends TridiagonalPlanOptions {
  /** Largest system solved in one workgroup (a power of two; tests lower it to reach the global levels). */
  maxWorkgroupSystem?: number;
  /** Invocations per workgroup of the workgroup solve. */
  workgroupSize?: number;
  /** Unknowns left to PCR by `'cr-pcr'` (a power of two ≥ 2). */
  switchSize?: number;
  /** Rows per invocation of `'partition'` (a power of two ≥ 4). */
  partitionBlock?: number;
}

const nextPowerOfTwo = (v: number) => 2 ** Math.ceil(Math.log2(Math.max(1, v)));
const floorPowerOfTwo = (v: number) => 2 ** Math.floor(Math.log2(v));

function checkPowerOfTwo(value: unknown, argument: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const v = checkPositiveInteger(value, argument);
  if (v < min || floorPowerOfTwo(v) !== v) invalidTridiagonalArgument(argument, value, `expected a power of two ≥ ${min}`);
  return v;
}

/**
 * The algorithm `'auto'` picks: the partition method, which runs where it applies (contiguous
 * systems, n a multiple of 4, fitting a workgroup) and is the CR+PCR hybrid elsewhere; the hybrid
 * is PCR alone for systems of at most the switch size and does fewer, less conflicting
 * workgroup-memory steps than CR above it. On the H100 the partition method solved 4096 × 1024
 * in 0.044 ms against the hybrid's 0.095 (BENCHMARKS.md).
 *
 * @example
 * ```ts
 * resolveAlgorithm('auto'); // 'partition'
 * ```
 */
export function resolveAlgorithm(algorithm: TridiagonalAlgorithm): Exclude<TridiagonalAlgorithm, 'auto'> {
  return algorithm === 'auto' ? 'partition' : algorithm;
}

/**
 * The largest system one workgroup solves on this device: the largest power of two whose 16.5 bytes
 * per unknown (16 plus bank-conflict padding), with 4 KiB left for the hybrid's PCR rows, stay
 * within both the device's `maxComputeWorkgroupStorageSize` and {@link WORKGROUP_MEMORY_TARGET}
 * (512 unknowns at the 16 KiB WebGPU minimum, 1024 at 32 KiB, 2048 from 38 KiB on).
 *
 * @example
 * ```ts
 * workgroupCapacity(ctx); // 2048 on the H100 (48 KiB allowed, 38 KiB targeted)
 * ```
 */
export function workgroupCapacity(ctx: ScanContext): number {
  const bytes = Math.min(ctx.caps.limits.maxComputeWorkgroupStorageSize, WORKGROUP_MEMORY_TARGET);
  // 4 bytes of the budget go to the zero-pivot flag and 32 per PCR row (at the default switch size)
  // to the hybrid's row exchange; each unknown takes 16 bytes plus 1/32 of that in bank-conflict
  // padding.
  return floorPowerOfTwo(Math.max(MIN_CAPACITY * 16.5, bytes - 4 - 32 * DEFAULT_SWITCH_SIZE) / 16.5);
}

/**
 * Creates a reusable solver of `batch` tridiagonal systems of `n` unknowns (buffer level). Systems
 * of up to {@link workgroupCapacity} unknowns are solved one per workgroup in workgroup memory;
 * larger ones go through global cyclic-reduction levels first — each a dispatch that halves every
 * system into the plan's scratch — until the reduced system fits a workgroup, which is solved
 * there, then global backward-substitution levels back to `x`. `algorithm` picks the workgroup
 * solver: `'cr'` (forward reduction to two unknowns), `'pcr'`, `'cr-pcr'` (forward reduction to
 * 128 unknowns, then PCR), `'partition'` (blocks of 8 rows per invocation eliminated in
 * registers, the reduced system of 2 unknowns per block solved by CR+PCR; contiguous systems with
 * n a multiple of 4 whose reduced system fits a workgroup, else `'cr-pcr'` runs and
 * `plan.algorithm` says so); the
 * global levels are cyclic reduction for every algorithm.
 *
 * `options.stride` is the layout of all five buffers of every encode: `'contiguous'` (default;
 * element i of system s at `s·n + i`) or `'interleaved'` (at `i·batch + s`). It is fixed here, with
 * `n` and `batch`, because the kernels are specialized for it; `solveTridiagonal` takes it in its
 * `systems` argument instead, beside the arrays.
 *
 * Made to be encoded every frame. Memory, fixed by `n` and `batch` at creation: the reduced rows of
 * the global levels (16 bytes for each of the ⌊n/2⌋ + ⌊n/4⌋ + … rows per system, only when n is past
 * a workgroup), a 16-byte status word for encodes without `status`, and a 4-slot parameter ring (a
 * 256-byte block per dispatch in each slot, made at the first encode); `plan.memoryBytes` says how
 * much is held. Every encode binds the same ranges — two structures, with and without `status` —
 * so once each has met a set of buffers, an encode creates no buffer, bind group or pipeline; new
 * `a`…`x` buffers make one bind group per dispatch and parameter slot (a bounded cache keeps the
 * most recent). `await plan.ready` compiles every kernel before the first frame. No pivoting is
 * done: the systems should be diagonally dominant. Pass `status` to learn which system met a zero
 * pivot.
 *
 * @example
 * ```ts
 * const plan = createTridiagonalPlan(ctx, { n: 1024, batch: 4096, stride: 'contiguous' });
 * await plan.ready;
 * const encoder = ctx.device.createCommandEncoder();
 * plan.encode(encoder, { a: sub, b: diag, c: sup, d: rhs, x, status }); // your buffers
 * ctx.device.queue.submit([encoder.finish()]);
 * plan.destroy();
 * ```
 */
export function createTridiagonalPlan(ctx: ScanContext, options: TridiagonalPlanOptions): TridiagonalPlan {
  assertUsable(ctx);
  if (options === null || typeof options !== 'object') {
    invalidTridiagonalArgument('options', options, 'expected { n, batch, stride?, algorithm? }');
  }
  const raw = checkOptions(options, [
    'n',
    'batch',
    'stride',
    'algorithm',
    'maxWorkgroupSystem',
    'workgroupSize',
    'switchSize',
    'partitionBlock',
  ]);
  const o = raw as unknown as InternalPlanOptions;
  const n = checkPositiveInteger(o.n, 'options.n');
  const batch = checkPositiveInteger(o.batch, 'options.batch');
  const stride = checkLayout(o.stride, 'options.stride');
  const algorithm = resolveAlgorithm(checkAlgorithm(o.algorithm, 'options.algorithm'));
  const limits = ctx.caps.limits;
  const bytes = 4 * n * batch;
  const bindable = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
  if (bytes > bindable) {
    throw new ScanError(
      'TOO_LARGE',
      `tridiagonal plan: n·batch = ${n}·${batch} needs ${bytes}-byte arrays, past what the device binds (${bindable} bytes)`,
      { argument: 'options.n' },
    );
  }
  const deviceInvocations = Math.min(limits.maxComputeInvocationsPerWorkgroup, limits.maxComputeWorkgroupSizeX);
  const maxCapacity = Math.min(
    workgroupCapacity(ctx),
    checkPowerOfTwo(o.maxWorkgroupSystem, 'options.maxWorkgroupSystem', MIN_CAPACITY) ?? Number.POSITIVE_INFINITY,
  );
  const wantedWorkgroup = checkPowerOfTwo(o.workgroupSize, 'options.workgroupSize', 1) ?? DEFAULT_WORKGROUP_SIZE;
  const switchSize = checkPowerOfTwo(o.switchSize, 'options.switchSize', 2) ?? DEFAULT_SWITCH_SIZE;
  const partitionBlock = checkPowerOfTwo(o.partitionBlock, 'options.partitionBlock', 4) ?? DEFAULT_PARTITION_BLOCK;

  // Global levels: halve until the system fits a workgroup. Level l + 1 starts right after level l
  // in each scratch array (level 0 is the caller's buffers).
  const sizes = [n];
  const offsets = [0];
  let scratchElements = 0;
  while ((sizes[sizes.length - 1] as number) > maxCapacity) {
    const next = Math.floor((sizes[sizes.length - 1] as number) / 2);
    offsets.push(scratchElements);
    sizes.push(next);
    scratchElements += next * batch;
  }
  const levels = sizes.length - 1;
  const solveN = sizes[levels] as number;
  const capacity = Math.max(MIN_CAPACITY, nextPowerOfTwo(solveN));
  const spec: WorkgroupSolveSpec = {
    layout: stride,
    source: levels === 0 ? 'buffers' : 'scratch',
    capacity,
    workgroupSize: Math.max(1, Math.min(wantedWorkgroup, capacity / 2, floorPowerOfTwo(deviceInvocations))),
    switchSize: algorithm === 'cr' ? 2 : algorithm === 'pcr' ? capacity : Math.min(switchSize, capacity),
  };
  if (workgroupSolveBytes(spec) > limits.maxComputeWorkgroupStorageSize) {
    throw new ScanError(
      'UNSUPPORTED',
      `tridiagonal plan: the workgroup solve needs ${workgroupSolveBytes(spec)} bytes of workgroup memory, past the device's ${limits.maxComputeWorkgroupStorageSize}`,
    );
  }
  const levelWorkgroup = Math.min(LEVEL_WORKGROUP_SIZE, floorPowerOfTwo(deviceInvocations));
  const maxDim = limits.maxComputeWorkgroupsPerDimension;
  // The partition method: contiguous systems of whole vec4s, a block of rows per invocation of one
  // workgroup, whose reduced system (2 unknowns per block) fits workgroup memory — up to 4·capacity
  // unknowns with blocks of 8; everything else runs the CR+PCR hybrid.
  const partitionWorkgroup = Math.max(2, nextPowerOfTwo(Math.ceil(n / partitionBlock)));
  const partition =
    algorithm === 'partition' &&
    stride === 'contiguous' &&
    2 * partitionWorkgroup <= maxCapacity &&
    n % 4 === 0 &&
    partitionWorkgroup <= floorPowerOfTwo(deviceInvocations)
      ? {
          block: partitionBlock,
          workgroupSize: partitionWorkgroup,
          switchSize: Math.min(switchSize, 2 * partitionWorkgroup),
        }
      : undefined;
  if (partition) {
    const reducedBytes = workgroupSolveBytes({ ...partition, capacity: partitionReducedCapacity(partition) });
    if (reducedBytes > limits.maxComputeWorkgroupStorageSize) {
      throw new ScanError(
        'UNSUPPORTED',
        `tridiagonal plan: the partition solve needs ${reducedBytes} bytes of workgroup memory, past the device's ${limits.maxComputeWorkgroupStorageSize}`,
      );
    }
  }

  const build = (withStatus: boolean): Recipe => {
    const b = new RecipeBuilder();
    const status: BufferRef = withStatus ? { role: 'status', offset: 0, size: 4 } : b.needScratch('status', 4);
    const caller = (name: string): BufferRef => ({ role: name, offset: 0, size: bytes });
    // Called only by the dispatches that bind the rows: a plan without global levels has none.
    const rows = (): BufferRef => b.needScratch('rows', 16 * scratchElements);
    const coefficients = { a_buf: caller('a'), b_buf: caller('b'), c_buf: caller('c'), d_buf: caller('d') };
    const levelDispatch = (threads: number) => {
      const workgroups = Math.ceil(threads / levelWorkgroup);
      return { workgroups, dispatch_x: dispatchShape(workgroups, maxDim).x };
    };
    // Forward reduction levels 0 → levels.
    for (let l = 0; l < levels; l++) {
      const first = l === 0;
      const threads = (sizes[l + 1] as number) * batch;
      const { workgroups, dispatch_x } = levelDispatch(threads);
      b.dispatch(
        forwardReductionKernel({ layout: stride, first, workgroupSize: levelWorkgroup }),
        first ? { ...coefficients, rows: rows(), status } : { rows: rows(), status },
        workgroups,
        { n: sizes[l] as number, batch, dispatch_x, offset: offsets[l] as number, next_offset: offsets[l + 1] as number, threads },
      );
    }
    if (partition) {
      const reduced = 2 * Math.ceil(n / partition.block);
      const paddedReduced = Math.max(2, nextPowerOfTwo(reduced));
      b.dispatch(
        partitionSolveKernel(partition),
        { a4: caller('a'), b4: caller('b'), c4: caller('c'), d4: caller('d'), x4: caller('x'), status },
        batch,
        {
          n,
          batch,
          dispatch_x: dispatchShape(batch, maxDim).x,
          padded: paddedReduced,
          stride: paddedReduced / Math.min(paddedReduced, partition.switchSize),
        },
      );
      return b.build();
    }
    // The workgroup solve of the deepest level.
    const padded = Math.max(2, nextPowerOfTwo(solveN));
    const left = Math.min(padded, spec.switchSize);
    b.dispatch(
      workgroupSolveKernel(spec),
      levels === 0 ? { ...coefficients, x_buf: caller('x'), status } : { rows: rows(), status },
      batch,
      {
        n: solveN,
        batch,
        dispatch_x: dispatchShape(batch, maxDim).x,
        offset: offsets[levels] as number,
        padded,
        stride: padded / left,
      },
    );
    // Backward substitution levels back to 0.
    for (let l = levels - 1; l >= 0; l--) {
      const first = l === 0;
      const threads = Math.ceil((sizes[l] as number) / 2) * batch;
      const { workgroups, dispatch_x } = levelDispatch(threads);
      b.dispatch(
        backwardSubstitutionKernel({ layout: stride, first, workgroupSize: levelWorkgroup }),
        first ? { ...coefficients, x_buf: caller('x'), rows: rows(), status } : { rows: rows(), status },
        workgroups,
        { n: sizes[l] as number, batch, dispatch_x, offset: offsets[l] as number, next_offset: offsets[l + 1] as number, threads },
      );
    }
    return b.build();
  };

  const exec = new RecipeExecutor(ctx, 'tridiagonal solve', 'options.n');
  // Everything either kind of encode needs, allocated now. n and batch are fixed, so these two
  // recipes are every path the plan takes: their kernels are all that `ready` compiles.
  const plain = build(false);
  const withStatus = build(true);
  exec.reserve(plain);
  exec.reserve(withStatus);

  const plan = planOf<TridiagonalEncodeArgs>([exec], {
    what: 'tridiagonal plan',
    encode(encoder, args) {
      if (args === null || typeof args !== 'object') {
        invalidTridiagonalArgument('args', args, 'expected { a, b, c, d, x, status? }');
      }
      const hasStatus = args.status !== undefined;
      checkEncodeArgs(
        'tridiagonal plan',
        { ...args, count: n * batch },
        { a: 4, b: 4, c: 4, d: 4, x: 4, ...(hasStatus ? { status: { bytes: 4 } } : {}) },
      );
      const roles: Record<string, GPUBuffer> = { a: args.a, b: args.b, c: args.c, d: args.d, x: args.x };
      if (args.status) roles.status = args.status;
      // Two structures: the bindings differ only by where the status word is (the caller's or
      // scratch); every range is fixed by n and batch, and so are the parameters, so the recipes
      // are built once, above.
      exec.encode(encoder, () => (hasStatus ? withStatus : plain), roles);
    },
    ready: exec.load([plain, withStatus]),
  });
  // What runs: the partition method falls back to the hybrid where it does not apply.
  const ran: Exclude<TridiagonalAlgorithm, 'auto'> = partition ? 'partition' : algorithm === 'partition' ? 'cr-pcr' : algorithm;
  return Object.assign(plan, { n, batch, stride, algorithm: ran });
}
