// How plans split work between the direct kernels (subgroup-matrix path, f16) and the staged ones:
// units, tails, alignment and the passes recorded for each segment size. The direct kernels need
// subgroup matrices, which SwiftShader lacks, so CI checks the recipes here and their WGSL text;
// `scripts/device-check.ts` runs them on the H100 against the CPU references (BENCHMARKS.md).
import { type DispatchStep, RecipeBuilder, type Step } from '@scan/core/kit';
import { describe, expect, it } from 'vitest';
import { directChainedScanKernel } from '../src/kernels/direct-chained-scan.js';
import { directApplies } from '../src/kernels/direct-common.js';
import { directCountKernel } from '../src/kernels/direct-count.js';
import { directReduceKernel } from '../src/kernels/direct-reduce.js';
import { directScanKernel } from '../src/kernels/direct-scan.js';
import type { MatrixPath } from '../src/kernels/matrix.js';
import type { PassContext } from '../src/plans/pass-context.js';
import { recordReduce, recordScan } from '../src/plans/recipes.js';
import { TCU_SELECTION_TABLE } from '../src/plans/select.js';

const H100_PATH: MatrixPath = {
  kind: 'subgroup-matrix',
  family: 'f16',
  shape: { M: 16, N: 16, K: 16 },
  S: 16,
  syntax: 'template',
  workgroupSize: 32,
  direct: true,
};

function record(what: 'reduce' | 'scan', n: number, s: number, path: MatrixPath = H100_PATH): readonly Step[] {
  const b = new RecipeBuilder();
  const pc: PassContext = { b, path, table: TCU_SELECTION_TABLE['subgroup-matrix'], maxDim: 65535, align: 256 };
  const input = { role: 'input', offset: 0, size: 4 * Math.ceil(n / 2) };
  if (what === 'reduce') recordReduce(pc, input, 'f16', { role: 'output', offset: 0, size: 4 * Math.ceil(n / s) }, n, s);
  else recordScan(pc, input, 'f16', { role: 'output', offset: 0, size: 4 * n }, n, s, true);
  return b.build().steps;
}

const dispatches = (steps: readonly Step[]) => steps.filter((st): st is DispatchStep => st.kind === 'dispatch');
const keys = (steps: readonly Step[]) => dispatches(steps).map((d) => d.kernel.key.split('/').slice(0, 3).join('/'));
const range = (ref: unknown) => {
  const r = ref as { offset?: number; size?: number };
  return [r.offset ?? 0, r.size];
};

describe('direct kernels: which shapes they take', () => {
  it('apply to square f16 configs with subgroups of S … S² lanes only', () => {
    expect(directApplies(H100_PATH)).toBe(true);
    expect(directApplies({ ...H100_PATH, shape: { M: 16, N: 8, K: 16 } })).toBe(false);
    expect(directApplies({ ...H100_PATH, family: 'u8' })).toBe(false);
    expect(directApplies({ ...H100_PATH, kind: 'emulated' })).toBe(false);
    expect(directApplies({ ...H100_PATH, workgroupSize: 8 })).toBe(false);
    expect(directApplies({ ...H100_PATH, workgroupSize: 512 })).toBe(false);
  });

  it('reduce, s = S: one direct dispatch over whole units of S³ elements, nothing else', () => {
    const steps = record('reduce', 1 << 18, 16);
    expect(keys(steps)).toEqual(['tcu/direct-reduce/t0']);
    const [d] = dispatches(steps);
    // 64 units of 4096 elements, two subgroups per workgroup.
    expect(d?.workgroups).toBe(32);
    expect(range(d?.bindings[0])).toEqual([0, 2 << 18]);
    expect(range(d?.bindings[1])).toEqual([0, 4 << 14]);
  });

  it('reduce, a partial unit at the end: staged kernels on the tail, at an aligned output offset', () => {
    const n = (1 << 18) + 3 * 4096 + 1000;
    const steps = record('reduce', n, 16);
    expect(keys(steps)).toEqual(['tcu/direct-reduce/t0', 'tcu/reduce/warp']);
    const [direct, tail] = dispatches(steps);
    expect(range(direct?.bindings[1])).toEqual([0, 4 * 67 * 256]);
    expect(range(tail?.bindings[0])).toEqual([2 * 67 * 4096, 4 * Math.ceil(1000 / 2)]);
    expect(range(tail?.bindings[1])).toEqual([4 * 67 * 256, 4 * Math.ceil(1000 / 16)]);
  });

  it('reduce, an unaligned tail output goes through scratch and a copy', () => {
    // s = 4096: one segment per unit, so the tail's first segment (67) is not 64-word aligned.
    const n = 67 * 4096 + 100;
    const steps = record('reduce', n, 4096);
    expect(keys(steps)).toEqual(['tcu/direct-reduce/t16', 'tcu/reduce/block']);
    const copy = steps.find((st) => st.kind === 'copy');
    expect(copy && range((copy as { to: unknown }).to)).toEqual([4 * 67, 4]);
  });

  it('reduce, segments of up to 4096 tiles: the block level (Algorithm 4), one workgroup per segment', () => {
    const steps = record('reduce', 1 << 25, 65536);
    expect(keys(steps)).toEqual(['tcu/direct-block-reduce/t256']);
    const [block] = dispatches(steps);
    expect(block?.workgroups).toBe(512);
    expect(range(block?.bindings[1])).toEqual([0, 4 * 512]);
    // Fewer segments than the table's minimum: partial sums spread over more workgroups instead.
    expect(keys(record('reduce', 1 << 20, 65536))).toEqual(['tcu/direct-reduce/t256', 'tcu/reduce/warp']);
  });

  it('reduce, longer segments (the whole array): partial sums, then the staged kernels reduce them', () => {
    const n = 1 << 22;
    const steps = record('reduce', n, n);
    expect(keys(steps)[0]).toBe('tcu/direct-reduce/t16384');
    const [direct, partials] = dispatches(steps);
    expect(direct?.workgroups).toBe(n / 4096 / 2); // units of 16 tiles, two per workgroup
    expect(range(partials?.bindings[0])).toEqual([0, 4 * (n / 4096)]);
  });

  it('scan: Scan16 and Scan256 units, the chained scan past S tiles, the whole array in one pass', () => {
    expect(keys(record('scan', 1 << 18, 16))).toEqual(['tcu/direct-scan/t0']);
    expect(keys(record('scan', 1 << 18, 256))).toEqual(['tcu/direct-scan/t1']);
    expect(keys(record('scan', 1 << 18, 4096))).toEqual(['tcu/direct-scan/t16']);
    for (const s of [65536, 1 << 18, 1 << 30]) {
      const steps = record('scan', 1 << 18, s);
      expect(keys(steps)).toEqual(['tcu/direct-chained-scan/incl']);
      // The look-back statuses are zeroed first.
      expect(steps[0]?.kind).toBe('clear');
      const [d] = dispatches(steps);
      const units = (1 << 18) / (32 * 256);
      expect(d?.workgroups).toBe(units);
    }
  });

  it('scan, a shorter last segment: the full segments direct, the rest staged at its element offset', () => {
    const n = 3 * 65536 + 5000;
    const steps = record('scan', n, 65536);
    expect(keys(steps).slice(0, 2)).toEqual(['tcu/direct-chained-scan/incl', 'tcu/scan/block']);
    const tail = dispatches(steps)[1];
    expect(range(tail?.bindings[1])).toEqual([4 * 3 * 65536, 4 * 5000]);
  });

  it('scan, long segments: one subgroup per segment from scanWarpMinSegments segments on, else the chained scan', () => {
    const s = 8192; // 32 tiles
    const warp = record('scan', 4096 * s + 1000, s);
    expect(keys(warp)[0]).toBe('tcu/direct-scan/t32');
    const [d] = dispatches(warp);
    expect(d?.kernel.key).toContain('/u32/');
    expect(d?.workgroups).toBe(4096 / 4);
    expect(range(d?.bindings[1])).toEqual([0, 4 * 4096 * s]);
    expect(
      keys(warp)
        .slice(1)
        .every((k) => !k.includes('direct')),
    ).toBe(true);
    expect(keys(record('scan', 4095 * s, s))[0]).toBe('tcu/direct-chained-scan/incl');
  });

  it('strided Reduction16N / Scan16N for other multiples of S, in units of S² segments', () => {
    for (const s of [48, 208, 768, 17 * 256]) {
      const n = 1 << 22;
      const segsPerUnit = 256;
      const units = Math.floor(n / (segsPerUnit * s));
      const scan = record('scan', n, s);
      expect(keys(scan)[0]).toBe('tcu/direct-scan/t0n');
      expect(range(dispatches(scan)[0]?.bindings[1])).toEqual([0, 4 * units * segsPerUnit * s]);
      if (s >= 256) continue; // the coalesced reduction's, below
      const reduce = record('reduce', n, s);
      expect(keys(reduce)[0]).toBe('tcu/direct-reduce/t0n');
      expect(dispatches(reduce)[0]?.workgroups).toBe(Math.ceil(units / 2));
      expect(range(dispatches(reduce)[0]?.bindings[1])).toEqual([0, 4 * units * segsPerUnit]);
    }
  });

  it('coalesced Reduction16N for multiples of S of at least one tile, in units of S segments', () => {
    for (const s of [496, 768, 17 * 256, 17 * 256 + 16]) {
      const n = (1 << 22) + 1000;
      const units = Math.floor(n / (16 * s));
      const reduce = record('reduce', n, s);
      expect(keys(reduce)[0]).toBe('tcu/direct-reduce/t0c');
      expect(dispatches(reduce)[0]?.workgroups).toBe(Math.ceil(units / 2));
      expect(range(dispatches(reduce)[0]?.bindings[0])).toEqual([0, 2 * units * 16 * s]);
      expect(range(dispatches(reduce)[0]?.bindings[1])).toEqual([0, 4 * units * 16]);
      // The rest (a partial unit, the shorter last segment) through the staged kernels.
      expect(
        keys(reduce)
          .slice(1)
          .every((k) => !k.includes('direct')),
      ).toBe(true);
    }
    // The table can switch it off: the strided kernel again.
    const b = new RecipeBuilder();
    const table = TCU_SELECTION_TABLE['subgroup-matrix'];
    const pc: PassContext = {
      b,
      path: H100_PATH,
      table: { ...table, direct: { ...table.direct!, reduceCoalescedMinTiles: 0 } },
      maxDim: 65535,
      align: 256,
    };
    recordReduce(pc, { role: 'input', offset: 0, size: 4 << 20 }, 'f16', { role: 'output', offset: 0, size: 4 << 12 }, 1 << 22, 768);
    expect(keys(b.build().steps)[0]).toBe('tcu/direct-reduce/t0n');
  });

  it('leave other segment sizes, u8 flags and the emulated path to the staged kernels', () => {
    for (const s of [1, 15, 17, 255, 257, 1000]) {
      for (const what of ['reduce', 'scan'] as const) {
        expect(keys(record(what, 1 << 16, s)).every((k) => !k.includes('direct'))).toBe(true);
      }
    }
    expect(keys(record('reduce', 1 << 16, 16, { ...H100_PATH, direct: false }))).toEqual(['tcu/reduce/warp']);
  });
});

describe('direct count (u8 flags): which shapes it takes', () => {
  const U8_PATH: MatrixPath = { ...H100_PATH, family: 'u8', shape: { M: 16, N: 16, K: 32 }, S: 32, syntax: 'bool' };
  const EMULATED: MatrixPath = { ...H100_PATH, kind: 'emulated', family: 'u8', direct: false, workgroupSize: 64 };
  const count = (n: number, s: number, staged = false) => {
    const b = new RecipeBuilder();
    const table = TCU_SELECTION_TABLE['subgroup-matrix'];
    const common = { b, maxDim: 65535, align: 256 };
    const pc: PassContext = {
      ...common,
      path: U8_PATH,
      table,
      staged: staged ? { ...common, path: EMULATED, table: TCU_SELECTION_TABLE.emulated } : undefined,
    };
    recordReduce(
      pc,
      { role: 'input', offset: 0, size: 4 * Math.ceil(n / 4) },
      'u8',
      { role: 'output', offset: 0, size: 4 * Math.ceil(n / s) },
      n,
      s,
    );
    return b.build().steps;
  };

  it('segments of whole 32-flag chunks dividing a unit: one dispatch over units of 8192 flags', () => {
    for (const s of [32, 256, 4096, 8192]) {
      const n = (1 << 20) + 1000;
      const units = Math.floor(n / 8192);
      const steps = count(n, s);
      expect(keys(steps)[0]).toBe(`tcu/direct-count/c${s / 32}`);
      const [d] = dispatches(steps);
      expect(d?.workgroups).toBe(Math.ceil(units / 2));
      expect(range(d?.bindings[0])).toEqual([0, units * 8192]);
      expect(range(d?.bindings[1])).toEqual([0, (4 * units * 8192) / s]);
      // The rest through the staged kernels, from the first flag past the units.
      expect(
        keys(steps)
          .slice(1)
          .every((k) => !k.includes('direct')),
      ).toBe(true);
      expect(range(dispatches(steps)[1]?.bindings[0])[0]).toBe(units * 8192);
    }
  });

  it('longer segments of whole units: a partial count per unit, the partials added by the staged kernels', () => {
    const steps = count(3 * 65536 + 77, 65536);
    expect(keys(steps)[0]).toBe('tcu/direct-count/c2048');
    expect(dispatches(steps)[0]?.workgroups).toBe(12);
    expect(keys(steps)[1]).toMatch(/^tcu\/reduce\/warp/);
    expect(dispatches(steps)[1]?.kernel.key).toContain('/u32/');
  });

  it('other segment sizes go to the staged kernels; with a staged context (auto) those run emulated', () => {
    for (const s of [1, 16, 48, 768, 4352]) expect(keys(count(1 << 18, s)).every((k) => !k.includes('direct'))).toBe(true);
    expect(dispatches(count(1 << 18, 16, true)).every((d) => d.kernel.key.includes('/emu/'))).toBe(true);
    const mixed = count((1 << 18) + 100, 256, true);
    expect(keys(mixed)[0]).toBe('tcu/direct-count/c8');
    expect(dispatches(mixed)[1]?.kernel.key).toContain('/emu/');
  });
});

describe('direct kernels: WGSL', () => {
  const shape = { S: 16, SG: 32, syntax: 'template' as const, W: 2 };

  it('switch off the uniformity rules their per-subgroup offsets break, and load tiles column-major', () => {
    const wgsl = [
      directReduceKernel({ ...shape, segTiles: 0, unitTiles: 16 }).wgsl(),
      directReduceKernel({ ...shape, segTiles: 0, unitTiles: 16, coalesced: true }).wgsl(),
      directScanKernel({ ...shape, segTiles: 1, unitTiles: 16, inclusive: false }).wgsl(),
      directChainedScanKernel({ ...shape, inclusive: true, maxSpin: 64, tilesPerSubgroup: 8 }).wgsl(),
    ];
    for (const code of wgsl) {
      expect(code).toContain('diagnostic(off, chromium.subgroup_matrix_uniformity);');
      expect(code).toContain('subgroup_matrix_right<f16, 16, 16>, col_major>(&input');
    }
  });

  it('Reduction16 accumulates S tiles with P_0 … P_15 and stores V straight to the output', () => {
    const code = directReduceKernel({ ...shape, segTiles: 0, unitTiles: 16 }).wgsl();
    expect(code.match(/subgroupMatrixMultiplyAccumulate\(p\d+,/g)).toHaveLength(16);
    expect(code).toContain('subgroupMatrixStore<row_major>(&output, unit * 256u, v, 16u);');
  });

  it('coalesced Reduction16N: tile i of segment r into row r (P_r), the chunks after the whole tiles strided into a second accumulator', () => {
    const code = directReduceKernel({ ...shape, segTiles: 0, unitTiles: 16, coalesced: true }).wgsl();
    const wholeTiles =
      /subgroupMatrixMultiplyAccumulate\(p\d+, subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, col_major>\(&input, base \+ \d+u \* params\.s \+ i \* 256u, 16u\), v\)/g;
    expect(code.match(wholeTiles)).toHaveLength(16);
    expect(code).toContain(
      'subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, col_major>(&input, base + whole * 256u + c * 16u, params.s)',
    );
    expect(code).toContain('output[unit * 16u + o] = total;');
  });

  it('Scan16 multiplies by L (strict for exclusive) and stores column-major to the output', () => {
    const incl = directScanKernel({ ...shape, segTiles: 0, unitTiles: 4, inclusive: true }).wgsl();
    const excl = directScanKernel({ ...shape, segTiles: 0, unitTiles: 4, inclusive: false }).wgsl();
    expect(incl.match(/subgroupMatrixStore<col_major>\(&output/g)).toHaveLength(4);
    expect(incl).toContain('c <= r - 32u');
    expect(excl).toContain('c < r - 32u');
  });

  it('direct count: u8 flags from storage, P_k from workgroup memory, V stored or summed per segment', () => {
    const spec = { shape: { M: 16, N: 16, K: 32 }, SG: 32, syntax: 'bool' as const, W: 2 };
    const one = directCountKernel({ ...spec, chunks: 1 }).wgsl();
    expect(
      one.match(
        /subgroupMatrixMultiplyAccumulate\(subgroupMatrixLoad<subgroup_matrix_left<u8, 32, 16>>\(&cst, \d+u, false, 32u\), subgroupMatrixLoad<subgroup_matrix_right<u8, 16, 32>>\(&input, base \+ \d+u, true, 32u\), v\)/g,
      ),
    ).toHaveLength(16);
    expect(one).toContain('subgroupMatrixStore(&output, unit * 256u, v, false, 16u);');
    const eight = directCountKernel({ ...spec, chunks: 8 }).wgsl();
    expect(eight).toContain('output[unit * 32u + o] = total;');
    const partial = directCountKernel({ ...spec, chunks: 512 }).wgsl();
    expect(partial).toContain('total += subgroupShuffleXor(total, 16u);');
    expect(partial).toContain('output[unit * 1u + o] = total;');
    expect(directCountKernel({ ...spec, chunks: 2 }).wgsl()).toContain('for (var o = lane; o < 128u; o += 32u) {');
  });

  it('the bool spelling of older Dawn', () => {
    const code = directReduceKernel({ ...shape, syntax: 'bool', segTiles: 0, unitTiles: 16 }).wgsl();
    expect(code).toContain('subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>>(&input, base + 0u, true, 16u)');
    expect(code).toContain('subgroupMatrixStore(&output, unit * 256u, v, false, 16u);');
  });
});
