// The root README's TypeScript example, run as written in Node on the adapter Dawn finds
// (SwiftShader in CI). Node has no `navigator.gpu`: a stand-in hands the example the device of a
// Node context (and refuses features the device lacks, as requestDevice does). Every statement
// `await f(ctx, …);` is checked twice: against the value its comment shows (`// [0, 3, 4, 11, 11]`,
// on its line or the lines after it; `Int32Array [1, 2]` also checks the type) and against `f` of
// the package's `/cpu` entry on the same arguments. scripts/check-examples typechecks the example.
import { readFileSync } from 'node:fs';
import type { ScanContext } from '@scan/core';
import { createNodeContext } from '@scan/core/node';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { markdownExamples } from '../../../scripts/check-examples/extract.mjs';

type Module = Record<string, unknown>;

/** The entry points an example may import (the workspace's sources, through vitest's aliases). */
const MODULES: Record<string, () => Promise<Module>> = {
  '@scan/core': () => import('@scan/core'),
  '@scan/core/cpu': () => import('@scan/core/cpu'),
  '@scan/segmented': () => import('@scan/segmented'),
  '@scan/segmented/cpu': () => import('@scan/segmented/cpu'),
  '@scan/sort': () => import('@scan/sort'),
  '@scan/sort/cpu': () => import('@scan/sort/cpu'),
  '@scan/spmv': () => import('@scan/spmv'),
  '@scan/spmv/cpu': () => import('@scan/spmv/cpu'),
  '@scan/hisparse': () => import('@scan/hisparse'),
  '@scan/hisparse/cpu': () => import('@scan/hisparse/cpu'),
  '@scan/tcu': () => import('@scan/tcu'),
  '@scan/tcu/cpu': () => import('@scan/tcu/cpu'),
  '@scan/tridiag': () => import('@scan/tridiag'),
  '@scan/tridiag/cpu': () => import('@scan/tridiag/cpu'),
};

/** One `await f(ctx, …);` statement of the example. */
interface Check {
  /** The README's line of the statement. */
  line: number;
  statement: string;
  /** The value its comment shows, as written. */
  comment: string | undefined;
  /** Where `f` was imported from and under which name, when its first argument is `ctx`. */
  reference: { specifier: string; name: string } | undefined;
}

/**
 * The example as the body of `async function (__import, __record, __cpu, navigator)`: imports read
 * from `__import`, and each checked statement hands its result, and a thunk of the CPU reference, to
 * `__record`.
 */
function instrument(code: string, firstLine: number): { body: string; specifiers: Set<string>; checks: Check[] } {
  const sf = ts.createSourceFile('readme.ts', code, ts.ScriptTarget.ES2022, true);
  const imported = new Map<string, { specifier: string; name: string }>();
  const specifiers = new Set<string>();
  const checks: Check[] = [];
  const lines: string[] = [];
  for (const statement of sf.statements) {
    if (ts.isImportDeclaration(statement)) {
      const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
      specifiers.add(specifier);
      const bindings = statement.importClause?.namedBindings;
      if (statement.importClause?.isTypeOnly || !bindings) continue;
      if (ts.isNamespaceImport(bindings)) {
        lines.push(`const ${bindings.name.text} = __import(${JSON.stringify(specifier)});`);
        continue;
      }
      const names = bindings.elements.filter((e) => !e.isTypeOnly);
      for (const e of names) imported.set(e.name.text, { specifier, name: (e.propertyName ?? e.name).text });
      const list = names.map((e) => (e.propertyName ? `${e.propertyName.text}: ${e.name.text}` : e.name.text)).join(', ');
      lines.push(`const { ${list} } = __import(${JSON.stringify(specifier)});`);
      continue;
    }
    const call =
      ts.isExpressionStatement(statement) &&
      ts.isAwaitExpression(statement.expression) &&
      ts.isCallExpression(statement.expression.expression)
        ? statement.expression.expression
        : undefined;
    if (!call) {
      lines.push(statement.getText(sf));
      continue;
    }
    const [first, ...rest] = call.arguments;
    const callee = ts.isIdentifier(call.expression) ? imported.get(call.expression.text) : undefined;
    const reference = callee && first && ts.isIdentifier(first) && first.text === 'ctx' ? callee : undefined;
    const line = firstLine + sf.getLineAndCharacterOfPosition(statement.getStart(sf)).line;
    checks.push({ line, statement: statement.getText(sf), comment: commentAfter(code, statement.end), reference });
    if (reference) specifiers.add(`${reference.specifier}/cpu`);
    const cpu = reference
      ? `() => __cpu(${JSON.stringify(reference.specifier)}, ${JSON.stringify(reference.name)})(${rest.map((a) => a.getText(sf)).join(', ')})`
      : 'undefined';
    lines.push(`__record(${checks.length - 1}, await ${call.getText(sf)}, ${cpu});`);
  }
  return { body: lines.join('\n'), specifiers, checks };
}

/** The `//` comment that ends the statement's line, or else the `//` lines right after it. */
function commentAfter(code: string, end: number): string | undefined {
  const rest = code.slice(end).split('\n');
  const sameLine = /^\s*\/\/(.*)$/.exec(rest[0] ?? '');
  if (sameLine) return sameLine[1]?.trim();
  const following: string[] = [];
  for (const line of rest.slice(1)) {
    const comment = /^\s*\/\/(.*)$/.exec(line);
    if (!comment) break;
    following.push((comment[1] ?? '').trim());
  }
  return following.length ? following.join(' ') : undefined;
}

/** A typed array as a comment shows it: `Int32Array [11, 13]`. */
interface Typed {
  typed: string;
  values: number[];
}

/** The value a comment shows, or undefined when it is prose rather than a value. */
function parseComment(comment: string): unknown {
  const source = comment.replace(/\b([A-Z][A-Za-z0-9]*Array) \[([^\]]*)\]/g, "__typed('$1', [$2])");
  try {
    return new Function('__typed', `return (${source});`)((typed: string, values: number[]): Typed => ({ typed, values }));
  } catch {
    return undefined;
  }
}

const isTyped = (v: unknown): v is Typed => typeof v === 'object' && v !== null && 'typed' in v && 'values' in v;

/** `actual` in the shape of `expected`: typed arrays as plain arrays, or as `Typed` where the comment names the type. */
function shapeLike(actual: unknown, expected: unknown): unknown {
  if (ArrayBuffer.isView(actual) && !(actual instanceof DataView)) {
    const values = Array.from(actual as unknown as ArrayLike<number>);
    return isTyped(expected) ? { typed: actual.constructor.name, values } : values;
  }
  if (Array.isArray(actual)) return actual.map((v, i) => shapeLike(v, Array.isArray(expected) ? expected[i] : undefined));
  if (typeof actual === 'object' && actual !== null) {
    const e = (typeof expected === 'object' && expected !== null ? expected : {}) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(actual).map(([k, v]) => [k, shapeLike(v, e[k])]));
  }
  return actual;
}

/** Typed arrays with their type, for comparing the GPU's result with the CPU reference's. */
function exact(v: unknown): unknown {
  if (ArrayBuffer.isView(v) && !(v instanceof DataView))
    return { typed: v.constructor.name, values: Array.from(v as unknown as ArrayLike<number>) };
  if (Array.isArray(v)) return v.map(exact);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, exact(x)]));
  return v;
}

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
      const { body, specifiers, checks } = instrument(example.code, example.line);
      expect(checks.length, 'statements `await f(ctx, …);` to check').toBeGreaterThan(0);
      const unchecked = checks.filter((c) => !c.reference).map((c) => `README.md:${c.line}: ${c.statement}`);
      expect(unchecked, "statements whose function has no CPU reference in its package's /cpu entry").toEqual([]);
      const modules = new Map<string, Module>();
      for (const specifier of specifiers) {
        const load = MODULES[specifier];
        if (!load) throw new Error(`README.md:${example.line}: the example imports ${specifier}, which this test does not provide`);
        modules.set(specifier, await load());
      }
      const navigator = {
        gpu: {
          requestAdapter: async () => ({
            info: ctx.device.adapterInfo,
            features: ctx.device.features,
            limits: ctx.device.limits,
            requestDevice: async (descriptor?: GPUDeviceDescriptor) => {
              for (const f of descriptor?.requiredFeatures ?? []) {
                if (!ctx.device.features.has(f)) throw new TypeError(`the adapter has no ${f}`);
              }
              return ctx.device;
            },
          }),
        },
      };
      const results: { value: unknown; cpu: (() => unknown) | undefined }[] = [];
      const js = ts.transpileModule(`async function __main(__import, __record, __cpu, navigator) {\n${body}\n}`, {
        compilerOptions: { target: ts.ScriptTarget.ES2022 },
      }).outputText;
      const main = new Function(`${js}\nreturn __main;`)() as (...args: unknown[]) => Promise<void>;
      await main(
        (specifier: string) => modules.get(specifier),
        (index: number, value: unknown, cpu: (() => unknown) | undefined) => {
          results[index] = { value, cpu };
        },
        (specifier: string, name: string) => modules.get(`${specifier}/cpu`)?.[name],
        navigator,
      );
      checks.forEach((check, i) => {
        const where = `README.md:${check.line}: ${check.statement}`;
        const result = results[i];
        if (!result) throw new Error(`${where} did not run`);
        const expected = check.comment === undefined ? undefined : parseComment(check.comment);
        expect(expected, `${where} needs a comment that shows its value`).toBeDefined();
        expect(shapeLike(result.value, expected), where).toEqual(expected);
        if (result.cpu) expect(exact(result.value), `${where} against the CPU reference`).toEqual(exact(result.cpu()));
      });
    });
  }
});
