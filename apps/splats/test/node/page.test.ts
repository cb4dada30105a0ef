import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compareScreenshots, useDemo, waitFrames } from '@scan/gpu-testing/demo-page';
import type { Page } from 'playwright';
import { createServer } from 'vite';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

const demo = useDemo(root, createServer);

/** Waits for `count` more frames of the page's GPU (see `waitFrames` of @scan/gpu-testing). */
const nextFrames = (page: Page, count: number) => waitFrames(page, 'splatsDemo', count);
/** Pixel statistics of two screenshots (`compareScreenshots`). */
const compare = compareScreenshots;

describe('the viewer page', () => {
  test('shows frames and its readout; the GPU-sorted blend matches the CPU order and differs from an unsorted one', async () => {
    const page = await demo.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // A small scene and a fixed camera: the three orders draw the same splats.
    await page.goto(`${demo.base}?splats=2000&seed=3&order=gpu`);
    await nextFrames(page, 4);
    await expect.poll(() => page.textContent('#stats'), { timeout: 30_000 }).toMatch(/splats drawn .* frame [\d.]+ ms/);
    // Sort time from timestamp queries where the device has them (SwiftShader does), "n/a" otherwise.
    const readout = (await page.textContent('#stats')) ?? '';
    expect(readout).toMatch(/cull\+pack ([\d.]+ ms|n\/a) {2}· {2}sort ([\d.]+ ms|n\/a)/);
    if (process.env.SPLATS_SHOTS) console.log(readout);
    const status = await page.evaluate(() => window.splatsDemo!);
    expect(status.splats).toBe(2000);
    expect(status.drawn).toBeGreaterThan(500);
    const canvas = page.locator('#view');
    const shot = async (order: 'gpu' | 'none' | 'cpu') => {
      await page.selectOption('#order', order);
      await nextFrames(page, 3);
      return canvas.screenshot();
    };
    const gpu = await shot('gpu');
    const none = await shot('none');
    const cpu = await shot('cpu');
    const sorted = await compare(page, gpu, cpu);
    const unsorted = await compare(page, gpu, none);
    // SPLATS_SHOTS=dir keeps the three pictures (to look at them, or for the README's screenshot).
    const dir = process.env.SPLATS_SHOTS;
    if (dir) {
      for (const [name, png] of [
        ['gpu', gpu],
        ['none', none],
        ['cpu', cpu],
      ] as const)
        writeFileSync(`${dir}/splats-${name}.png`, png);
      console.log(`sorted: ${JSON.stringify(sorted)}, unsorted: ${JSON.stringify(unsorted)}`);
    }
    // Not blank.
    expect(sorted.varianceA).toBeGreaterThan(50);
    // The GPU's order is the CPU's (up to ties and f32 rounding), and blending in index order is not.
    expect(sorted.meanAbsDiff, 'GPU sort against CPU sort').toBeLessThan(0.05);
    expect(unsorted.meanAbsDiff, 'GPU sort against no sort').toBeGreaterThan(1);
    expect(unsorted.meanAbsDiff).toBeGreaterThan(20 * sorted.meanAbsDiff);
    // 16-bit keys draw the same picture up to the order of splats closer than a 16-bit step.
    await page.selectOption('#order', 'gpu');
    await page.selectOption('#keys', '16');
    await nextFrames(page, 3);
    const gpu16 = await canvas.screenshot();
    expect((await compare(page, gpu16, cpu)).meanAbsDiff, '16-bit keys against the CPU order').toBeLessThan(0.5);
    await expect.poll(() => page.textContent('#stats'), { timeout: 30_000 }).toMatch(/16-bit keys/);
    expect(errors).toEqual([]);
    await page.close();
  });

  // SPLATS_SCREENSHOT=path.png writes the README's screenshot (a larger scene; minutes on SwiftShader).
  test.skipIf(!process.env.SPLATS_SCREENSHOT)('the screenshot of the README', async () => {
    const page = await demo.browser.newPage();
    await page.goto(`${demo.base}?splats=60000&seed=1&canvas=480&distance=2.4&yaw=0.9&pitch=0.45`);
    await nextFrames(page, 3);
    writeFileSync(process.env.SPLATS_SCREENSHOT!, await page.locator('#view').screenshot({ timeout: 120_000 }));
    await page.close();
  });

  test('says so clearly when WebGPU is unavailable', async () => {
    const page = await demo.browser.newPage();
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined }));
    await page.goto(`${demo.base}?splats=2000`);
    const message = page.locator('#error');
    await message.waitFor({ state: 'visible', timeout: 60_000 });
    expect(await message.textContent()).toMatch(/WebGPU is not available/);
    expect(await page.locator('#view').isHidden()).toBe(true);
    await page.close();
  });
});
