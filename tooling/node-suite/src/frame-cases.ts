// Plans the way a real-time application drives them, for the wgpu suite: a new count every frame,
// from the host or from a GPU buffer, with the buffers, bind groups and pipelines the device makes
// counted. Each case then encodes one more frame of a plan at a known count and checks it against
// the CPU reference. The package tests do the same in Chromium and Node (`frame-loop.test.ts`);
// this is the part of them that shows wgpu runs the frame-loop machinery: parameter rings, counts
// read on the GPU, scratch kept across counts.
import { createPackPlan, createScanPlan, type ScanContext } from '@scan/core';
import * as coreCpu from '@scan/core/cpu';
import {
  bufferOf,
  createRng,
  expectCloseArrays,
  expectEqualArrays,
  poisonBuffer,
  poisoned,
  runBatch,
  runFrameLoop,
} from '@scan/gpu-testing';
import { createHiSparseAddPlan, createHiSparseSpmvPlan, HISPARSE_ADD_STATUS, HiSparseMatrix, hisparseAddBounds } from '@scan/hisparse';
import {
  HiSparsePool,
  hisparseAdd,
  hisparseFromCsr,
  hisparseSpmv,
  hisparseToCsr,
  transpose as hisparseTranspose,
} from '@scan/hisparse/cpu';
import { createSegmentedScanPlan } from '@scan/segmented';
import * as segmentedCpu from '@scan/segmented/cpu';
import { createSortPlan } from '@scan/sort';
import * as sortCpu from '@scan/sort/cpu';
import { biasedMatrix, createSpmvPlan, poisson2d } from '@scan/spmv';
import * as spmvCpu from '@scan/spmv/cpu';
import { createTcuScanPlan, packHalves } from '@scan/tcu';
import * as tcuCpu from '@scan/tcu/cpu';
import { createTridiagonalPlan } from '@scan/tridiag';
import * as tridiagCpu from '@scan/tridiag/cpu';

/** Elements of every case: past one 4096-element tile, so the look-back and chunks take part. */
const N = 5000;

/** A plan exercised in a frame loop, then checked once at a known count. */
export interface FrameCase {
  /** `package.plan:frame-loop`. */
  readonly name: string;
  readonly what: string;
  /** Throws an `Error` naming what went wrong: something created per frame, left alive, or a wrong result. */
  run(ctx: ScanContext): Promise<void>;
}

interface FramePlan {
  destroy(): void;
  readonly ready: Promise<void>;
}

/**
 * How a case drives its plan. `check` poisons (or rewrites from the host) what it reads back before
 * recording its frame, so that a frame that wrote nothing cannot pass on an earlier frame's result.
 */
interface FrameSetup<P extends FramePlan> {
  create(): P;
  /** Records frame `frame` (its count is the case's own choice). */
  encode(plan: P, encoder: GPUCommandEncoder, frame: number): void;
  /** Records one frame at `count` and returns what to read back and how to check it. */
  check(plan: P, encoder: GPUCommandEncoder, count: number): { buffer: GPUBuffer; bytes: number; verify(bytes: ArrayBuffer): void }[];
  destroy(): void;
  /** Frames before counting (default 16): enough to visit every structure the counts give the plan. */
  readonly warmup?: number;
}

/**
 * A frame-loop case: 48 counted frames after 16 of warm-up must create nothing, and `destroy()` must
 * leave nothing alive; then a fresh plan's frame at count 4097 must match the CPU.
 */
function frameCase<P extends FramePlan>(
  name: string,
  what: string,
  setup: (ctx: ScanContext) => FrameSetup<P> | Promise<FrameSetup<P>>,
): FrameCase {
  return {
    name,
    what,
    async run(ctx) {
      const s = await setup(ctx);
      try {
        const warmup = s.warmup ?? 16;
        const counts = await runFrameLoop(ctx.device, { create: s.create, encode: s.encode, frames: 48, warmup, submitEvery: 8 });
        const made = counts.steady;
        if (made.buffers + made.bindGroups + made.pipelines > 0) {
          throw new Error(`created during the counted frames: ${JSON.stringify(made)}`);
        }
        if (counts.liveAfterDestroy > 0) throw new Error(`${counts.liveAfterDestroy} buffers left alive after destroy()`);
        const plan = s.create();
        await plan.ready;
        let checks: ReturnType<FrameSetup<P>['check']> = [];
        const [bytes] = await runBatch(ctx, [
          {
            record: (encoder) => {
              checks = s.check(plan, encoder, 4097);
              return checks;
            },
          },
        ]);
        plan.destroy();
        checks.forEach((c, i) => c.verify(bytes![i]!));
      } finally {
        s.destroy();
      }
    },
  };
}

/**
 * The host count of frame `frame`: the warm-up walks down from N through every structure a count
 * can give a plan (chunk layouts, odd counts with a partial last vec4), as the package tests do;
 * then random counts.
 */
function hostCount(frame: number, rng: ReturnType<typeof createRng>): number {
  return frame < 16 ? N - frame * 300 - (frame % 2) * 33 : rng.int(0, N);
}

/** A count word per frame slot, 4 of them, for the plans that read their count on the GPU. */
function gpuCounts(ctx: ScanContext, seed: number): { buffer: GPUBuffer; at(frame: number): number } {
  const rng = createRng(seed);
  const counts = Uint32Array.from({ length: 4 }, (_, i) => (i === 0 ? N : rng.int(0, N)));
  return { buffer: bufferOf(ctx, counts), at: (frame) => 4 * (frame % 4) };
}

export const frameCases: readonly FrameCase[] = [
  frameCase<ReturnType<typeof createScanPlan>>('core.scan:frame-loop', 'u32 add, count read on the GPU each frame', (ctx) => {
    const data = new Uint32Array(N).map((_, i) => (i * 2654435761) >>> 0);
    const input = bufferOf(ctx, data);
    const output = poisoned(ctx, 4 * N);
    const counts = gpuCounts(ctx, 1);
    const exact = bufferOf(ctx, new Uint32Array([4097]));
    return {
      create: () => createScanPlan(ctx, { maxCount: N }),
      encode: (plan, encoder, frame) => plan.encode(encoder, { input, output, countBuffer: counts.buffer, countOffset: counts.at(frame) }),
      check: (plan, encoder, count) => {
        poisonBuffer(ctx, output, 4 * N);
        plan.encode(encoder, { input, output, countBuffer: exact, countOffset: 0 });
        return [
          {
            buffer: output,
            bytes: 4 * count,
            verify: (got) => expectEqualArrays(new Uint32Array(got), coreCpu.scan(data.subarray(0, count)), 'scan'),
          },
        ];
      },
      destroy: () => {
        for (const b of [input, output, counts.buffer, exact]) b.destroy();
      },
    };
  }),
  frameCase<ReturnType<typeof createPackPlan>>(
    'core.pack:frame-loop',
    'u32 data and flags, a new host count each frame, the packed count on the GPU',
    (ctx) => {
      const rng = createRng(2);
      const data = new Uint32Array(N).map((_, i) => i);
      const flags = new Uint32Array(N).map(() => (rng.float() < 0.3 ? 1 : 0));
      const input = bufferOf(ctx, data);
      const flagBuffer = bufferOf(ctx, flags);
      const output = poisoned(ctx, 4 * N);
      const packedCount = poisoned(ctx, 16);
      return {
        create: () => createPackPlan(ctx, { maxCount: N }),
        encode: (plan, encoder, frame) =>
          plan.encode(encoder, { input, flags: flagBuffer, output, packedCount, count: hostCount(frame, rng) }),
        check: (plan, encoder, count) => {
          poisonBuffer(ctx, output, 4 * N);
          poisonBuffer(ctx, packedCount, 16);
          plan.encode(encoder, { input, flags: flagBuffer, output, packedCount, count });
          const want = coreCpu.pack(data.subarray(0, count), flags.subarray(0, count));
          return [
            {
              buffer: packedCount,
              bytes: 4,
              verify: (got) => expectEqualArrays(new Uint32Array(got), Uint32Array.of(want.length), 'packed count'),
            },
            { buffer: output, bytes: 4 * want.length, verify: (got) => expectEqualArrays(new Uint32Array(got), want, 'pack') },
          ];
        },
        destroy: () => {
          for (const b of [input, flagBuffer, output, packedCount]) b.destroy();
        },
      };
    },
  ),
  frameCase<ReturnType<typeof createSegmentedScanPlan>>(
    'segmented.scan:frame-loop',
    'u32 add over bit-packed heads (~1 in 20), a new host count each frame',
    (ctx) => {
      const rng = createRng(3);
      const data = new Uint32Array(N).map(() => rng.int(0, 1000));
      const heads = new Uint8Array(N).map(() => (rng.float() < 1 / 20 ? 1 : 0));
      const input = bufferOf(ctx, data);
      const headBits = bufferOf(ctx, segmentedCpu.packHeadFlags(heads));
      const output = poisoned(ctx, 4 * N);
      return {
        create: () => createSegmentedScanPlan(ctx, { maxCount: N, maxChunkElements: 1024 }),
        encode: (plan, encoder, frame) => plan.encode(encoder, { input, headBits, output, count: hostCount(frame, rng) }),
        check: (plan, encoder, count) => {
          poisonBuffer(ctx, output, 4 * N);
          plan.encode(encoder, { input, headBits, output, count });
          const want = segmentedCpu.segmentedScan(data.subarray(0, count), heads.subarray(0, count));
          return [{ buffer: output, bytes: 4 * count, verify: (got) => expectEqualArrays(new Uint32Array(got), want, 'segmented scan') }];
        },
        destroy: () => {
          for (const b of [input, headBits, output]) b.destroy();
        },
      };
    },
  ),
  frameCase<ReturnType<typeof createSortPlan>>(
    'sort.sort:frame-loop',
    'u32 keys with u32 values in place, count read on the GPU each frame',
    (ctx) => {
      const rng = createRng(4);
      const keys = new Uint32Array(N).map(() => rng.int(0, 2 ** 31));
      const values = new Uint32Array(N).map((_, i) => i);
      const keyBuffer = bufferOf(ctx, keys);
      const valueBuffer = bufferOf(ctx, values);
      const counts = gpuCounts(ctx, 5);
      const exact = bufferOf(ctx, new Uint32Array([4097]));
      return {
        create: () => createSortPlan(ctx, { keyType: 'u32', valueType: 'u32', maxCount: N }),
        encode: (plan, encoder, frame) =>
          plan.encode(encoder, { keys: keyBuffer, values: valueBuffer, countBuffer: counts.buffer, countOffset: counts.at(frame) }),
        check: (plan, encoder, count) => {
          // The frames sorted prefixes of the buffers in place: start again from the host data (queue
          // writes run before the commands recorded here).
          ctx.device.queue.writeBuffer(keyBuffer, 0, keys);
          ctx.device.queue.writeBuffer(valueBuffer, 0, values);
          plan.encode(encoder, { keys: keyBuffer, values: valueBuffer, countBuffer: exact, countOffset: 0 });
          const want = sortCpu.sort(keys.subarray(0, count), { values: values.subarray(0, count) });
          return [
            { buffer: keyBuffer, bytes: 4 * count, verify: (got) => expectEqualArrays(new Uint32Array(got), want.keys, 'sorted keys') },
            {
              buffer: valueBuffer,
              bytes: 4 * count,
              verify: (got) => expectEqualArrays(new Uint32Array(got), want.values!, 'sorted values'),
            },
          ];
        },
        destroy: () => {
          for (const b of [keyBuffer, valueBuffer, counts.buffer, exact]) b.destroy();
        },
      };
    },
  ),
  frameCase<ReturnType<typeof createSpmvPlan>>(
    'spmv.spmv:frame-loop',
    'a biased 700-row matrix, new alpha and beta, x and y swapping each frame',
    (ctx) => {
      const A = biasedMatrix(700, { seed: 6 });
      const rng = createRng(6);
      const vector = () => Float32Array.from({ length: 700 }, () => 2 * rng.float() - 1);
      const x0 = vector();
      const y0 = vector();
      const vectors = [bufferOf(ctx, x0), bufferOf(ctx, y0)] as const;
      return {
        create: () => createSpmvPlan(ctx, A),
        // The warm-up visits both buffer orders with beta = 0 and beta ≠ 0 (y read or not).
        encode: (plan, encoder, frame) => {
          const [x, y] = frame % 2 === 0 ? vectors : [vectors[1], vectors[0]];
          plan.encode(encoder, { x, y, alpha: 1 + (frame % 5), beta: (frame >> 1) % 2 === 0 ? 0 : -0.5 });
        },
        check: (plan, encoder) => {
          // Start again from the host vectors (queue writes run before the commands recorded here).
          ctx.device.queue.writeBuffer(vectors[0], 0, x0);
          ctx.device.queue.writeBuffer(vectors[1], 0, y0);
          const options = { alpha: 1.5, beta: -0.5, y: y0 };
          plan.encode(encoder, { x: vectors[0], y: vectors[1], alpha: options.alpha, beta: options.beta });
          const want = spmvCpu.spmv(A, x0, options);
          const bound = spmvCpu.spmvErrorBound(A, x0, options);
          return [
            {
              buffer: vectors[1],
              bytes: 4 * 700,
              verify: (got) => {
                const y = new Float32Array(got);
                for (let i = 0; i < want.length; i++) {
                  if (!(Math.abs(y[i]! - want[i]!) <= bound[i]!))
                    throw new Error(`spmv: y[${i}] is ${y[i]}, expected ${want[i]} ± ${bound[i]}`);
                }
              },
            },
          ];
        },
        destroy: () => {
          for (const b of vectors) b.destroy();
        },
      };
    },
  ),
  frameCase<ReturnType<typeof createTridiagonalPlan>>(
    'tridiag.plan:frame-loop',
    '8 systems of 300 unknowns, two sets and outputs alternating',
    (ctx) => {
      const n = 300;
      const batch = 8;
      const systems = [0, 1].map((seed) => {
        const rng = createRng(70 + seed);
        const band = (lo: number, hi: number) => Float32Array.from({ length: n * batch }, () => lo + (hi - lo) * rng.float());
        return { a: band(-1, 1), b: band(3, 4), c: band(-1, 1), d: band(-1, 1), n, batch };
      });
      const sets = systems.map((s) => ({ a: bufferOf(ctx, s.a), b: bufferOf(ctx, s.b), c: bufferOf(ctx, s.c), d: bufferOf(ctx, s.d) }));
      const xs = [poisoned(ctx, 4 * n * batch), poisoned(ctx, 4 * n * batch)];
      return {
        create: () => createTridiagonalPlan(ctx, { n, batch }),
        encode: (plan, encoder, frame) => plan.encode(encoder, { ...sets[frame % 2]!, x: xs[(frame >> 1) % 2]! }),
        check: (plan, encoder) => {
          poisonBuffer(ctx, xs[0]!, 4 * n * batch);
          plan.encode(encoder, { ...sets[1]!, x: xs[0]! });
          return [
            {
              buffer: xs[0]!,
              bytes: 4 * n * batch,
              verify: (got) => {
                const { max } = tridiagCpu.tridiagonalResidual(systems[1]!, new Float32Array(got));
                if (!(max <= 1e-5)) throw new Error(`tridiagonal plan: residual ${max} > 1e-5`);
              },
            },
          ];
        },
        destroy: () => {
          for (const b of [...sets.flatMap((set) => Object.values(set)), ...xs]) b.destroy();
        },
      };
    },
  ),
  frameCase<ReturnType<typeof createTcuScanPlan>>(
    'tcu.scan:frame-loop',
    'f16 values, inclusive, segments of 1024 and the whole array, a new host count each frame',
    (ctx) => {
      const rng = createRng(8);
      const bits = tcuCpu.toF16Array(Float32Array.from({ length: N }, () => 2 * rng.float() - 1));
      const input = bufferOf(ctx, packHalves(bits));
      const output = poisoned(ctx, 4 * N);
      const sizes = [1024, undefined] as const;
      // The tcu package's warm-up: the largest count first, then down through every level its staged
      // kernels take (grid, block, warp; tails; one element, none), with each segment size.
      const warm = [N, N - 1, 4000, 2049, 1000, 300, 257, 256, 255, 100, 17, 16, 15, 3, 1, 0];
      return {
        warmup: warm.length * sizes.length,
        create: () => createTcuScanPlan(ctx, { inclusive: true, segmentSizes: [1024], maxCount: N }),
        encode: (plan, encoder, frame) => {
          const warming = frame < warm.length * sizes.length;
          const count = warming ? warm[Math.floor(frame / sizes.length)]! : rng.int(0, N);
          plan.encode(encoder, { input, output, count, segmentSize: sizes[frame % sizes.length] });
        },
        check: (plan, encoder, count) => {
          poisonBuffer(ctx, output, 4 * N);
          plan.encode(encoder, { input, output, count, segmentSize: 1024 });
          const options = { segmentSize: 1024, pad: true, inclusive: true };
          const values = bits.subarray(0, count);
          const exact = tcuCpu.tcuScanF64(values, options);
          const magnitude = tcuCpu.tcuScanF64(tcuCpu.f16ToFloat32(values).map(Math.abs), options);
          return [
            {
              buffer: output,
              bytes: 4 * count,
              verify: (got) => {
                const y = new Float32Array(got);
                for (let i = 0; i < count; i++) {
                  const bound = tcuCpu.sumErrorBound(1024, magnitude[i]!);
                  if (!(Math.abs(y[i]! - exact[i]!) <= bound))
                    throw new Error(`tcu scan: element ${i} is ${y[i]}, expected ${exact[i]} ± ${bound}`);
                }
              },
            },
          ];
        },
        destroy: () => {
          for (const b of [input, output]) b.destroy();
        },
      };
    },
  ),
  frameCase<ReturnType<typeof createHiSparseSpmvPlan>>(
    'hisparse.spmv:frame-loop',
    'Poisson 2-D on a 30 × 30 grid, built on the GPU, x and y swapping each frame',
    async (ctx) => {
      const A = poisson2d(30);
      const H = await HiSparseMatrix.fromCsr(ctx, A, { nodeSize: 16 });
      const rng = createRng(9);
      const x0 = Float32Array.from({ length: A.cols }, () => 2 * rng.float() - 1);
      const vectors = [bufferOf(ctx, x0), poisoned(ctx, 4 * A.rows)] as const;
      return {
        create: () => createHiSparseSpmvPlan(ctx, H),
        encode: (plan, encoder, frame) => {
          const [x, y] = frame % 2 === 0 ? vectors : [vectors[1], vectors[0]];
          plan.encode(encoder, { x, y });
        },
        check: (plan, encoder) => {
          ctx.device.queue.writeBuffer(vectors[0], 0, x0);
          poisonBuffer(ctx, vectors[1], 4 * A.rows);
          plan.encode(encoder, { x: vectors[0], y: vectors[1] });
          const want = hisparseSpmv(hisparseFromCsr(A, { nodeSize: 16 }), x0);
          return [
            {
              buffer: vectors[1],
              bytes: 4 * A.rows,
              verify: (got) => expectCloseArrays(new Float32Array(got), want, { rtol: 1e-4, atol: 1e-4, label: 'HiSparse A·x' }),
            },
          ];
        },
        destroy: () => {
          for (const b of vectors) b.destroy();
          H.destroy();
        },
      };
    },
  ),
  frameCase<ReturnType<typeof createHiSparseAddPlan>>(
    'hisparse.add:frame-loop',
    "C = A + B and Aᵀ + B every frame into the plan's pool: A Poisson 2-D on a 20 × 20 grid, B random, d = 16",
    async (ctx) => {
      const A = poisson2d(20);
      const rng = createRng(11);
      const entries = Array.from({ length: 300 }, () => [rng.int(0, A.rows - 1), rng.int(0, A.cols - 1)] as const);
      const B = spmvCpu.cooToCsr({
        rows: A.rows,
        cols: A.cols,
        rowIdx: Uint32Array.from(entries, (e) => e[0]),
        colIdx: Uint32Array.from(entries, (e) => e[1]),
        values: Float32Array.from(entries, () => rng.int(-8, 8) / 4),
      });
      const hA = hisparseFromCsr(A, { nodeSize: 16 });
      const hB = hisparseFromCsr(B, { nodeSize: 16 });
      const gA = await HiSparseMatrix.fromHost(ctx, hA);
      const gB = await HiSparseMatrix.fromHost(ctx, hB);
      const gAt = gA.transpose();
      const options = hisparseAddBounds(gA, gB);
      return {
        create: () => createHiSparseAddPlan(ctx, options),
        encode: (plan, encoder, frame) => plan.encode(encoder, { A: frame % 2 === 0 ? gA : gAt, B: gB }),
        check: (plan, encoder) => {
          plan.encode(encoder, { A: gAt, B: gB });
          const want = hisparseToCsr(hisparseAdd(hisparseTranspose(hA), hB));
          let status = new Uint32Array(0);
          return [
            {
              buffer: plan.status,
              bytes: 32,
              verify: (got) => {
                status = new Uint32Array(got.slice(0));
              },
            },
            {
              buffer: plan.pool,
              bytes: plan.pool.size,
              verify: (got) => {
                if (status[HISPARSE_ADD_STATUS.overflow] !== 0) throw new Error('hisparse add plan: overflow at hisparseAddBounds');
                const words = status[HISPARSE_ADD_STATUS.words]!;
                const pool = new HiSparsePool(words);
                pool.words.set(new Uint32Array(got, 0, words));
                pool.used = words;
                const root = status[HISPARSE_ADD_STATUS.root]!;
                const C = Object.freeze({ ...hA, transposed: true, root, pool, rows: A.cols, cols: A.rows, scale: 1 });
                const csr = hisparseToCsr(C);
                const same =
                  csr.colIdx.length === want.colIdx.length &&
                  csr.rowPtr.every((v, i) => v === want.rowPtr[i]) &&
                  csr.colIdx.every((v, i) => v === want.colIdx[i]) &&
                  csr.values.every((v, i) => v === want.values[i]);
                if (!same)
                  throw new Error(`hisparse add plan: C differs from hisparseAdd (${csr.colIdx.length} vs ${want.colIdx.length} entries)`);
              },
            },
          ];
        },
        destroy: () => {
          for (const M of [gAt, gA, gB]) M.destroy();
        },
      };
    },
  ),
];
