#!/usr/bin/env node
import { fileURLToPath } from 'node:url';
import { HELP_TEXT, parseCli } from './options.js';
import { runBench } from './parent.js';

/**
 * Entry point of `scan-bench`. Without `--case` it is the parent: it enumerates cases and runs
 * each in a child process of this same file. With `--case '<json>'` it is such a child.
 *
 * @example
 * ```sh
 * node apps/bench/dist/cli.js --sizes 2^16 --only scan,copy
 * ```
 */
async function main(argv: readonly string[]): Promise<number> {
  let invocation: ReturnType<typeof parseCli>;
  try {
    invocation = parseCli(argv);
  } catch (e) {
    process.stderr.write(`scan-bench: ${e instanceof Error ? e.message : String(e)}\n\n${HELP_TEXT}\n`);
    return 2;
  }
  if (invocation.kind === 'help') {
    process.stdout.write(`${HELP_TEXT}\n`);
    return 0;
  }
  if (invocation.kind === 'child') {
    // Imported only here, so the parent never loads the GPU side of the bundle's code. The child
    // code is browser-safe (the dashboard bundles it); the Node entry gives it the .mtx file reader.
    const [{ childMain }, { useMatrixFileReader }, { readMatrixMarketFile }] = await Promise.all([
      import('./child/main.js'),
      import('./child/matrix-file.js'),
      import('@scan/spmv/node'),
    ]);
    useMatrixFileReader(readMatrixMarketFile);
    await childMain(invocation.caseJson);
    return 0;
  }
  const { report } = await runBench(invocation.options, fileURLToPath(import.meta.url));
  // Non-zero when any case did not produce a verified timing (skipped cases are not failures).
  return report.results.every((r) => r.status === 'ok' || r.status === 'skipped') ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`scan-bench: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
