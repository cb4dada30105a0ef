import { getTestContext, POISON_U32 } from '@scan/gpu-testing';
import { beforeAll, describe, expect, test } from 'vitest';
import type { ScanContext } from '../src/context.js';
import { scan as cpuScan } from '../src/cpu/index.js';
import { ELEMENT_TYPES, type ElementType, opFitsType, SCAN_OPS, type ScanOp, type ScanTypedArray } from '../src/element-types.js';
import { createScanPlan, type InternalScanOptions } from '../src/plans/scan-plan.js';

// The paper's multi-pass scans ('blelloch': reduce/down-sweep per 2048-element block, recursive on
// the block sums, uniform add; 'reduce-then-scan': 4096-element tiles) against the CPU reference,
// through the public plan, on every operator × type, both directions, inclusive and exclusive,
// with and without subgroups, at the sizes where their structure changes.

/** Words past `count` in every output buffer, which must come back still poisoned. */
const GUARD = 8;
/** Elements of a Blelloch block and of a reduce-then-scan tile at 256 invocations. */
const BLOCK = 2048;
const TILE = 4096;

type Algorithm = 'blelloch' | 'reduce-then-scan';
const ALGORITHMS: readonly Algorithm[] = ['blelloch', 'reduce-then-scan'];

interface Case {
  readonly ctx: ScanContext;
  readonly type: ElementType;
  readonly op: ScanOp;
  readonly inclusive: boolean;
  readonly backward: boolean;
  readonly algorithm: Algorithm;
  readonly maxChunkElements?: number;
  /** Internal option of the plan: small workgroups make small blocks, so recursion is cheap to reach. */
  readonly workgroupSize?: number;
  /** Internal option: `'not'` scans 1 − x of 0/1 flags (how split counts zeros). */
  readonly mapInput?: 'not';
  readonly count: number;
}

let device: GPUDevice;
let withSubgroups: ScanContext;
let withoutSubgroups: ScanContext;

beforeAll(async () => {
  withSubgroups = await getTestContext();
  withoutSubgroups = await getTestContext({ subgroups: false });
  device = withSubgroups.device;
});

/** mulberry32: a small seeded generator, so a failure reproduces. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Data that keeps every prefix meaningful and, for f32, exact in any order of combination: small
 * integers for add (prefix sums stay below 2^24), odd factors for integer mul (products never
 * collapse to 0), ±1 for f32 mul, mostly-set bits for and, sparse bits for or.
 */
function makeData(type: ElementType, op: ScanOp, count: number, seed: number): ScanTypedArray {
  const r = rng(seed);
  const bits = () => Math.floor(r() * 4294967296) >>> 0;
  const out = type === 'u32' ? new Uint32Array(count) : type === 'i32' ? new Int32Array(count) : new Float32Array(count);
  for (let i = 0; i < count; i++) {
    let v: number;
    switch (op) {
      case 'add':
        v = type === 'i32' ? Math.floor(r() * 8) - 4 : Math.floor(r() * 4);
        break;
      case 'mul':
        v = type === 'f32' ? (r() < 0.5 ? -1 : 1) : bits() | 1;
        break;
      case 'min':
      case 'max':
        v = type === 'f32' ? Math.floor(r() * 2_000_001) - 1_000_000 : bits();
        break;
      case 'and':
        v = r() < 0.999 ? 0xffffffff : ~(1 << Math.floor(r() * 32));
        break;
      case 'or':
        v = r() < 0.999 ? 0 : 1 << Math.floor(r() * 32);
        break;
      case 'xor':
        v = bits();
        break;
    }
    out[i] = v;
  }
  return out;
}

/** Runs every case in one submit and returns a description of each failure. */
async function runBatch(cases: readonly Case[]): Promise<string[]> {
  const plans = new Map<string, ReturnType<typeof createScanPlan>>();
  const buffers: GPUBuffer[] = [];
  const encoder = device.createCommandEncoder();
  const runs = cases.map((c, i) => {
    const key = `${c.ctx === withSubgroups ? 'sg' : 'wg'}|${c.type}|${c.op}|${c.inclusive}|${c.backward}|${c.algorithm}|${c.maxChunkElements}|${c.workgroupSize}`;
    let plan = plans.get(key);
    if (!plan) {
      const options: InternalScanOptions = { type: c.type, op: c.op, inclusive: c.inclusive, backward: c.backward, algorithm: c.algorithm };
      if (c.maxChunkElements !== undefined) options.maxChunkElements = c.maxChunkElements;
      if (c.workgroupSize !== undefined) options.tuning = { workgroupSize: c.workgroupSize };
      if (c.mapInput !== undefined) options.mapInput = c.mapInput;
      plan = createScanPlan(c.ctx, options);
      plans.set(key, plan);
    }
    const data = makeData(c.type, c.op, c.count, 1000 + i);
    if (c.mapInput === 'not') {
      for (let k = 0; k < c.count; k++) data[k] = data[k]! & 1;
    }
    const input = device.createBuffer({
      size: Math.max(4, c.count * 4),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
      mappedAtCreation: true,
    });
    new Uint32Array(input.getMappedRange()).set(new Uint32Array(data.buffer, data.byteOffset, c.count));
    input.unmap();
    const outBytes = (c.count + GUARD) * 4;
    const output = device.createBuffer({
      size: outBytes,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
      mappedAtCreation: true,
    });
    new Uint32Array(output.getMappedRange()).fill(POISON_U32);
    output.unmap();
    const readback = device.createBuffer({ size: outBytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    buffers.push(input, output, readback);
    plan.encode(encoder, { input, output, count: c.count });
    encoder.copyBufferToBuffer(output, 0, readback, 0, outBytes);
    return { c, data, readback };
  });
  device.pushErrorScope('validation');
  device.queue.submit([encoder.finish()]);
  const error = await device.popErrorScope();
  if (error) throw new Error(`validation error: ${error.message}`);
  const failures: string[] = [];
  for (const { c, data, readback } of runs) {
    await readback.mapAsync(GPUMapMode.READ);
    const words = new Uint32Array(readback.getMappedRange().slice(0));
    readback.unmap();
    const label = `${c.algorithm} ${c.type}.${c.op} ${c.inclusive ? 'inc' : 'exc'} ${c.backward ? 'bwd' : 'fwd'} ${
      c.ctx === withSubgroups ? 'sg' : 'no-sg'
    } n=${c.count}${c.maxChunkElements ? ` chunk=${c.maxChunkElements}` : ''}${c.workgroupSize ? ` wg=${c.workgroupSize}` : ''}${c.mapInput ? ' not' : ''}`;
    const source = c.mapInput === 'not' ? data.map((v) => 1 - v) : data;
    const expected = cpuScan(source, { op: c.op, inclusive: c.inclusive, backward: c.backward });
    const got =
      c.type === 'u32'
        ? words.subarray(0, c.count)
        : c.type === 'i32'
          ? new Int32Array(words.buffer, 0, c.count)
          : new Float32Array(words.buffer, 0, c.count);
    let bad = 0;
    let first = -1;
    for (let i = 0; i < c.count; i++) {
      // The data hold no NaN, and === takes -0 and +0 as equal (WGSL leaves min/max of signed zeros open).
      if (expected[i] !== got[i]) {
        if (first < 0) first = i;
        bad++;
      }
    }
    if (bad > 0) failures.push(`${label}: ${bad} wrong, first at ${first}: expected ${expected[first]}, got ${got[first]}`);
    for (let i = c.count; i < c.count + GUARD; i++) {
      if (words[i] !== POISON_U32) {
        failures.push(`${label}: wrote past the end at ${i}`);
        break;
      }
    }
  }
  for (const p of plans.values()) p.destroy();
  for (const b of buffers) b.destroy();
  return failures;
}

const TYPE_OPS = ELEMENT_TYPES.flatMap((type) => SCAN_OPS.filter((op) => opFitsType(op, type)).map((op) => ({ type, op })));

/** Sizes where the structure changes: the vec4 tail, one block/tile and one past it, several. */
const SMALL_SIZES = [0, 1, 2, 3, 4, 5, 7, BLOCK - 1, BLOCK, BLOCK + 1, TILE - 1, TILE, TILE + 1, 3 * TILE + 11];

/**
 * Type/op pairs that get every direction × inclusive × subgroups combination. The others get two
 * combinations between them covering both directions, both modes and both subgroup settings: an
 * operator changes only `combine` and the identity, which are orthogonal to the direction and mode
 * logic, and each combination costs SwiftShader several pipeline compiles.
 */
const FULL = new Set(['u32.add', 'i32.min', 'f32.add', 'f32.max']);

describe('multi-pass scans: every operator × type, both directions, inclusive and exclusive, with and without subgroups', () => {
  for (const { type, op } of TYPE_OPS) {
    const full = FULL.has(`${type}.${op}`);
    test(`${type}.${op}${full ? ' (every combination)' : ''}`, async () => {
      const combos: { ctx: ScanContext; inclusive: boolean; backward: boolean }[] = [];
      for (const ctx of [withSubgroups, withoutSubgroups]) {
        for (const inclusive of [false, true]) {
          for (const backward of [false, true]) {
            // Outside FULL: exclusive forward with subgroups, inclusive backward without.
            if (full || (ctx === withSubgroups ? !inclusive && !backward : inclusive && backward))
              combos.push({ ctx, inclusive, backward });
          }
        }
      }
      const cases: Case[] = [];
      for (const algorithm of ALGORITHMS) {
        for (const { ctx, inclusive, backward } of combos) {
          const base = { ctx, type, op, inclusive, backward, algorithm };
          for (const count of SMALL_SIZES) cases.push({ ...base, count });
          // Chunks of 4096 (two blocks, one tile each) and of 6464 (partial blocks and tiles), so
          // the carry goes through every path.
          cases.push({ ...base, count: 3 * TILE + 5, maxChunkElements: TILE });
          cases.push({ ...base, count: 20_003, maxChunkElements: 6464 });
        }
      }
      expect(await runBatch(cases)).toEqual([]);
    });
  }
});

describe('multi-pass scans: recursion and large arrays', () => {
  test('deep recursion with small workgroups', async () => {
    // 8 invocations: Blelloch blocks of 64 elements (300007 → 4688 block sums → 74 → 2 → 1, three
    // recursion levels) and reduce-then-scan tiles of 128 (→ 2344 partials → 19 → 1, two levels).
    const count = 300_007;
    const wg = 8;
    const sizes = [count, 64 * 64 + 1, 128 * 128 + 1, 129];
    // The subgroup form needs whole subgroups in a workgroup; the workgroup form runs anywhere.
    const contexts = (withSubgroups.caps.subgroupMaxSize ?? Infinity) <= wg ? [withSubgroups, withoutSubgroups] : [withoutSubgroups];
    const cases: Case[] = [];
    for (const ctx of contexts) {
      for (const algorithm of ALGORITHMS) {
        for (const [type, op, inclusive, backward] of [
          ['u32', 'add', false, false],
          ['f32', 'add', true, true],
          ['i32', 'max', false, true],
        ] as const) {
          for (const n of sizes) cases.push({ ctx, type, op, inclusive, backward, algorithm, workgroupSize: wg, count: n });
        }
        cases.push({
          ctx,
          type: 'u32',
          op: 'xor',
          inclusive: true,
          backward: false,
          algorithm,
          workgroupSize: wg,
          count,
          maxChunkElements: 64 * 1000,
        });
      }
    }
    expect(await runBatch(cases)).toEqual([]);
  });

  test('2^20 + 3 elements, one chunk and chunks of 4096', async () => {
    const cases: Case[] = [];
    const count = 2 ** 20 + 3;
    for (const algorithm of ALGORITHMS) {
      cases.push({ ctx: withSubgroups, type: 'u32', op: 'add', inclusive: false, backward: false, algorithm, count });
      cases.push({ ctx: withoutSubgroups, type: 'f32', op: 'add', inclusive: true, backward: true, algorithm, count });
      cases.push({
        ctx: withSubgroups,
        type: 'i32',
        op: 'max',
        inclusive: false,
        backward: true,
        algorithm,
        count,
        maxChunkElements: TILE,
      });
    }
    expect(await runBatch(cases)).toEqual([]);
  });

  test('blelloch at full size: block sums that are themselves two blocks', async () => {
    // 2048² + 5 elements: 2049 block sums, scanned as two blocks and a third level of one.
    const count = BLOCK * BLOCK + 5;
    expect(
      await runBatch([{ ctx: withSubgroups, type: 'u32', op: 'add', inclusive: false, backward: true, algorithm: 'blelloch', count }]),
    ).toEqual([]);
  });
});
