// The .ply parser on tiny generated files: the 3DGS mapping (sigmoid opacity, exp scales, SH DC
// colour, quaternion covariance) and clear errors for what it does not read.
import { describe, expect, test } from 'vitest';
import { parseSplatPly, writeSplatPly } from '../../src/scene/ply.js';
import { ATTRIBUTE_WORDS } from '../../src/scene/scene.js';

describe('parseSplatPly', () => {
  const splats = [
    { position: [1, 2, 3], scale: [0.5, 0.2, 0.1], rotation: [1, 0, 0, 0], color: [1, 0.5, 0], opacity: 0.75 },
    // A 90° turn about z (w, x, y, z unnormalized: the parser normalizes).
    { position: [-1, 0, 4], scale: [0.3, 0.1, 0.05], rotation: [2, 0, 0, 2], color: [0.2, 0.4, 0.6], opacity: 0.5 },
  ];

  test('reads positions, covariances, colours and opacities (f_rest_* skipped)', () => {
    const scene = parseSplatPly(writeSplatPly(splats, 45));
    expect(scene.count).toBe(2);
    expect([...scene.positions]).toEqual([1, 2, 3, 1, -1, 0, 4, 1]);
    const cov = (i: number) => Array.from(new Float32Array(scene.attributes, 4 * ATTRIBUTE_WORDS * i, 6));
    // Identity rotation: Σ = diag(s²).
    const c0 = cov(0);
    [0.25, 0, 0, 0.04, 0, 0.01].forEach((v, k) => expect(c0[k]).toBeCloseTo(v, 5));
    // 90° about z swaps the x and y variances.
    const c1 = cov(1);
    [0.01, 0, 0, 0.09, 0, 0.0025].forEach((v, k) => expect(c1[k]).toBeCloseTo(v, 5));
    const rgba = (i: number) => new Uint8Array(scene.attributes, 4 * (ATTRIBUTE_WORDS * i + 6), 4);
    expect([...rgba(0)]).toEqual([255, 128, 0, 191]);
    expect([...rgba(1)]).toEqual([51, 102, 153, 128]);
    expect(scene.center).toEqual([0, 1, 3.5]);
    expect(scene.radius).toBeCloseTo(Math.hypot(1, 1, 0.5), 5);
  });

  test('says what is wrong with a file it cannot read', () => {
    const good = new Uint8Array(writeSplatPly(splats));
    const text = (s: string) => new TextEncoder().encode(s).buffer as ArrayBuffer;
    expect(() => parseSplatPly(text('hello'))).toThrow(/not a .ply file/);
    expect(() => parseSplatPly(text('ply\nformat ascii 1.0\nelement vertex 0\nend_header\n'))).toThrow(/binary_little_endian/);
    expect(() => parseSplatPly(text('ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\nend_header\n'))).toThrow(
      /missing y, z/,
    );
    expect(() => parseSplatPly(good.slice(0, good.length - 4).buffer)).toThrow(/truncated/);
  });
});
