// A property of the generated WGSL that no software adapter can test by running it: every function
// the operator single pass calls between subgroup operations has one exit. A combine that returned
// from inside a branch, inlined between shuffles, left NVIDIA's subgroups unconverged at the next
// shuffle (wrong unique, scan-by-key and segmented scans on H100 and H200, 2026-12-07), where
// SwiftShader was right. The user's operator body is exempt: plans keep such operators off
// subgroups (operatorSubgroups, tested in core).
import { builtinOperator, type Operator } from '@scan/core';
import { affine16, hashRecord } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { type OperatorSegmentedSpec, operatorSegmentedKernel } from '../src/kernels/operator-segmented.js';

/** Each module-scope function of `wgsl`: its name and its body (braces matched). */
function functionsOf(wgsl: string): { name: string; body: string }[] {
  const out: { name: string; body: string }[] = [];
  const header = /^fn (\w+)\(/gm;
  for (let m = header.exec(wgsl); m; m = header.exec(wgsl)) {
    const open = wgsl.indexOf('{', m.index);
    let depth = 0;
    let end = open;
    for (; end < wgsl.length; end++) {
      if (wgsl[end] === '{') depth++;
      else if (wgsl[end] === '}' && --depth === 0) break;
    }
    out.push({ name: m[1] as string, body: wgsl.slice(open, end + 1) });
  }
  return out;
}

const returns = (body: string) => (body.replace(/\/\/[^\n]*/g, '').match(/\breturn\b/g) ?? []).length;

describe('the operator single pass returns once from every function', () => {
  const ops: Operator<unknown>[] = [
    builtinOperator('add', 'u32') as Operator<unknown>,
    affine16 as Operator<unknown>,
    hashRecord as Operator<unknown>,
  ];
  const base = { inclusive: true, backward: false, subgroups: true, workgroupSize: 256, itemsPerThread: 12, maxSpin: 64 } as const;
  const specs: OperatorSegmentedSpec[] = [];
  for (const op of ops) {
    for (const mode of ['scan', 'reduce'] as const) {
      for (const backward of mode === 'scan' ? [false, true] : [false])
        specs.push({ ...base, opKey: op.key, mode, backward, itemsPerThread: 4 });
      specs.push({
        ...base,
        opKey: op.key,
        mode,
        keys: 'int',
      });
    }
  }
  // Keys compared as f32, and a forced fallback: the keyed pass's other branches.
  const add = builtinOperator('add', 'u32').key;
  for (const forceFallback of [false, true]) {
    specs.push({ ...base, opKey: add, mode: 'reduce', keys: 'f32', forceFallback });
  }
  it(`${specs.length} specializations: no function but main and the user's operator returns twice`, () => {
    for (const spec of specs) {
      const wgsl = operatorSegmentedKernel(spec).wgsl();
      // The operator's combine is `op_<hash>` (its identity, `op_<hash>_identity`, is checked).
      const many = functionsOf(wgsl).filter((f) => f.name !== 'main' && !/^op_[0-9a-f]+$/.test(f.name) && returns(f.body) > 1);
      expect(
        many.map((f) => f.name),
        `${spec.mode} ${spec.keys ?? 'bits'} ${spec.backward ? 'backward' : 'forward'}`,
      ).toEqual([]);
    }
  });
});
