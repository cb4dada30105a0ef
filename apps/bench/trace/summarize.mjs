#!/usr/bin/env node
// Prints, for each process of a traced bench run, the submits it repeated that hold a timed pass —
// for a case, the work timed once per run (and the copy kernel the ratio is taken against) — with
// the dispatches, copies and clears in order, so two builds' traces can be diffed line by line:
//   node apps/bench/trace/summarize.mjs /tmp/trace > before.txt
// A pipeline's label carries its specialization after '|'; --short drops it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const short = args.includes('--short');
const dir = args.find((a) => !a.startsWith('--'));
if (!dir) {
  console.error('usage: summarize.mjs TRACE_DIR [--short]');
  process.exit(2);
}
const byProcess = new Map();
for (const line of readFileSync(join(dir, 'calls.jsonl'), 'utf8').split('\n')) {
  if (!line) continue;
  const { pid, commands } = JSON.parse(line);
  const counts = byProcess.get(pid) ?? new Map();
  byProcess.set(pid, counts);
  const key = JSON.stringify(commands);
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
// Processes by the order of their first submit (the bench runs one case per child process, in
// order), not by pid, so that two runs' summaries diff cleanly.
let index = 0;
for (const counts of byProcess.values()) {
  index += 1;
  for (const [key, n] of counts) {
    const commands = JSON.parse(key);
    if (n < 2 || !commands.includes('pass (timestamps)')) continue;
    const dispatches = commands.filter((c) => c.startsWith('dispatch')).length;
    console.log(`process ${index}: submitted ${n} times, ${dispatches} dispatches`);
    for (const c of commands) console.log(`  ${short ? c.replace(/\|[^[]*(?= \[)/, '') : c}`);
  }
}
