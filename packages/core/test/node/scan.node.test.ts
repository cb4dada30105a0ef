// scan through @scan/core/node, against the CPU reference, at sizes ≤ 2^18: the full size and
// content sweep lives in the browser tests, and large host arrays in Node in tooling/node-suite
// (every package at up to 2^22); this one checks every scan variant on the Node path.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as cpu from '../../src/cpu/index.js';
import { SCAN_ALGORITHMS, SCAN_OPS, type ScanContext, type ScanOp, type ScanTypedArray, scan } from '../../src/index.js';
import { opFitsType } from '../../src/kit/index.js';
import { createNodeContext } from '../../src/node/index.js';

/** Sizes around tiles and powers of two, up to 2^18 (the variants are many; SwiftShader is slow). */
const SIZES = [0, 1, 2, 3, 5, 31, 32, 33, 255, 256, 257, 1023, 1024, 1025, 4097, 65535, 65537, 2 ** 18];

/** Deterministic xorshift32 stream, so a failure reproduces. */
function generator(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

type Kind = 'u32' | 'i32' | 'f32';

/**
 * Seeded data of `kind`. Floats are small integers (sums stay exact below 2^24, so any order of
 * additions gives the CPU's bits), and for `mul` mostly ±1 with rare factors of 2 and 1/2 (exact
 * powers of two that neither overflow nor round at the sizes used).
 */
function data(kind: Kind, n: number, seed: number, op: ScanOp): ScanTypedArray {
  const next = generator(seed);
  if (kind === 'u32') return Uint32Array.from({ length: n }, () => next());
  if (kind === 'i32') return Int32Array.from({ length: n }, () => next() | 0);
  if (op !== 'mul') return Float32Array.from({ length: n }, () => (next() % 32) - 15);
  return Float32Array.from({ length: n }, () => {
    const r = next() % 1024;
    return r === 0 ? 2 : r === 1 ? 0.5 : r % 2 === 0 ? 1 : -1;
  });
}

/** The first index where `a` and `b` differ bit for bit (-0 ≠ +0), or -1. */
function firstMismatch(a: ScanTypedArray, b: ScanTypedArray): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return i;
  return -1;
}

async function check(ctx: ScanContext, input: ScanTypedArray, options: Parameters<typeof cpu.scan>[1] & { algorithm?: string }) {
  const copy = input.slice();
  const got = await scan(ctx, input, options as Parameters<typeof scan>[2]);
  const want = cpu.scan(input, options);
  const at = firstMismatch(got, want);
  const where = `${input.constructor.name}(${input.length}) ${JSON.stringify(options)}`;
  expect(at, `${where}: element ${at} is ${got[at]}, expected ${want[at]}`).toBe(-1);
  expect(got.constructor).toBe(input.constructor);
  expect(firstMismatch(input, copy), `${where}: the input was modified`).toBe(-1);
}

describe('scan in Node (SwiftShader unless a GPU is present)', () => {
  let ctx: ScanContext;
  beforeAll(async () => {
    ctx = await createNodeContext();
  });
  afterAll(() => ctx?.destroy());

  for (const algorithm of SCAN_ALGORITHMS) {
    for (const backward of [false, true]) {
      for (const inclusive of [false, true]) {
        test(`u32 add, ${algorithm}, ${inclusive ? 'inclusive' : 'exclusive'}${backward ? ', backward' : ''}, sizes 0 … 2^18`, async () => {
          for (const n of SIZES) await check(ctx, data('u32', n, n + 1, 'add'), { op: 'add', inclusive, backward, algorithm });
        });
      }
    }
  }

  // Every operator × type once through the Node path, each in one direction and mode (rotating, so
  // all four appear per type): every combination of them is a pipeline SwiftShader compiles anew, and
  // the kernels' cross product is checked in the browser tests (scan.test.ts, scan-multipass.test.ts).
  const COMBOS = [
    [false, false],
    [true, false],
    [false, true],
    [true, true],
  ] as const;
  for (const kind of ['u32', 'i32', 'f32'] as const) {
    SCAN_OPS.filter((o) => opFitsType(o, kind)).forEach((op, i) => {
      const [inclusive, backward] = COMBOS[i % COMBOS.length] as (typeof COMBOS)[number];
      const mode = `${inclusive ? 'inclusive' : 'exclusive'}${backward ? ', backward' : ''}`;
      test(`${kind} ${op}, ${mode}, sizes 1000 and 20000`, async () => {
        for (const n of [1000, 20_000]) await check(ctx, data(kind, n, 7 * n + op.length, op), { op, inclusive, backward });
      });
    });
  }

  test('the subgroup and portable paths agree (subgroups: false)', async () => {
    const portable = await createNodeContext({ subgroups: false });
    try {
      for (const algorithm of SCAN_ALGORITHMS) {
        for (const n of [1, 257, 4097, 65537]) await check(portable, data('u32', n, n, 'add'), { op: 'add', inclusive: true, algorithm });
      }
    } finally {
      portable.destroy();
    }
  });
});
