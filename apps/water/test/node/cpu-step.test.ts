import { ScanError } from '@scan/core';
import { describe, expect, test } from 'vitest';
import { readSettings } from '../../src/settings.js';
import { cpuAdiStep, cpuCoefficients, makeTerrain, resolveWaterOptions, TERRAIN_NAMES, thomas } from '../../src/sim/index.js';

function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('CPU reference', () => {
  test('thomas solves a diagonally dominant system, contiguous and strided', () => {
    const random = seeded(3);
    const n = 37;
    for (const stride of [1, 5]) {
      const len = n * stride;
      const a = Float64Array.from({ length: len }, () => -random());
      const c = Float64Array.from({ length: len }, () => -random());
      const b = Float64Array.from({ length: len }, (_, i) => 2.5 + Math.abs(a[i]!) + Math.abs(c[i]!));
      const d = Float64Array.from({ length: len }, () => random() * 4 - 2);
      const x = new Float64Array(len);
      thomas(a, b, c, d, x, n, 0, stride);
      for (let i = 0; i < n; i++) {
        const k = i * stride;
        const left = i > 0 ? a[k]! * x[k - stride]! : 0;
        const right = i < n - 1 ? c[k]! * x[k + stride]! : 0;
        expect(left + b[k]! * x[k]! + right).toBeCloseTo(d[k]!, 12);
      }
    }
  });

  test('every column of the sweep matrices sums to 1, with the border couplings dropped', () => {
    const size = 12;
    const bottom = makeTerrain('island', size);
    const height = Float64Array.from(bottom, (b, i) => Math.max(1, b) + 0.01 * Math.sin(i));
    const input = { size, height, previous: height, bottom, g: 9.81, dt: 0.3, dx: 1 };
    for (const axis of ['rows', 'columns'] as const) {
      const { lower, diag, upper } = cpuCoefficients(input, axis);
      const next = axis === 'rows' ? 1 : size;
      for (let y = 0; y < size; y++) {
        for (let x = 0; x < size; x++) {
          const i = y * size + x;
          const p = axis === 'rows' ? x : y;
          // Column i holds diag_i, lower_{i+1} (below it) and upper_{i−1} (above it).
          const column = diag[i]! + (p + 1 < size ? lower[i + next]! : 0) + (p > 0 ? upper[i - next]! : 0);
          expect(column).toBeCloseTo(1, 12);
          if (p === 0) expect(lower[i]).toBe(-0);
          if (p === size - 1) expect(upper[i]).toBe(-0);
        }
      }
    }
  });

  test('an ADI step conserves Σh (f64) and leaves a lake at rest unchanged', () => {
    const size = 20;
    const bottom = makeTerrain('hills', size, 5);
    const rest = new Float64Array(size * size).fill(1);
    const still = cpuAdiStep({ size, height: rest, previous: rest, bottom, g: 9.81, dt: 0.25, dx: 1 }).next;
    for (const v of still) expect(v).toBeCloseTo(1, 12);
    const random = seeded(9);
    const height = Float64Array.from(rest, (v) => v + 0.1 * random());
    const previous = Float64Array.from(height, (v) => v + 0.01 * (random() - 0.5));
    const sum = (h: ArrayLike<number>) => Array.from(h).reduce((s, v) => s + v, 0);
    const { next } = cpuAdiStep({ size, height, previous, bottom, g: 9.81, dt: 0.25, dx: 1 });
    expect(sum(next)).toBeCloseTo(2 * sum(height) - sum(previous), 9);
  });
});

describe('options and terrains', () => {
  test('defaults, and ScanError naming the argument for bad values', () => {
    expect(resolveWaterOptions({ size: 128 })).toMatchObject({
      size: 128,
      terrain: 'flat',
      dt: 0.25,
      dx: 1,
      g: 9.81,
      waterLevel: 1,
      damping: 0,
    });
    const bad: [Record<string, unknown>, string][] = [
      [{ size: 1 }, 'size'],
      [{ size: 4097 }, 'size'],
      [{ size: 2.5 }, 'size'],
      [{ size: 8, dt: 0 }, 'dt'],
      [{ size: 8, dt: Number.POSITIVE_INFINITY }, 'dt'],
      [{ size: 8, dx: -1 }, 'dx'],
      [{ size: 8, g: -9.81 }, 'g'],
      [{ size: 8, waterLevel: Number.NaN }, 'waterLevel'],
      [{ size: 8, damping: -0.1 }, 'damping'],
      [{ size: 8, terrain: 'mountains' }, 'terrain'],
      [{ size: 8, terrain: new Float32Array(63) }, 'terrain'],
      [{ size: 8, seed: 1.5 }, 'seed'],
    ];
    for (const [options, argument] of bad) {
      let caught: unknown;
      try {
        resolveWaterOptions(options as never);
      } catch (error) {
        caught = error;
      }
      expect(caught, JSON.stringify(options)).toBeInstanceOf(ScanError);
      expect((caught as ScanError).argument).toBe(argument);
      expect((caught as ScanError).message).toMatch(new RegExp(`^${argument} = `));
    }
  });

  test('terrains are deterministic per seed and sized N·N', () => {
    for (const name of TERRAIN_NAMES) {
      const t = makeTerrain(name, 33, 4);
      expect(t).toHaveLength(33 * 33);
      expect(t.every(Number.isFinite)).toBe(true);
      expect(makeTerrain(name, 33, 4)).toEqual(t);
    }
    expect(makeTerrain('hills', 16, 1)).not.toEqual(makeTerrain('hills', 16, 2));
    // The island breaks the surface (default level 1) in the middle and is under water at the edge.
    const island = makeTerrain('island', 64);
    expect(island[32 * 64 + 32]).toBeGreaterThan(1);
    expect(island[0]).toBeLessThan(1);
  });

  test('the page reads its settings from the query string', () => {
    expect(readSettings('?size=128&terrain=hills&paused=1')).toEqual({
      size: 128,
      terrain: 'hills',
      paused: true,
      stepsPerFrame: 1,
      present: 'canvas',
    });
    expect(readSettings('?size=5000&terrain=moon&present=copy')).toMatchObject({ size: 256, terrain: 'island', present: 'copy' });
  });
});
