// The check for WGSL that Firefox (naga) rejects or Safari mishandles although Chrome accepts it:
// pointers to workgroup memory as function parameters, and workgroup arrays sized by overrides.
import { describe, expect, it } from 'vitest';
import { wgslPortabilityProblems } from '../../src/kernels/wgsl-portability.js';

describe('wgslPortabilityProblems', () => {
  it('names each function parameter that points to workgroup memory', () => {
    const code = `var<workgroup> tile: array<u32, 64>;
fn sum(a: ptr<workgroup, array<u32, 64>>, n: u32, b: ptr< workgroup , u32 >) -> u32 { return (*a)[0] + *b; }
fn ok(p: ptr<function, array<u32, 4>>, q: ptr<storage, array<u32>, read_write>) {}`;
    expect(wgslPortabilityProblems(code)).toEqual([
      'function sum takes a pointer to workgroup memory (parameter a), which Firefox rejects',
      'function sum takes a pointer to workgroup memory (parameter b), which Firefox rejects',
    ]);
  });

  it('names each workgroup variable sized by an override constant, and only those', () => {
    const code = `override WG: u32 = 64;
override SCALE: f32 = 1.0;
var<workgroup> rows: array<f32, WG>;
var<workgroup> cols: array<vec4<f32>, 2 * WG>;
var<workgroup> fixed: array<u32, 64>;
@compute @workgroup_size(WG) fn main() { let s = SCALE; }`;
    expect(wgslPortabilityProblems(code)).toEqual([
      'workgroup variable rows is sized by the override constant WG, which Safari mishandles',
      'workgroup variable cols is sized by the override constant WG, which Safari mishandles',
    ]);
  });

  it('finds nothing in portable WGSL, and ignores comments', () => {
    const code = `// fn old(a: ptr<workgroup, u32>) {}
/* override N: u32 = 4; var<workgroup> x: array<u32, N>; /* nested */ still a comment */
var<workgroup> x: array<u32, 256>;
fn f(v: array<u32, 4>, i: u32) -> u32 { return v[i]; }`;
    expect(wgslPortabilityProblems(code)).toEqual([]);
  });
});
