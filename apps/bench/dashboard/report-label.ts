import type { LoadedReport } from './model.js';

// How the tables name a report. The file names repeat what the row already says
// (`h100-2026-11-28-7dc0fa1-typed-boundary-before-2`: device, date, commit, then what the run was
// for) and wrapped into five lines in a 1400 px window. The cell shows the date, the commit and
// the rest of the name on one line; its tooltip keeps the whole name.

/** `11-28 7dc0fa1 typed-boundary-before-2`: the day, the commit (`+` when dirty) and the name without the device, date and commit. */
export function reportLabel(source: LoadedReport): string {
  const { date, commit, dirty } = source.report;
  const day = date.slice(0, 10);
  const short = commit?.slice(0, 7);
  let rest = source.name;
  // A file name that starts with the device's short name and the date: leave both out.
  const at = rest.indexOf(day);
  if (at >= 0 && /^[a-z0-9]*-?$/i.test(rest.slice(0, at))) rest = rest.slice(at + day.length).replace(/^-/, '');
  if (short && (rest === short || rest.startsWith(`${short}-`))) rest = rest.slice(short.length + 1);
  return [day.slice(5), short ? `${short}${dirty ? '+' : ''}` : 'no commit', rest].filter(Boolean).join(' ');
}

/** The tooltip of a report's cell: the whole name, date and commit. */
export function reportTitle(source: LoadedReport): string {
  const { date, commit, dirty } = source.report;
  return `${source.name}\n${date.slice(0, 16).replace('T', ' ')}\ncommit ${commit ?? 'unknown'}${dirty ? ' (dirty)' : ''}`;
}
