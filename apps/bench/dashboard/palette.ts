// Line styles for a chart's series: a colour per series that no other series of the chart shares,
// and a marker that changes every 12 series, where colours alone get hard to tell apart.
//
// The palette starts with the Okabe–Ito colours (distinct for the common colour-vision
// deficiencies; its yellow left out, too faint on white), then adds, one at a time, the candidate
// farthest in OKLab from every colour already taken: candidates are OKLCH hues every 10° at three
// lightnesses dark enough to read on white. Each palette is a prefix of the next, so a series keeps
// its colour when a report adds series after it.

/** Chart.js point styles, in the order series take them (a new one every {@link MARKER_EVERY} series). */
export const MARKERS = ['circle', 'rect', 'triangle', 'rectRot', 'star', 'crossRot'] as const;
export type Marker = (typeof MARKERS)[number];

/** Series that share a marker before the next one starts. */
export const MARKER_EVERY = 12;

/** A series' look: a colour of its own within the chart, and a point marker. */
export interface SeriesStyle {
  /** `#rrggbb`. */
  readonly color: string;
  readonly marker: Marker;
}

const OKABE_ITO = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#000000'];

type Lab = readonly [number, number, number];

const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toGamma = (c: number) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

/** `#rrggbb` → OKLab (Björn Ottosson's matrices). */
export function hexToOklab(hex: string): Lab {
  const [r, g, b] = [1, 3, 5].map((i) => toLinear(Number.parseInt(hex.slice(i, i + 2), 16) / 255)) as [number, number, number];
  const l = Math.cbrt(0.4122214708 * r + 0.5363137492 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

/** OKLCH → `#rrggbb`, or undefined outside the sRGB gamut. */
function oklchToHex(lightness: number, chroma: number, hueDegrees: number): string | undefined {
  const h = (hueDegrees * Math.PI) / 180;
  const [a, b] = [chroma * Math.cos(h), chroma * Math.sin(h)];
  const l = (lightness + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (lightness - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (lightness - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const rgb = [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
  if (rgb.some((c) => c < -1e-4 || c > 1 + 1e-4)) return undefined;
  return `#${rgb
    .map((c) =>
      Math.round(toGamma(Math.min(1, Math.max(0, c))) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`.toUpperCase();
}

/** Euclidean distance in OKLab: about 0.02 is a just-noticeable difference. */
export function oklabDistance(x: Lab, y: Lab): number {
  return Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
}

/** The candidates: each hue at each lightness, at the highest of a few chromas that fits sRGB. */
function candidates(): string[] {
  const out = new Set<string>();
  for (const lightness of [0.45, 0.6, 0.72])
    for (let hue = 0; hue < 360; hue += 10) {
      const hex = [0.16, 0.13, 0.1, 0.07].map((c) => oklchToHex(lightness, c, hue)).find((x) => x !== undefined);
      if (hex) out.add(hex);
    }
  return [...out];
}

let palette: string[] | undefined;

/** Every colour the palette has, in the order series take them (computed once). */
export function paletteColors(): readonly string[] {
  if (palette) return palette;
  const chosen = [...OKABE_ITO];
  const labs = chosen.map(hexToOklab);
  const pool = candidates().filter((hex) => !chosen.includes(hex));
  const nearest = pool.map((hex) => Math.min(...labs.map((lab) => oklabDistance(lab, hexToOklab(hex)))));
  while (pool.length) {
    // The farthest candidate from the colours taken (the first of equals, so the order is fixed).
    const at = nearest.reduce((best, d, i) => (d > (nearest[best] as number) ? i : best), 0);
    const [hex] = pool.splice(at, 1) as [string];
    nearest.splice(at, 1);
    chosen.push(hex);
    const lab = hexToOklab(hex);
    for (const [i, other] of pool.entries()) nearest[i] = Math.min(nearest[i] as number, oklabDistance(lab, hexToOklab(other)));
  }
  palette = chosen;
  return palette;
}

/**
 * The styles of a chart's `n` series: colours that differ between every two series (up to the
 * palette's length, over a hundred), the marker changing every {@link MARKER_EVERY} series.
 *
 * @example
 * ```ts
 * seriesStyles(3); // [{ color: '#0072B2', marker: 'circle' }, { color: '#E69F00', … }, …]
 * ```
 */
export function seriesStyles(n: number): SeriesStyle[] {
  const colors = paletteColors();
  return Array.from({ length: n }, (_, i) => ({
    color: colors[i % colors.length] as string,
    marker: MARKERS[Math.floor(i / MARKER_EVERY) % MARKERS.length] as Marker,
  }));
}
