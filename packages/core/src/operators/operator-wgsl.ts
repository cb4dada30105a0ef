import type { LaneType, OperatorLayout, OperatorType, OperatorWgsl } from './operator-type.js';

/** What follows the user's body in {@link OperatorWgsl.fnDecl}: {@link bodyLineOffset} finds the body by it. */
const FN_TAIL = '\n}\n';

/**
 * WGSL's line breaks (WGSL § "Blankspace and line breaks"): what a shader compiler counts lines by,
 * so a line number in its messages is an index into {@link wgslLines}.
 */
const WGSL_LINE_BREAK = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/;

/** A text that ends in a WGSL line break. */
const WGSL_LINE_END = /[\n\v\f\r\u0085\u2028\u2029]$/;

/** What {@link operatorWgsl} writes from: a normalized definition and its layout. */
export interface OperatorWgslSource {
  /** Prefix of every module-scope name (`op_<hash>`). */
  readonly prefix: string;
  readonly type: OperatorType;
  readonly layout: OperatorLayout;
  /** The identity's bits, one per lane ({@link laneBits}: u32 words; the 16 bits for f16). */
  readonly identityBits: readonly number[];
  /** The user's body of `fn (a: T, b: T) -> T`. */
  readonly body: string;
  /** The operator's name, for a comment (checked: no line breaks or control characters). */
  readonly name: string;
}

/**
 * The WGSL declarations of an operator: its struct (records), its identity function and its
 * combine function, all named after `prefix`.
 *
 * The identity is written by its exact bits and read back from a function-scope `var`: WGSL's
 * constant evaluation rejects infinities (`bitcast<f32>(0x7f800000u)` of a constant is an error,
 * as in `WGSL_PRELUDE`), and a decimal literal could round differently from the host's value. A
 * `var` makes the casts run-time ones; compilers fold them back into a constant.
 *
 * The user's body stands on lines of its own, so a `//` comment on its last line cannot swallow the
 * closing brace.
 *
 * @example
 * ```ts
 * const layout = layoutOf('f32');
 * operatorWgsl({ prefix: 'op_1234abcd', type: 'f32', layout, identityBits: [0xff800000], body: 'return max(a, b);', name: 'max' }).identityWgsl;
 * // 'op_1234abcd_identity()'
 * ```
 */
export function operatorWgsl(source: OperatorWgslSource): OperatorWgsl {
  const { prefix, type, layout, identityBits, body, name } = source;
  const wgslType = typeof type === 'string' ? type : `${prefix}_T`;
  const structDecl =
    typeof type === 'string'
      ? ''
      : `struct ${wgslType} {\n${layout.fields.map((field, i) => `  ${field}: ${layout.lanes[i]},\n`).join('')}}\n`;

  const identityFnName = `${prefix}_identity`;
  // f16 bits stand in both halves of the word, so either component of the vec2<f16> cast is right.
  const words = layout.lanes[0] === 'f16' ? identityBits.map((h) => ((h << 16) | h) >>> 0) : identityBits;
  const lanes = layout.lanes.map((lane, i) => laneFromWord(lane, `bits[${i}]`));
  const value = layout.shape === 'scalar' ? lanes[0]! : `${wgslType}(${lanes.join(', ')})`;
  const identityDecl = `fn ${identityFnName}() -> ${wgslType} {
  var bits = array<u32, ${words.length}>(${words.map(hex).join(', ')});
  return ${value};
}
`;

  const fnName = prefix;
  const fnDecl = `// operator ${JSON.stringify(name)}
fn ${fnName}(a: ${wgslType}, b: ${wgslType}) -> ${wgslType} {
${body}${FN_TAIL}`;
  return {
    wgslType,
    structDecl,
    fnName,
    fnDecl,
    identityFnName,
    identityDecl,
    identityWgsl: `${identityFnName}()`,
    declarations: `${structDecl}${identityDecl}${fnDecl}`,
    enable: layout.lanes[0] === 'f16' ? ['f16'] : [],
  };
}

/**
 * The lines of a WGSL text, split where a shader compiler counts line breaks (`\r\n`, `\n`, `\r`,
 * `\v`, `\f`, U+0085, U+2028, U+2029): line `L` of a compiler message is `wgslLines(code)[L - 1]`.
 *
 * @example
 * ```ts
 * wgslLines('let x = a;\r\nreturn x;'); // ['let x = a;', 'return x;']
 * ```
 */
export function wgslLines(text: string): string[] {
  return text.split(WGSL_LINE_BREAK);
}

/**
 * How many lines of an operator's {@link OperatorWgsl.declarations} come before the user's body
 * (which always starts a line of its own): line `L` of the body is line `offset + L` of the
 * declarations. Found from the pieces themselves (the body is the text before the combine
 * function's closing brace), so it follows any change of what is declared before it. `undefined`
 * when `body` is not where {@link operatorWgsl} puts it (pieces from elsewhere).
 *
 * @example
 * ```ts
 * const op = defineOperator({ type: 'u32', identity: 0, wgsl: 'return a + b;', cpu: (a, b) => (a + b) >>> 0 });
 * const line = bodyLineOffset(op, op.wgsl)! + 1; // the 1-based line of `return a + b;` in op.declarations
 * ```
 */
export function bodyLineOffset(pieces: Pick<OperatorWgsl, 'declarations' | 'fnDecl'>, body: string): number | undefined {
  const { declarations, fnDecl } = pieces;
  const fnStart = declarations.lastIndexOf(fnDecl);
  const bodyStart = fnDecl.length - FN_TAIL.length - body.length;
  if (fnStart < 0 || bodyStart < 1 || !fnDecl.endsWith(FN_TAIL) || fnDecl.slice(bodyStart, bodyStart + body.length) !== body) {
    return undefined;
  }
  // The body must begin a line: its columns are then the compiler's columns.
  const before = declarations.slice(0, fnStart + bodyStart);
  if (!WGSL_LINE_END.test(before)) return undefined;
  return wgslLines(before).length - 1;
}

/** A lane of `lane` from the u32 expression `word`. */
function laneFromWord(lane: LaneType, word: string): string {
  switch (lane) {
    case 'u32':
      return word;
    case 'i32':
      return `bitcast<i32>(${word})`;
    case 'f32':
      return `bitcast<f32>(${word})`;
    case 'f16':
      return `bitcast<vec2<f16>>(${word}).x`;
  }
}

/** A u32 WGSL literal in hexadecimal (`0x7f800000u`). */
function hex(word: number): string {
  return `0x${word.toString(16).padStart(8, '0')}u`;
}
