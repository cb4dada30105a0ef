import { existsSync, readdirSync } from 'node:fs';
import type { Machine } from './acquire.js';
import { openLibraryForGood } from './vulkan-loader.js';

/**
 * The real machine for `acquireAdapter`: `process.env` (which it may change), the file
 * system, and `process.dlopen`.
 *
 * @example
 * ```ts
 * const { adapter } = await acquireAdapter(webgpu, { toggles: [] }, defaultMachine());
 * ```
 */
export function defaultMachine(): Machine {
  return {
    env: process.env,
    platform: process.platform,
    exists: (path) => existsSync(path),
    list: (dir) => {
      try {
        return readdirSync(dir);
      } catch {
        return [];
      }
    },
    openLibrary: openLibraryForGood,
  };
}
