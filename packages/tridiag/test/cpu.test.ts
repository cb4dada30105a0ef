// The CPU reference on hand-computed systems.
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';

describe('Thomas algorithm (CPU)', () => {
  it('solves a hand-computed 4×4 system in both layouts', () => {
    // 4x0 +  x1             = 6      x = [1, 2, 3, 4]
    //  x0 + 4x1 +  x2        = 12
    //        x1 + 4x2 + x3   = 18
    //              x2 + 4x3  = 19
    const contiguous = {
      a: new Float32Array([0, 1, 1, 1]),
      b: new Float32Array([4, 4, 4, 4]),
      c: new Float32Array([1, 1, 1, 0]),
      d: new Float32Array([6, 12, 18, 19]),
      n: 4,
      batch: 1,
    };
    expect([...cpu.solveTridiagonal(contiguous)]).toEqual([1, 2, 3, 4]);
    // Two systems interleaved: the one above and 2·x = d with d = [2, 4, 6, 8] (x = [1, 2, 3, 4]).
    const interleaved = {
      a: new Float32Array([0, 0, 1, 0, 1, 0, 1, 0]),
      b: new Float32Array([4, 2, 4, 2, 4, 2, 4, 2]),
      c: new Float32Array([1, 0, 1, 0, 1, 0, 0, 0]),
      d: new Float32Array([6, 2, 12, 4, 18, 6, 19, 8]),
      n: 4,
      batch: 2,
      stride: 'interleaved' as const,
    };
    expect([...cpu.solveTridiagonal(interleaved)]).toEqual([1, 1, 2, 2, 3, 3, 4, 4]);
  });

  it('ignores a_0 and c_{n-1}; n = 1 is d / b', () => {
    const systems = {
      a: new Float32Array([5, 8]),
      b: new Float32Array([2, 4]),
      c: new Float32Array([7, 9]),
      d: new Float32Array([3, 2]),
      n: 1,
      batch: 2,
    };
    expect([...cpu.solveTridiagonal(systems)]).toEqual([1.5, 0.5]);
  });

  it('residual: per system and overall, hand-computed', () => {
    const systems = {
      a: new Float32Array([0, 1, 0, 1]),
      b: new Float32Array([2, 2, 1, 1]),
      c: new Float32Array([1, 0, 1, 0]),
      d: new Float32Array([3, 3, 1, 1]),
      n: 2,
      batch: 2,
    };
    // System 0: 2x0 + x1 = 3, x0 + 2x1 = 3 → exact x = [1, 1]; system 1: x0 + x1 = 1, x0 + x1 = 1.
    const x = new Float32Array([1, 1, 0.5, 0.25]);
    const r = cpu.tridiagonalResidual(systems, x);
    // System 1: |0.5 + 0.25 − 1| = 0.25 in both rows.
    expect([...r.perSystem]).toEqual([0, 0.25]);
    expect(r.max).toBe(0.25);
  });

  it('throws on a zero pivot met during elimination, naming the system', () => {
    // Second system: b0 = 1, then b1 − a1·c0/b0 = 1 − 1·1 = 0.
    const systems = {
      a: new Float32Array([0, 1, 0, 1]),
      b: new Float32Array([2, 2, 1, 1]),
      c: new Float32Array([1, 0, 1, 0]),
      d: new Float32Array([1, 1, 1, 1]),
      n: 2,
      batch: 2,
    };
    expect(() => cpu.solveTridiagonal(systems)).toThrow(/system 1 met a zero pivot/);
  });
});
