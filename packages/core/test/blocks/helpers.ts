// What the block tests share: test operators (the scan family's, one that names no subgroup
// built-in, and one that does not commute) with their CPU twins, the logical view a tile load
// gives of an array, seeded cases, and a runner for harness kernels made of blocks.
import { bufferOf, createRng, POISON_U32, poisoned, type Rng, randomData, runBatch } from '@scan/gpu-testing';
import { BufferUsage } from '../../src/buffers.js';
import type { ScanContext } from '../../src/context.js';
import { bindGroupByName, paramsData } from '../../src/kernels/bind-by-name.js';
import type { TileArrangement } from '../../src/kernels/blocks/arrangement.js';
import { type TileIoBlock, tileIo } from '../../src/kernels/blocks/tile-io.js';
import type { Kernel } from '../../src/kernels/define-kernel.js';
import type { BlockOp } from '../../src/kernels/group-scan.js';
import { wgslOp } from '../../src/kernels/wgsl-ops.js';
import { getPipeline, loadPipelines } from '../../src/pipeline-cache.js';

export type TestType = 'u32' | 'i32' | 'f32';

/** The tile shape every harness case of a block has. */
export interface TileShapeCase {
  readonly type: TestType;
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  readonly itemsPerThread: number;
  /** vec4 slots through the slot view (else elements of the binding `input`). */
  readonly vec4: boolean;
  readonly arrangement: TileArrangement;
}

/**
 * The harness's tile of case `s`: vec4 slots through the slot view (direct tail), or elements of
 * `input` (stored to `output` with `writes`), read backward with `backward`; `fill` past the end.
 */
export function harnessTileIo(
  s: TileShapeCase,
  name: string,
  fill: string,
  options: { backward?: boolean; writes?: boolean } = {},
): TileIoBlock {
  const writes = options.writes ?? false;
  return tileIo({
    name,
    type: s.type,
    workgroupSize: s.workgroupSize,
    itemsPerThread: s.itemsPerThread,
    arrangement: s.arrangement,
    backward: options.backward ?? false,
    fill,
    source: s.vec4
      ? { kind: 'slots', writes, tail: 'direct' }
      : writes
        ? { kind: 'elements', load: 'input', store: 'output' }
        : { kind: 'elements', load: 'input' },
  });
}

/**
 * The operators the block tests use: the scan family's; `add-shuffles`, u32 add without its
 * built-ins (so the subgroup form runs on shuffles); and `affine`, the composition of affine maps
 * x ↦ a·x + b mod 2^16 packed as a << 16 | b, associative but not commutative, with no built-in.
 */
export type TestOpName = 'add' | 'min' | 'max' | 'mul' | 'and' | 'or' | 'xor' | 'add-shuffles' | 'affine';

/** WGSL of the `affine` operator: f first, then g. */
export const AFFINE_WGSL = `
fn test_affine(f: u32, g: u32) -> u32 {
  let fa = f >> 16u; let fb = f & 0xffffu; let ga = g >> 16u; let gb = g & 0xffffu;
  return (((ga * fa) & 0xffffu) << 16u) | ((ga * fb + gb) & 0xffffu);
}`;

export function opsFor(type: TestType): readonly TestOpName[] {
  if (type === 'u32') return ['add', 'min', 'max', 'and', 'or', 'xor', 'add-shuffles', 'add-shuffles', 'affine', 'affine', 'affine'];
  if (type === 'i32') return ['add', 'min', 'max', 'mul', 'xor'];
  return ['add', 'min', 'max'];
}

export function blockOpOf(op: TestOpName, type: TestType): BlockOp {
  if (op === 'affine') return { type: 'u32', identity: '0x10000u', combine: (a, b) => `test_affine(${a}, ${b})` };
  if (op === 'add-shuffles') {
    const add = wgslOp('add', type);
    return { type, identity: add.identity, combine: add.combine, commutative: true };
  }
  return wgslOp(op, type);
}

export interface CpuOp {
  readonly identity: number;
  combine(a: number, b: number): number;
  /** f32 add: compared within a tolerance (the GPU combines in another order). */
  readonly approximate: boolean;
}

export function cpuOpOf(op: TestOpName, type: TestType): CpuOp {
  const wrap = (x: number) => (type === 'u32' ? x >>> 0 : type === 'i32' ? x | 0 : x);
  switch (op) {
    case 'add':
    case 'add-shuffles':
      // f32: summed in float64, compared within a tolerance.
      return { identity: 0, combine: (a, b) => wrap(a + b), approximate: type === 'f32' };
    case 'mul':
      return { identity: 1, combine: (a, b) => wrap(type === 'f32' ? Math.fround(a * b) : Math.imul(a, b)), approximate: false };
    case 'min':
      return {
        identity: type === 'u32' ? 0xffffffff : type === 'i32' ? 2147483647 : Number.POSITIVE_INFINITY,
        combine: Math.min,
        approximate: false,
      };
    case 'max':
      return {
        identity: type === 'u32' ? 0 : type === 'i32' ? -2147483648 : Number.NEGATIVE_INFINITY,
        combine: Math.max,
        approximate: false,
      };
    case 'and':
      return { identity: type === 'u32' ? 0xffffffff : -1, combine: (a, b) => wrap(a & b), approximate: false };
    case 'or':
      return { identity: 0, combine: (a, b) => wrap(a | b), approximate: false };
    case 'xor':
      return { identity: 0, combine: (a, b) => wrap(a ^ b), approximate: false };
    case 'affine':
      return {
        identity: 0x10000,
        combine: (f, g) => {
          const fa = f >>> 16;
          const fb = f & 0xffff;
          const ga = g >>> 16;
          const gb = g & 0xffff;
          return ((((ga * fa) & 0xffff) << 16) | ((ga * fb + gb) & 0xffff)) >>> 0;
        },
        approximate: false,
      };
  }
}

export type Typed = Uint32Array | Int32Array | Float32Array;

export function dataFor(op: TestOpName, type: TestType, n: number, seed: number): Typed {
  return randomData(type, n, seed, op === 'mul' ? 'mul-safe' : 'random');
}

export function typedOf(type: TestType, bytes: ArrayBuffer): Typed {
  return type === 'u32' ? new Uint32Array(bytes) : type === 'i32' ? new Int32Array(bytes) : new Float32Array(bytes);
}

/** A typed array of `type` holding `values`. */
export function typedFrom(type: TestType, values: ArrayLike<number>): Typed {
  return type === 'u32' ? Uint32Array.from(values) : type === 'i32' ? Int32Array.from(values) : Float32Array.from(values);
}

/**
 * Where logical element j of a tile load's view lies in an array of n elements (-1: past the end,
 * it reads as the fill). Slots: four elements per slot, a backward view reversing whole vec4s, so
 * the padding of a partial vec4 comes first.
 */
export function physicalOf(j: number, n: number, slots: boolean, backward: boolean): number {
  if (!backward) return j < n ? j : -1;
  if (!slots) return j < n ? n - 1 - j : -1;
  const i = 4 * Math.ceil(n / 4) - 1 - j;
  return i >= 0 && i < n ? i : -1;
}

/** Tiles that cover n elements, a tile holding `tileElements` (slots: whole vec4s). */
export function tilesOf(n: number, tileElements: number, slots: boolean): number {
  const covered = slots ? 4 * Math.ceil(n / 4) : n;
  return Math.max(1, Math.ceil(covered / tileElements));
}

export const ARRANGEMENTS: readonly TileArrangement[] = ['blocked', 'striped', 'group-striped'];

/** A seeded chooser. */
export function chooser(seed: number): Rng & { pick<T>(xs: readonly T[]): T; chance(p: number): boolean } {
  const rng = createRng(seed);
  return { ...rng, pick: (xs) => xs[rng.int(0, xs.length - 1)]!, chance: (p) => rng.float() < p };
}

/**
 * An element count of one of four kinds, drawn: one element (1 in 10), a partial tile (3 in 10),
 * exactly one tile (2 in 10), several tiles, the last one whole or partial (4 in 10).
 */
export function countOf(tileElements: number, pick: ReturnType<typeof chooser>): number {
  const r = pick.float();
  if (r < 0.1) return 1;
  if (r < 0.4) return pick.int(2, tileElements - 1);
  if (r < 0.6) return tileElements;
  return pick.chance(0.3) ? 3 * tileElements : 2 * tileElements + pick.int(1, tileElements - 1);
}

/** One dispatch of a harness kernel: its inputs, the outputs it writes (poisoned first) and its parameters. */
export interface KernelJob {
  readonly kernel: Kernel;
  readonly groups: number;
  readonly params: Readonly<Record<string, number>>;
  readonly inputs: Readonly<Record<string, ArrayBufferView>>;
  /** Bindings read back after the run, with their sizes in bytes: poisoned first, unless also an input. */
  readonly outputs: Readonly<Record<string, number>>;
}

/**
 * The slot-view parameters (`SLOT_PARAMS`) of a harness job over `n` elements in `tiles` tiles, one
 * workgroup per tile, no carry between chunks.
 */
export function harnessParams(n: number, tiles: number): Readonly<Record<string, number>> {
  return { count: n, slots: Math.ceil(n / 4), full_vecs: Math.floor(n / 4), tiles, dispatch_x: tiles, carry_in: 0, carry_out: 0, extra: 0 };
}

/** Compiles the kernels (in parallel), runs every job in one submission, returns each job's outputs by name. */
export async function runKernels(ctx: ScanContext, jobs: readonly KernelJob[]): Promise<Record<string, ArrayBuffer>[]> {
  try {
    await loadPipelines(ctx, new Set(jobs.map((j) => j.kernel)));
  } catch (e) {
    // Say what the compiler said, with the WGSL around it.
    for (const kernel of new Set(jobs.map((j) => j.kernel))) {
      const code = kernel.wgsl();
      const info = await ctx.device.createShaderModule({ code }).getCompilationInfo();
      const errors = info.messages.filter((m) => m.type === 'error');
      if (errors.length === 0) continue;
      const lines = code.split('\n');
      for (const m of errors) {
        const around = lines.slice(Math.max(0, m.lineNum - 4), m.lineNum + 2).join('\n');
        console.error(`${kernel.key}: ${m.lineNum}:${m.linePos} ${m.message}\n${around}`);
      }
      break;
    }
    throw e;
  }
  const owned: GPUBuffer[] = [];
  const names = jobs.map((j) => Object.keys(j.outputs));
  const results = await runBatch(
    ctx,
    jobs.map((job) => ({
      record: (encoder: GPUCommandEncoder) => {
        const buffers: Record<string, GPUBuffer> = {};
        for (const [name, data] of Object.entries(job.inputs)) buffers[name] = bufferOf(ctx, data);
        for (const [name, bytes] of Object.entries(job.outputs)) buffers[name] ??= poisoned(ctx, bytes);
        for (const [name, buffer] of Object.entries(buffers)) if (!(name in job.outputs)) owned.push(buffer);
        const params = ctx.device.createBuffer({ size: 32, usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST });
        owned.push(params);
        ctx.device.queue.writeBuffer(params, 0, paramsData(job.kernel, job.params));
        const pipeline = getPipeline(ctx, job.kernel);
        const pass = encoder.beginComputePass();
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, bindGroupByName(ctx.device, job.kernel, pipeline, { ...buffers, params }));
        pass.dispatchWorkgroups(job.groups);
        pass.end();
        return Object.entries(job.outputs).map(([name, bytes]) => ({ buffer: buffers[name]!, bytes }));
      },
    })),
    owned,
  );
  return results.map((reads, i) => Object.fromEntries(names[i]!.map((name, r) => [name, reads[r]!])));
}

/** The poison sentinel's bits. */
export const POISON_BITS = POISON_U32;

/** The first index at or past `from` whose word is not the poison sentinel, or -1. */
export function firstWritten(bytes: ArrayBuffer, from: number): number {
  const words = new Uint32Array(bytes);
  for (let i = from; i < words.length; i++) if (words[i] !== POISON_BITS) return i;
  return -1;
}
