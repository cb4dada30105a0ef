import type { PresentMode } from './present.js';
import { MAX_SIZE, MIN_SIZE, TERRAIN_NAMES, type TerrainName } from './sim/index.js';

/** Grid sizes offered in the page's select. */
export const GRID_SIZES = [128, 256, 512, 1024, 2048] as const;

/** What the page runs, from the URL and the controls. */
export interface DemoSettings {
  size: number;
  terrain: TerrainName;
  paused: boolean;
  /** Simulation steps per displayed frame. */
  stepsPerFrame: number;
  /** How frames reach the canvas (`?present=copy` for browsers that cannot present WebGPU; see `present.ts`). */
  present: PresentMode;
}

/**
 * Reads the settings from a query string (`?size=128&terrain=island&paused=1&spf=2&present=copy`), ignoring values that do not parse (any integer size the
 * simulation accepts is allowed, so tests can run a small grid).
 *
 * @example
 * ```ts
 * readSettings('?size=64&terrain=hills'); // { size: 64, terrain: 'hills', paused: false, stepsPerFrame: 1, present: 'canvas' }
 * ```
 */
export function readSettings(search: string): DemoSettings {
  const query = new URLSearchParams(search);
  const size = Number(query.get('size'));
  const terrain = query.get('terrain') as TerrainName | null;
  const spf = Number(query.get('spf'));
  return {
    size: Number.isInteger(size) && size >= MIN_SIZE && size <= MAX_SIZE ? size : 256,
    terrain: terrain && (TERRAIN_NAMES as readonly string[]).includes(terrain) ? terrain : 'island',
    paused: query.get('paused') === '1',
    stepsPerFrame: Number.isInteger(spf) && spf >= 1 && spf <= 64 ? spf : 1,
    present: query.get('present') === 'copy' ? 'copy' : 'canvas',
  };
}

/** The query string of `settings` (for `history.replaceState`, so a reload keeps them). */
export function settingsQuery(settings: DemoSettings): string {
  const query = new URLSearchParams({ size: String(settings.size), terrain: settings.terrain });
  if (settings.paused) query.set('paused', '1');
  if (settings.present !== 'canvas') query.set('present', settings.present);
  if (settings.stepsPerFrame !== 1) query.set('spf', String(settings.stepsPerFrame));
  return `?${query}`;
}
