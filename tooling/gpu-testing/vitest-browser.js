import { playwright } from '@vitest/browser-playwright';

/**
 * How the tests launch Chromium: Debian's build at `/usr/bin/chromium` (or `SCAN_CHROMIUM`) with
 * WebGPU enabled; for Playwright's `chromium.launch(...)` and for configs that build their own
 * provider (an app bound to another Vite major cannot take `chromiumWebGpu()`'s types).
 *
 * With `{ canvas: true }` the compositor also runs on SwiftShader (ANGLE and Vulkan), which lets a
 * WebGPU canvas present: with the plain flags the first present of a WebGPU canvas here loses the
 * device ("A valid external Instance reference no longer exists"), and with these a canvas cleared
 * red screenshots red. Compute-only tests do not need them.
 *
 * @example
 * ```ts
 * const browser = await chromium.launch(chromiumLaunchOptions());
 * const presenting = await chromium.launch(chromiumLaunchOptions({ canvas: true }));
 * ```
 * @param {{ canvas?: boolean }} [options]
 * @returns {{ executablePath: string, args: string[] }}
 */
export function chromiumLaunchOptions(options = {}) {
  const env = globalThis.process?.env ?? {};
  return {
    executablePath: env.SCAN_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--enable-unsafe-webgpu',
      '--enable-features=Vulkan',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(options.canvas
        ? ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--enable-gpu', '--use-vulkan=swiftshader']
        : []),
    ],
  };
}

/**
 * The Vitest `browser` settings every package's GPU tests use: headless Debian Chromium with
 * WebGPU enabled (SwiftShader's Vulkan when the machine has no GPU). Chromium must be at
 * `/usr/bin/chromium` (`apt-get install chromium`) or at `SCAN_CHROMIUM`.
 *
 * @example
 * ```ts
 * // vitest.config.ts
 * export default defineConfig({ test: { projects: [{ test: { name: 'browser', browser: chromiumWebGpu() } }] } });
 * ```
 */
// Plain JavaScript (checked through JSDoc) because Vitest loads config dependencies from node_modules without a TypeScript loader.
/** @returns {import('vitest/node').BrowserConfigOptions} */
export function chromiumWebGpu() {
  return {
    enabled: true,
    headless: true,
    screenshotFailures: false,
    instances: [{ browser: 'chromium' }],
    provider: playwright({
      launchOptions: chromiumLaunchOptions(),
    }),
  };
}

/**
 * Vitest `resolve.alias` entries that point `@scan/<package>` and `@scan/<package>/<subpath>` at the
 * workspace sources, so tests run against the code in the tree without a build step.
 *
 * @example
 * ```ts
 * export default defineConfig({ resolve: { alias: workspaceAliases() }, test: { ... } });
 * ```
 */
export function workspaceAliases() {
  const packages = new URL('../../packages/', import.meta.url).pathname;
  const tooling = new URL('./src/', import.meta.url).pathname;
  return [
    { find: /^@scan\/gpu-testing$/, replacement: `${tooling}index.ts` },
    { find: /^@scan\/gpu-testing\/node$/, replacement: `${tooling}node.ts` },
    { find: /^@scan\/((?!gpu-testing)[a-z-]+)$/, replacement: `${packages}$1/src/index.ts` },
    { find: /^@scan\/([a-z-]+)\/(cpu|node|kit)$/, replacement: `${packages}$1/src/$2/index.ts` },
  ];
}
