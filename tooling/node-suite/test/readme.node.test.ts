// The root README's TypeScript example, run as written in Node on the adapter Dawn finds
// (SwiftShader in CI). Node has no `navigator.gpu`: a stand-in hands the example the device of a
// Node context (and refuses features the device lacks, as requestDevice does). Every statement
// `await f(ctx, …);` is checked twice: against the value its comment shows (`// [0, 3, 4, 11, 11]`,
// on its line or the lines after it; `Int32Array [1, 2]` also checks the type) and against `f` of
// the package's `/cpu` entry on the same arguments. scripts/check-examples typechecks the example.
// The machinery is markdown-examples.ts's, which guides.node.test.ts shares.
import { readFileSync } from 'node:fs';
import type { ScanContext } from '@scan/core';
import { createNodeContext } from '@scan/core/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { markdownExamples } from '../../../scripts/check-examples/extract.mjs';
import { instrument, runExample, verify } from './markdown-examples.js';

describe("the root README's example", () => {
  let ctx: ScanContext;
  beforeAll(async () => {
    ctx = await createNodeContext();
  });
  afterAll(() => ctx?.destroy());

  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const examples = markdownExamples(readme).filter((e) => !e.nocheck);

  test('the README has a TypeScript example', () => {
    expect(examples.length).toBeGreaterThan(0);
  });

  for (const example of examples) {
    test(`README.md:${example.line} runs and shows what the GPU computes`, async () => {
      const instrumented = instrument(example.code, example.line);
      const { checks } = instrumented;
      expect(checks.length, 'statements `await f(ctx, …);` to check').toBeGreaterThan(0);
      const unchecked = checks.filter((c) => !c.reference).map((c) => `README.md:${c.line}: ${c.statement}`);
      expect(unchecked, "statements whose function has no CPU reference in its package's /cpu entry").toEqual([]);
      const results = await runExample(instrumented, { where: `README.md:${example.line}`, ctx });
      verify('README.md', checks, results, { requireComment: true });
    });
  }
});
