import { type ElementType, SCAN_OPS, type ScanContext, ScanError, type ScanOp } from '@scan/core';
import { opFitsType, RecipeExecutor } from '@scan/core/kit';
import { createRng, expectEqualArrays, expectScanClose, getTestContext, POISON_U32, poisonBuffer } from '@scan/gpu-testing';
import { beforeAll, describe, expect, test } from 'vitest';
import { segmentedScan as cpuSegmentedScan } from '../src/cpu/index.js';
import { type SegmentedShape, treeSegmentedScanRecipe } from '../src/plans/tree.js';

// The paper's tree segmented scan (reduce with the partial-OR tree, down-sweep, multi-block with
// saved trees and a recursive second level) against the CPU reference: edge sizes, sizes that need
// several recursion levels (small workgroups make small blocks), segment-length distributions from
// all-ones to one segment, every operator × type in both directions, inclusive and exclusive, with
// and without subgroups, on poisoned outputs. Everything of one test goes into one submit.

/** Words past `count` in every output buffer, which must come back still poisoned. */
const GUARD = 8;
/** Elements of a block at the default 256 invocations (two vec4 slots per invocation). */
const BLOCK = 2048;

type Data = Uint32Array | Int32Array | Float32Array;

interface Case {
  readonly ctx: ScanContext;
  readonly shape: SegmentedShape;
  readonly data: Data;
  /** 0/1 per element; element 0 may be 0 (it is a head all the same). */
  readonly heads: Uint8Array;
  readonly label: string;
  /** f32 add of non-integer data: compare within the reordered-sum bound instead of exactly. */
  readonly close?: boolean;
}

let withSubgroups: ScanContext;
let withoutSubgroups: ScanContext;
const executors = new Map<ScanContext, RecipeExecutor>();

beforeAll(async () => {
  withSubgroups = await getTestContext();
  withoutSubgroups = await getTestContext({ subgroups: false });
});

function shapeOf(
  ctx: ScanContext,
  type: ElementType,
  op: ScanOp,
  inclusive: boolean,
  backward: boolean,
  workgroupSize = 256,
): SegmentedShape {
  return { type, op, inclusive, backward, subgroups: ctx.caps.features.subgroups, workgroupSize };
}

/** Data that keeps every segmented prefix meaningful and, for f32, exact in any order of combination. */
function makeData(type: ElementType, op: ScanOp, count: number, seed: number): Data {
  const rng = createRng(seed);
  const out = type === 'u32' ? new Uint32Array(count) : type === 'i32' ? new Int32Array(count) : new Float32Array(count);
  for (let i = 0; i < count; i++) {
    const r = rng.float();
    switch (op) {
      case 'add':
        out[i] = type === 'u32' ? rng.int(0, 16) : rng.int(-8, 8);
        break;
      case 'mul':
        out[i] = type === 'f32' ? (r < 0.5 ? -1 : 1) : rng.u32() | 1;
        break;
      case 'min':
      case 'max':
        out[i] = type === 'f32' ? rng.int(-1_000_000, 1_000_000) : rng.u32();
        break;
      case 'and':
        out[i] = r < 0.99 ? 0xffffffff : ~(1 << rng.int(0, 31));
        break;
      case 'or':
        out[i] = r < 0.99 ? 0 : 1 << rng.int(0, 31);
        break;
      case 'xor':
        out[i] = rng.u32();
        break;
    }
  }
  return out;
}

/** Segment-length distributions of the head flags. */
type Segments = 'ones' | 'one' | 'mean3' | 'mean30' | 'mean3000' | 'block' | 'aligned';

function makeHeads(count: number, segments: Segments, seed: number, block = BLOCK): Uint8Array {
  const heads = new Uint8Array(count);
  const rng = createRng(seed ^ 0x5eed);
  const density = (mean: number) => {
    for (let i = 0; i < count; i++) heads[i] = rng.float() < 1 / mean ? 1 : 0;
  };
  switch (segments) {
    case 'ones':
      heads.fill(1);
      break;
    case 'one':
      break;
    case 'mean3':
      density(3);
      break;
    case 'mean30':
      density(30);
      break;
    case 'mean3000':
      density(3000);
      break;
    case 'block':
      // Lengths around the block size, so segments straddle block boundaries at every offset.
      for (let i = 0; i < count; i += block + rng.int(-2, 2)) heads[i] = 1;
      break;
    case 'aligned':
      // Heads exactly at block boundaries, and just before and after them.
      for (let i = 0; i < count; i += block) {
        const at = i + rng.int(-1, 1);
        if (at >= 0 && at < count) heads[at] = 1;
        if (rng.float() < 0.5) heads[i] = 1;
      }
      break;
  }
  // Element 0 is a head whatever its flag says: leave it 0 half the time.
  heads[0] = count > 0 && seed % 2 === 0 ? 0 : heads[0]!;
  return heads;
}

/** Bit-packed flags; bits past `count` in the last word are set, to check that they are ignored. */
function packBits(heads: Uint8Array): Uint32Array {
  const n = heads.length;
  const words = new Uint32Array(Math.ceil(n / 32));
  for (let i = 0; i < n; i++) if (heads[i]) words[i >>> 5]! |= 1 << (i & 31);
  if (n % 32 !== 0) words[words.length - 1]! |= ~0 << (n % 32);
  return words;
}

function caseOf(
  ctx: ScanContext,
  shape: SegmentedShape,
  count: number,
  segments: Segments,
  seed: number,
  options: { block?: number; data?: Data; close?: boolean } = {},
): Case {
  const data = options.data ?? makeData(shape.type, shape.op, count, seed);
  const heads = makeHeads(count, segments, seed, options.block);
  const label =
    `tree ${shape.type}.${shape.op} ${shape.inclusive ? 'inc' : 'exc'} ${shape.backward ? 'bwd' : 'fwd'} ` +
    `${ctx === withSubgroups ? 'sg' : 'no-sg'} wg=${shape.workgroupSize} n=${count} ${segments} seed=${seed}`;
  return { ctx, shape, data, heads, label, close: options.close };
}

const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

function bufferWith(device: GPUDevice, words: ArrayBufferView, minBytes = 16): GPUBuffer {
  const buffer = device.createBuffer({ size: Math.max(minBytes, Math.ceil(words.byteLength / 4) * 4), usage: USAGE });
  if (words.byteLength > 0) device.queue.writeBuffer(buffer, 0, words.buffer, words.byteOffset, words.byteLength);
  return buffer;
}

/** Runs every case in one submit through core's RecipeExecutor and returns a message per failure. */
async function runBatch(cases: readonly Case[]): Promise<string[]> {
  const device = withSubgroups.device;
  const owned: GPUBuffer[] = [];
  device.pushErrorScope('validation');
  const encoder = device.createCommandEncoder();
  const runs = cases.map((c) => {
    const n = c.data.length;
    let exec = executors.get(c.ctx);
    if (!exec) {
      exec = new RecipeExecutor(c.ctx, 'segmented tree test');
      executors.set(c.ctx, exec);
    }
    const input = bufferWith(device, c.data, 4);
    // Exactly ⌈n / 32⌉ words: the recipe binds the whole buffer.
    const headBits = bufferWith(device, packBits(c.heads), 4);
    const outBytes = (n + GUARD) * 4;
    const output = device.createBuffer({ size: outBytes, usage: USAGE });
    poisonBuffer(c.ctx, output, outBytes);
    const readback = device.createBuffer({ size: outBytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    owned.push(input, headBits, output, readback);
    const s = c.shape;
    exec.encode(encoder, () => treeSegmentedScanRecipe(c.ctx, s, n), { input, headBits, output });
    encoder.copyBufferToBuffer(output, 0, readback, 0, outBytes);
    return { c, readback };
  });
  device.queue.submit([encoder.finish()]);
  const error = await device.popErrorScope();
  if (error) throw new Error(`validation error: ${error.message}`);
  const failures: string[] = [];
  for (const { c, readback } of runs) {
    await readback.mapAsync(GPUMapMode.READ);
    const bytes = readback.getMappedRange().slice(0);
    readback.unmap();
    const n = c.data.length;
    const words = new Uint32Array(bytes);
    const actual = new (c.data.constructor as new (b: ArrayBuffer, o: number, l: number) => Data)(bytes, 0, n);
    const expected = cpuSegmentedScan(c.data, c.heads, { op: c.shape.op, inclusive: c.shape.inclusive, backward: c.shape.backward });
    try {
      if (c.close) expectScanClose(actual, c.data, expected, c.shape.op, c.label, { backward: c.shape.backward });
      else expectEqualArrays(actual, expected, c.label);
      for (let g = n; g < n + GUARD; g++) {
        if (words[g] !== POISON_U32) throw new Error(`${c.label}: guard word ${g - n} past the end was overwritten`);
      }
    } catch (e) {
      failures.push((e as Error).message);
    }
  }
  for (const b of owned) b.destroy();
  return failures;
}

async function expectBatch(cases: readonly Case[]): Promise<void> {
  expect(await runBatch(cases)).toEqual([]);
}

describe('segmented tree scan', () => {
  test('an empty array records no steps', () => {
    const recipe = treeSegmentedScanRecipe(withSubgroups, shapeOf(withSubgroups, 'u32', 'add', false, false), 0);
    expect(recipe.steps).toEqual([]);
  });

  test('edge sizes around the vec4, the block and a few blocks, both contexts', async () => {
    const sizes = [1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, BLOCK - 1, BLOCK, BLOCK + 1, 3 * BLOCK + 5, 10 * BLOCK - 1];
    const cases: Case[] = [];
    let seed = 1;
    for (const ctx of [withSubgroups, withoutSubgroups]) {
      for (const n of sizes) {
        cases.push(caseOf(ctx, shapeOf(ctx, 'u32', 'add', false, false), n, 'mean3', seed++));
        cases.push(caseOf(ctx, shapeOf(ctx, 'i32', 'max', true, true), n, 'mean30', seed++));
      }
    }
    for (const n of [1, 2, 5]) {
      cases.push(caseOf(withSubgroups, shapeOf(withSubgroups, 'u32', 'add', true, false), n, 'ones', seed++));
      cases.push(caseOf(withSubgroups, shapeOf(withSubgroups, 'u32', 'add', false, true), n, 'one', seed++));
    }
    await expectBatch(cases);
  });

  test('segment-length distributions, both directions, inclusive and exclusive', async () => {
    const cases: Case[] = [];
    let seed = 100;
    const all: Segments[] = ['ones', 'one', 'mean3', 'mean30', 'mean3000', 'block', 'aligned'];
    for (const segments of all) {
      for (const backward of [false, true]) {
        for (const inclusive of [false, true]) {
          const ctx = seed % 2 ? withSubgroups : withoutSubgroups;
          cases.push(caseOf(ctx, shapeOf(ctx, 'u32', 'add', inclusive, backward), 25 * BLOCK + 13, segments, seed++));
        }
      }
    }
    await expectBatch(cases);
  });

  test('every operator × type, both directions, inclusive and exclusive, over two levels', async () => {
    const cases: Case[] = [];
    let seed = 200;
    // u32.add, i32.min, f32.add and f32.max get every direction × inclusive; the other pairs get
    // exclusive forward and inclusive backward (one with, one without subgroups): an operator changes
    // only `combine` and the identity, orthogonal to the direction and mode, and every shape here is
    // a set of pipelines SwiftShader compiles anew.
    const full = new Set(['u32.add', 'i32.min', 'f32.add', 'f32.max']);
    for (const type of ['u32', 'i32', 'f32'] as const) {
      for (const op of SCAN_OPS) {
        if (!opFitsType(op, type)) continue;
        for (const backward of [false, true]) {
          for (const inclusive of [false, true]) {
            if (!full.has(`${type}.${op}`) && backward !== inclusive) continue;
            const ctx = seed % 2 ? withSubgroups : withoutSubgroups;
            // 8 invocations: blocks of 64 elements, so 1001 elements make 16 blocks.
            const segments: Segments = seed % 3 === 0 ? 'mean30' : 'mean3';
            cases.push(caseOf(ctx, shapeOf(ctx, type, op, inclusive, backward, 8), 1001, segments, seed++, { block: 64 }));
          }
        }
      }
    }
    await expectBatch(cases);
  });

  test('deep recursion: three to five levels with small workgroups', async () => {
    const cases: Case[] = [];
    let seed = 300;
    const add = (wg: number, n: number, segments: Segments, type: ElementType, op: ScanOp, inclusive: boolean, backward: boolean) => {
      const ctx = seed % 2 ? withSubgroups : withoutSubgroups;
      cases.push(caseOf(ctx, shapeOf(ctx, type, op, inclusive, backward, wg), n, segments, seed++, { block: 8 * wg }));
    };
    // wg 1: blocks of 8 elements (two-node trees, a partial-OR word per block).
    add(1, 1000, 'mean3', 'u32', 'add', false, false);
    add(1, 1000, 'mean30', 'i32', 'min', true, true);
    add(2, 777, 'block', 'u32', 'xor', true, false);
    add(4, 4099, 'mean3', 'f32', 'max', false, true);
    // wg 8: 64-element blocks; 64^3 + 5 elements need four levels.
    add(8, 64 * 64 + 1, 'aligned', 'u32', 'add', true, true);
    add(8, 64 * 64 * 64 + 5, 'mean3', 'u32', 'add', false, false);
    add(8, 64 * 64 * 64 + 5, 'mean3000', 'i32', 'add', true, true);
    add(8, 64 * 64 * 64 + 5, 'one', 'u32', 'max', false, true);
    add(16, 128 * 128 + 3, 'block', 'f32', 'add', true, false);
    add(32, 256 * 256 + 1, 'mean30', 'u32', 'mul', false, false);
    // 65,537 blocks of 8 elements: past 65,535 workgroups, so the first level is a 2-D dispatch.
    add(1, 8 * 65535 + 9, 'mean30', 'u32', 'add', true, true);
    await expectBatch(cases);
  });

  test('2^20 + 3 elements', async () => {
    const n = (1 << 20) + 3;
    const cases: Case[] = [
      caseOf(withSubgroups, shapeOf(withSubgroups, 'u32', 'add', true, false), n, 'mean30', 400),
      caseOf(withoutSubgroups, shapeOf(withoutSubgroups, 'f32', 'add', false, true), n, 'mean3000', 401),
      caseOf(withSubgroups, shapeOf(withSubgroups, 'i32', 'add', false, false, 8), n, 'mean3', 402, { block: 64 }),
    ];
    await expectBatch(cases);
  });

  test('f32 add of fractional data within the reordered-sum bound', async () => {
    const rng = createRng(500);
    const cases: Case[] = [];
    for (const backward of [false, true]) {
      const n = 7 * BLOCK + 3;
      const data = new Float32Array(n);
      for (let i = 0; i < n; i++) data[i] = Math.fround(rng.float() * 2 - 1);
      const shape = shapeOf(withSubgroups, 'f32', 'add', true, backward);
      cases.push(caseOf(withSubgroups, shape, n, 'mean3000', 500 + Number(backward), { data, close: true }));
    }
    await expectBatch(cases);
  });

  test('past one binding: TOO_LARGE naming the count; an op that does not fit the type', () => {
    const max = Math.floor(withSubgroups.caps.limits.maxStorageBufferBindingSize / 4);
    const shape = shapeOf(withSubgroups, 'u32', 'add', false, false);
    let error: unknown;
    try {
      treeSegmentedScanRecipe(withSubgroups, shape, max + 1);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScanError);
    expect((error as ScanError).code).toBe('TOO_LARGE');
    expect((error as ScanError).message).toContain(`count = ${max + 1}`);
    expect(() => treeSegmentedScanRecipe(withSubgroups, shapeOf(withSubgroups, 'f32', 'xor', false, false), 10)).toThrow(/xor/);
  });
});
