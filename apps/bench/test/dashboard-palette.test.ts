import { describe, expect, test } from 'vitest';
import { hexToOklab, MARKER_EVERY, oklabDistance, paletteColors, seriesStyles } from '../dashboard/palette.js';

// Issue 46: charts had a dozen or more series on an 8-colour palette that repeated.

/** The smallest OKLab distance between two colours of the list. */
function closest(colors: readonly string[]): number {
  const labs = colors.map(hexToOklab);
  let least = Number.POSITIVE_INFINITY;
  for (const [i, a] of labs.entries()) for (const b of labs.slice(i + 1)) least = Math.min(least, oklabDistance(a, b));
  return least;
}

describe('series colours', () => {
  test('no two series of a chart share a colour, for 1 to 40 series', () => {
    for (let n = 1; n <= 40; n++) {
      const colors = seriesStyles(n).map((s) => s.color);
      expect(new Set(colors).size, `${n} series`).toBe(n);
      for (const c of colors) expect(c).toMatch(/^#[0-9A-F]{6}$/);
    }
  });

  test('the colours stay apart: clearly up to 12 series, still visibly up to 40', () => {
    // 0.02 in OKLab is about a just-noticeable difference.
    expect(closest(seriesStyles(12).map((s) => s.color))).toBeGreaterThan(0.1);
    expect(closest(seriesStyles(40).map((s) => s.color))).toBeGreaterThan(0.04);
  });

  test('beyond 12 series the marker changes too, so no two series look alike', () => {
    const styles = seriesStyles(40);
    expect(new Set(styles.map((s) => `${s.color} ${s.marker}`)).size).toBe(40);
    expect(styles.slice(0, MARKER_EVERY).every((s) => s.marker === 'circle')).toBe(true);
    expect(styles[MARKER_EVERY]?.marker).not.toBe('circle');
  });

  test('a series keeps its colour when more series join the chart; the first is Okabe–Ito blue', () => {
    expect(seriesStyles(5)).toEqual(seriesStyles(30).slice(0, 5));
    expect(seriesStyles(1)[0]?.color).toBe('#0072B2');
    expect(paletteColors().length).toBeGreaterThan(100);
  });

  test('every colour reads on the white page: none lighter than OKLab L 0.8', () => {
    for (const c of paletteColors()) expect(hexToOklab(c)[0], c).toBeLessThan(0.8);
  });
});
