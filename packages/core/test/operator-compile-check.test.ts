// Issue 48: a user-defined operator whose `wgsl` body does not compile rejects with
// INVALID_ARGUMENT quoting the compiler's message at its line and column in the user's snippet (not
// in the generated module), once per device and operator, without an uncaptured error on the device.
import { getTestContext } from '@scan/gpu-testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createContext, type ScanContext } from '../src/context.js';
import { ScanError } from '../src/errors.js';
import { builtinOperator } from '../src/operators/builtin-operators.js';
import { defineOperator } from '../src/operators/define-operator.js';
import { checkModule, checkOperatorCompiles } from '../src/operators/operator-compile-check.js';
import type { Operator, OperatorDefinition } from '../src/operators/operator-type.js';

let ctx: ScanContext;
const uncaptured: string[] = [];
const listen = (event: Event) => uncaptured.push((event as GPUUncapturedErrorEvent).error.message);

beforeAll(async () => {
  ctx = await getTestContext();
  ctx.device.addEventListener('uncapturederror', listen);
});

afterAll(() => ctx.device.removeEventListener('uncapturederror', listen));

/** Every operator here has its own name, so no test sees another's cached check. */
let serial = 0;
function op<T>(definition: Omit<OperatorDefinition<T>, 'name'>): Operator<T> {
  return defineOperator<T>({ ...definition, name: `test ${++serial}` } as OperatorDefinition<T>);
}

/** A u32 operator with the body `wgsl`. */
const u32Op = (wgsl: string) => op<number>({ type: 'u32', identity: 0, wgsl, cpu: (a, b) => (a + b) >>> 0 });

/** The error `promise` rejects with (it must reject). */
async function rejection(promise: Promise<unknown>): Promise<ScanError> {
  const e = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, 'expected a ScanError').toBeInstanceOf(ScanError);
  return e as ScanError;
}

/**
 * What the compiler says about `body` as the body of `fn f(a: u32, b: u32) -> u32` of a module of
 * its own (the body starting on line 2): its first error's text, and its line in the body. Written
 * apart from the module under test, so a wrong offset there cannot cancel out here.
 */
async function compilerSays(body: string, type = 'u32'): Promise<{ message: string; line: number; column: number }> {
  const { device } = ctx;
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code: `fn f(a: ${type}, b: ${type}) -> ${type} {\n${body}\n}\n` });
  const [, info] = await Promise.all([device.popErrorScope(), module.getCompilationInfo()]);
  const first = info.messages.find((m) => m.type === 'error');
  expect(first, `the compiler accepts ${JSON.stringify(body)}`).toBeDefined();
  return { message: first!.message, line: first!.lineNum - 1, column: first!.linePos };
}

describe('checkOperatorCompiles', () => {
  it('resolves for good scalar, vector and record operators, and for built-in ones', async () => {
    const scalar = op<number>({ type: 'f32', identity: Number.NEGATIVE_INFINITY, wgsl: 'return max(a, b);', cpu: Math.max });
    const vector = op<number[]>({
      type: 'vec2<i32>',
      identity: [0, 0],
      wgsl: '// component-wise sum\nreturn a + b;',
      cpu: (a, b) => [(a[0]! + b[0]!) | 0, (a[1]! + b[1]!) | 0],
    });
    const record = op<{ value: number; index: number }>({
      type: { value: 'f32', index: 'u32' },
      identity: { value: Number.NEGATIVE_INFINITY, index: 0xffffffff },
      wgsl: 'if (b.value > a.value || (b.value == a.value && b.index < a.index)) {\n  return b;\n}\nreturn a;',
      cpu: (a, b) => (b.value > a.value || (b.value === a.value && b.index < a.index) ? b : a),
    });
    await expect(checkOperatorCompiles(ctx, scalar)).resolves.toBeUndefined();
    await expect(checkOperatorCompiles(ctx, vector)).resolves.toBeUndefined();
    await expect(checkOperatorCompiles(ctx, record)).resolves.toBeUndefined();

    const spy = vi.spyOn(ctx.device, 'createShaderModule');
    try {
      await expect(checkOperatorCompiles(ctx, builtinOperator('add', 'u32'))).resolves.toBeUndefined();
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('a syntax error on the second line: INVALID_ARGUMENT at line 2 of the snippet, quoting the compiler', async () => {
    const body = 'let s = a + b;\nlet t = s * ;\nreturn t;';
    const bad = u32Op(body);
    const said = await compilerSays(body);
    expect(said.line).toBe(2);
    const e = await rejection(checkOperatorCompiles(ctx, bad));
    expect(e.code).toBe('INVALID_ARGUMENT');
    expect(e.argument).toBe('options.op');
    expect(e.message).toContain(`options.op: the wgsl of operator ${JSON.stringify(bad.name)}`);
    expect(e.message).toContain(`line 2, column ${said.column} of the operator's wgsl: ${said.message}`);
    // The snippet's line, with a caret under the column.
    expect(e.message).toContain(`\n    let t = s * ;\n    ${' '.repeat(said.column - 1)}^`);
    // Nothing of the generated module's numbering.
    expect(e.message).not.toMatch(/generated/);
  });

  it('an undefined identifier: its line and column in the snippet', async () => {
    const body = 'return a + c;';
    const said = await compilerSays(body);
    const e = await rejection(checkOperatorCompiles(ctx, u32Op(body), 'definition'));
    expect(e.code).toBe('INVALID_ARGUMENT');
    expect(e.argument).toBe('definition');
    expect(said.message).toMatch(/\bc\b/);
    expect(e.message).toMatch(/^definition: /);
    expect(e.message).toContain(`line 1, column ${said.column} of the operator's wgsl: ${said.message}`);
    expect(said.column).toBe(12);
  });

  it('a type error: returning f32 from a u32 operator', async () => {
    const body = 'let x = a + b;\n\nreturn f32(x);';
    const said = await compilerSays(body);
    const e = await rejection(checkOperatorCompiles(ctx, u32Op(body)));
    expect(e.code).toBe('INVALID_ARGUMENT');
    expect(said.message).toMatch(/f32/);
    expect(e.message).toContain(`line 3, column ${said.column} of the operator's wgsl: ${said.message}`);
    expect(e.message).toContain('(the body of fn (a: u32, b: u32) -> u32)');
  });

  it("a record operator's errors say T, not the generated struct name", async () => {
    const bad = op<{ x: number; y: number }>({
      type: { x: 'f32', y: 'u32' },
      identity: { x: 0, y: 0 },
      wgsl: 'var r = a;\nr.x = a.x + b.x;\nreturn r.y;',
      cpu: (a, b) => ({ x: a.x + b.x, y: a.y }),
    });
    const e = await rejection(checkOperatorCompiles(ctx, bad));
    expect(e.code).toBe('INVALID_ARGUMENT');
    expect(e.message).toContain("line 3, column 1 of the operator's wgsl");
    expect(e.message).toContain('where T is struct { x: f32, y: u32 }');
    expect(e.message).not.toContain(bad.wgslType);
  });

  it('CRLF line breaks in the body count as one line each', async () => {
    const e = await rejection(checkOperatorCompiles(ctx, u32Op('let s = a;\r\nlet t = b;\r\nreturn s + q;')));
    expect(e.message).toContain("line 3, column 12 of the operator's wgsl");
    expect(e.message).toContain('\n    return s + q;\n               ^');
  });

  it('quotes a long line around the column, and keeps tabs under the caret', async () => {
    const long = await rejection(checkOperatorCompiles(ctx, u32Op(`let y = ${'a + '.repeat(60)}zz;\nreturn y;`)));
    const [, quoted, caret] = long.message.split('\n').slice(1);
    expect(quoted).toMatch(/^ {4}… .* zz;$/);
    expect(quoted!.length).toBeLessThan(110);
    expect(caret!.indexOf('^')).toBe(quoted!.indexOf('zz'));
    const tabs = await rejection(checkOperatorCompiles(ctx, u32Op('let\tq = a;\n\treturn\tq +\tw;')));
    expect(tabs.message).toContain("line 2, column 13 of the operator's wgsl");
    expect(tabs.message).toContain('\n    \treturn\tq +\tw;\n    \t      \t   \t^');
  });

  it('is cached per device and operator key: the same promise, one module', async () => {
    const spy = vi.spyOn(ctx.device, 'createShaderModule');
    try {
      const definition = {
        type: 'u32',
        identity: 0,
        wgsl: 'return a ^ b;',
        cpu: (a: number, b: number) => (a ^ b) >>> 0,
        name: 'cached xor',
      } as const;
      const first = checkOperatorCompiles(ctx, defineOperator<number>(definition));
      await first;
      // An equal definition (another object, the same key), through another context on the device.
      const other = createContext(ctx.device);
      const again = checkOperatorCompiles(other, defineOperator<number>({ ...definition }));
      expect(again).toBe(first);
      expect(spy).toHaveBeenCalledTimes(1);

      // A rejection is kept too: a body that does not compile never will.
      const bad = u32Op('return a +;');
      const failed = checkOperatorCompiles(ctx, bad);
      await rejection(failed);
      expect(checkOperatorCompiles(ctx, bad)).toBe(failed);
      await rejection(checkOperatorCompiles(ctx, bad));
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('the check module calls both functions, and its body line is where the snippet is', () => {
    const good = u32Op('let s = a + b;\nreturn s;');
    const { code, bodyLine } = checkModule(good);
    const lines = code.split('\n');
    expect(lines[bodyLine! - 1]).toBe('let s = a + b;');
    expect(lines[bodyLine!]).toBe('return s;');
    expect(code).toContain(`_ = ${good.fnName}(${good.identityWgsl}, ${good.identityWgsl});`);
  });

  it('f16 operators: UNSUPPORTED without shader-f16; checked like any other with it', async () => {
    const half = (wgsl: string) => op<number>({ type: 'f16', identity: 0, wgsl, cpu: (a, b) => a + b });
    const good = half('return a + b;');
    const noF16 = createContext(ctx.device, { shaderF16: false });
    const e = await rejection(checkOperatorCompiles(noF16, good));
    expect(e.code).toBe('UNSUPPORTED');
    expect(e.argument).toBe('options.op');
    expect(e.message).toContain('`shader-f16`');
    if (!ctx.caps.features.shaderF16) {
      expect((await rejection(checkOperatorCompiles(ctx, good))).code).toBe('UNSUPPORTED');
      return;
    }
    await expect(checkOperatorCompiles(ctx, good)).resolves.toBeUndefined();
    // Behind `enable f16;`: the snippet's line numbers do not move.
    const bad = await rejection(checkOperatorCompiles(ctx, half('let h = a * 2.0h;\nreturn h + z;')));
    expect(bad.code).toBe('INVALID_ARGUMENT');
    expect(bad.message).toContain("line 2, column 12 of the operator's wgsl");
  });

  it('a ctx that is no context: INVALID_ARGUMENT naming ctx', async () => {
    const half = op<number>({ type: 'f16', identity: 0, wgsl: 'return a + b;', cpu: (a, b) => a + b });
    for (const bad of [u32Op('return a;'), half]) {
      const e = await rejection(checkOperatorCompiles({} as ScanContext, bad));
      expect([e.code, e.argument]).toEqual(['INVALID_ARGUMENT', 'ctx']);
    }
  });

  it('no error reached the device as an uncaptured error', async () => {
    // Uncaptured errors arrive as events some time after the call that caused them.
    await ctx.device.queue.onSubmittedWorkDone();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(uncaptured).toEqual([]);
  });
});
