import type { BrowserConfigOptions } from 'vitest/node';

/** Vitest browser settings: headless Debian Chromium with WebGPU (see vitest-browser.js). */
export function chromiumWebGpu(): BrowserConfigOptions;
/** Aliases from `@scan/<package>` to the workspace sources (see vitest-browser.js). */
export function workspaceAliases(): { find: RegExp; replacement: string }[];
/** How the tests launch Chromium (executable and WebGPU flags; `canvas` lets WebGPU canvases present; see vitest-browser.js). */
export function chromiumLaunchOptions(options?: { canvas?: boolean }): { executablePath: string; args: string[] };
