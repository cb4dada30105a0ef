// Finds the TypeScript examples of the documentation: every ```ts (or ```typescript) fence of an
// `@example` tag in the JSDoc of the public packages (packages/*/src), and every ```ts fence of the
// guides (docs/), the root README and the packages' READMEs. Each example keeps where it came from
// (file and the line of its first code line), so a failure points at the source.
// A fence whose info string holds the word `nocheck` (```ts nocheck) is returned with `nocheck: true`
// and is not typechecked: see CONTRIBUTING.md ("Examples in the documentation").
// Usage: import { extractExamples } from './extract.mjs'; extractExamples(root)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * @typedef {{ source: string, line: number, code: string, kind: 'jsdoc' | 'markdown', nocheck: boolean, pkg?: string }} Example
 * `source` is relative to the root with forward slashes; `line` is 1-based, the example's first code line.
 */

const FENCE_LANGS = new Set(['ts', 'typescript']);

/** The markdown files whose examples are checked, relative to the root. */
export function markdownFiles(root) {
  const files = ['README.md', 'docs/index.md'];
  for (const f of readdirSync(join(root, 'docs/guides')).sort()) if (f.endsWith('.md')) files.push(`docs/guides/${f}`);
  for (const p of packageNames(root)) files.push(`packages/${p}/README.md`);
  return files.filter((f) => exists(join(root, f)));
}

/** The folders under packages/ that hold a package. */
export function packageNames(root) {
  return readdirSync(join(root, 'packages'))
    .filter((p) => exists(join(root, 'packages', p, 'package.json')))
    .sort();
}

/** Every example of the JSDoc of packages/<pkg>/src and of the markdown files, in a stable order. */
export function extractExamples(root) {
  /** @type {Example[]} */
  const examples = [];
  for (const pkg of packageNames(root)) {
    for (const file of sourceFiles(join(root, 'packages', pkg, 'src'))) {
      const source = relative(root, file).split('\\').join('/');
      for (const e of jsdocExamples(readFileSync(file, 'utf8'))) examples.push({ source, ...e, kind: 'jsdoc', pkg });
    }
  }
  for (const source of markdownFiles(root)) {
    for (const e of markdownExamples(readFileSync(join(root, source), 'utf8'))) examples.push({ source, ...e, kind: 'markdown' });
  }
  return examples;
}

/** The ```ts fences that follow an `@example` tag inside `/** … *\/` comments of a source text. */
export function jsdocExamples(text) {
  const out = [];
  for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const startLine = lineAt(text, comment.index);
    // The comment's lines without their leading ` * `.
    const lines = comment[0].split('\n').map((l) => l.replace(/^\s*\/?\*+\/?\s?/, '').replace(/\s*\*\/$/, ''));
    let inExample = false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (/^@\w+/.test(line)) inExample = line.startsWith('@example');
      const fence = /^```(\S*)(.*)$/.exec(line.trim());
      if (!fence) continue;
      // Find the closing fence whatever the language, so other fences are skipped as a whole.
      let end = i + 1;
      while (end < lines.length && !/^```\s*$/.test(lines[end].trim())) end++;
      if (inExample && FENCE_LANGS.has(fence[1])) {
        out.push({ line: startLine + i + 1, code: lines.slice(i + 1, end).join('\n'), nocheck: /\bnocheck\b/.test(fence[2]) });
      }
      i = end;
    }
  }
  return out;
}

/** The ```ts fences of a markdown text (indented ones too, inside lists). */
export function markdownExamples(text) {
  const out = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)(`{3,}|~{3,})(\S*)(.*)$/.exec(lines[i]);
    if (!fence) continue;
    const [, indent, marks, lang, rest] = fence;
    let end = i + 1;
    while (end < lines.length && !(lines[end].trim().startsWith(marks) && lines[end].trim().replace(/[`~]/g, '') === '')) end++;
    if (FENCE_LANGS.has(lang)) {
      const code = lines
        .slice(i + 1, end)
        .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()))
        .join('\n');
      out.push({ line: i + 2, code, nocheck: /\bnocheck\b/.test(rest) });
    }
    i = end;
  }
  return out;
}

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function lineAt(text, index) {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function exists(path) {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
