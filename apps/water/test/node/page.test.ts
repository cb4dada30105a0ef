import { fileURLToPath } from 'node:url';
import { compareScreenshots, useDemo, waitFrames } from '@scan/gpu-testing/demo-page';
import type { Page } from 'playwright';
import { createServer } from 'vite';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

const demo = useDemo(root, createServer);

/** Waits for `count` more frames of the page's GPU (see `waitFrames` of @scan/gpu-testing). */
const nextFrames = (page: Page, count: number) => waitFrames(page, 'waterDemo', count);
/** Pixel statistics of two screenshots (`compareScreenshots`). */
const compare = compareScreenshots;

describe('the demo page', () => {
  // Both ways frames reach the screen: the WebGPU canvas (the default) and the copy into a 2-D
  // canvas (`present=copy`, for browsers that run WebGPU compute but cannot present; src/present.ts).
  for (const present of ['canvas', 'copy'] as const) {
    test(`draws the water, answers a click with a drop, and steps when running (present=${present})`, async () => {
      const page = await demo.browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      // Paused, so the only change between the two shots is the click's drop.
      await page.goto(`${demo.base}?size=128&terrain=island&paused=1${present === 'copy' ? '&present=copy' : ''}`);
      await nextFrames(page, 3);
      const canvas = page.locator('#view');
      const still = await canvas.screenshot();
      await nextFrames(page, 2);
      const before = await canvas.screenshot();
      // Paused and untouched, frames are identical: whatever changes next comes from the click.
      expect((await compare(page, still, before)).meanAbsDiff).toBe(0);
      const box = (await canvas.boundingBox())!;
      await page.mouse.click(box.x + box.width * 0.25, box.y + box.height * 0.7);
      await nextFrames(page, 3);
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
    const page = await demo.browser.newPage();
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined }));
    await page.goto(`${demo.base}?size=128`);
    const message = page.locator('#error');
    await message.waitFor({ state: 'visible', timeout: 60_000 });
    expect(await message.textContent()).toMatch(/WebGPU is not available/);
    expect(await page.locator('#view').isHidden()).toBe(true);
    await page.close();
  });
});
