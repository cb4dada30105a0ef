import { type LoadedReport, newestFirst } from './model.js';

// Which device ("card") the views show. With every device at once a chart held a dozen or more
// series (each configuration once per GPU), so the page opens on one: the device of the newest
// report, the run a visitor most likely came to see. Pure, so the choice is tested in Node.

/** The selector's value that shows every device. */
export const ALL_DEVICES = '*';

/** A device the selector offers: how many of the reports ran on it, and the newest one's date. */
export interface CardOption {
  readonly device: string;
  readonly reports: number;
  /** ISO date of its newest report. */
  readonly newest: string;
}

/**
 * The devices of the reports, the one with the newest report first.
 *
 * @example
 * ```ts
 * cardOptions(reports); // [{ device: 'nvidia-h100-80gb-hbm3', reports: 50, newest: '2026-12-05T16:41:17.302Z' }, …]
 * ```
 */
export function cardOptions(reports: readonly LoadedReport[]): CardOption[] {
  const options = new Map<string, { reports: number; newest: string }>();
  for (const r of newestFirst(reports)) {
    const option = options.get(r.device) ?? { reports: 0, newest: r.report.date };
    option.reports++;
    options.set(r.device, option);
  }
  return [...options].map(([device, o]) => ({ device, ...o }));
}

/**
 * The device the page opens on: the device of the newest report, or {@link ALL_DEVICES} when there
 * is no report.
 *
 * @example
 * ```ts
 * defaultCard(reports); // 'nvidia-h100-80gb-hbm3'
 * ```
 */
export function defaultCard(reports: readonly LoadedReport[]): string {
  return newestFirst(reports)[0]?.device ?? ALL_DEVICES;
}

/**
 * The card to show: the one the visitor picked while it still has reports, else the default. A pick
 * is kept when reports are added; until there is one, a newer report (a live run) moves the page to
 * its device.
 *
 * @example
 * ```ts
 * currentCard(reports, undefined); // defaultCard(reports)
 * currentCard(reports, ALL_DEVICES); // ALL_DEVICES
 * ```
 */
export function currentCard(reports: readonly LoadedReport[], picked: string | undefined): string {
  if (picked === ALL_DEVICES || (picked !== undefined && reports.some((r) => r.device === picked))) return picked;
  return defaultCard(reports);
}

/**
 * The reports of one card (all of them for {@link ALL_DEVICES}). Baseline reports go with the GPU they
 * ran on: their device names agree with the bench's (`deviceName`).
 *
 * @example
 * ```ts
 * const selected = onCard(shownReports, currentCard(shownReports, picked));
 * ```
 */
export function onCard(reports: readonly LoadedReport[], card: string): LoadedReport[] {
  return card === ALL_DEVICES ? [...reports] : reports.filter((r) => r.device === card);
}
