import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig } from 'tsup';
import { baselineBundle } from '../shared/tsup.js';

// The gridwise baseline as ONE self-contained ESM file, like dist-luma (see baselineBundle): gridwise
// (from a checkout named by GRIDWISE_SRC, since gridwise is not on npm and none of its code is in this
// repository) and the workspace packages are bundled in; only Dawn (`webgpu`) stays external.
// Build: GRIDWISE_SRC=/path/to/gridwise pnpm --filter @scan/bench build:gridwise
const given = process.env['GRIDWISE_SRC'];
if (!given)
  throw new Error(
    'build:gridwise: GRIDWISE_SRC is not set. Point it at a checkout of https://github.com/gridwise-webgpu/gridwise ' +
      '(the folder holding onesweep.mjs), e.g. GRIDWISE_SRC=/tmp/gridwise-src pnpm --filter @scan/bench build:gridwise',
  );
const src = resolve(given);
// onesweep.mjs, the module that defines OneSweepSort, not index.mjs: at a5fdd8d index.mjs re-exports a
// `BinOp` that binop.mjs does not define, and esbuild refuses the whole entry.
const entry = join(src, 'onesweep.mjs');
if (!existsSync(entry)) throw new Error(`build:gridwise: GRIDWISE_SRC=${given} has no onesweep.mjs: not a checkout of gridwise`);

/** `0.1.0 a5fdd8d`: package.json's version and the commit (git in the checkout, else GRIDWISE_COMMIT). */
function version(): string {
  let v = 'unknown version';
  try {
    v = (JSON.parse(readFileSync(join(src, 'package.json'), 'utf8')) as { version?: string }).version ?? v;
  } catch {
    // no package.json: the version stays unknown
  }
  let commit = process.env['GRIDWISE_COMMIT'];
  if (!commit) {
    try {
      commit = execFileSync('git', ['-C', src, 'rev-parse', '--short', 'HEAD'], {
        stdio: ['ignore', 'pipe', 'ignore'],
        encoding: 'utf8',
      }).trim();
    } catch {
      commit = undefined;
    }
  }
  return commit ? `${v} ${commit.slice(0, 7)}` : v;
}

export default defineConfig(
  baselineBundle('gridwise', 'baselines/gridwise/cli.ts', {
    define: { __GRIDWISE_VERSION__: JSON.stringify(version()) },
    esbuildPlugins: [
      {
        name: 'gridwise-from-source',
        setup(build) {
          build.onResolve({ filter: /^gridwise$/ }, () => ({ path: entry }));
        },
      },
    ],
  }),
);
