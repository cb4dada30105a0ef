import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

function run(command: string, args: string[], cwd: string): string | undefined {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim();
  } catch {
    return undefined;
  }
}

/**
 * The commit checked out at `cwd` and whether the tree has changes; `commit` is null outside git
 * (the lent GPU machine gets only a copy of the files: pass `--commit` there).
 *
 * @example
 * ```ts
 * gitInfo(process.cwd()); // { commit: 'd6722fe…', dirty: false }
 * ```
 */
export function gitInfo(cwd: string): { commit: string | null; dirty: boolean | undefined } {
  const commit = run('git', ['rev-parse', 'HEAD'], cwd);
  if (!commit) return { commit: null, dirty: undefined };
  const status = run('git', ['status', '--porcelain', '--untracked-files=no'], cwd);
  return { commit, dirty: status === undefined ? undefined : status.length > 0 };
}

/**
 * The monorepo root: the git top level, else the nearest folder up from `cwd` with a
 * `pnpm-workspace.yaml`, else `cwd`.
 *
 * @example
 * ```ts
 * repoRoot(process.cwd()); // '/work/main'
 * ```
 */
export function repoRoot(cwd: string): string {
  const top = run('git', ['rev-parse', '--show-toplevel'], cwd);
  if (top) return top;
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (dirname(dir) === dir) return resolve(cwd);
  }
}

/**
 * The default report path, `bench-results/report-<ISO date>.json` under `root` (colons replaced so
 * the name is valid everywhere).
 *
 * @example
 * ```ts
 * defaultReportPath('/repo', new Date('2026-11-22T08:00:00Z')); // '/repo/bench-results/report-2026-11-22T08-00-00.000Z.json'
 * ```
 */
export function defaultReportPath(root: string, date: Date): string {
  return join(root, 'bench-results', `report-${date.toISOString().replaceAll(':', '-')}.json`);
}
