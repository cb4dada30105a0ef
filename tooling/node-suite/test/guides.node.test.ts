// The guides' TypeScript examples (docs/guides/), run as written in Node on the adapter Dawn finds
// (SwiftShader in CI), as readme.node.test.ts runs the root README's (the machinery is
// markdown-examples.ts's). A guide's example may use `ctx` without declaring it, as the docs
// typechecker's prelude (scripts/check-examples/prelude.ts) lets it: every example of a guide gets
// one shared Node context as `ctx` (one that declares its own still may). Every statement
// `await f(ctx, …);` is checked against `f` of its package's `/cpu` entry on the same arguments, and
// against the value its comment shows where it shows one (`// Float32Array [1, 2]`, on its line or
// the lines after it; prose lines after the value are skipped). An example may only define things;
// each guide must have at least one checked statement. scripts/check-examples typechecks them all.
// A guide whose examples are written to be run this way is added to GUIDES.
import { readFileSync } from 'node:fs';
import type { ScanContext } from '@scan/core';
import { createNodeContext } from '@scan/core/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { markdownExamples } from '../../../scripts/check-examples/extract.mjs';
import { instrument, runExample, verify } from './markdown-examples.js';

/** The guides whose examples run here, relative to the repository's root. */
const GUIDES = ['docs/guides/your-own-operators.md', 'docs/guides/the-toolbox.md'];

for (const file of GUIDES) {
  describe(`${file}'s examples`, () => {
    let ctx: ScanContext;
    beforeAll(async () => {
      ctx = await createNodeContext();
    });
    afterAll(() => ctx?.destroy());

    const text = readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
    const examples = markdownExamples(text)
      .filter((e) => !e.nocheck)
      .map((e) => ({ ...e, instrumented: instrument(e.code, e.line) }));

    test(`${file} has statements \`await f(ctx, …);\` to check`, () => {
      const checked = examples.flatMap((e) => e.instrumented.checks.filter((c) => c.ctxCall));
      expect(checked.length).toBeGreaterThan(0);
    });

    for (const { line, instrumented } of examples) {
      test(`${file}:${line} runs and shows what the GPU computes`, async () => {
        // The statements `await f(ctx, …);`; other awaited calls run unchecked.
        const checks = instrumented.checks.filter((c) => c.ctxCall);
        const unchecked = checks.filter((c) => !c.reference).map((c) => `${file}:${c.line}: ${c.statement}`);
        expect(unchecked, "statements whose function has no CPU reference in its package's /cpu entry").toEqual([]);
        const results = await runExample(instrumented, { where: `${file}:${line}`, ctx, injectCtx: true });
        verify(
          file,
          checks,
          results.filter((_, i) => instrumented.checks[i]?.ctxCall),
          { requireComment: false },
        );
      });
    }
  });
}
