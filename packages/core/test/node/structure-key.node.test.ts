// The executor files every recipe under a structure key derived from its dispatches (issue 47, part
// 4): no plan writes one. Two recipes must get the same key exactly when their dispatches bind the
// same things — a key that missed a binding's field would share bind groups that bind wrongly, one
// that held a count would make bind groups every frame.
import { describe, expect, test } from 'vitest';
import { defineKernel, read, readWrite, uniform } from '../../src/kernels/define-kernel.js';
import { type BufferRef, type Recipe, RecipeBuilder, structureKeyOf } from '../../src/plans/recipe.js';
import { StructureVariants } from '../../src/plans/structure-variants.js';

const RANGES = { first: 'u32', total: 'u32' } as const;
const copyKernel = defineKernel({
  name: 'test/structure-copy',
  bindings: (spec: { wide: boolean }) => ({
    src: read(spec.wide ? 'array<vec4<u32>>' : 'array<u32>'),
    dst: readWrite('array<u32>'),
    ranges: uniform('Ranges', RANGES),
  }),
  params: { count: 'u32', dispatch_x: 'u32' },
  wgsl: () => '@compute @workgroup_size(64) fn main() {}',
});
const other = defineKernel({
  name: 'test/structure-other',
  bindings: { dst: readWrite('array<u32>') },
  wgsl: () => '@compute @workgroup_size(64) fn main() {}',
});

/** What one test recipe's dispatch binds and runs; each field changed alone below. */
interface Shape {
  wide: boolean;
  src: BufferRef;
  dst: BufferRef;
  /** Parameters: values (a new block) or a ref to block `shared` of two. */
  params: 'values' | 'shared0' | 'shared1';
  /** The GPU's workgroup counts at this ref, instead of the host's. */
  indirect?: BufferRef;
  /** What the key must not see. */
  count: number;
  workgroups: number;
  clearBytes: number;
  copyBytes: number;
  /** The ranges block's value `first`, and whether another block comes before it (the indices shift). */
  rangesFirst: number;
  blockBefore: boolean;
}

const BASE: Shape = {
  wide: false,
  src: { role: 'input', offset: 0, limit: 1 << 20, multipleOf: 16 },
  dst: { scratch: 'tmp', offset: 64 },
  params: 'values',
  count: 1000,
  workgroups: 16,
  clearBytes: 64,
  copyBytes: 16,
  rangesFirst: 0,
  blockBefore: false,
};

function recipeOf(s: Shape): Recipe {
  const b = new RecipeBuilder();
  b.needScratch('tmp', 4 * s.count + 64);
  b.clear({ scratch: 'tmp', offset: 0, size: s.clearBytes });
  if (s.blockBefore) b.uniformBlock(RANGES, { first: 0, total: 0 });
  const values = { count: s.count, dispatch_x: s.workgroups };
  const kernel = copyKernel({ wide: s.wide });
  let params: BufferRef | typeof values = values;
  if (s.params !== 'values') {
    const blocks = [b.paramsFor(kernel, values), b.paramsFor(kernel, { ...values, count: 0 })];
    params = blocks[s.params === 'shared0' ? 0 : 1] as BufferRef;
  }
  const ranges = b.uniformBlock(RANGES, { first: s.rangesFirst, total: s.count });
  const bindings = { src: s.src, dst: s.dst, ranges };
  if (s.indirect) b.dispatchIndirect(kernel, bindings, s.indirect, params);
  else b.dispatch(kernel, bindings, s.workgroups, params);
  b.copy({ scratch: 'tmp', offset: 0 }, { role: 'output', offset: 0 }, s.copyBytes);
  b.dispatch(other({}), { dst: { role: 'output', offset: 0 } }, 1);
  return b.build();
}

const keyOf = (change: Partial<Shape>) => structureKeyOf(recipeOf({ ...BASE, ...change }));

describe('structure keys derived from the dispatches', () => {
  const base = keyOf({});

  test('counts, workgroups, parameter values, clears and copies are not part of it', () => {
    expect(keyOf({ count: 5 })).toBe(base);
    expect(keyOf({ count: 1 << 20, workgroups: 70_000 })).toBe(base);
    expect(keyOf({ clearBytes: 4096, copyBytes: 4 })).toBe(base);
    expect(keyOf({ rangesFirst: 12 })).toBe(base);
    // A ref object made anew, or its fields written in another order, is the same ref.
    expect(keyOf({ src: { multipleOf: 16, limit: 1 << 20, offset: 0, role: 'input' } })).toBe(base);
    expect(keyOf({ indirect: { role: 'args', offset: 12 }, count: 7 })).toBe(keyOf({ indirect: { role: 'args', offset: 12 } }));
  });

  test('every field of a binding ref is', () => {
    expect(keyOf({ src: { ...BASE.src, role: 'other' } })).not.toBe(base);
    expect(keyOf({ src: { ...BASE.src, offset: 16 } })).not.toBe(base);
    expect(keyOf({ src: { ...BASE.src, size: 64 } })).not.toBe(base);
    expect(keyOf({ src: { ...BASE.src, limit: 1 << 21 } })).not.toBe(base);
    expect(keyOf({ src: { role: 'input', offset: 0, limit: 1 << 20 } })).not.toBe(base);
    expect(keyOf({ src: { ...BASE.src, multipleOf: 4 } })).not.toBe(base);
    expect(keyOf({ dst: { scratch: 'tmp2', offset: 64 } })).not.toBe(base);
    expect(keyOf({ dst: { scratch: 'tmp', offset: 0 } })).not.toBe(base);
    expect(keyOf({ dst: { scratch: 'tmp' } })).toBe(keyOf({ dst: { scratch: 'tmp', offset: 0 } }));
    // A role and a scratch buffer of one name are different buffers.
    expect(keyOf({ dst: { role: 'tmp', offset: 64 } })).not.toBe(base);
    // Two bindings swapped bind other buffers.
    expect(keyOf({ src: BASE.dst, dst: BASE.src })).not.toBe(base);
  });

  test('the kernel, the parameter block bound and the uniform block bound are', () => {
    expect(keyOf({ wide: true })).not.toBe(base);
    expect(keyOf({ params: 'shared0' })).not.toBe(base);
    expect(keyOf({ params: 'shared0' })).not.toBe(keyOf({ params: 'shared1' }));
    // Another block first: the ranges and the parameters bind the blocks after it.
    expect(keyOf({ blockBefore: true })).not.toBe(base);
  });

  test('where the workgroup counts come from is', () => {
    const indirect = keyOf({ indirect: { role: 'args', offset: 0 } });
    expect(indirect).not.toBe(base);
    expect(keyOf({ indirect: { role: 'args', offset: 12 } })).not.toBe(indirect);
    expect(keyOf({ indirect: { scratch: 'args', offset: 0 } })).not.toBe(indirect);
  });

  test('a dispatch of no workgroups is left out, so the dispatch count is part of it', () => {
    const one = new RecipeBuilder();
    one.dispatch(other({}), { dst: { role: 'output', offset: 0 } }, 1);
    const two = new RecipeBuilder();
    two.dispatch(other({}), { dst: { role: 'output', offset: 0 } }, 1);
    two.dispatch(other({}), { dst: { role: 'output', offset: 0 } }, 0);
    expect(structureKeyOf(two.build())).toBe(structureKeyOf(one.build()));
    two.dispatch(other({}), { dst: { role: 'output', offset: 0 } }, 3);
    expect(structureKeyOf(two.build())).not.toBe(structureKeyOf(one.build()));
  });

  test('kernels of one key are one kernel; recipes not from the builder are walked to the same key', () => {
    const again = defineKernel({
      name: 'test/structure-other',
      bindings: { dst: readWrite('array<u32>') },
      wgsl: () => '@compute @workgroup_size(64) fn main() {}',
    })({});
    expect(again).not.toBe(other({}));
    const a = new RecipeBuilder();
    a.dispatch(other({}), { dst: { role: 'output', offset: 0 } }, 1);
    const b = new RecipeBuilder();
    b.dispatch(again, { dst: { role: 'output', offset: 0 } }, 9);
    expect(structureKeyOf(b.build())).toBe(structureKeyOf(a.build()));
    for (const change of [{}, { wide: true }, { indirect: { role: 'args', offset: 0 } }, { params: 'shared1' as const }]) {
      const recipe = recipeOf({ ...BASE, ...change });
      const { structureKey, ...walked } = recipe;
      expect(structureKey).toBeDefined();
      expect(structureKeyOf(walked)).toBe(structureKey);
    }
  });

  test('variants are filed under their keys, a structure once', () => {
    const variants = new StructureVariants(() => [1, 2, 3, 1 << 20].map((count) => recipeOf({ ...BASE, count })));
    expect(variants.variants.map((v) => v.key)).toEqual([base]);
    const two = new StructureVariants(() => [recipeOf(BASE), recipeOf({ ...BASE, wide: true }), recipeOf({ ...BASE, count: 9 })]);
    expect(two.variants.map((v) => v.key)).toEqual([base, keyOf({ wide: true })]);
    expect(two.variants[0]?.roles).toEqual(['input', 'output']);
  });
});

describe('the ref table', () => {
  test('stays exact as the ref table grows and starts afresh', () => {
    const keyAt = (offset: number) => {
      const b = new RecipeBuilder();
      b.dispatch(other({}), { dst: { role: 'grow', offset } }, 1);
      return structureKeyOf(b.build());
    };
    const first = keyAt(0);
    const keys = new Set<string>();
    // Past 2^16 refs the table is dropped: ids go on counting, so no key repeats.
    for (let offset = 0; offset < 70_000; offset++) keys.add(keyAt(4 * offset));
    expect(keys.size).toBe(70_000);
    expect(keyAt(4 * 69_999)).toBe(keyAt(4 * 69_999));
    // A ref interned before the table started afresh gets a new key: its structure is made once
    // more, never taken for another's. (Last in this file: the keys above are not made again.)
    expect(keys.has(keyAt(0))).toBe(keyAt(0) === first);
  });
});
