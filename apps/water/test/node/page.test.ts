import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromiumLaunchOptions } from '@scan/gpu-testing/vitest-browser';
import { type Browser, chromium, type Page } from 'playwright';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

let server: ViteDevServer;
let browser: Browser;
let base: string;

beforeAll(async () => {
  server = await createServer({
    root,
    configFile: `${root}/vite.config.ts`,
    logLevel: 'warn',
    server: { port: 0, host: '127.0.0.1', strictPort: false, hmr: false },
  });
  await server.listen();
  const address = server.httpServer?.address() as AddressInfo;
  base = `http://127.0.0.1:${address.port}/`;
  // The canvas flags let the page present its WebGPU canvas (the default); see chromiumLaunchOptions.
  browser = await chromium.launch(chromiumLaunchOptions({ canvas: true }));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Waits until the page's GPU has finished `frames` more frames than now, or fails with the page's error. */
async function waitFrames(page: Page, frames: number): Promise<void> {
  const start = await page.evaluate(() => window.waterDemo?.frames ?? 0);
  await page.waitForFunction(
    (target) => (window.waterDemo?.frames ?? 0) >= target || window.waterDemo?.error !== undefined,
    start + frames,
    {
      timeout: 90_000,
    },
  );
  const error = await page.evaluate(() => window.waterDemo?.error);
  expect(error, 'the page reported an error').toBeUndefined();
}

/** Pixel statistics of two PNG screenshots, decoded by the browser itself (no PNG library needed). */
async function compare(page: Page, a: Buffer, b: Buffer): Promise<{ varianceA: number; varianceB: number; meanAbsDiff: number }> {
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

describe('the demo page', () => {
  // Both ways frames reach the screen: the WebGPU canvas (the default) and the copy into a 2-D
  // canvas (`present=copy`, for browsers that run WebGPU compute but cannot present; src/present.ts).
  for (const present of ['canvas', 'copy'] as const) {
    test(`draws the water, answers a click with a drop, and steps when running (present=${present})`, async () => {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      // Paused, so the only change between the two shots is the click's drop.
      await page.goto(`${base}?size=128&terrain=island&paused=1${present === 'copy' ? '&present=copy' : ''}`);
      await waitFrames(page, 3);
      const canvas = page.locator('#view');
      const still = await canvas.screenshot();
      await waitFrames(page, 2);
      const before = await canvas.screenshot();
      // Paused and untouched, frames are identical: whatever changes next comes from the click.
      expect((await compare(page, still, before)).meanAbsDiff).toBe(0);
      const box = (await canvas.boundingBox())!;
      await page.mouse.click(box.x + box.width * 0.25, box.y + box.height * 0.7);
      await waitFrames(page, 3);
      const after = await canvas.screenshot();
      const stats = await compare(page, before, after);
      // Not blank: terrain and water give a spread of brightness (a uniform canvas has variance 0).
      expect(stats.varianceA).toBeGreaterThan(50);
      expect(stats.varianceB).toBeGreaterThan(50);
      expect(stats.meanAbsDiff, 'the click changed the picture').toBeGreaterThan(0.005);

      await page.click('#pause');
      await page.waitForFunction(() => (window.waterDemo?.steps ?? 0) >= 8, undefined, { timeout: 90_000 });
      await expect.poll(() => page.textContent('#stats'), { timeout: 30_000 }).toMatch(/steps\/s/);
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  test('says so clearly when WebGPU is unavailable', async () => {
    const page = await browser.newPage();
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined }));
    await page.goto(`${base}?size=128`);
    const message = page.locator('#error');
    await message.waitFor({ state: 'visible', timeout: 60_000 });
    expect(await message.textContent()).toMatch(/WebGPU is not available/);
    expect(await page.locator('#view').isHidden()).toBe(true);
    await page.close();
  });
});
