/**
 * The WGSL that some WebGPU implementations reject or mishandle, found in a kernel's source. Two
 * pitfalls are checked, both valid WGSL that Chrome (Dawn) accepts:
 *
 * - a function parameter that points to workgroup memory (`ptr<workgroup, …>`): Firefox's shader
 *   compiler (naga) rejects it;
 * - a `var<workgroup>` whose type names an override constant (an array sized by one): Safari
 *   mishandles it without an error.
 *
 * Returns one sentence per problem, empty when there is none. Comments are ignored. The pipeline
 * cache runs this on every new kernel while tests verify kernels (`setVerifyKernelKeys`).
 *
 * @example
 * ```ts
 * wgslPortabilityProblems('fn f(p: ptr<workgroup, u32>) {}');
 * // ['function f takes a pointer to workgroup memory (parameter p), which Firefox rejects']
 * ```
 */
export function wgslPortabilityProblems(code: string): string[] {
  const source = withoutComments(code);
  return [...workgroupPointerParameters(source), ...overrideSizedWorkgroupVars(source)];
}

/** The source with `//` and block comments blanked out (nested block comments included). */
function withoutComments(code: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    const two = code.slice(i, i + 2);
    if (depth === 0 && two === '//') {
      while (i < code.length && code[i] !== '\n') i++;
      out += '\n';
    } else if (two === '/*') {
      depth++;
      i++;
    } else if (depth > 0 && two === '*/') {
      depth--;
      i++;
    } else if (depth === 0) {
      out += code[i];
    }
  }
  return out;
}

function workgroupPointerParameters(source: string): string[] {
  const problems: string[] = [];
  for (const match of source.matchAll(/\bfn\s+(\w+)\s*\(/g)) {
    const params = parenthesized(source, (match.index ?? 0) + match[0].length);
    for (const param of splitTopLevel(params)) {
      const named = /^\s*(\w+)\s*:\s*ptr\s*<\s*workgroup\b/.exec(param);
      if (named) problems.push(`function ${match[1]} takes a pointer to workgroup memory (parameter ${named[1]}), which Firefox rejects`);
    }
  }
  return problems;
}

function overrideSizedWorkgroupVars(source: string): string[] {
  const overrides = [...source.matchAll(/\boverride\s+(\w+)/g)].map((m) => m[1]!);
  if (overrides.length === 0) return [];
  const problems: string[] = [];
  for (const match of source.matchAll(/\bvar\s*<\s*workgroup\s*>\s*(\w+)\s*:([^;]*);/g)) {
    const type = match[2]!;
    const used = overrides.filter((name) => new RegExp(`\\b${name}\\b`).test(type));
    if (used.length > 0) {
      problems.push(`workgroup variable ${match[1]} is sized by the override constant ${used.join(', ')}, which Safari mishandles`);
    }
  }
  return problems;
}

/** The text from `start` up to the parenthesis that closes the one just before it. */
function parenthesized(source: string, start: number): string {
  let depth = 1;
  for (let i = start; i < source.length; i++) {
    if (source[i] === '(') depth++;
    else if (source[i] === ')' && --depth === 0) return source.slice(start, i);
  }
  return source.slice(start);
}

/** Splits a parameter list at the commas outside `<…>` and `(…)`. */
function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === '<' || c === '(') depth++;
    else if (c === '>' || c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(list.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(list.slice(from));
  return parts;
}
