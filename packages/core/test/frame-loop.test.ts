// Every plan of @scan/core encoded the way a real-time application does: a new count every frame,
// 1,000 frames, with the device's buffer, bind group and pipeline creations counted (see
// runFrameLoop). Each plan is warmed up at large counts (near N), then fed counts over all of
// [0, N] — 0, 1, the one-workgroup tier, partial last vec4s: in steady state it creates nothing,
// and after destroy() it leaves nothing alive. Plans of user-defined operators (issue 48) alike, with
// counts in records; an operator re-defined every frame by an equal definition, the plan made once;
// and equal definitions sharing pipelines.
import {
  affine16,
  argmaxRecord,
  countDeviceCalls,
  createRng,
  getTestContext,
  matrix2x2,
  operatorData,
  runFrameLoop,
} from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import {
  createArgMaxPlan,
  createArgMinPlan,
  createDispatchArgsPlan,
  createDistributePlan,
  createEnumeratePlan,
  createHistogramPlan,
  createPackIfPlan,
  createPackPlan,
  createReducePlan,
  createScanPlan,
  createSearchPlan,
  createSplitPlan,
  defineOperator,
  type Plan,
} from '../src/index.js';
import { asTyped, bufferOf, poisoned, runBatch } from './harness.js';

/** Past the scan's one-workgroup tier (4096) and the sort of small counts, so that counts cross them. */
const N = 1 << 16;
const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
const NOTHING = { buffers: 0, bindGroups: 0, pipelines: 0 };

/** Buffers every core plan can take: N elements of data, flags, output, and a count word. */
async function buffers() {
  const ctx = await getTestContext();
  const make = (bytes: number, usage = USAGE) => ctx.device.createBuffer({ size: bytes, usage });
  const data = new Uint32Array(N).map((_, i) => (i * 2654435761) >>> 0);
  const flags = new Uint32Array(N).map((_, i) => ((i * 7) % 3 === 0 ? 1 : 0));
  return {
    ctx,
    input: bufferOf(ctx, data),
    flags: bufferOf(ctx, flags),
    bytes: bufferOf(ctx, new Uint8Array(N).fill(1)),
    output: make(4 * N),
    count: make(16),
    args: make(16, USAGE | GPUBufferUsage.INDIRECT),
    destroy() {
      for (const b of [this.input, this.flags, this.bytes, this.output, this.count, this.args]) b.destroy();
    },
  };
}

type Buffers = Awaited<ReturnType<typeof buffers>>;

/**
 * Each plan, made and encoded with a count from `count()` (N first: the warm-up reaches the largest
 * size). `maxCount` (default N) is the largest count: a user-defined operator's counts are records
 * of several words, which N words of input hold fewer of.
 */
const PLANS: Record<
  string,
  (b: Buffers) => { create(): Plan<never>; encode(plan: Plan<never>, encoder: GPUCommandEncoder, n: number): void; maxCount?: number }
> = {
  'scan decoupled-fallback': (b) => scanCase(b, 'decoupled-fallback'),
  'scan reduce-then-scan': (b) => scanCase(b, 'reduce-then-scan'),
  'scan blelloch': (b) => scanCase(b, 'blelloch'),
  'scan, chunks of N/4': (b) => ({
    create: () => createScanPlan(b.ctx, { maxCount: N, maxChunkElements: N / 4 }) as Plan<never>,
    encode: (plan, encoder, n) =>
      (plan as Plan<{ input: GPUBuffer; output: GPUBuffer; count: number }>).encode(encoder, {
        input: b.input,
        output: b.output,
        count: n,
      }),
  }),
  reduce: (b) => ({
    create: () => createReducePlan(b.ctx, { type: 'f32', op: 'max', maxCount: N }) as Plan<never>,
    encode: (plan, encoder, n) =>
      (plan as Plan<{ input: GPUBuffer; output: GPUBuffer; count: number }>).encode(encoder, {
        input: b.input,
        output: b.output,
        count: n,
      }),
  }),
  // User-defined operators (issue 48): their own single-pass kernels, counts in records.
  'scan, user-defined operator (matrix2x2 records, inclusive backward)': (b) => ({
    create: () => createScanPlan(b.ctx, { op: matrix2x2, inclusive: true, backward: true, maxCount: N / 4 }) as Plan<never>,
    encode: (plan, encoder, n) =>
      (plan as Plan<{ input: GPUBuffer; output: GPUBuffer; count: number }>).encode(encoder, {
        input: b.input,
        output: b.output,
        count: n,
      }),
    maxCount: N / 4,
  }),
  'reduce, user-defined operator (argmax records)': (b) => ({
    create: () => createReducePlan(b.ctx, { op: argmaxRecord, maxCount: N / 2 }) as Plan<never>,
    encode: (plan, encoder, n) =>
      (plan as Plan<{ input: GPUBuffer; output: GPUBuffer; count: number }>).encode(encoder, {
        input: b.input,
        output: b.output,
        count: n,
      }),
    maxCount: N / 2,
  }),
  enumerate: (b) => ({
    create: () => createEnumeratePlan(b.ctx, { maxCount: N }) as Plan<never>,
    encode: (plan, encoder, n) =>
      (plan as Plan<{ flags: GPUBuffer; output: GPUBuffer; count: number }>).encode(encoder, {
        flags: b.flags,
        output: b.output,
        count: n,
      }),
  }),
  distribute: (b) => ({
    create: () => createDistributePlan(b.ctx, { backward: true }) as Plan<never>,
    encode: (plan, encoder, n) =>
      (plan as Plan<{ input: GPUBuffer; output: GPUBuffer; count: number }>).encode(encoder, {
        input: b.input,
        output: b.output,
        count: n,
      }),
  }),
  split: (b) => ({
    create: () => createSplitPlan(b.ctx, { maxCount: N }) as Plan<never>,
    encode: (plan, encoder, n) =>
      (plan as Plan<{ input: GPUBuffer; flags: GPUBuffer; output: GPUBuffer; falseCount: GPUBuffer; count: number }>).encode(encoder, {
        input: b.input,
        flags: b.flags,
        output: b.output,
        falseCount: b.count,
        count: n,
      }),
  }),
  'pack, u8 flags': (b) => ({
    create: () => createPackPlan(b.ctx, { flags: 'u8', maxCount: N }) as Plan<never>,
    encode: (plan, encoder, n) =>
      (plan as Plan<{ input: GPUBuffer; flags: GPUBuffer; output: GPUBuffer; packedCount: GPUBuffer; count: number }>).encode(encoder, {
        input: b.input,
        flags: b.bytes,
        output: b.output,
        packedCount: b.count,
        count: n,
      }),
  }),
  'pack scan-then-scatter': (b) => ({
    create: () => createPackPlan(b.ctx, { algorithm: 'scan-then-scatter', maxCount: N }) as Plan<never>,
    encode: (plan, encoder, n) =>
      (plan as Plan<{ input: GPUBuffer; flags: GPUBuffer; output: GPUBuffer; packedCount: GPUBuffer; count: number }>).encode(encoder, {
        input: b.input,
        flags: b.flags,
        output: b.output,
        packedCount: b.count,
        count: n,
      }),
  }),
  packIf: (b) => ({
    create: () => createPackIfPlan(b.ctx, { op: 'gt', value: 2 ** 31, maxCount: N }) as Plan<never>,
    encode: (plan, encoder, n) =>
      (plan as Plan<{ input: GPUBuffer; output: GPUBuffer; packedCount: GPUBuffer; count: number }>).encode(encoder, {
        input: b.input,
        output: b.output,
        packedCount: b.count,
        count: n,
      }),
  }),
  'histogram, f32 even bins': (b) => ({
    create: () => createHistogramPlan(b.ctx, { type: 'f32', bins: 1000, range: [0, 1] }) as Plan<never>,
    encode: (plan, encoder, n) =>
      (plan as Plan<{ samples: GPUBuffer; histogram: GPUBuffer; count: number }>).encode(encoder, {
        samples: b.input,
        histogram: b.output,
        count: n,
      }),
  }),
  'histogram, u32 edges, accumulating': (b) => ({
    create: () =>
      createHistogramPlan(b.ctx, { edges: new Uint32Array([0, 10, 1 << 20, 2 ** 31, 2 ** 32 - 1]), accumulate: true }) as Plan<never>,
    encode: (plan, encoder, n) =>
      (plan as Plan<{ samples: GPUBuffer; histogram: GPUBuffer; count: number }>).encode(encoder, {
        samples: b.input,
        histogram: b.output,
        count: n,
      }),
  }),
  // The count's word moves every frame: a uniform block, not a binding.
  'histogram, GPU count': (b) => ({
    create: () => createHistogramPlan(b.ctx, { bins: 300, range: [0, 2 ** 32], maxCount: N }) as Plan<never>,
    encode: (plan, encoder, n) =>
      (plan as Plan<{ samples: GPUBuffer; histogram: GPUBuffer; countBuffer: GPUBuffer; countOffset: number }>).encode(encoder, {
        samples: b.input,
        histogram: b.output,
        countBuffer: b.count,
        countOffset: 4 * (n % 4),
      }),
  }),
  'dispatch args': (b) => ({
    create: () => createDispatchArgsPlan(b.ctx, { elementsPerWorkgroup: 256 }) as Plan<never>,
    // The count's offset changes every frame: it is a parameter, not a binding.
    encode: (plan, encoder, n) =>
      (plan as Plan<{ countBuffer: GPUBuffer; countOffset: number; args: GPUBuffer }>).encode(encoder, {
        countBuffer: b.count,
        countOffset: 4 * (n % 4),
        args: b.args,
      }),
  }),
  // The toolbox (issue 49): arg-min/max and sorted search.
  'argMin, f32': (b) => ({
    create: () => createArgMinPlan(b.ctx, { type: 'f32', maxCount: N }) as Plan<never>,
    encode: (plan, encoder, n) =>
      (plan as Plan<{ input: GPUBuffer; output: GPUBuffer; count: number }>).encode(encoder, {
        input: b.input,
        output: b.output,
        count: n,
      }),
  }),
  'argMax, i32, a count the GPU wrote': (b) => ({
    create: () => createArgMaxPlan(b.ctx, { type: 'i32', maxCount: N }) as Plan<never>,
    encode: (plan, encoder) =>
      (plan as Plan<{ input: GPUBuffer; output: GPUBuffer; countBuffer: GPUBuffer }>).encode(encoder, {
        input: b.input,
        output: b.output,
        countBuffer: b.count,
      }),
  }),
  'search, upper bound (sorted and needle counts both change)': (b) => ({
    create: () => createSearchPlan(b.ctx, { type: 'u32', side: 'upper' }) as Plan<never>,
    encode: (plan, encoder, n) =>
      (plan as Plan<{ sorted: GPUBuffer; sortedCount: number; needles: GPUBuffer; needleCount: number; output: GPUBuffer }>).encode(
        encoder,
        { sorted: b.input, sortedCount: N - n, needles: b.flags, needleCount: n >> 3, output: b.output },
      ),
  }),
};

function scanCase(b: Buffers, algorithm: 'decoupled-fallback' | 'reduce-then-scan' | 'blelloch') {
  return {
    create: () => createScanPlan(b.ctx, { algorithm, maxCount: N }) as Plan<never>,
    encode: (plan: Plan<never>, encoder: GPUCommandEncoder, n: number) =>
      (plan as Plan<{ input: GPUBuffer; output: GPUBuffer; count: number }>).encode(encoder, {
        input: b.input,
        output: b.output,
        count: n,
      }),
  };
}

describe('plans in a frame loop', () => {
  for (const [name, make] of Object.entries(PLANS)) {
    it(`${name}: 1,000 frames with random counts create nothing, destroy() frees everything`, async () => {
      const b = await buffers();
      try {
        const c = make(b);
        const counts = await runFrameLoop(b.ctx.device, {
          create: c.create,
          // Warmed up near N, then counts over all of [0, N] (see runFrameLoop's maxCount): a
          // count that first takes another tier, tail or chunk layout must find its bind groups.
          encode: (plan, encoder, _frame, n) => c.encode(plan, encoder, n),
          maxCount: c.maxCount ?? N,
          seed: name.length * 7919,
          // Every frame is validated when its encoder finishes; one in 50 also runs (SwiftShader is slow).
          submitEvery: 50,
        });
        // `ready` compiles every kernel a variant may need: the warm-up's first encode makes them all.
        expect(counts.warmup.pipelines, `${name}: pipelines plan.ready did not compile`).toBe(0);
        expect(counts.steady, `${name}: created during the counted frames`).toEqual(NOTHING);
        expect(counts.liveAfterDestroy, `${name}: buffers left after destroy()`).toBe(0);
      } finally {
        b.destroy();
      }
    });
  }

  it('a plan without maxCount grows its scratch by doubling: O(log) allocations for rising counts', async () => {
    const b = await buffers();
    try {
      const counts = await runFrameLoop(b.ctx.device, {
        create: () => createScanPlan(b.ctx, { algorithm: 'reduce-then-scan' }),
        // Counts rising by one every frame from 1 to 4096: the worst case for exact-size growth.
        encode: (plan, encoder, frame) => plan.encode(encoder, { input: b.input, output: b.output, count: 1 + (frame % 4096) }),
        warmup: 0,
        frames: 4096,
        submitEvery: 256,
      });
      // Per scratch buffer, from 16 bytes to its largest size: at most log2 of the ratio + 1 each.
      expect(counts.steady.buffers).toBeLessThanOrEqual(3 * 12);
      expect(counts.liveAfterDestroy).toBe(0);
    } finally {
      b.destroy();
    }
  });

  it('scalar and offset changes do not create bind groups either', async () => {
    const b = await buffers();
    try {
      const rng = createRng(5);
      const counts = await runFrameLoop(b.ctx.device, {
        create: () => createDispatchArgsPlan(b.ctx, { elementsPerWorkgroup: 64 }),
        encode: (plan, encoder) => plan.encode(encoder, { countBuffer: b.count, countOffset: 4 * rng.int(0, 3), args: b.args }),
      });
      expect(counts.steady).toEqual(NOTHING);
    } finally {
      b.destroy();
    }
  });
});

/**
 * A user's definition of affine maps x ↦ a·x + b mod 2^16 packed in a u32 (as gpu-testing's
 * affine16), written out anew on every call — a new object and a new `cpu` closure each time, as a
 * frame loop that calls `defineOperator` inline would make them — named `name`.
 */
function affineDefinition(name: string) {
  return {
    type: 'u32' as const,
    identity: 0x10000,
    wgsl: `let a1 = a >> 16u; let b1 = a & 0xffffu; let a2 = b >> 16u; let b2 = b & 0xffffu;
return (((a1 * a2) & 0xffffu) << 16u) | ((b1 * a2 + b2) & 0xffffu);`,
    cpu: (x: number, y: number) =>
      ((((Math.imul(x >>> 16, y >>> 16) & 0xffff) << 16) | ((Math.imul(x & 0xffff, y >>> 16) + (y & 0xffff)) & 0xffff)) >>> 0) as number,
    name,
  };
}

describe('user-defined operators defined again', () => {
  it('an operator re-defined every frame by an equal definition: the plan, made once, creates nothing per frame', async () => {
    const b = await buffers();
    try {
      const op = defineOperator<number>(affineDefinition('frame-loop-redefined'));
      const keys = new Set<string>();
      const counts = await runFrameLoop(b.ctx.device, {
        // The plan is made once, from the first definition; each frame defines the operator again.
        create: () => createScanPlan(b.ctx, { op, inclusive: true, maxCount: N }),
        encode: (plan, encoder, _frame, n) => {
          const again = defineOperator<number>(affineDefinition('frame-loop-redefined'));
          keys.add(again.key);
          plan.encode(encoder, { input: b.input, output: b.output, count: n });
        },
        maxCount: N,
        seed: 48,
        submitEvery: 50,
      });
      expect([...keys], 'the keys of the definitions in the frames').toEqual([op.key]);
      expect(counts.warmup.pipelines, 'pipelines plan.ready did not compile').toBe(0);
      expect(counts.steady, 'created during the counted frames').toEqual(NOTHING);
      expect(counts.liveAfterDestroy, 'buffers left after destroy()').toBe(0);
    } finally {
      b.destroy();
    }
  });

  it('equal definitions share pipelines: plans from a second, equal definition compile none', async () => {
    const ctx = await getTestContext();
    const counted = countDeviceCalls(ctx.device);
    const plans: { destroy(): void }[] = [];
    const pipelines: number[] = [];
    const made = async (make: () => { destroy(): void; readonly ready: Promise<void> }) => {
      counted.reset();
      const plan = make();
      plans.push(plan);
      await plan.ready;
      pipelines.push(counted.counts.pipelines);
      return plan;
    };
    try {
      // A name no other test uses: nothing of this operator is compiled on the device yet.
      const first = defineOperator<number>(affineDefinition('frame-loop-twin'));
      const second = defineOperator<number>(affineDefinition('frame-loop-twin'));
      expect(second, 'two definitions, two operators').not.toBe(first);
      expect(second.key).toBe(first.key);
      await made(() => createScanPlan(ctx, { op: first, maxCount: N }));
      await made(() => createReducePlan(ctx, { op: first, maxCount: N }));
      const scan2 = await made(() => createScanPlan(ctx, { op: second, maxCount: N }));
      const reduce2 = await made(() => createReducePlan(ctx, { op: second, maxCount: N }));
      // The first definition's plans compile their kernels; the equal definition's find them all.
      expect(pipelines[0], 'scan plan of the first definition').toBeGreaterThan(0);
      expect(pipelines[1], 'reduce plan of the first definition').toBeGreaterThan(0);
      expect(pipelines.slice(2), 'plans of the equal definition').toEqual([0, 0]);
      counted.restore();
      // And the shared pipelines give the second plans right results.
      const data = operatorData(affine16, 5000, 48) as Uint32Array;
      const owned: GPUBuffer[] = [];
      const [scanned, reduced] = await runBatch(
        ctx,
        [scan2, reduce2].map((plan, i) => ({
          record(encoder: GPUCommandEncoder) {
            const bytes = i === 0 ? 4 * data.length : 4;
            const output = poisoned(ctx, bytes);
            const input = bufferOf(ctx, data);
            owned.push(input);
            (plan as Plan<{ input: GPUBuffer; output: GPUBuffer; count: number }>).encode(encoder, { input, output, count: data.length });
            return [{ buffer: output, bytes }];
          },
        })),
        owned,
      );
      expect(Array.from(new Uint32Array(scanned![0]!))).toEqual(Array.from(cpu.scan(data, { op: first })));
      expect(new Uint32Array(reduced![0]!)[0]).toBe(cpu.reduce(data, { op: first }));
    } finally {
      counted.restore();
      for (const plan of plans) plan.destroy();
    }
  });
});

describe('several encodes of one plan before one submit', () => {
  it('each keeps its own count: nine scans into one encoder (past the parameter slots), then one submit', async () => {
    const ctx = await getTestContext();
    const plan = createScanPlan(ctx, { type: 'u32', op: 'max', inclusive: true });
    const rng = createRng(11);
    const inputs = Array.from({ length: 9 }, (_, i) => new Uint32Array(rng.int(1, 3000)).map(() => rng.int(0, 1 << 20) + i));
    const results = await runBatch(
      ctx,
      inputs.map((data) => ({
        record(encoder) {
          const output = poisoned(ctx, 4 * data.length);
          plan.encode(encoder, { input: bufferOf(ctx, data), output, count: data.length });
          return [{ buffer: output, bytes: 4 * data.length }];
        },
      })),
    );
    inputs.forEach((data, i) =>
      expect(asTyped(data, results[i]![0]!), `encode ${i}`).toEqual(cpu.scan(data, { op: 'max', inclusive: true })),
    );
    plan.destroy();
  });

  it('each keeps its own count across pending encoders: three encoders submitted together', async () => {
    const ctx = await getTestContext();
    const plan = createReducePlan(ctx, { type: 'u32' });
    const rng = createRng(12);
    const inputs = Array.from({ length: 3 }, () => new Uint32Array(rng.int(1, 5000)).map(() => rng.int(0, 1000)));
    const outputs = inputs.map(() => poisoned(ctx, 16));
    const reads = inputs.map(() => ctx.device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }));
    const commands = inputs.map((data, i) => {
      const encoder = ctx.device.createCommandEncoder();
      plan.encode(encoder, { input: bufferOf(ctx, data), output: outputs[i]!, count: data.length });
      encoder.copyBufferToBuffer(outputs[i]!, 0, reads[i]!, 0, 16);
      return encoder.finish();
    });
    ctx.device.queue.submit(commands);
    for (const [i, data] of inputs.entries()) {
      await reads[i]!.mapAsync(GPUMapMode.READ);
      expect(new Uint32Array(reads[i]!.getMappedRange())[0], `encoder ${i}`).toBe(cpu.reduce(data));
    }
    plan.destroy();
  });
});

describe('parameter writes', () => {
  /** Runs `record` with the queue's `writeBuffer` counted (an own property, deleted afterwards). */
  function countingWrites(queue: GPUQueue, record: () => void): number {
    const own = queue as unknown as Record<string, unknown>;
    const original = queue.writeBuffer;
    let count = 0;
    own.writeBuffer = (...args: Parameters<GPUQueue['writeBuffer']>) => {
      count++;
      return original.apply(queue, args);
    };
    try {
      record();
    } finally {
      delete own.writeBuffer;
    }
    return count;
  }

  /** Encodes `plan` once per count, each in its own submitted frame; returns the plan's writes per frame and the read-backs. */
  async function frames(
    ctx: Awaited<ReturnType<typeof getTestContext>>,
    counts: readonly number[],
    encode: (encoder: GPUCommandEncoder, output: GPUBuffer, count: number) => void,
  ) {
    const outputs: GPUBuffer[] = [];
    const writes = counts.map((count) => {
      const output = poisoned(ctx, 4 * N);
      outputs.push(output);
      const encoder = ctx.device.createCommandEncoder();
      const n = countingWrites(ctx.device.queue, () => encode(encoder, output, count));
      ctx.device.queue.submit([encoder.finish()]);
      return n;
    });
    const reads = await runBatch(
      ctx,
      outputs.map((output, i) => ({ record: () => [{ buffer: output, bytes: 4 * (counts[i] as number) }] })),
    );
    return { writes, reads: reads.map((r) => new Uint32Array(r[0] as ArrayBuffer)) };
  }

  const data = new Uint32Array(N).map((_, i) => (i * 13 + 1) % 4099);

  it('a GPU count: each parameter slot is written once, then no encode writes parameters', async () => {
    const ctx = await getTestContext();
    const plan = createScanPlan(ctx, { type: 'u32', maxCount: N });
    await plan.ready;
    const input = bufferOf(ctx, data);
    const counts = Array.from({ length: 12 }, (_, i) => 1 + ((i * 977) % (N - 1)));
    const countBuffers = counts.map((count) => bufferOf(ctx, new Uint32Array([count])));
    let frame = 0;
    const { writes, reads } = await frames(ctx, counts, (encoder, output) =>
      plan.encode(encoder, { input, output, countBuffer: countBuffers[frame++] as GPUBuffer, countOffset: 0 }),
    );
    // The parameters of a GPU count do not depend on it: four slots, four writes.
    expect(writes).toEqual([1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    counts.forEach((count, i) => expect(reads[i], `frame ${i}`).toEqual(cpu.scan(data.subarray(0, count))));
    for (const b of [input, ...countBuffers]) b.destroy();
    plan.destroy();
  });

  it('host counts that come back to a slot holding their words skip the write and stay right', async () => {
    const ctx = await getTestContext();
    const plan = createScanPlan(ctx, { type: 'u32', op: 'add', maxCount: N });
    const input = bufferOf(ctx, data);
    // Four slots: the second round of four finds each slot holding its words; 555 shifts the rounds.
    const counts = [1000, 3001, 17, 4096, 1000, 3001, 17, 4096, 555, 1000, 3001, 17];
    const { writes, reads } = await frames(ctx, counts, (encoder, output, count) => plan.encode(encoder, { input, output, count }));
    expect(writes).toEqual([1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1]);
    counts.forEach((count, i) => expect(reads[i], `frame ${i}`).toEqual(cpu.scan(data.subarray(0, count))));
    input.destroy();
    plan.destroy();
  });
});
