// Prints the summary table of BENCHMARKS.md from the reports of one device call: ours
// (`dist/cli.js --out`), the CUDA libraries' (`baselines/cuda.py`) and the WebGPU libraries'
// (`dist-luma/luma.js`). Usage:
//   node apps/bench/dist/summary.js [--sizes 2^20,2^24,2^28] REPORT.json...
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type BenchReport, validateReport } from '../report.js';
import { parseSizeList } from '../sizes.js';
import { summaryMarkdown } from './markdown.js';
import { summarize } from './summarize.js';

const HELP = `Usage: node dist/summary.js [--sizes 2^20,2^24,2^28] REPORT.json...

Prints BENCHMARKS.md's summary table: for each primitive, our median time and ×copy at each size, and
the fastest CUDA and WebGPU library's time ÷ ours, from reports of ONE device call (reports of
different devices are refused).`;

function main(argv: readonly string[]): void {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { sizes: { type: 'string', default: '2^20,2^24,2^28' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help || positionals.length === 0) {
    console.log(HELP);
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  const reports = positionals.map((path) => {
    const data: unknown = JSON.parse(readFileSync(path, 'utf8'));
    const problems = validateReport(data);
    if (problems.length > 0) throw new Error(`${path} is not a bench report:\n${problems.join('\n')}`);
    return data as BenchReport;
  });
  process.stdout.write(summaryMarkdown(summarize(reports, parseSizeList(values.sizes))));
}

main(process.argv.slice(2));
