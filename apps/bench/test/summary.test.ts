import { describe, expect, it } from 'vitest';
import type { BenchReport, CaseResult } from '../src/report.js';
import { summaryMarkdown } from '../src/summary/markdown.js';
import { SUMMARY_ROWS, type SummaryRow } from '../src/summary/rows.js';
import { summarize } from '../src/summary/summarize.js';

// Small reports written out by hand: every ratio below can be checked with a pencil.

const device = (name: string, cuda = false) => ({
  adapter: cuda
    ? { vendor: 'nvidia', architecture: 'sm_90', description: name, device: 'CUDA 13.0, torch 2.11' }
    : { vendor: 'nvidia', architecture: '', description: 'NVIDIA: 580', device: name.toLowerCase().replace(/[^a-z0-9]+/g, '-') },
  features: {},
  limits: {},
});

function result(caseFields: Record<string, unknown>, medianMs: number, extra: Partial<CaseResult> = {}): CaseResult {
  const n = caseFields['n'] as number;
  return {
    case: { id: `${caseFields['series']}@${n}`, ...caseFields } as CaseResult['case'],
    status: 'ok',
    timer: 'timestamp',
    measurement: {
      runs: 3,
      medianMs,
      minMs: medianMs,
      maxMs: medianMs,
      meanMs: medianMs,
      samplesMs: [medianMs],
      bytes: 8 * n,
      gbps: 1,
      gelemsPerS: 1,
    },
    verification: { gpuMismatches: 0, cpuCompared: false },
    ...extra,
  };
}

function report(results: CaseResult[], baseline?: 'cuda' | 'webgpu', gpu = 'NVIDIA H100 80GB HBM3'): BenchReport {
  return {
    schema: 'scan-bench/1',
    date: '2026-12-04T00:00:00Z',
    commit: baseline ? null : 'abc1234',
    host: { node: 'v20', platform: 'linux', arch: 'x64' },
    options: { sizes: [1024, 2048], runs: 3, warmup: 1, seed: 1, density: 0.5, timeoutS: 0 },
    device: device(gpu, baseline === 'cuda'),
    ...(baseline ? { baseline } : {}),
    results,
  };
}

const SCAN: SummaryRow = {
  label: 'scan',
  ours: { primitive: 'scan', series: 'scan fast' },
  cuda: [
    { primitive: 'scan', baseline: 'lib.a' },
    { primitive: 'scan', baseline: 'lib.b' },
  ],
  webgpu: [{ primitive: 'scan' }],
  note: 'a note',
};

describe('summarize', () => {
  const ours = report([
    result({ primitive: 'scan', series: 'scan fast', n: 1024 }, 2, { ratioCopy: 0.5 }),
    result({ primitive: 'scan', series: 'scan slow', n: 1024 }, 1), // another series: not ours
    result({ primitive: 'scan', series: 'scan fast', n: 2048 }, 4, { ratioCopy: 0.8 }),
  ]);
  const cuda = report(
    [
      result({ primitive: 'scan', series: 's/a', baseline: 'lib.a', n: 1024 }, 3),
      result({ primitive: 'scan', series: 's/b', baseline: 'lib.b', n: 1024 }, 2.5), // the fastest CUDA call wins
      result({ primitive: 'scan', series: 's/c', baseline: 'lib.c', n: 1024 }, 0.1), // not one of the row's calls
      result({ primitive: 'scan', series: 's/a', baseline: 'lib.a', n: 2048 }, 8, {
        verification: { gpuMismatches: 3, cpuCompared: false },
      }),
    ],
    'cuda',
  );
  const luma = report(
    [
      result({ primitive: 'scan', series: 'luma scan', baseline: 'luma.gl 9.4.2', call: 'GPUScan', n: 1024 }, 6),
      { ...result({ primitive: 'scan', series: 'luma scan', baseline: 'luma.gl 9.4.2', call: 'GPUScan', n: 2048 }, 1), status: 'error' },
    ],
    'webgpu',
  );

  it('sets each size of ours against the fastest verified case of each kind of library', () => {
    const s = summarize([ours, cuda, luma], [1024, 2048], [SCAN]);
    expect(s.device).toBe('nvidia-h100-80gb-hbm3');
    const [small, large] = s.lines[0]?.cells ?? [];
    expect(small).toEqual({
      n: 1024,
      medianMs: 2,
      ratioCopy: 0.5,
      cuda: { library: 'lib.b', medianMs: 2.5, speedup: 1.25 },
      webgpu: { library: 'luma.gl 9.4.2 GPUScan', medianMs: 6, speedup: 3 },
    });
    // The CUDA case at 2048 failed verification and luma's errored: neither is compared.
    expect(large).toEqual({ n: 2048, medianMs: 4, ratioCopy: 0.8 });
    expect(s.sources.map((x) => x.role)).toEqual(['ours', 'cuda', 'webgpu']);
  });

  it('renders one table row per primitive, ratios in size order, and the notes', () => {
    const text = summaryMarkdown(summarize([ours, cuda, luma], [1024, 2048], [SCAN]));
    expect(text).toContain(
      '| scan | 2.00 ms · 0.50× copy | 4.00 ms · 0.80× copy | 1.25× · — (lib.b) | 3.00× · — (luma.gl 9.4.2 GPUScan) |',
    );
    expect(text).toContain('| primitive | 2^10: ours | 2^11: ours | × CUDA library (2^10 · 2^11) | × best WebGPU library (2^10 · 2^11) |');
    expect(text).toContain('- scan: a note');
  });

  it('sets suite rows case by case (same matrix and size) and sums them up as a geometric mean', () => {
    const SPMV: SummaryRow = {
      label: 'spmv',
      kind: 'suite',
      ours: { primitive: 'spmv', fields: { algorithm: 'auto' } },
      cuda: [{ primitive: 'spmv', baseline: 'cusparse' }],
      webgpu: [],
    };
    const mine = report([
      result({ primitive: 'spmv', algorithm: 'auto', series: 'spmv auto a', matrix: 'a', n: 100 }, 1),
      result({ primitive: 'spmv', algorithm: 'auto', series: 'spmv auto b', matrix: 'b', n: 200 }, 2),
      result({ primitive: 'spmv', algorithm: 'auto', series: 'spmv auto c', matrix: 'c', n: 300 }, 3),
      result({ primitive: 'spmv', algorithm: 'row', series: 'spmv row a', matrix: 'a', n: 100 }, 0.5), // not `auto`
    ]);
    const theirs = report(
      [
        result({ primitive: 'spmv', series: 's/a', baseline: 'cusparse', matrix: 'a', n: 100 }, 4),
        result({ primitive: 'spmv', series: 's/b', baseline: 'cusparse', matrix: 'b', n: 200 }, 1),
        result({ primitive: 'spmv', series: 's/c', baseline: 'cusparse', matrix: 'c', n: 299 }, 3), // another matrix of that name
      ],
      'cuda',
    );
    const s = summarize([mine, theirs], [1024], [SCAN, SPMV]);
    expect(s.lines.map((l) => l.row.label)).toEqual(['scan']);
    expect(s.suites[0]?.pairs).toEqual([
      { key: 'a', medianMs: 1, cuda: { library: 'cusparse', medianMs: 4, speedup: 4 } },
      { key: 'b', medianMs: 2, cuda: { library: 'cusparse', medianMs: 1, speedup: 0.5 } },
      { key: 'c', medianMs: 3 },
    ]);
    // geomean(4, 0.5) = √2.
    expect(summaryMarkdown(s)).toContain('| spmv | a, b, c | 1.00–3.00 ms | 1.41× (0.50×–4.00×, 2 cases; cusparse) | — |');
  });

  it('refuses reports of two devices, and no reports', () => {
    const h200 = report([result({ primitive: 'scan', series: 's/a', baseline: 'lib.a', n: 1024 }, 3)], 'cuda', 'NVIDIA H200');
    expect(() => summarize([ours, h200], [1024], [SCAN])).toThrow(/different devices \(nvidia-h100-80gb-hbm3, nvidia-h200\)/);
    expect(() => summarize([], [1024], [SCAN])).toThrow(/no reports/);
  });

  it('sets our u64, u16 and 16-byte-value sorts against the libraries of the same key and value width (issue 50)', () => {
    const n = 1024;
    const sortOurs = report([
      result({ primitive: 'sort', series: 'sort radix u32', algorithm: 'radix', type: 'u32', n }, 1),
      result({ primitive: 'sort', series: 'sort radix u64', algorithm: 'radix', type: 'u64', n }, 2),
      result({ primitive: 'sort', series: 'sort radix u16', algorithm: 'radix', type: 'u16', n }, 0.5),
      result(
        { primitive: 'sort-pairs', series: 'sort-pairs radix u32 u32 values', algorithm: 'radix', type: 'u32', valueType: 'u32', n },
        3,
      ),
      result(
        { primitive: 'sort-pairs', series: 'sort-pairs radix u32 16-byte values', algorithm: 'radix', type: 'u32', valueWidth: 16, n },
        4,
      ),
    ]);
    const sortCuda = report(
      [
        result({ primitive: 'sort', series: 'sort/cupy.sort/u32', baseline: 'cupy.sort', type: 'u32', n }, 0.5),
        result({ primitive: 'sort', series: 'sort/cupy.sort/u64', baseline: 'cupy.sort', type: 'u64', n }, 1.5),
        result({ primitive: 'sort', series: 'sort/torch.sort/i64', baseline: 'torch.sort', type: 'i64', n }, 3),
        result({ primitive: 'sort', series: 'sort/cupy.sort/u16', baseline: 'cupy.sort', type: 'u16', n }, 0.4),
        result({ primitive: 'sort', series: 'sort/torch.sort/i16', baseline: 'torch.sort', type: 'i16', n }, 0.6),
        result(
          {
            primitive: 'sort-pairs',
            series: 'sort-pairs/torch.sort(stable)/i32/valueType=i64',
            baseline: 'torch.sort(stable)',
            type: 'i32',
            valueType: 'i64',
            n,
          },
          6,
        ),
        result(
          {
            primitive: 'sort-pairs',
            series: 'sort-pairs/torch.sort(stable)+index_select/i32/valueType=i32x4/valueWidth=16',
            baseline: 'torch.sort(stable)+index_select',
            type: 'i32',
            valueWidth: 16,
            n,
          },
          2,
        ),
      ],
      'cuda',
    );
    const gridwise = report(
      [
        result(
          {
            primitive: 'sort',
            series: 'sort/gridwise 0.1.0 a5fdd8d OneSweepSort/u32 keys',
            baseline: 'gridwise 0.1.0 a5fdd8d',
            call: 'OneSweepSort',
            type: 'u32',
            n,
          },
          3,
        ),
        result(
          {
            primitive: 'sort',
            series: 'sort/gridwise 0.1.0 a5fdd8d OneSweepSort/u64 keys',
            baseline: 'gridwise 0.1.0 a5fdd8d',
            call: 'OneSweepSort',
            type: 'u64',
            n,
          },
          8,
        ),
      ],
      'webgpu',
    );
    const s = summarize([sortOurs, sortCuda, gridwise], [n]);
    const cell = (label: string) => s.lines.find((l) => l.row.label === label)?.cells[0];
    expect(cell('sort u32 keys')).toMatchObject({
      medianMs: 1,
      cuda: { library: 'cupy.sort', medianMs: 0.5 },
      webgpu: { library: 'gridwise 0.1.0 a5fdd8d OneSweepSort', medianMs: 3 },
    });
    expect(cell('sort u64 keys')).toMatchObject({
      medianMs: 2,
      cuda: { library: 'cupy.sort', medianMs: 1.5, speedup: 0.75 },
      webgpu: { library: 'gridwise 0.1.0 a5fdd8d OneSweepSort', medianMs: 8, speedup: 4 },
    });
    expect(cell('sort u16 keys')).toMatchObject({ medianMs: 0.5, cuda: { library: 'cupy.sort', medianMs: 0.4 } });
    expect(cell('sort u16 keys')?.webgpu).toBeUndefined();
    expect(cell('sort u32 keys + u32 values')).toMatchObject({ medianMs: 3, cuda: { library: 'torch.sort(stable)', medianMs: 6 } });
    expect(cell('sort u32 keys + 16-byte values')).toMatchObject({
      medianMs: 4,
      cuda: { library: 'torch.sort(stable)+index_select', medianMs: 2, speedup: 0.5 },
    });
    expect(SUMMARY_ROWS.filter((r) => r.label.startsWith('sort')).map((r) => r.label)).toEqual([
      'sort u32 keys',
      'sort u64 keys',
      'sort u16 keys',
      'sort u32 keys + u32 values',
      'sort u32 keys + 16-byte values',
    ]);
  });
});
