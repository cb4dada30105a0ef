// How plans split work between the direct kernels (subgroup-matrix path, f16) and the staged ones:
// units, tails and the passes recorded for each segment size. Every binding is a whole buffer (one
// bind group serves every count): the counts, and the first segment of a tail, are parameters. The direct kernels need
// subgroup matrices, which SwiftShader lacks, so CI checks the recipes here and their WGSL text;
// `scripts/device-check.ts` runs them on the H100 against the CPU references (BENCHMARKS.md).
import { type DispatchStep, type Kernel, type NamedBindings, type Recipe, RecipeBuilder, type Step } from '@scan/core/kit';
import { describe, expect, it } from 'vitest';
import { directChainedScanKernel } from '../src/kernels/direct-chained-scan.js';
import { directApplies } from '../src/kernels/direct-common.js';
import { directCountKernel } from '../src/kernels/direct-count.js';
import { directReduceKernel } from '../src/kernels/direct-reduce.js';
import { directScanKernel } from '../src/kernels/direct-scan.js';
import type { MatrixPath } from '../src/kernels/matrix.js';
import type { PassContext } from '../src/plans/pass-context.js';
import { recordReduce, recordScan } from '../src/plans/recipes.js';
import { TCU_SELECTION_TABLE, type TcuDirectEntry, type TcuSelectionEntry } from '../src/plans/select.js';

const H100_PATH: MatrixPath = {
  kind: 'subgroup-matrix',
  family: 'f16',
  shape: { M: 16, N: 16, K: 16 },
  S: 16,
  syntax: 'template',
  workgroupSize: 32,
  direct: true,
};

const INPUT = { role: 'input', offset: 0 };
const OUTPUT = { role: 'output', offset: 0 };

/** The recipe of one encode; `steps` and `params` as the executor sees them. */
function record(
  what: 'reduce' | 'scan',
  n: number,
  s: number,
  path: MatrixPath = H100_PATH,
  table: TcuSelectionEntry = TCU_SELECTION_TABLE['subgroup-matrix'],
): Recipe {
  const b = new RecipeBuilder();
  const pc: PassContext = { b, path, table, maxDim: 65535 };
  if (what === 'reduce') recordReduce(pc, INPUT, 'f16', OUTPUT, n, s);
  else recordScan(pc, INPUT, 'f16', OUTPUT, n, s, true);
  return b.build();
}

const dispatches = (r: Recipe) => r.steps.filter((st: Step): st is DispatchStep => st.kind === 'dispatch');
/** The kernel of a dispatch (every tcu kernel is a `defineKernel` one). */
const kernelOf = (d: DispatchStep | undefined): Kernel => {
  if (!d) throw new Error('expected a dispatch');
  return d.kernel;
};
/** The specialization of a dispatch's kernel. */
const specOf = (d: DispatchStep | undefined) => kernelOf(d).specialization as Record<string, unknown> & { path?: MatrixPath };
/** What tells the variants of a family apart in these tests (what its kernel key once spelled after the family). */
function variantOf(d: DispatchStep): string {
  const spec = specOf(d);
  switch (kernelOf(d).name) {
    case 'tcu/reduce':
    case 'tcu/scan':
      return String(spec.cls);
    case 'tcu/direct-reduce':
      return `t${spec.segTiles}${spec.strided ? 'n' : spec.coalesced ? 'c' : ''}`;
    case 'tcu/direct-scan':
      return `t${spec.segTiles}${spec.strided ? 'n' : ''}`;
    case 'tcu/direct-block-reduce':
      return `t${spec.segTiles}`;
    case 'tcu/direct-chained-scan':
      return spec.inclusive ? 'incl' : 'excl';
    case 'tcu/direct-count':
      return `c${spec.chunks}`;
    default:
      return '';
  }
}
/** Family and variant of each dispatch's kernel, e.g. `tcu/direct-reduce/t0n`, `tcu/reduce/warp`. */
const keys = (r: Recipe) => dispatches(r).map((d) => `${kernelOf(d).name}/${variantOf(d)}`);
/** The parameter words of dispatch `i`: n, s, nseg, parts, partLen, nx, groups, first. */
const paramsOf = (r: Recipe, i: number) => {
  const ref = dispatches(r)[i]?.params as { params: number };
  const [n, s, nseg, parts, partLen, , groups, first] = r.params[ref.params] as number[];
  return { n, s, nseg, parts, partLen, groups, first };
};
/** The buffers dispatch `i` binds, by name. */
const bindingsOf = (r: Recipe, i: number) => dispatches(r)[i]?.bindings as NamedBindings;
/** Every binding of every dispatch is a whole buffer: from offset 0, no size. */
const expectWholeBindings = (r: Recipe) => {
  for (const d of dispatches(r)) {
    for (const ref of Object.values(d.bindings as NamedBindings)) {
      if (!ref || 'params' in ref) continue;
      expect(ref.offset ?? 0, d.kernel.key).toBe(0);
      expect(ref.size, d.kernel.key).toBeUndefined();
    }
  }
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
    const r = record('reduce', 1 << 18, 16);
    expect(keys(r)).toEqual(['tcu/direct-reduce/t0']);
    const [d] = dispatches(r);
    // 64 units of 4096 elements, two subgroups per workgroup.
    expect(d?.workgroups).toBe(32);
    expect(paramsOf(r, 0)).toMatchObject({ n: 1 << 18, groups: 64 });
    expectWholeBindings(r);
  });

  it('reduce, a partial unit at the end: staged kernels on the tail, from its first segment', () => {
    const n = (1 << 18) + 3 * 4096 + 1000;
    const r = record('reduce', n, 16);
    expect(keys(r)).toEqual(['tcu/direct-reduce/t0', 'tcu/reduce/warp']);
    expect(paramsOf(r, 0)).toMatchObject({ n: 67 * 4096, groups: 67 });
    // The tail binds the same whole buffers and starts at segment 67·256 of the whole array.
    expect(paramsOf(r, 1)).toMatchObject({ n, s: 16, nseg: Math.ceil(n / 16), first: 67 * 256 });
    expectWholeBindings(r);
  });

  it('reduce, any tail offset: no scratch and no copy, the first segment is a parameter', () => {
    // s = 4096: one segment per unit, so the tail starts at segment 67 (not 64-word aligned).
    const n = 67 * 4096 + 100;
    const r = record('reduce', n, 4096);
    expect(keys(r)).toEqual(['tcu/direct-reduce/t16', 'tcu/reduce/block']);
    expect(r.steps.some((st) => st.kind === 'copy')).toBe(false);
    expect(paramsOf(r, 1)).toMatchObject({ n, first: 67, groups: 1 });
    expectWholeBindings(r);
  });

  it('reduce, segments of up to 4096 tiles: the block level (Algorithm 4), one workgroup per segment', () => {
    const r = record('reduce', 1 << 25, 65536);
    expect(keys(r)).toEqual(['tcu/direct-block-reduce/t256']);
    const [block] = dispatches(r);
    expect(block?.workgroups).toBe(512);
    expect(paramsOf(r, 0)).toMatchObject({ n: 1 << 25, groups: 512 });
    expectWholeBindings(r);
    // Fewer segments than the table's minimum: partial sums spread over more workgroups instead
    // (one kernel for every segment longer than S tiles: t16).
    expect(keys(record('reduce', 1 << 20, 65536))).toEqual(['tcu/direct-reduce/t16', 'tcu/reduce/warp']);
  });

  it('reduce, longer segments (the whole array): partial sums, then the staged kernels reduce them', () => {
    const n = 1 << 22;
    const r = record('reduce', n, n);
    // The kernel of segments longer than S tiles does not depend on their length: the whole array
    // of every count shares it.
    expect(dispatches(r)[0]?.kernel.key).toBe(dispatches(record('reduce', 1 << 20, 1 << 20))[0]?.kernel.key);
    expect(keys(r)[0]).toBe('tcu/direct-reduce/t16');
    const [direct, partials] = dispatches(r);
    expect(direct?.workgroups).toBe(n / 4096 / 2); // units of 16 tiles, two per workgroup
    expect((partials?.bindings as NamedBindings | undefined)?.input).toEqual({ scratch: 'directPartials' });
    expect(paramsOf(r, 1)).toMatchObject({ n: n / 4096, s: n / 4096 });
  });

  it('scan: Scan16 and Scan256 units, the chained scan past S tiles, the whole array in one pass', () => {
    expect(keys(record('scan', 1 << 18, 16))).toEqual(['tcu/direct-scan/t0']);
    expect(keys(record('scan', 1 << 18, 256))).toEqual(['tcu/direct-scan/t1']);
    expect(keys(record('scan', 1 << 18, 4096))).toEqual(['tcu/direct-scan/t16']);
    for (const s of [65536, 1 << 18, 1 << 30]) {
      const r = record('scan', 1 << 18, s);
      expect(keys(r)).toEqual(['tcu/direct-chained-scan/incl']);
      // The look-back statuses are zeroed first (this count's units; the binding is the whole buffer).
      const units = (1 << 18) / (32 * 256);
      expect(r.steps[0]).toMatchObject({ kind: 'clear', target: { scratch: 'directStatus', offset: 0 } });
      expect(bindingsOf(r, 0).status).toEqual({ scratch: 'directStatus' });
      expect(dispatches(r)[0]?.workgroups).toBe(units);
      expectWholeBindings(r);
    }
  });

  it('scan: the forced fallback of the chained scan (chainedScanForceFallback) reaches its kernel, whose walk then reads no status', () => {
    const base = TCU_SELECTION_TABLE['subgroup-matrix'];
    const forced = { ...base, direct: { ...(base.direct as TcuDirectEntry), chainedScanForceFallback: true } };
    const [plain] = dispatches(record('scan', 1 << 18, 65536));
    const [fallback] = dispatches(record('scan', 1 << 18, 65536, H100_PATH, forced));
    expect(specOf(plain).forceFallback).toBe(false);
    expect(specOf(fallback).forceFallback).toBe(true);
    expect(kernelOf(fallback).key).not.toBe(kernelOf(plain).key);
    // The generator's status read answers NOT_READY without loading, so every walk takes the fallback
    // (scripts/device-check.ts runs it on the lent GPU: SwiftShader has no subgroup matrices).
    const forcedRead = /fn lb_read\(t: u32, chain: u32\) -> Status \{\s*return Status\(FLAG_NOT_READY, 0u\);/;
    expect(kernelOf(fallback).wgsl()).toMatch(forcedRead);
    expect(kernelOf(plain).wgsl()).toContain('fn lb_read(');
    expect(kernelOf(plain).wgsl()).not.toMatch(forcedRead);
  });

  it('scan, a shorter last segment: the full segments direct, the rest staged from its first segment', () => {
    const n = 3 * 65536 + 5000;
    const r = record('scan', n, 65536);
    expect(keys(r).slice(0, 2)).toEqual(['tcu/direct-chained-scan/incl', 'tcu/scan/block']);
    expect(paramsOf(r, 1)).toMatchObject({ n, s: 65536, first: 3 });
    expectWholeBindings(r);
  });

  it('scan, long segments: one subgroup per segment from scanWarpMinSegments segments on, else the chained scan', () => {
    const s = 8192; // 32 tiles
    const warp = record('scan', 4096 * s + 1000, s);
    expect(keys(warp)[0]).toBe('tcu/direct-scan/t32');
    const [d] = dispatches(warp);
    expect(specOf(d).unitTiles).toBe(32);
    expect(d?.workgroups).toBe(4096 / 4);
    expect(paramsOf(warp, 0)).toMatchObject({ n: 4096 * s, groups: 4096 });
    expect(paramsOf(warp, 1)).toMatchObject({ first: 4096 });
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
      expect(paramsOf(scan, 0)).toMatchObject({ n: units * segsPerUnit * s, groups: units });
      expectWholeBindings(scan);
      if (s >= 256) continue; // the coalesced reduction's, below
      const reduce = record('reduce', n, s);
      expect(keys(reduce)[0]).toBe('tcu/direct-reduce/t0n');
      expect(dispatches(reduce)[0]?.workgroups).toBe(Math.ceil(units / 2));
      expect(paramsOf(reduce, 0)).toMatchObject({ n: units * segsPerUnit * s, nseg: units * segsPerUnit });
    }
  });

  it('coalesced Reduction16N for multiples of S of at least one tile, in units of S segments', () => {
    for (const s of [496, 768, 17 * 256, 17 * 256 + 16]) {
      const n = (1 << 22) + 1000;
      const units = Math.floor(n / (16 * s));
      const reduce = record('reduce', n, s);
      expect(keys(reduce)[0]).toBe('tcu/direct-reduce/t0c');
      expect(dispatches(reduce)[0]?.workgroups).toBe(Math.ceil(units / 2));
      expect(paramsOf(reduce, 0)).toMatchObject({ n: units * 16 * s, nseg: units * 16, groups: units });
      expectWholeBindings(reduce);
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
    };
    recordReduce(pc, INPUT, 'f16', OUTPUT, 1 << 22, 768);
    expect(keys(b.build())[0]).toBe('tcu/direct-reduce/t0n');
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
    const common = { b, maxDim: 65535 };
    const pc: PassContext = {
      ...common,
      path: U8_PATH,
      table,
      staged: staged ? { ...common, path: EMULATED, table: TCU_SELECTION_TABLE.emulated } : undefined,
    };
    recordReduce(pc, INPUT, 'u8', OUTPUT, n, s);
    return b.build();
  };

  it('segments of whole 32-flag chunks dividing a unit: one dispatch over units of 8192 flags', () => {
    for (const s of [32, 256, 4096, 8192]) {
      const n = (1 << 20) + 1000;
      const units = Math.floor(n / 8192);
      const r = count(n, s);
      expect(keys(r)[0]).toBe(`tcu/direct-count/c${s / 32}`);
      const [d] = dispatches(r);
      expect(d?.workgroups).toBe(Math.ceil(units / 2));
      expect(paramsOf(r, 0)).toMatchObject({ n: units * 8192, nseg: (units * 8192) / s, groups: units });
      // The rest through the staged kernels, from the first segment past the units.
      expect(
        keys(r)
          .slice(1)
          .every((k) => !k.includes('direct')),
      ).toBe(true);
      expect(paramsOf(r, 1)).toMatchObject({ n, first: (units * 8192) / s });
      expectWholeBindings(r);
    }
  });

  it('longer segments of whole units: a partial count per unit, the partials added by the staged kernels', () => {
    const r = count(3 * 65536 + 77, 65536);
    // One kernel for every segment of M·N chunks or more (one partial per unit): c256.
    expect(keys(r)[0]).toBe('tcu/direct-count/c256');
    expect(dispatches(r)[0]?.workgroups).toBe(12);
    expect(keys(r)[1]).toMatch(/^tcu\/reduce\/warp/);
    expect(specOf(dispatches(r)[1]).input).toBe('u32');
  });

  it('other segment sizes go to the staged kernels; with a staged context (auto) those run emulated', () => {
    for (const s of [1, 16, 48, 768, 4352]) expect(keys(count(1 << 18, s)).every((k) => !k.includes('direct'))).toBe(true);
    expect(dispatches(count(1 << 18, 16, true)).every((d) => specOf(d).path?.kind === 'emulated')).toBe(true);
    const mixed = count((1 << 18) + 100, 256, true);
    expect(keys(mixed)[0]).toBe('tcu/direct-count/c8');
    expect(specOf(dispatches(mixed)[1]).path?.kind).toBe('emulated');
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
