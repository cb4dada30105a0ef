import { afterEach, describe, expect, test, vi } from 'vitest';
import { describeVariant, enumerateCases, PRIMITIVES, parseNameList, SAMPLED_PRIMITIVES } from '../src/cases.js';
import { createWallClockTimer, measure, prepareRun, runOnce, timerMethod } from '../src/child/measure.js';
import type { AsyncWorkload } from '../src/child/workload.js';
import { bytesMoved } from '../src/metrics.js';
import { csrDifferences, HISPARSE_ADD, HISPARSE_ADD_OPERANDS, hisparseAddShapes } from '../src/primitives/hisparse-add.js';
import { HISPARSE_NODE_SIZES } from '../src/primitives/shared/hisparse-data.js';
import { parseMatrixList } from '../src/spmv-suite.js';

// hisparse-add: its case shapes (the HiSparse node sizes over the SpMV suite, sampled on a software adapter), its bytes
// model, and the asynchronous workload form — timed by wall clock around `run`, its previous result
// discarded untimed before every run. Fast: a fake device and clock, no adapter.

const base = { sizes: [4096], runs: 10, warmup: 1, seed: 1, density: 0.5 };

describe('hisparse-add cases', () => {
  test('in the default list and when --only names it: every matrix at every node size', () => {
    const matrices = parseMatrixList('poisson2d-16,biased-1K');
    expect(SAMPLED_PRIMITIVES).toContain('hisparse-add');
    expect(PRIMITIVES).toContain('hisparse-add');
    expect(parseNameList('hisparse-add', PRIMITIVES, '--only')).toEqual(['hisparse-add']);
    expect(enumerateCases({ ...base, matrices }).filter((c) => c.primitive === 'hisparse-add')).toHaveLength(18);
    // A software adapter's default run samples one: the first matrix at the package's node size, HiSparse's A + B.
    expect(
      enumerateCases({ ...base, matrices, sample: true })
        .filter((c) => c.primitive === 'hisparse-add')
        .map((c) => c.id),
    ).toEqual(['hisparse-add f32 d 64 a+b poisson2d-16@1216']);
    const cases = enumerateCases({ ...base, only: ['hisparse-add'], matrices });
    expect(cases.map((c) => c.id)).toEqual(
      ['poisson2d-16@1216', 'biased-1K@1999'].flatMap((m) =>
        HISPARSE_NODE_SIZES.flatMap((d) => HISPARSE_ADD_OPERANDS.map((add) => `hisparse-add f32 d ${d} ${add} ${m}`)),
      ),
    );
    expect(cases.map((c) => c.nodeSize)).toEqual([...HISPARSE_NODE_SIZES, ...HISPARSE_NODE_SIZES].flatMap((d) => [d, d, d]));
    expect(cases.map((c) => c.add).slice(0, 3)).toEqual(['a+2a', 'a+b', 'at+bt']);
    expect(cases[0]).toMatchObject({ primitive: 'hisparse-add', type: 'f32', matrix: 'poisson2d-16', n: 1216, runs: 10, warmup: 1 });
    expect(cases[0]!.algorithm).toBeUndefined();
    expect(describeVariant(cases[0]!)).toBe('f32 d 16 a+2a poisson2d-16');
    // Named with the products, each module gives its own, in report order (the products also with
    // the segmented combine at d 32 and 64; the add has no combine).
    const both = enumerateCases({ ...base, only: ['hisparse-spmv', 'hisparse-add'], matrices: parseMatrixList('biased-1K') });
    expect(both.map((c) => c.primitive)).toEqual([...Array<string>(5).fill('hisparse-spmv'), ...Array<string>(9).fill('hisparse-add')]);
    expect(both.filter((c) => c.primitive === 'hisparse-add').every((c) => c.combine === undefined)).toBe(true);
  });

  test('the module: sampled, the default suite when no matrices are given, .mtx paths carried', () => {
    expect(HISPARSE_ADD.sample).toBeDefined();
    expect(HISPARSE_ADD.primitives).toEqual(['hisparse-add']);
    expect(HISPARSE_ADD.shapes(base).length).toBeGreaterThan(0);
    const shapes = hisparseAddShapes([{ name: 'web', n: 10, path: '/m/web.mtx' }]);
    expect(shapes).toEqual(
      HISPARSE_NODE_SIZES.flatMap((nodeSize) =>
        HISPARSE_ADD_OPERANDS.map((add) => expect.objectContaining({ nodeSize, add, matrixPath: '/m/web.mtx', n: 10 })),
      ),
    );
  });

  test("bytes: csrgeam's CSR model, A and B read and C written, 8 bytes a nonzero each", () => {
    expect(bytesMoved('hisparse-add', 5)).toBe(120);
    expect(bytesMoved('hisparse-add', 1216)).toBe(3 * 8 * 1216);
    // The extra words of the products do not apply.
    expect(bytesMoved('hisparse-add', 1216, 99)).toBe(3 * 8 * 1216);
  });
});

describe('csrDifferences (the CPU comparison of C)', () => {
  const csr = (rowPtr: number[], colIdx: number[], values: number[]) => ({
    rows: rowPtr.length - 1,
    cols: 4,
    rowPtr: Uint32Array.from(rowPtr),
    colIdx: Uint32Array.from(colIdx),
    values: Float32Array.from(values),
  });

  test('counts structure exactly and values within 2^-21 relative', () => {
    const want = csr([0, 2, 3], [0, 3, 1], [3, -6, 1.5]);
    expect(csrDifferences(want, csr([0, 2, 3], [0, 3, 1], [3, -6, 1.5]))).toBe(0);
    expect(csrDifferences(want, csr([0, 2, 3], [0, 3, 1], [3, -6 * (1 + 2 ** -23), 1.5]))).toBe(0);
    expect(csrDifferences(want, csr([0, 2, 3], [0, 3, 1], [3, -6.001, 1.5]))).toBe(1);
    expect(csrDifferences(want, csr([0, 2, 3], [0, 2, 1], [3, -6, 1.5]))).toBe(1);
    expect(csrDifferences(want, csr([0, 1, 2], [0, 1], [3, 1.5]))).toBeGreaterThan(0);
    expect(csrDifferences(want, { ...want, cols: 5 })).toBeGreaterThan(0);
  });
});

describe('the asynchronous workload form', () => {
  afterEach(() => vi.restoreAllMocks());

  /** A fake device whose queue logs, and an asynchronous workload that logs and advances the clock. */
  function fixture() {
    const log: string[] = [];
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
    const ctx = {
      caps: { features: { timestampQuery: true } },
      device: {
        createCommandEncoder: () => {
          throw new Error('an asynchronous workload records nothing for the runner');
        },
        createQuerySet: () => ({ destroy() {} }),
        createBuffer: () => ({ destroy() {} }),
        queue: {
          submit: () => log.push('submit'),
          onSubmittedWorkDone: async () => {
            log.push('done');
          },
        },
      },
    };
    const timer = {
      method: 'timestamp' as const,
      begin: () => log.push('begin'),
      end: () => log.push('end'),
      submitAndMeasure: async () => {
        log.push('measure');
        return 99;
      },
      destroy() {},
    };
    let runs = 0;
    const workload = {
      bytes: 120,
      output: {} as GPUBuffer,
      discard: () => log.push('discard'),
      async run() {
        runs++;
        log.push(`run ${runs}`);
        clock += runs; // run k takes k ms
      },
      verify: async () => ({ mismatches: 0 }),
      destroy() {},
    } satisfies AsyncWorkload;
    return { log, ctx, timer, workload };
  }

  test('measure: discard untimed before every run, wall clock from run to onSubmittedWorkDone, the GPU timer unused', async () => {
    const { log, ctx, timer, workload } = fixture();
    const m = await measure(ctx as never, timer as never, workload, 5, { warmup: 1, runs: 3 });
    expect(m.samplesMs).toEqual([2, 3, 4]);
    expect(m.medianMs).toBe(3);
    expect(m.bytes).toBe(120);
    expect(m.gbps).toBeCloseTo(120 / 3 / 1e6);
    // Each timed run starts on an idle queue and ends when the queue is done with its work.
    expect(log).toEqual(['discard', 'run 1', 'done', ...[2, 3, 4].flatMap((k) => ['discard', 'done', `run ${k}`, 'done'])]);
    expect(timerMethod(timer as never, workload)).toBe('wall-clock');
  });

  test('runOnce and prepareRun: the first run waits for the queue; prepareRun only discards', async () => {
    const { log, ctx, workload } = fixture();
    await runOnce(ctx as never, workload);
    await prepareRun(ctx as never, workload);
    expect(log).toEqual(['discard', 'run 1', 'done', 'discard']);
  });

  test('createWallClockTimer: the wall-clock path of createGpuTimer even where timestamps exist', async () => {
    const { log, ctx } = fixture();
    const wall = createWallClockTimer(ctx as never);
    expect(wall.method).toBe('wall-clock');
    expect(await wall.submitAndMeasure([])).toBe(0);
    expect(log).toEqual(['submit', 'done']);
    expect(timerMethod(wall, { encode() {} } as never)).toBe('wall-clock');
    wall.destroy();
  });
});
