import { expect, test } from 'vitest';
import { type BenchOptions, parseCli } from '../src/options.js';

function run(argv: string[]): BenchOptions {
  const inv = parseCli(argv);
  if (inv.kind !== 'run') throw new Error(`expected a run, got ${inv.kind}`);
  return inv.options;
}

test('the GPU defaults, each marked as left to the adapter', () => {
  expect(run([])).toEqual({
    sizes: [1 << 16, 1 << 20],
    runs: 20,
    warmup: 3,
    timeoutS: 300,
    seed: 1,
    density: 0.5,
    segmentMeans: [16, 4096],
    json: false,
    defaulted: ['sizes', 'runs', 'warmup', 'matrices'],
  });
});

test('what the command line gives is not left to the adapter', () => {
  expect(run(['--sizes', '2^12']).defaulted).toEqual(['runs', 'warmup', 'matrices']);
  expect(run(['--large']).defaulted).toEqual(['runs', 'warmup', 'matrices']);
  expect(run(['--runs', '10', '--warmup', '0']).defaulted).toEqual(['sizes', 'matrices']);
  expect(run(['--matrices', 'biased-10']).defaulted).toEqual(['sizes', 'runs', 'warmup']);
  expect(run(['--sizes', '2^12', '--runs', '10', '--warmup', '1', '--matrices', 'biased-10']).defaulted).toEqual([]);
});

test('--sizes with 2^k, --large adds the GPU sizes', () => {
  expect(run(['--sizes', '2^12,1000']).sizes).toEqual([1000, 4096]);
  expect(run(['--large']).sizes).toEqual([2 ** 20, 2 ** 24, 2 ** 26, 2 ** 28]);
  expect(run(['--large', '--sizes', '2^12,2^20']).sizes).toEqual([2 ** 12, 2 ** 20, 2 ** 24, 2 ** 26, 2 ** 28]);
});

test('filters, counts, paths', () => {
  const o = run([
    '--only=scan,copy',
    '--types',
    'u32',
    '--algorithms',
    'blelloch',
    '--runs',
    '12',
    '--warmup',
    '0',
    '--timeout',
    '30',
    '--out',
    'x.json',
    '--json',
    '--commit',
    'abc',
    '--seed',
    '7',
    '--density',
    '0.1',
    '--segment-means',
    '2^6,8',
  ]);
  expect(o).toMatchObject({
    only: ['scan', 'copy'],
    types: ['u32'],
    algorithms: ['blelloch'],
    runs: 12,
    warmup: 0,
    timeoutS: 30,
    out: 'x.json',
    json: true,
    commit: 'abc',
    seed: 7,
    density: 0.1,
    segmentMeans: [8, 64],
  });
});

test('bad values are refused with the option named', () => {
  expect(() => parseCli(['--runs', '5'])).toThrow(/--runs 5: must be at least 10/);
  expect(() => parseCli(['--runs', 'many'])).toThrow(/--runs/);
  expect(() => parseCli(['--only', 'quicksort'])).toThrow(/--only: unknown "quicksort"/);
  expect(() => parseCli(['--types', 'f16'])).toThrow(/--types/);
  expect(() => parseCli(['--density', '2'])).toThrow(/--density/);
  expect(() => parseCli(['--segment-means', '0'])).toThrow(/--segment-means "0"/);
  expect(() => parseCli(['--sizes', '2^x'])).toThrow(/size "2\^x"/);
  expect(() => parseCli(['--frobnicate'])).toThrow();
});

test('--help and the child mode', () => {
  expect(parseCli(['--help'])).toEqual({ kind: 'help' });
  expect(parseCli(['--case', '{"n":1}'])).toEqual({ kind: 'child', caseJson: '{"n":1}' });
});

test('--tuning takes numbers, booleans and strings (the plan checks the keys and values), nothing else', () => {
  const tuning = { elementsPerThread: 16, padLast: false, label: 'x' };
  expect(run(['--tuning', JSON.stringify(tuning)]).tuning).toEqual(tuning);
  expect(() => parseCli(['--tuning', '{"padLast":[true]}'])).toThrow(/padLast = \[true\]: expected a number, a boolean or a string/);
  expect(() => parseCli(['--tuning', '[1]'])).toThrow(/expected a JSON object/);
});
