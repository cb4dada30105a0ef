// Typechecks every TypeScript example of the documentation (see extract.mjs for where they come
// from), each as its own module, with the repository's strictest compiler settings
// (tooling/tsconfig/base.json: strict, noUncheckedIndexedAccess, verbatimModuleSyntax, …).
// CONTRIBUTING.md ("Examples in the documentation") states the rules for writers; in short:
//
// - Examples that use only the public API are checked against the BUILT packages (`pnpm build`
//   first): `@scan/*` resolves through each package's `exports` to its dist/ declarations, as in a
//   user's project ("public"). An example that needs a name no entry point exports (the JSDoc of an
//   internal function) is checked against the sources ("internal": `@scan/*` mapped to src/).
// - JSDoc examples are snippets of the symbol they document: unless they import from `@scan/…`, the
//   checker imports the names they use from the package's entry points (the example's own first:
//   `./cpu` for files under src/cpu, and so on), else from the source module that exports them.
//   A name still undeclared is the caller's own value, declared `any` — unless it is called,
//   constructed, used as a type or capitalized (then it is an API, and unknown is an error).
// - Markdown examples are complete: they import and declare what they use.
// - Every example may use the prelude's values (prelude.ts: `ctx`, `device`, `adapter`, `encoder`,
//   `b`) without declaring them; the checker imports the ones it uses and does not declare itself.
// - A fence written ```ts nocheck is skipped.
//
// Prints `file:line:column: error TSxxxx: message` for each problem, at the documentation's own
// line, and exits non-zero when there is any. The generated modules stay in .generated/ (ignored) for
// a closer look: `npx tsc -p scripts/check-examples/.generated/public --noEmit`.
// Usage: node scripts/check-examples/run.mjs [--verbose]    (--verbose: counts per source, the
// examples marked nocheck, and the placeholder names)
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractExamples, packageNames } from './extract.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const require = createRequire(join(root, 'package.json'));
const ts = require('typescript');
const verbose = process.argv.includes('--verbose');
const started = performance.now();

const generated = join(here, '.generated');
const lineCache = new Map(); // source file -> its lines
const packages = packageNames(root);

rmSync(generated, { recursive: true, force: true });
for (const project of ['public', 'internal']) mkdirSync(join(generated, project), { recursive: true });
// 1. The two projects: public (the built declarations, through node_modules) and internal (the sources).
const base = relative(join(generated, 'public'), join(root, 'tooling/tsconfig/base.json'));
const compilerOptions = { noEmit: true, types: ['@webgpu/types', 'node'], declaration: false, sourceMap: false };
writeFileSync(
  join(generated, 'public/tsconfig.json'),
  JSON.stringify({ extends: base, compilerOptions: { ...compilerOptions, paths: {} }, include: ['*.ts', '../prelude.ts'] }, null, 2),
);
writeFileSync(
  join(generated, 'internal/tsconfig.json'),
  JSON.stringify({ extends: base, compilerOptions, include: ['*.ts', '../prelude.ts'] }, null, 2),
);
mkdirSync(join(generated, 'node_modules/@scan'), { recursive: true });
mkdirSync(join(generated, 'node_modules/@webgpu'), { recursive: true });
for (const pkg of packages) symlinkSync(join(root, 'packages', pkg), join(generated, 'node_modules/@scan', pkg), 'dir');
// What a user's project installs beside the packages: their WebGPU types, and `webgpu` for Node.
for (const name of ['@webgpu/types', 'webgpu']) {
  symlinkSync(realpathSync(join(root, 'packages/core/node_modules', name)), join(generated, 'node_modules', name), 'dir');
}

// 2. The built packages' entry points and what each exports (value or type only).
/** @type {{ specifier: string, pkg: string, subpath: string, names: Map<string, boolean> }[]} */
const entries = [];
const globals = new Set();
{
  const files = [];
  for (const pkg of packages) {
    const manifest = JSON.parse(readFileSync(join(root, 'packages', pkg, 'package.json'), 'utf8'));
    if (manifest.private) continue;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (typeof target !== 'object' || typeof target.import !== 'string') continue;
      const dts = join(root, 'packages', pkg, target.import.replace(/\.js$/, '.d.ts'));
      if (!existsSync(dts)) fail(`${relative(root, dts)} is missing: run \`pnpm build\` first`);
      const specifier = `${manifest.name}${subpath.slice(1)}`;
      entries.push({ specifier, pkg, subpath: subpath.slice(2), names: new Map(), dts });
      files.push(dts);
    }
  }
  // An empty module beside them: the names in its scope are the globals (lib, DOM, WebGPU, Node).
  const empty = join(generated, 'public/globals.ts');
  writeFileSync(empty, 'export {};\n');
  const program = ts.createProgram([...files, empty], parseConfig('public').options);
  const checker = program.getTypeChecker();
  const emptyFile = program.getSourceFile(empty);
  for (const symbol of checker.getSymbolsInScope(emptyFile, ts.SymbolFlags.Value | ts.SymbolFlags.Type | ts.SymbolFlags.Namespace)) {
    // The window's plain properties (`status`, `name`, `length`, …) are no globals an example means.
    const declaration = symbol.valueDeclaration;
    const plain = ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.Void;
    if (declaration && ts.isVariableDeclaration(declaration) && checker.getTypeOfSymbol(symbol).flags & plain) continue;
    globals.add(symbol.name);
  }
  rmSync(empty);
  for (const entry of entries) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(entry.dts));
    for (const symbol of module ? checker.getExportsOfModule(module) : []) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      entry.names.set(symbol.name, (target.flags & ts.SymbolFlags.Value) !== 0);
    }
  }
}

// 3. What each source module exports, for the JSDoc of internal functions.
/** @type {Map<string, { file: string, pkg: string, value: boolean }[]>} */
const sourceExports = new Map();
for (const pkg of packages) {
  for (const file of walk(join(root, 'packages', pkg, 'src'))) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    for (const statement of sf.statements) {
      if (!ts.getModifiers?.(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      const value = !ts.isInterfaceDeclaration(statement) && !ts.isTypeAliasDeclaration(statement);
      const names = ts.isVariableStatement(statement)
        ? statement.declarationList.declarations.flatMap((d) => bindingNames(d.name))
        : statement.name && ts.isIdentifier(statement.name)
          ? [statement.name.text]
          : [];
      for (const name of names) {
        if (!sourceExports.has(name)) sourceExports.set(name, []);
        sourceExports.get(name).push({ file, pkg, value });
      }
    }
  }
}

// 4. The prelude: the values the documentation may take as given.
// Copied beside the generated modules, so that its imports resolve as theirs do.
const preludeFile = join(generated, 'prelude.ts');
copyFileSync(join(here, 'prelude.ts'), preludeFile);
const preludeNames = new Set();
{
  const sf = ts.createSourceFile(preludeFile, readFileSync(preludeFile, 'utf8'), ts.ScriptTarget.ES2022, true);
  for (const statement of sf.statements) {
    if (ts.isVariableStatement(statement)) for (const d of statement.declarationList.declarations) preludeNames.add(d.name.getText(sf));
    else if (ts.isFunctionDeclaration(statement) && statement.name) preludeNames.add(statement.name.text);
  }
}

// 5. One module per example.
const examples = extractExamples(root);
const checked = [];
const skipped = [];
const placeholderUses = new Map();
for (const example of examples) {
  if (example.nocheck) {
    skipped.push(example);
    continue;
  }
  const sf = ts.createSourceFile('example.ts', example.code, ts.ScriptTarget.ES2022, true);
  const { used, declared, apiNames, importsPackages } = namesOf(sf);
  const placeholders = [];
  const imports = new Map(); // module specifier, or a file's absolute path -> [name, isValue][]
  const add = (specifier, name, value) => {
    if (!imports.has(specifier)) imports.set(specifier, []);
    imports.get(specifier).push([name, value]);
  };
  let internal = false;
  for (const name of used) {
    if (declared.has(name) || name === '') continue;
    if (example.kind === 'jsdoc' && !importsPackages) {
      const pub = publicEntryFor(example, name);
      if (pub) {
        add(pub.specifier, name, pub.names.get(name));
        continue;
      }
      const own = sourceModuleFor(example, name);
      if (own) {
        internal = true;
        add(own.file, name, own.value);
        continue;
      }
    }
    if (preludeNames.has(name)) add(preludeFile, name, true);
    else if (example.kind === 'jsdoc' && isPlaceholder(name, apiNames)) placeholders.push(name);
  }
  const project = internal ? 'internal' : 'public';
  const file = join(
    generated,
    project,
    `${String(checked.length).padStart(3, '0')}-${example.source.replace(/[^A-Za-z0-9]+/g, '-')}-${example.line}.ts`,
  );
  const header = [`// from ${example.source}:${example.line}`];
  for (const [specifier, names] of imports) {
    const from = specifier.startsWith('@') ? specifier : importPath(file, specifier);
    const list = names.map(([name, value]) => (value ? name : `type ${name}`)).join(', ');
    header.push(`import { ${list} } from '${from}';`);
  }
  // The caller's own values that a JSDoc snippet names without declaring them (never an API: see above).
  if (placeholders.length) header.push(`declare let ${placeholders.map((n) => `${n}: any`).join(', ')};`);
  for (const name of placeholders) placeholderUses.set(name, (placeholderUses.get(name) ?? 0) + 1);
  writeFileSync(file, `${header.join('\n')}\n${example.code}\nexport {};\n`);
  checked.push({ ...example, file, project, offset: header.length });
}

// 6. Typecheck, and point every problem at the documentation.
const byFile = new Map(checked.map((e) => [e.file, e]));
const problems = []; // { key, text }: key orders them by file and line
for (const project of ['public', 'internal']) {
  const config = parseConfig(project);
  if (config.fileNames.length === 0) continue;
  const t0 = performance.now();
  const program = ts.createProgram(config.fileNames, config.options);
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  for (const sf of program.getSourceFiles()) {
    if (!byFile.has(sf.fileName) && sf.fileName !== preludeFile) continue;
    diagnostics.push(...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf));
  }
  for (const d of diagnostics) problems.push(where(d));
  if (verbose)
    console.log(`${project}: ${config.fileNames.length - 1} examples typechecked in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

if (verbose) {
  const counts = new Map();
  for (const e of checked) {
    const key = e.kind === 'jsdoc' ? `JSDoc of packages/${e.pkg}/src` : e.source;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  for (const [key, n] of counts) console.log(`  ${String(n).padStart(4)}  ${key}`);
  for (const e of skipped) console.log(`  nocheck: ${e.source}:${e.line}`);
  const names = [...placeholderUses].sort((a, b) => b[1] - a[1]).map(([n, c]) => `${n} (${c})`);
  console.log(`  placeholders (JSDoc values typed any): ${names.join(', ')}`);
}
problems.sort((a, b) => a.key.localeCompare(b.key, 'en', { numeric: true }));
for (const p of problems) console.log(p.text);
const failing = new Set(problems.map((p) => p.example)).size;
const internalCount = checked.filter((e) => e.project === 'internal').length;
console.log(
  `check-examples: ${checked.length} examples typechecked (${checked.length - internalCount} against the built packages, ` +
    `${internalCount} against the sources), ${skipped.length} marked nocheck; ` +
    (problems.length ? `${problems.length} errors in ${failing} examples` : 'no errors') +
    ` (${((performance.now() - started) / 1000).toFixed(1)} s)`,
);
process.exit(problems.length ? 1 : 0);

// ---

/**
 * Whether a name a JSDoc snippet leaves undeclared stands for the caller's own value (typed `any`):
 * not a global, never called, constructed or named as a type, and not capitalized beyond one letter
 * and digits (`A`, `H`, `B2` are matrices; `BufferUsage` or `NODE_TYPE` would be an API).
 */
function isPlaceholder(name, apiNames) {
  return !globals.has(name) && !apiNames.has(name) && !/^[A-Z](?![0-9]*$)/.test(name);
}

/** The entry point that exports `name`, the example's own entry first. */
function publicEntryFor(example, name) {
  const sub = /\/src\/(cpu|node|kit)\//.exec(example.source)?.[1] ?? '';
  const rank = (e) =>
    (e.pkg === example.pkg ? 0 : e.pkg === 'core' ? 10 : 20) + (e.subpath === sub ? 0 : e.subpath === '' ? 1 : e.subpath === 'kit' ? 2 : 3);
  const candidates = entries.filter((e) => e.names.has(name)).sort((a, b) => rank(a) - rank(b));
  // The example's own module documents its own `name` when the package does not export one.
  const ownFile = join(root, example.source);
  if ((sourceExports.get(name) ?? []).some((s) => s.file === ownFile) && candidates[0]?.pkg !== example.pkg) return undefined;
  return candidates[0];
}

/** The source module that exports `name`: the example's own, then its package's, then core's (never another package's). */
function sourceModuleFor(example, name) {
  const ownFile = join(root, example.source);
  const rank = (s) => (s.file === ownFile ? 0 : s.pkg === example.pkg ? 1 : 2);
  const candidates = (sourceExports.get(name) ?? []).filter((s) => s.pkg === example.pkg || s.pkg === 'core');
  return candidates.sort((a, b) => rank(a) - rank(b))[0];
}

/** The identifiers a snippet reads, and the ones it declares anywhere. */
function namesOf(sf) {
  const used = new Set();
  const declared = new Set();
  const apiNames = new Set();
  let importsPackages = false;
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      if (node.moduleSpecifier.text.startsWith('@scan/')) importsPackages = true;
      const clause = node.importClause;
      if (clause?.name) declared.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) declared.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings)) for (const s of bindings.elements) declared.add(s.name.text);
      return;
    }
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      const isName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        (ts.isQualifiedName(parent) && parent.right === node) ||
        ((ts.isPropertyAssignment(parent) ||
          ts.isPropertySignature(parent) ||
          ts.isPropertyDeclaration(parent) ||
          ts.isMethodDeclaration(parent) ||
          ts.isMethodSignature(parent) ||
          ts.isGetAccessor(parent) ||
          ts.isSetAccessor(parent) ||
          ts.isEnumMember(parent) ||
          ts.isLabeledStatement(parent)) &&
          parent.name === node) ||
        (ts.isBindingElement(parent) && parent.propertyName === node) ||
        ts.isBreakOrContinueStatement(parent);
      const isDeclaration =
        (ts.isVariableDeclaration(parent) ||
          ts.isParameter(parent) ||
          ts.isFunctionDeclaration(parent) ||
          ts.isFunctionExpression(parent) ||
          ts.isClassDeclaration(parent) ||
          ts.isClassExpression(parent) ||
          ts.isInterfaceDeclaration(parent) ||
          ts.isTypeAliasDeclaration(parent) ||
          ts.isEnumDeclaration(parent) ||
          ts.isTypeParameterDeclaration(parent) ||
          ts.isBindingElement(parent)) &&
        parent.name === node;
      if (isDeclaration) declared.add(node.text);
      else if (!isName) {
        used.add(node.text);
        // Called, constructed or named as a type: the name of an API, never a placeholder.
        const api =
          ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression === node) ||
          (ts.isTaggedTemplateExpression(parent) && parent.tag === node) ||
          ts.isTypeReferenceNode(parent) ||
          ts.isExpressionWithTypeArguments(parent) ||
          (ts.isQualifiedName(parent) && parent.left === node);
        if (api) apiNames.add(node.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { used, declared, apiNames, importsPackages };
}

function bindingNames(name) {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(e.name)));
}

function importPath(fromFile, toFile) {
  const path = relative(dirname(fromFile), toFile)
    .split('\\')
    .join('/')
    .replace(/\.d\.ts$|\.ts$/, '.js');
  return path.startsWith('.') ? path : `./${path}`;
}

/** A diagnostic as `file:line:column: error TSxxxx: message`, at the documentation's own line. */
function where(d) {
  const message = ts.flattenDiagnosticMessageText(d.messageText, '\n  ');
  const example = d.file && byFile.get(d.file.fileName);
  if (!example || d.start === undefined) {
    const file = !d.file
      ? 'tsconfig'
      : d.file.fileName === preludeFile
        ? 'scripts/check-examples/prelude.ts'
        : relative(root, d.file.fileName);
    return { key: file, example: file, text: `${file}: error TS${d.code}: ${message}` };
  }
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  const codeLine = line - example.offset;
  const at = `${example.source}:${example.line}`;
  if (codeLine < 0) {
    return { key: at, example: at, text: `${at}: error TS${d.code} (in the imports the checker adds): ${message}` };
  }
  // The column in the file: the code line sits after the comment's ` * ` (or the list's indent).
  const code = example.code.split('\n')[codeLine] ?? '';
  const sourceLine = sourceLines(example.source)[example.line + codeLine - 1] ?? '';
  const indent = sourceLine.endsWith(code) ? sourceLine.length - code.length : 0;
  const position = `${example.source}:${example.line + codeLine}:${character + 1 + indent}`;
  return { key: position, example: at, text: `${position}: error TS${d.code}: ${message}` };
}

function sourceLines(source) {
  if (!lineCache.has(source)) lineCache.set(source, readFileSync(join(root, source), 'utf8').split('\n'));
  return lineCache.get(source);
}

function parseConfig(project) {
  const path = join(generated, project, 'tsconfig.json');
  return ts.getParsedCommandLineOfConfigFile(path, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail(format(d)) });
}

function format(d) {
  return ts.flattenDiagnosticMessageText(d.messageText, '\n');
}

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name);
    if (name.isDirectory()) out.push(...walk(path));
    else if (name.name.endsWith('.ts') && !name.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function fail(message) {
  console.error(`check-examples: ${message}`);
  process.exit(2);
}
