// Bad input: ScanError naming the argument and its value, from the GPU function, the plan and the CPU reference alike.
import { ScanError } from '@scan/core';
import { getTestContext } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { createTridiagonalPlan, solveTridiagonal } from '../src/index.js';
import { randomSystems, upload } from './helpers.js';

const good = () => randomSystems(4, 2, 1);

const BAD: readonly [string, unknown, RegExp][] = [
  ['a too short', { ...good(), a: new Float32Array(7) }, /systems\.a = Float32Array\(7\): length 7 does not match n·batch = 4·2 = 8/],
  ['d not Float32Array', { ...good(), d: new Float64Array(8) }, /systems\.d = Float64Array\(8\): expected a Float32Array/],
  ['b a plain array', { ...good(), b: [1, 2, 3, 4, 5, 6, 7, 8] }, /systems\.b = Array\(8\): expected a Float32Array/],
  ['n zero', { ...good(), n: 0 }, /systems\.n = 0: expected a positive integer/],
  ['n fractional', { ...good(), n: 2.5 }, /systems\.n = 2\.5: expected a positive integer/],
  ['batch negative', { ...good(), batch: -2 }, /systems\.batch = -2: expected a positive integer/],
  ['batch missing', { ...good(), batch: undefined }, /systems\.batch = undefined/],
  ['unknown stride', { ...good(), stride: 'strided' }, /systems\.stride = "strided": expected one of 'contiguous', 'interleaved'/],
  ['unknown key', { ...good(), e: 1 }, /systems\.e = 1: unknown option/],
  ['not an object', 42, /systems = 42/],
];

describe('bad input', () => {
  it('systems: GPU rejects and CPU throws INVALID_ARGUMENT with the same message', async () => {
    const ctx = await getTestContext();
    for (const [label, systems, message] of BAD) {
      expect(() => cpu.solveTridiagonal(systems as never), label).toThrow(message);
      await expect(solveTridiagonal(ctx, systems as never), label).rejects.toThrow(message);
      await expect(solveTridiagonal(ctx, systems as never), label).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
  });

  it('options: unknown algorithm or key', async () => {
    const ctx = await getTestContext();
    await expect(solveTridiagonal(ctx, good(), { algorithm: 'thomas' as never })).rejects.toThrow(
      /options\.algorithm = "thomas": expected one of 'auto', 'cr', 'pcr', 'cr-pcr'/,
    );
    await expect(solveTridiagonal(ctx, good(), { algo: 'cr' } as never)).rejects.toThrow(/options\.algo = "cr": unknown option/);
    expect(() => cpu.solveTridiagonal(good(), { algorithm: 'x' } as never)).toThrow(/options\.algorithm = "x"/);
    expect(() => createTridiagonalPlan(ctx, { n: 4, batch: 2, algorithm: 'x' } as never)).toThrow(/options\.algorithm = "x"/);
    expect(() => createTridiagonalPlan(ctx, { n: 4, batch: 2, size: 3 } as never)).toThrow(/options\.size = 3: unknown option/);
    expect(() => createTridiagonalPlan(ctx, { n: 0, batch: 2 })).toThrow(/options\.n = 0: expected a positive integer/);
  });

  it('sizes past the device: TOO_LARGE', async () => {
    const ctx = await getTestContext();
    const limit = Math.min(ctx.caps.limits.maxStorageBufferBindingSize, ctx.caps.limits.maxBufferSize);
    const n = 1 << 20;
    const batch = Math.floor(limit / (4 * n)) + 1;
    let caught: unknown;
    try {
      createTridiagonalPlan(ctx, { n, batch });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ScanError);
    expect((caught as ScanError).code).toBe('TOO_LARGE');
    expect((caught as ScanError).message).toMatch(new RegExp(`n·batch = ${n}·${batch}`));
  });

  it('solveTridiagonal past one binding: TOO_LARGE naming systems.a, before any GPU work (issue 33)', async () => {
    const real = await getTestContext();
    // n·batch = 2^28 + 16 against 1 GiB limits, without allocating it: arrays that only claim their
    // length, and a device that throws when touched.
    const n = 16;
    const batch = 2 ** 24 + 1;
    const total = n * batch;
    const long = () => Object.defineProperty(new Float32Array(0), 'length', { value: total });
    const device = new Proxy({} as GPUDevice, {
      get: (_, key) => {
        throw new Error(`device.${String(key)} used before the size was checked`);
      },
    });
    const limits = { ...real.caps.limits, maxBufferSize: 2 ** 30, maxStorageBufferBindingSize: 2 ** 30 };
    const ctx = { ...real, device, lostReason: undefined, caps: { ...real.caps, limits } } as typeof real;
    const systems = { a: long(), b: long(), c: long(), d: long(), n, batch };
    const caught = await solveTridiagonal(ctx, systems).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(caught).toBeInstanceOf(ScanError);
    expect(caught).toMatchObject({ code: 'TOO_LARGE', argument: 'systems.a' });
    expect((caught as ScanError).message).toBe(
      `systems.a = ${total} elements (${4 * total} bytes): more than the device binds at once ` +
        `(maxStorageBufferBindingSize = ${2 ** 30} bytes, at most ${2 ** 28} 32-bit elements)`,
    );
  });

  it('encode: missing, too small or aliased buffers', async () => {
    const ctx = await getTestContext();
    const plan = createTridiagonalPlan(ctx, { n: 4, batch: 2 });
    const s = good();
    const bufs = { a: upload(ctx, s.a), b: upload(ctx, s.b), c: upload(ctx, s.c), d: upload(ctx, s.d), x: upload(ctx, s.d) };
    const small = upload(ctx, new Float32Array(4));
    const encoder = ctx.device.createCommandEncoder();
    expect(() => plan.encode(encoder, { ...bufs, x: undefined } as never)).toThrow(/args\.x = undefined: expected a GPUBuffer/);
    expect(() => plan.encode(encoder, { ...bufs, b: small })).toThrow(/args\.b has 16 bytes, needs 32/);
    expect(() => plan.encode(encoder, { ...bufs, x: bufs.a })).toThrow(/args\.x is the same buffer as args\.a/);
    expect(() => plan.encode(encoder, { ...bufs, status: 7 } as never)).toThrow(/args\.status = 7: expected a GPUBuffer/);
    expect(() => cpu.tridiagonalResidual(s, new Float32Array(3))).toThrow(/x = Float32Array\(3\)/);
    plan.destroy();
    for (const b of [...Object.values(bufs), small]) b.destroy();
  });
});
