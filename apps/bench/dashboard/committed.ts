import { type LoadedReport, toLoadedReport } from './model.js';

// The reports committed under benchmarks/ ship with the page: Vite copies each JSON file into the
// build as an asset, so the static build shows them with no server behind it. Files there that are
// not bench reports (the Node stress record) are listed as skipped.
const COMMITTED = import.meta.glob('../../../benchmarks/*.json', { query: '?url', import: 'default', eager: true }) as Record<
  string,
  string
>;

/** The committed reports that loaded, and the files that are not bench reports. */
export interface CommittedReports {
  readonly reports: LoadedReport[];
  readonly skipped: string[];
}

/**
 * Fetches and validates every committed report.
 *
 * @example
 * ```ts
 * const { reports, skipped } = await loadCommittedReports();
 * ```
 */
export async function loadCommittedReports(): Promise<CommittedReports> {
  const reports: LoadedReport[] = [];
  const skipped: string[] = [];
  await Promise.all(
    Object.entries(COMMITTED).map(async ([path, url]) => {
      const name = path.replace(/^.*\//, '');
      try {
        const loaded = toLoadedReport(name, 'committed', await (await fetch(url)).json());
        if ('problems' in loaded) skipped.push(name);
        else reports.push(loaded);
      } catch {
        skipped.push(name);
      }
    }),
  );
  return { reports, skipped: skipped.sort() };
}
