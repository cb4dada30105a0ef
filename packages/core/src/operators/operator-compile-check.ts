// Issue 48: a user-defined operator's `wgsl` body that does not compile must reject with
// INVALID_ARGUMENT quoting the compiler's message and line "in the user's snippet's terms, not the
// generated kernel's". Kernels include the body in modules of hundreds of lines, whose pipeline
// errors would say `GPU_ERROR` and a line of the generated kernel. So the operator's declarations are
// compiled alone first, once per device, and the compiler's messages are mapped back to the snippet.
import { assertUsable, type ScanContext } from '../context.js';
import { ScanError } from '../errors.js';
import type { Operator } from './operator-type.js';
import { bodyLineOffset, wgslLines } from './operator-wgsl.js';

/** Most compiler errors one message quotes: the first is usually the cause, the rest its echoes. */
const MAX_QUOTED_ERRORS = 3;

/** Longest stretch of a source line a message quotes: enough to see the column, never a minified page. */
const MAX_QUOTED_LINE = 100;

/** What every check that has nothing to compile returns: one promise, no allocation per call. */
const RESOLVED: Promise<void> = Promise.resolve();

/**
 * The checks started on each device, by operator key. Keyed by the device (not the context): every
 * context on a device shares its compiler, and a module is as valid for one as for another.
 */
const checks = new WeakMap<GPUDevice, Map<string, Promise<void>>>();

/**
 * Compiles the operator's WGSL once per device (its declarations and a one-thread entry point that
 * calls its combine and identity functions), and rejects with an `INVALID_ARGUMENT`
 * {@link ScanError} for `argument` when it does not compile. The message names the operator and
 * quotes each compiler error (up to three) at its line and column in the operator's `wgsl`, with
 * that line of the snippet and a caret under the column. Equal operators (same
 * {@link Operator.key}) on one device share one check: a frame loop pays a map lookup, and gets
 * the same promise back every time. Built-in operators resolve at once (their WGSL is ours).
 *
 * Rejects with `UNSUPPORTED` for an f16 operator where `ctx` has no `shader-f16` (checked per
 * context, since a context may turn f16 off on a device that has it), and with `DEVICE_LOST`
 * where the context is no longer usable before the check starts. The module is created inside a
 * `validation` error scope, so a bad body never reaches the device's `uncapturederror` event.
 *
 * @example
 * ```ts
 * const op = defineOperator({ type: 'u32', identity: 0, wgsl: 'return a + c;', cpu: (a, b) => (a + b) >>> 0, name: 'sum' });
 * await checkOperatorCompiles(ctx, op);
 * // ScanError INVALID_ARGUMENT: options.op: the wgsl of operator "sum" (the body of fn (a: u32, b: u32) -> u32) does not compile:
 * //   line 1, column 12 of the operator's wgsl: unresolved value 'c'
 * //     return a + c;
 * //                ^
 * ```
 */
export function checkOperatorCompiles<T>(ctx: ScanContext, op: Operator<T>, argument = 'options.op'): Promise<void> {
  if (op.builtin !== undefined) return RESOLVED;
  // `=== false`: a `ctx` that is no context at all is left to assertUsable's INVALID_ARGUMENT below.
  if (op.enable.includes('f16') && ctx?.caps?.features.shaderF16 === false) return Promise.reject(f16Unsupported(ctx, op.name, argument));
  const onDevice = checks.get(ctx.device);
  const cached = onDevice?.get(op.key);
  if (cached) return cached;
  try {
    assertUsable(ctx);
  } catch (e) {
    return Promise.reject(e);
  }
  const device = ctx.device;
  const check = compile(device, op as Operator<unknown>, argument);
  const map = onDevice ?? new Map<string, Promise<void>>();
  if (!onDevice) checks.set(device, map);
  map.set(op.key, check);
  // A body that does not compile never will; anything else (a lost device, an implementation's
  // hiccup) may pass next time, so only that is forgotten.
  check.catch((e: unknown) => {
    if (!(e instanceof ScanError && e.code === 'INVALID_ARGUMENT') && map.get(op.key) === check) map.delete(op.key);
  });
  return check;
}

/**
 * The check's WGSL: the operator's declarations after the extensions they need, and an entry point
 * that combines two identities, so both functions are referenced from an entry point (WGSL
 * validates every function, but a compiler that only checks what an entry point reaches would
 * otherwise pass a bad body). Every module-scope name starts with the operator's prefix, as in the
 * kernels, so none can clash with the user's locals.
 *
 * @example
 * ```ts
 * const { code, bodyLine } = checkModule(op); // bodyLine: the 1-based line of the body's first line in `code`
 * ```
 */
export function checkModule<T>(op: Operator<T>): { code: string; bodyLine: number | undefined } {
  const enables = op.enable.map((e) => `enable ${e};\n`).join('');
  const code = `${enables}${op.declarations}
@compute @workgroup_size(1)
fn ${op.fnName}_check() {
  _ = ${op.fnName}(${op.identityWgsl}, ${op.identityWgsl});
}
`;
  const offset = bodyLineOffset(op, op.wgsl);
  return { code, bodyLine: offset === undefined ? undefined : op.enable.length + offset + 1 };
}

/** Creates the module inside a validation scope and turns its errors into a ScanError. */
async function compile(device: GPUDevice, op: Operator<unknown>, argument: string): Promise<void> {
  const { code, bodyLine } = checkModule(op);
  device.pushErrorScope('validation');
  let module: GPUShaderModule | undefined;
  let thrown: unknown;
  try {
    module = device.createShaderModule({ label: `scan: compile check of operator ${JSON.stringify(op.name)}`, code });
  } catch (e) {
    thrown = e; // an implementation that throws instead of reporting to the scope
  }
  // The scope must be popped whatever happens, or every later error of the device lands in it.
  const [scoped, info] = await Promise.all([
    device.popErrorScope().catch(() => null),
    typeof module?.getCompilationInfo === 'function' ? module.getCompilationInfo().catch(() => undefined) : undefined,
  ]);
  const errors = info?.messages.filter((m) => m.type === 'error') ?? [];
  if (errors.length === 0 && scoped === null && thrown === undefined) return;

  const source = wgslLines(code);
  const snippet = wgslLines(op.wgsl);
  const quoted = errors.slice(0, MAX_QUOTED_ERRORS).map((m) => quoteError(op, m, source, snippet, bodyLine));
  if (errors.length > MAX_QUOTED_ERRORS) quoted.push(`  (and ${errors.length - MAX_QUOTED_ERRORS} more)`);
  if (quoted.length === 0) {
    // No located message (an implementation without compilation info): quote what the scope or the
    // exception said, which is all there is.
    const said = scoped?.message ?? (thrown instanceof Error ? thrown.message : String(thrown));
    quoted.push(`  ${inUserTerms(op, said).trim()}`);
  }
  throw new ScanError(
    'INVALID_ARGUMENT',
    `${argument}: the wgsl of operator ${JSON.stringify(op.name)} (${signature(op)}) does not compile:\n${quoted.join('\n')}`,
    {
      argument,
      cause: scoped ?? thrown ?? info,
    },
  );
}

/**
 * One compiler error: where it is in the user's snippet (or, outside it, in the generated WGSL),
 * its text, and the line it points at with a caret under the column.
 */
function quoteError(
  op: Operator<unknown>,
  m: GPUCompilationMessage,
  source: string[],
  snippet: string[],
  bodyLine: number | undefined,
): string {
  const text = inUserTerms(op, m.message);
  // lineNum 0: the message has no position (the spec's way to say so).
  if (m.lineNum < 1) return `  ${text}`;
  const inSnippet = bodyLine !== undefined && m.lineNum >= bodyLine && m.lineNum < bodyLine + snippet.length;
  const line = inSnippet ? m.lineNum - bodyLine + 1 : m.lineNum;
  const lineText = inSnippet ? snippet[line - 1] : source[line - 1];
  const where = inSnippet
    ? `line ${line}, column ${m.linePos} of the operator's wgsl`
    : `line ${line}, column ${m.linePos} of the generated WGSL`;
  return `  ${where}: ${text}${lineText === undefined ? '' : `\n${pointAt(lineText, m.linePos)}`}`;
}

/**
 * `line`, indented, with a caret under column `column` (1-based, UTF-16 code units as in
 * `GPUCompilationMessage.linePos`). Tabs before the column are kept in the caret's line, so the
 * caret lines up however the reader's terminal shows tabs. A long line is cut to a window around
 * the column.
 */
function pointAt(line: string, column: number): string {
  let start = 0;
  let end = line.length;
  if (line.length > MAX_QUOTED_LINE) {
    start = Math.max(0, Math.min(column - 1 - MAX_QUOTED_LINE / 2, line.length - MAX_QUOTED_LINE));
    end = start + MAX_QUOTED_LINE;
  }
  const shown = `${start > 0 ? '…' : ''}${line.slice(start, end)}${end < line.length ? '…' : ''}`;
  const lead = (start > 0 ? ' ' : '') + line.slice(start, Math.max(start, column - 1)).replace(/[^\t]/g, ' ');
  return `    ${shown}\n    ${lead}^`;
}

/**
 * A compiler message in the snippet's terms: a record's generated struct name (`op_<hash>_T`)
 * reads `T`, the name {@link signature} gives it.
 */
function inUserTerms(op: Operator<unknown>, message: string): string {
  return op.shape === 'record' ? message.split(op.wgslType).join('T') : message;
}

/** `fn (a: u32, b: u32) -> u32`; for a record, `T` and its fields. */
function signature(op: Operator<unknown>): string {
  if (op.shape !== 'record') return `the body of fn (a: ${op.wgslType}, b: ${op.wgslType}) -> ${op.wgslType}`;
  const fields = op.fields.map((f, i) => `${f}: ${op.lanes[i]}`).join(', ');
  return `the body of fn (a: T, b: T) -> T, where T is struct { ${fields} }`;
}

/** The UNSUPPORTED error of an f16 operator on a context without `shader-f16`. */
function f16Unsupported(ctx: ScanContext, name: string, argument: string): ScanError {
  const why = ctx.device.features.has('shader-f16')
    ? 'the context was created with shaderF16: false'
    : "the device was created without it (request 'shader-f16' in requestDevice's requiredFeatures, where the adapter has it)";
  return new ScanError(
    'UNSUPPORTED',
    `${argument}: operator ${JSON.stringify(name)} works on f16, and f16 operators need the \`shader-f16\` feature: ${why}`,
    { argument },
  );
}
