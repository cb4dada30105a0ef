// The line between core's two audiences: the main entry holds what an application uses, the kit
// (`@scan/core/kit`) what package authors build kernels and plans from. A name that drifts from one
// side to the other, or a kit name the README lists that the kit does not export, fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as main from '../../src/index.js';
import * as kit from '../../src/kit/index.js';

/** The values (not types) an application gets from `@scan/core`. */
const MAIN_VALUES = [
  'BufferUsage',
  'COMPACT_ALGORITHMS',
  'COMPARE_OPS',
  'ELEMENT_TYPES',
  'MAX_HISTOGRAM_BINS',
  'SCAN_ALGORITHMS',
  'SCAN_FEATURES',
  'SCAN_LIMITS',
  'SCAN_OPS',
  'STORAGE_USAGE',
  'SUBGROUP_MATRIX_FEATURE',
  'ScanError',
  'builtinOperator',
  'createContext',
  'createDispatchArgsPlan',
  'createDistributePlan',
  'createEnumeratePlan',
  'createGpuTimer',
  'createHistogramPlan',
  'createPackIfPlan',
  'createPackPlan',
  'createReducePlan',
  'createScanPlan',
  'createSplitPlan',
  'createStorageBuffer',
  'defineOperator',
  'distribute',
  'encodeReadback',
  'enumerate',
  'histogram',
  'pack',
  'packIf',
  'reduce',
  'scan',
  'scanDeviceDescriptor',
  'split',
  'subgroupsChecked',
  'uploadArray',
  // The toolbox (issue 49): arg-min/max and sorted search.
  'argMax',
  'argMin',
  'createArgMaxPlan',
  'createArgMinPlan',
  'createSearchPlan',
  'lowerBound',
  'upperBound',
];

describe('entry points', () => {
  it('the main entry exports exactly the application names', () => {
    expect(Object.keys(main).sort()).toEqual([...MAIN_VALUES].sort());
  });

  it('the kit and the main entry share no name', () => {
    const shared = Object.keys(kit).filter((name) => name in main);
    expect(shared).toEqual([]);
  });

  it('every kit name the README lists is exported by the kit, and the kit exports no value the README leaves out', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## For package authors'));
    const listed = new Set([...section.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((m) => m[1] as string));
    const values = Object.keys(kit);
    // Types vanish at run time, so only values are compared: functions (lower case) and constants
    // (upper case with underscores) on the README's side, every runtime export on the kit's.
    const missing = [...listed].filter((name) => /^[a-z]|^[A-Z_]+$/.test(name) && !values.includes(name));
    expect(missing).toEqual([]);
    const unlisted = values.filter((name) => !listed.has(name));
    expect(unlisted).toEqual([]);
  });
});
