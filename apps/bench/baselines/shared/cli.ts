import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BenchReport } from '../../src/report.js';

/**
 * Writes `report` as JSON to `path`, making its folder. The runners call it after every case, so a
 * run killed by a timeout still leaves the cases it finished.
 *
 * @example
 * ```ts
 * writeReport('bench-results/luma.json', report);
 * ```
 */
export function writeReport(path: string, report: BenchReport): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
}

/**
 * A runner's entry point: parses `process.argv`, prints the usage and exits 2 on bad arguments,
 * prints it and exits 0 on `--help`, otherwise runs `body` and exits with what it resolves to (2
 * with the stack when it throws). Sets `process.exitCode` rather than calling `process.exit`, so
 * pending writes (the report, the log) finish.
 *
 * @example
 * ```ts
 * runBaselineCli(parseGridwiseArgs, USAGE, async (options) => (await measure(options)) ? 0 : 1);
 * ```
 */
export function runBaselineCli<O extends { readonly help: boolean }>(
  parse: (argv: readonly string[]) => O,
  usage: string,
  body: (options: O) => Promise<number>,
): void {
  const main = async (argv: readonly string[]): Promise<number> => {
    let options: O;
    try {
      options = parse(argv);
    } catch (error) {
      console.error(`${(error as Error).message}\n\n${usage}`);
      return 2;
    }
    if (options.help) {
      console.log(usage);
      return 0;
    }
    return body(options);
  };
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error((error as Error)?.stack ?? error);
      process.exitCode = 2;
    },
  );
}
