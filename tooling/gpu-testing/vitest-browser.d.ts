import type { BrowserConfigOptions } from 'vitest/node';

/** Vitest browser settings: headless Debian Chromium with WebGPU (see vitest-browser.js). */
export function chromiumWebGpu(): BrowserConfigOptions;
/** Aliases from `@scan/<package>` to the workspace sources (see vitest-browser.js). */
export function workspaceAliases(): { find: RegExp; replacement: string }[];
/** How the tests launch Chromium (executable and WebGPU flags; see vitest-browser.js). */
export function chromiumLaunchOptions(): { executablePath: string; args: string[] };
