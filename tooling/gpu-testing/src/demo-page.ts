// What the demo apps' page tests share (apps/water, apps/splats): the app served by its own Vite dev
// server and opened in headless Chromium with WebGPU, a wait for the page's frames, and pixel
// statistics of screenshots. Each app keeps only what its page shows.
import type { AddressInfo } from 'node:net';
import { type Browser, chromium, type Page } from 'playwright';
import { afterAll, beforeAll, expect } from 'vitest';
import { chromiumLaunchOptions } from '../vitest-browser.js';

/** What a demo page publishes on `window` (under its own name) for its tests. */
export interface DemoStatusLike {
  frames: number;
  error?: string;
}

/** The part of Vite's `createServer` the page tests use (Vite stays the app's dependency). */
export type CreateDevServer = (config: {
  root: string;
  configFile: string;
  logLevel: 'warn';
  server: { port: number; host: string; strictPort: boolean; hmr: boolean };
}) => Promise<{ listen(): Promise<unknown>; httpServer: { address(): unknown } | null; close(): Promise<void> }>;

/** A demo served and a browser to open it in; `close` ends both. */
export interface DemoServer {
  /** The page's URL, `http://127.0.0.1:PORT/`. */
  base: string;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Serves the app at `root` (its `vite.config.ts`) on a free port and launches headless Chromium with
 * WebGPU and the canvas flags, so the page can present its WebGPU canvas.
 *
 * @example
 * ```ts
 * import { createServer } from 'vite';
 * const demo = await serveDemo(fileURLToPath(new URL('../..', import.meta.url)), createServer);
 * const page = await demo.browser.newPage();
 * await page.goto(`${demo.base}?size=128`);
 * await demo.close();
 * ```
 */
export async function serveDemo(root: string, createServer: CreateDevServer): Promise<DemoServer> {
  const server = await createServer({
    root,
    configFile: `${root}/vite.config.ts`,
    logLevel: 'warn',
    server: { port: 0, host: '127.0.0.1', strictPort: false, hmr: false },
  });
  await server.listen();
  const address = server.httpServer?.address() as AddressInfo;
  const browser = await chromium.launch(chromiumLaunchOptions({ canvas: true }));
  return {
    base: `http://127.0.0.1:${address.port}/`,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * {@link serveDemo} for one test file: served before its tests, closed after them. The returned
 * object reads the served demo's `base` and `browser` once the tests run.
 *
 * @example
 * ```ts
 * const demo = useDemo(fileURLToPath(new URL('../..', import.meta.url)), createServer);
 * test('draws', async () => {
 *   const page = await demo.browser.newPage();
 *   await page.goto(demo.base);
 * });
 * ```
 */
export function useDemo(root: string, createServer: CreateDevServer): { readonly base: string; readonly browser: Browser } {
  let served: DemoServer | undefined;
  beforeAll(async () => {
    served = await serveDemo(root, createServer);
  });
  afterAll(async () => {
    await served?.close();
  });
  const need = () => {
    if (!served) throw new Error('the demo is served in beforeAll: use it inside a test');
    return served;
  };
  return {
    get base() {
      return need().base;
    },
    get browser() {
      return need().browser;
    },
  };
}

/**
 * Waits until the page's GPU has finished `frames` more frames than now (as `window[status].frames`
 * counts them), or fails with the error the page reported there.
 *
 * @example
 * ```ts
 * await waitFrames(page, 'waterDemo', 3);
 * ```
 */
export async function waitFrames(page: Page, status: string, frames: number): Promise<void> {
  // Each callback runs in the page (serialized), so each reads the status itself.
  const start = await page.evaluate((name) => (window as unknown as Record<string, DemoStatusLike | undefined>)[name]?.frames ?? 0, status);
  await page.waitForFunction(
    ([name, target]) => {
      const s = (window as unknown as Record<string, DemoStatusLike | undefined>)[name];
      return (s?.frames ?? 0) >= target || s?.error !== undefined;
    },
    [status, start + frames] as const,
    { timeout: 90_000 },
  );
  const error = await page.evaluate((name) => (window as unknown as Record<string, DemoStatusLike | undefined>)[name]?.error, status);
  expect(error, 'the page reported an error').toBeUndefined();
}

/**
 * Pixel statistics of two PNG screenshots, decoded by the browser itself (no PNG library needed):
 * each one's luma variance, and the mean absolute difference of their bytes.
 *
 * @example
 * ```ts
 * const { meanAbsDiff } = await compareScreenshots(page, before, after);
 * ```
 */
export async function compareScreenshots(
  page: Page,
  a: Buffer,
  b: Buffer,
): Promise<{ varianceA: number; varianceB: number; meanAbsDiff: number }> {
  return page.evaluate(
    async ([pngA, pngB]) => {
      const pixels = async (png: string) => {
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const g = canvas.getContext('2d')!;
        g.drawImage(bitmap, 0, 0);
        return g.getImageData(0, 0, bitmap.width, bitmap.height).data;
      };
      const [pa, pb] = [await pixels(pngA!), await pixels(pngB!)];
      const variance = (p: Uint8ClampedArray) => {
        let sum = 0;
        let squares = 0;
        let count = 0;
        for (let i = 0; i < p.length; i += 4) {
          const luma = 0.299 * p[i]! + 0.587 * p[i + 1]! + 0.114 * p[i + 2]!;
          sum += luma;
          squares += luma * luma;
          count++;
        }
        return squares / count - (sum / count) ** 2;
      };
      let diff = 0;
      for (let i = 0; i < Math.min(pa.length, pb.length); i++) diff += Math.abs(pa[i]! - pb[i]!);
      return { varianceA: variance(pa), varianceB: variance(pb), meanAbsDiff: diff / pa.length };
    },
    [a.toString('base64'), b.toString('base64')],
  );
}
