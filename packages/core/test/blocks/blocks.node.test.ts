// What the blocks promise about the WGSL they write, checked on the text (the GPU tests run the
// code): every module-scope name starts with the block's name, so blocks compose without
// collisions; `workgroupBytes` counts what the declarations take; and `groupScanWgsl`, now written
// by the block scan's group level, is unchanged for the kernels that use it.
import { describe, expect, it } from 'vitest';
import { composeBlocks, type WgslBlock } from '../../src/kernels/blocks/block.js';
import { blockDiscontinuity } from '../../src/kernels/blocks/block-discontinuity.js';
import { blockReduce } from '../../src/kernels/blocks/block-reduce.js';
import { blockScan } from '../../src/kernels/blocks/block-scan.js';
import { tileIo } from '../../src/kernels/blocks/tile-io.js';
import { groupScanWgsl } from '../../src/kernels/group-scan.js';
import { wgslOp } from '../../src/kernels/wgsl-ops.js';

/** Module-scope declarations of WGSL text: `[kind, name]` (`var<workgroup> x: T` gives `var`, `x`). */
function declared(wgsl: string): [string, string][] {
  return [...wgsl.matchAll(/^(fn|const|struct|override|alias|var(?:<[^>]*>)?)\s+([A-Za-z_][A-Za-z0-9_]*)/gm)].map((m) => [m[1]!, m[2]!]);
}

/** Bytes of the workgroup variables of WGSL text whose types are 32-bit scalars or arrays of them. */
function workgroupBytesOf(wgsl: string): number {
  let bytes = 0;
  for (const m of wgsl.matchAll(/^var<workgroup>\s+\w+\s*:\s*([^;]+);/gm)) {
    const type = m[1]!.trim();
    const array = /^array<\s*(?:atomic<)?(u32|i32|f32)>?\s*,\s*(\d+)\s*>$/.exec(type);
    if (array) bytes += 4 * Number(array[2]);
    else if (/^(u32|i32|f32)$/.test(type)) bytes += 4;
    else throw new Error(`unexpected workgroup type ${type}`);
  }
  return bytes;
}

function sampleBlocks(): WgslBlock[] {
  const blocks: WgslBlock[] = [];
  const op = wgslOp('max', 'i32');
  const affine = { type: 'u32', identity: '0x10000u', combine: (a: string, b: string) => `f(${a}, ${b})` };
  for (const subgroups of [true, false]) {
    for (const arrangement of ['blocked', 'striped', 'group-striped'] as const) {
      for (const [i, o] of [op, affine].entries()) {
        const shape = { subgroups, workgroupSize: 64, itemsPerThread: 3, arrangement, backward: i === 1 };
        blocks.push(blockScan({ name: `scan${blocks.length}`, op: o, ...shape, prefix: i === 1 ? 'cb' : undefined }));
        blocks.push(blockReduce({ name: `reduce${blocks.length}`, op: o, ...shape, vec4: i === 0 }));
      }
      blocks.push(
        blockDiscontinuity({
          name: `runs${blocks.length}`,
          type: 'u32',
          workgroupSize: 64,
          itemsPerThread: 2,
          arrangement,
          vec4: subgroups,
        }),
      );
      blocks.push(
        tileIo({
          name: `io${blocks.length}`,
          type: 'f32',
          workgroupSize: 64,
          itemsPerThread: 2,
          arrangement,
          backward: subgroups,
          fill: '0.0f',
          source: { kind: 'elements', load: `in${blocks.length}`, store: subgroups ? `in${blocks.length}` : `out${blocks.length}` },
        }),
      );
    }
  }
  return blocks;
}

describe('blocks (WGSL text)', () => {
  it('prefix every module-scope name with the block name and compose without collisions', () => {
    const blocks = sampleBlocks();
    for (const block of blocks) {
      const names = declared(block.decls);
      expect(names.length, block.name).toBeGreaterThan(0);
      for (const [kind, name] of names) expect(name.startsWith(`${block.name}_`), `${block.name}: ${kind} ${name}`).toBe(true);
    }
    const all = declared(composeBlocks(...blocks).decls).map(([, name]) => name);
    expect(new Set(all).size).toBe(all.length);
  });

  it('count the workgroup memory they declare', () => {
    for (const block of sampleBlocks()) expect(block.workgroupBytes, block.name).toBe(workgroupBytesOf(block.decls));
    expect(composeBlocks(...sampleBlocks()).workgroupBytes).toBe(sampleBlocks().reduce((sum, b) => sum + b.workgroupBytes, 0));
  });

  it('declare the bindings and extensions they use', () => {
    const io = tileIo({
      name: 'io',
      type: 'u32',
      workgroupSize: 64,
      itemsPerThread: 2,
      arrangement: 'striped',
      fill: '0u',
      source: { kind: 'elements', load: 'a', store: 'b' },
    });
    expect(io.bindings).toEqual({ a: { type: 'array<u32>', access: 'read' }, b: { type: 'array<u32>', access: 'read_write' } });
    const slots = tileIo({
      name: 'io',
      type: 'f32',
      workgroupSize: 64,
      itemsPerThread: 2,
      arrangement: 'striped',
      fill: '0.0f',
      source: { kind: 'slots', writes: true, tail: 'direct' },
    });
    expect(Object.keys(slots.bindings)).toEqual(['src', 'dst']);
    expect(() => slots.loadItem('0u')).not.toThrow();
    expect(() => io.load('t')).not.toThrow();
    const loadOnly = tileIo({
      ...{ name: 'x', type: 'u32', workgroupSize: 64, itemsPerThread: 1, arrangement: 'blocked' },
      fill: '0u',
      source: { kind: 'elements', load: 'a' },
    });
    expect(() => loadOnly.store('t', 'items')).toThrow(/no store/);
    const scan = blockScan({ name: 's', op: wgslOp('add', 'u32'), subgroups: true, workgroupSize: 64 });
    expect(scan.enable).toEqual(['subgroups']);
    expect(blockScan({ name: 's', op: wgslOp('add', 'u32'), subgroups: false, workgroupSize: 64 }).enable).toEqual([]);
    expect(() => composeBlocks(scan, scan)).toThrow(/two blocks are named "s"/);
  });

  it('refuse names and shapes that make no valid WGSL', () => {
    const op = wgslOp('add', 'u32');
    expect(() => blockScan({ name: 'a-b', op, subgroups: false, workgroupSize: 64 })).toThrow(/identifier/);
    expect(() => blockReduce({ name: 'r', op, subgroups: false, workgroupSize: 48 })).toThrow(/power of two/);
    expect(() => blockScan({ name: 's', op, subgroups: false, workgroupSize: 64, itemsPerThread: 0 })).toThrow(/items per invocation/);
  });

  it('leave groupScanWgsl as the kernels knew it', () => {
    // Names and shape of what core's, segmented's and sort's kernels call.
    const sub = groupScanWgsl(wgslOp('add', 'u32'), true, 256);
    expect(sub).toContain('fn group_scan(x: u32, lane: u32, size: u32) -> GroupScan {\n  let inc = subgroupInclusiveAdd(x);');
    expect(sub).toContain('fn group_reduce(x: u32, lane: u32, size: u32) -> u32 {\n  return subgroupAdd(x);\n}');
    const portable = groupScanWgsl(wgslOp('min', 'f32'), false, 256);
    expect(portable).toContain('var<workgroup> group_buf: array<f32, 256>;');
    expect(portable).toContain(
      'for (var d = 128u; d > 0u; d = d >> 1u) {\n    if (lane < d) { group_buf[lane] = min(group_buf[lane], group_buf[lane + d]); }',
    );
    expect(declared(portable).map(([, name]) => name)).toEqual(['GroupScan', 'group_buf', 'group_scan', 'group_reduce']);
  });
});
