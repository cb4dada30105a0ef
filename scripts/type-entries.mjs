// Writes the declaration entry points of a package after tsup (run from the package's folder, by its
// `build` script). The WebGPU types reach a TypeScript project in one of two ways:
// - TypeScript 6 and later ship them in lib.dom: `dist/ts6/<entry>.d.ts` asks for that lib
//   (`/// <reference lib="dom" />`, for projects whose `lib` leaves it out) and re-exports the entry;
// - TypeScript 5.x has none: `dist/ts5/<entry>.d.ts` references `@webgpu/types` (a dependency of
//   every package; it needs lib.dom's canvas, image and event types, so that lib too) and re-exports
//   the entry.
// package.json picks one with the versioned condition `types@<6`, so a compiler never sees both
// copies (TypeScript 6 and 7 report some 180 conflicts when it does), and no user needs any setup.
// The script checks that every export of package.json points at these files, and fails otherwise.
// Usage: node ../../scripts/type-entries.mjs
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

const FORMS = {
  ts5: '/// <reference lib="dom" />\n/// <reference types="@webgpu/types" />',
  ts6: '/// <reference lib="dom" />',
};

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const problems = [];
for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
  if (typeof target !== 'object' || typeof target.import !== 'string') continue;
  const match = /^\.\/dist\/(.+)\.js$/.exec(target.import);
  if (!match) {
    problems.push(`exports["${subpath}"].import is not ./dist/<entry>.js`);
    continue;
  }
  const entry = match[1];
  for (const [form, reference] of Object.entries(FORMS)) {
    const file = join('dist', form, `${entry}.d.ts`);
    const back = posix.relative(posix.dirname(posix.join('dist', form, entry)), posix.join('dist', entry));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${reference}\nexport * from '${back.startsWith('.') ? back : `./${back}`}.js';\n`);
  }
  const expected = { 'types@<6': `./dist/ts5/${entry}.d.ts`, types: `./dist/ts6/${entry}.d.ts` };
  const keys = Object.keys(target);
  if (keys[0] !== 'types@<6' || keys[1] !== 'types') problems.push(`exports["${subpath}"] must list "types@<6", then "types", first`);
  for (const [condition, file] of Object.entries(expected)) {
    if (target[condition] !== file) problems.push(`exports["${subpath}"]["${condition}"] must be "${file}"`);
  }
}
if (pkg.types !== './dist/ts5/index.d.ts')
  problems.push('"types" must be "./dist/ts5/index.d.ts" (resolvers without exports are TypeScript 5.x)');
if (problems.length > 0) {
  console.error(`${pkg.name}: ${problems.join('; ')}`);
  process.exit(1);
}
