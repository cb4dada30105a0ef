// The count fixup (recordCountFixup): the parameter blocks it fills for a count the GPU wrote,
// field by field by name. Kernels whose parameters come in an unusual order (and of every type) read
// their blocks back: each field must hold its host value, or its derivation of min(count, capacity),
// whatever its position — checked through the kernels' own `params.<name>` and in the raw words. Also
// several blocks in one dispatch, a block without host fields, and the plan bugs it rejects.
import { getTestContext, runBatch } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { defineKernel, readWrite } from '../src/kernels/define-kernel.js';
import { RecipeExecutor } from '../src/plans/executor.js';
import { countedParams, recordCountFixup } from '../src/plans/gpu-count.js';
import { type BufferRef, RecipeBuilder } from '../src/plans/recipe.js';
import { bufferOf, poisoned } from './harness.js';

/** Eight parameters, the derived ones among the host's, in no order a slot kernel has. */
const MIXED = {
  scale: 'f32',
  tiles: 'u32',
  offset: 'i32',
  count: 'u32',
  marker: 'u32',
  full_vecs: 'u32',
  slots: 'u32',
  groups: 'u32',
} as const;

/** Writes each of its parameters, by name, into `out` in the order of `names`. */
function probe<P extends Record<string, 'u32' | 'i32' | 'f32'>>(name: string, params: P) {
  return defineKernel({
    name: `test/count-fixup-${name}`,
    bindings: { out: readWrite('array<u32>') },
    params,
    wgsl: () => `
@compute @workgroup_size(1)
fn main() {
${Object.keys(params)
  .map((field, i) => `  out[${i}] = bitcast<u32>(params.${field});`)
  .join('\n')}
}`,
  })({});
}

const mixed = probe('mixed', MIXED);
/** All derived: no block from the host. */
const countsOnly = probe('counts-only', { slots: 'u32', count: 'u32' } as const);

const CAPACITY = 700;
/** Around the cap, a partial vec4, 0, and a count past everything. */
const COUNTS = [0, 1, 3, 5, 99, 100, 101, 250, 699, 700, 701, 5000, 0xffffffff];

/** What MIXED's block holds for GPU count `count`, in its struct order. */
function expectedMixed(count: number): number[] {
  const n = Math.min(count, CAPACITY);
  const f32 = new Float32Array([1.5]);
  return [
    new Uint32Array(f32.buffer)[0] as number, // scale, the host's
    Math.min(Math.ceil(n / 100), 5), // tiles: ⌈n / 100⌉, at most 5
    -5 >>> 0, // offset, the host's (two's complement)
    n, // count
    0xabcdef, // marker, the host's
    Math.floor(n / 4), // full_vecs
    Math.ceil(n / 4), // slots
    Math.ceil(n / 3), // groups: ⌈n / 3⌉, no cap
  ];
}

describe('count fixup', () => {
  it('fills each field by name, whatever its position: host values and derivations of min(count, capacity)', async () => {
    const ctx = await getTestContext();
    const exec = new RecipeExecutor(ctx, 'count fixup test');
    const OUT: BufferRef = { role: 'out', offset: 0 };
    const OUT2: BufferRef = { role: 'out2', offset: 0 };
    const build = (word: number) => {
      const b = new RecipeBuilder();
      const refs = recordCountFixup(b, {
        word,
        capacity: CAPACITY,
        blocks: [
          countedParams(
            mixed,
            { count: 'count', slots: 'vec4s', full_vecs: 'wholeVec4s', tiles: { ceilDiv: 100, max: 5 }, groups: { ceilDiv: 3 } },
            { scale: 1.5, offset: -5, marker: 0xabcdef },
          ),
          countedParams(countsOnly, { count: 'count', slots: 'vec4s' }, {}),
        ],
      });
      expect(refs).toHaveLength(2);
      b.dispatch(mixed, { out: OUT }, 1, refs[0]);
      b.dispatch(countsOnly, { out: OUT2 }, 1, refs[1]);
      // The raw words of the first block, as the fixup wrote them.
      b.copy(refs[0] as BufferRef, { role: 'raw', offset: 0 }, 32);
      return b.build();
    };
    // The count at word 2 of its buffer, so the word is exercised.
    const results = await runBatch(
      ctx,
      COUNTS.map((count) => ({
        record(encoder) {
          const outs = [poisoned(ctx, 32), poisoned(ctx, 16), poisoned(ctx, 32)];
          const gpuCount = bufferOf(ctx, new Uint32Array([0xdead, 0xbeef, count, 0xcafe]));
          exec.encode(encoder, () => build(2), { gpuCount, out: outs[0]!, out2: outs[1]!, raw: outs[2]! });
          return outs.map((buffer, i) => ({ buffer, bytes: i === 1 ? 8 : 32 }));
        },
      })),
    );
    COUNTS.forEach((count, i) => {
      const [read, readCounts, raw] = results[i]!.map((bytes) => Array.from(new Uint32Array(bytes)));
      const n = Math.min(count, CAPACITY);
      expect(read, `count ${count}: the kernel's params by name`).toEqual(expectedMixed(count));
      expect(raw, `count ${count}: the block's words in struct order`).toEqual(expectedMixed(count));
      expect(readCounts, `count ${count}: a block of derived fields only`).toEqual([Math.ceil(n / 4), n]);
    });
    exec.destroy();
  });

  it('rejects a derived field that is not a u32 parameter, and a host field left out', () => {
    expect(() => countedParams(mixed, { scale: 'count' } as never, {} as never)).toThrow(/"scale", which is not a u32 parameter/);
    expect(() => countedParams(mixed, { bogus: 'count' } as never, {} as never)).toThrow(/"bogus", which is not a u32 parameter/);
    expect(() => countedParams(countsOnly, { count: 'count' }, {} as never)).toThrow(/"slots" is neither given nor derived/);
    const b = new RecipeBuilder();
    const block = countedParams(countsOnly, { count: 'count', slots: { ceilDiv: 0 } }, {});
    expect(() => recordCountFixup(b, { word: 0, capacity: 1, blocks: [block] })).toThrow(/divisor or cap is 0/);
    expect(() => recordCountFixup(b, { word: 0, capacity: 1, blocks: [] })).toThrow(/fills 0 blocks/);
  });
});
