// Runs the TypeScript examples of the documentation in Node, as written, and checks what they show
// (readme.node.test.ts: the root README; guides.node.test.ts: the guides). An example is a ```ts
// fence (scripts/check-examples/extract.mjs finds them; scripts/check-examples typechecks them).
// Every statement `await f(ctx, …);` is checked twice: against the value its comment shows
// (`// [0, 3, 4, 11, 11]`, on its line or the lines after it; `Int32Array [1, 2]` also checks the
// type) and against `f` of the package's `/cpu` entry on the same arguments. Node has no
// `navigator.gpu`: a stand-in hands the example the device of a Node context (and refuses features
// the device lacks, as requestDevice does).
import type { ScanContext } from '@scan/core';
import ts from 'typescript';
import { expect } from 'vitest';

export type Module = Record<string, unknown>;

/** The entry points an example may import (the workspace's sources, through vitest's aliases). */
export const MODULES: Record<string, () => Promise<Module>> = {
  '@scan/core': () => import('@scan/core'),
  '@scan/core/cpu': () => import('@scan/core/cpu'),
  '@scan/core/kit': () => import('@scan/core/kit'),
  '@scan/core/node': () => import('@scan/core/node'),
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

/** One statement `await f(…);` of the example. */
export interface Check {
  /** The markdown file's line of the statement. */
  line: number;
  statement: string;
  /** The lines of the comment after it, as written (see `commentAfter`). */
  comment: string[] | undefined;
  /** Whether the call's first argument is `ctx`. */
  ctxCall: boolean;
  /** Where `f` was imported from and under which name, when its first argument is `ctx`. */
  reference: { specifier: string; name: string } | undefined;
}

/** An example made ready to run (`instrument`). */
export interface Instrumented {
  /** The example as the body of `__main` (see `runExample`). */
  body: string;
  /** The entry points it imports, and the `/cpu` entries of its checked calls. */
  specifiers: Set<string>;
  checks: Check[];
}

/** What one checked statement resolved to, and a thunk of the CPU reference on the same arguments. */
export interface Result {
  value: unknown;
  cpu: (() => unknown) | undefined;
}

/**
 * The example as the body of `async function (__import, __record, __cpu, navigator)`: imports read
 * from `__import`, and each statement `await f(…);` hands its result, and a thunk of the CPU
 * reference, to `__record`.
 */
export function instrument(code: string, firstLine: number): Instrumented {
  const sf = ts.createSourceFile('example.ts', code, ts.ScriptTarget.ES2022, true);
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
    const ctxCall = !!first && ts.isIdentifier(first) && first.text === 'ctx';
    const callee = ts.isIdentifier(call.expression) ? imported.get(call.expression.text) : undefined;
    const reference = ctxCall ? callee : undefined;
    const line = firstLine + sf.getLineAndCharacterOfPosition(statement.getStart(sf)).line;
    checks.push({ line, statement: statement.getText(sf), comment: commentAfter(code, statement.end), ctxCall, reference });
    if (reference) specifiers.add(`${reference.specifier}/cpu`);
    const cpu = reference
      ? `() => __cpu(${JSON.stringify(reference.specifier)}, ${JSON.stringify(reference.name)})(${rest.map((a) => a.getText(sf)).join(', ')})`
      : 'undefined';
    lines.push(`__record(${checks.length - 1}, await ${call.getText(sf)}, ${cpu});`);
  }
  return { body: lines.join('\n'), specifiers, checks };
}

/** The text of the `//` comment that ends the statement's line, or else of each `//` line right after it. */
export function commentAfter(code: string, end: number): string[] | undefined {
  const rest = code.slice(end).split('\n');
  const sameLine = /^\s*\/\/(.*)$/.exec(rest[0] ?? '');
  if (sameLine) return [(sameLine[1] ?? '').trim()];
  const following: string[] = [];
  for (const line of rest.slice(1)) {
    const comment = /^\s*\/\/(.*)$/.exec(line);
    if (!comment) break;
    following.push((comment[1] ?? '').trim());
  }
  return following.length ? following : undefined;
}

/** A typed array as a comment shows it: `Int32Array [11, 13]`. */
export interface Typed {
  typed: string;
  values: number[];
}

/** The value a comment shows, or undefined when it is prose rather than a value. */
export function parseComment(comment: string): unknown {
  const source = comment.replace(/\b([A-Z][A-Za-z0-9]*Array) \[([^\]]*)\]/g, "__typed('$1', [$2])");
  try {
    return new Function('__typed', `return (${source});`)((typed: string, values: number[]): Typed => ({ typed, values }));
  } catch {
    return undefined;
  }
}

/**
 * The value a statement's comment shows: its lines joined (a value may span them), or else the first
 * line that is a value on its own (the others are prose: `// (the balance after each …)`); undefined
 * when none is.
 */
export function expectedValue(comment: string[] | undefined): unknown {
  if (!comment) return undefined;
  const joined = parseComment(comment.join(' '));
  if (joined !== undefined) return joined;
  for (const line of comment) {
    const value = parseComment(line);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Whether a comment line begins as a value would (`[`, `{`, a number, `Int32Array [`), prose aside. */
export function looksLikeValue(line: string): boolean {
  return /^(?:[[{'"]|-?\d|[A-Z][A-Za-z0-9]*Array\s*\[|(?:true|false|null|NaN|-?Infinity)\b)/.test(line);
}

const isTyped = (v: unknown): v is Typed => typeof v === 'object' && v !== null && 'typed' in v && 'values' in v;

/** `actual` in the shape of `expected`: typed arrays as plain arrays, or as `Typed` where the comment names the type. */
export function shapeLike(actual: unknown, expected: unknown): unknown {
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
export function exact(v: unknown): unknown {
  if (ArrayBuffer.isView(v) && !(v instanceof DataView))
    return { typed: v.constructor.name, values: Array.from(v as unknown as ArrayLike<number>) };
  if (Array.isArray(v)) return v.map(exact);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, exact(x)]));
  return v;
}

/** `navigator` for an example: `requestAdapter()` resolves to an adapter whose device is `ctx.device`. */
export function navigatorFor(ctx: ScanContext) {
  return {
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
}

/**
 * Runs an instrumented example on `ctx`'s device and returns what each of its checks resolved to.
 * `where` names the example in messages (`README.md:100`). With `injectCtx`, `ctx` is in scope as the
 * example's context (as scripts/check-examples/prelude.ts declares it); an example that declares its
 * own `ctx` still may, and uses its own.
 */
export async function runExample(
  { body, specifiers }: Instrumented,
  { where, ctx, injectCtx = false }: { where: string; ctx: ScanContext; injectCtx?: boolean },
): Promise<Result[]> {
  const modules = new Map<string, Module>();
  for (const specifier of specifiers) {
    const load = MODULES[specifier];
    if (!load) throw new Error(`${where}: the example imports ${specifier}, which this test does not provide`);
    modules.set(specifier, await load());
  }
  const results: Result[] = [];
  // With `ctx` a parameter, the example runs in a block of its own, where a `const ctx` shadows it.
  const main = injectCtx
    ? `async function __main(__import, __record, __cpu, navigator, ctx) {\n{\n${body}\n}\n}`
    : `async function __main(__import, __record, __cpu, navigator) {\n${body}\n}`;
  const js = ts.transpileModule(main, { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;
  const run = new Function(`${js}\nreturn __main;`)() as (...args: unknown[]) => Promise<void>;
  await run(
    (specifier: string) => modules.get(specifier),
    (index: number, value: unknown, cpu: (() => unknown) | undefined) => {
      results[index] = { value, cpu };
    },
    (specifier: string, name: string) => {
      const f = modules.get(`${specifier}/cpu`)?.[name];
      if (typeof f !== 'function') throw new Error(`${where}: ${specifier}/cpu has no ${name}`);
      return f;
    },
    navigatorFor(ctx),
    ...(injectCtx ? [ctx] : []),
  );
  return results;
}

/**
 * Checks each statement's result against the value its comment shows and against the CPU reference.
 * `requireComment`: every statement must show its value (else only those whose comment is a value are
 * compared with it; a comment that begins as a value must parse as one).
 */
export function verify(file: string, checks: Check[], results: Result[], { requireComment }: { requireComment: boolean }): void {
  checks.forEach((check, i) => {
    const where = `${file}:${check.line}: ${check.statement}`;
    const result = results[i];
    if (!result) throw new Error(`${where} did not run`);
    const expected = expectedValue(check.comment);
    if (requireComment || check.comment?.some(looksLikeValue)) {
      expect(expected, `${where} needs a comment that shows its value`).toBeDefined();
    }
    if (expected !== undefined) expect(shapeLike(result.value, expected), where).toEqual(expected);
    if (result.cpu) expect(exact(result.value), `${where} against the CPU reference`).toEqual(exact(result.cpu()));
  });
}
