/** GPU sizes of `--large`: where bandwidth, not launch overhead, decides the time. */
export const LARGE_SIZES: readonly number[] = [2 ** 20, 2 ** 24, 2 ** 26, 2 ** 28];

/** Default sizes, small enough for SwiftShader (about 1.5 GB/s copy) to finish in seconds. */
export const DEFAULT_SIZES: readonly number[] = [2 ** 16, 2 ** 20];

/** Largest element count a u32 index in our kernels can address. */
export const MAX_SIZE = 2 ** 32 - 1;

/**
 * Parses one size: a decimal integer (`1048576`, `1_048_576`) or a power of two written `2^k`.
 * Throws a message that names the text when it is neither, or is not a positive count.
 *
 * @example
 * ```ts
 * parseSize('2^16'); // 65536
 * parseSize('1000'); // 1000
 * ```
 */
export function parseSize(text: string): number {
  const t = text.trim().replaceAll('_', '');
  let value: number;
  const power = /^2\^(\d{1,2})$/.exec(t);
  if (power) value = 2 ** Number(power[1]);
  else if (/^\d+$/.test(t)) value = Number(t);
  else throw new Error(`size "${text}": expected an integer such as 1048576 or a power of two such as 2^20`);
  if (value < 1 || value > MAX_SIZE) throw new Error(`size "${text}": must be between 1 and ${MAX_SIZE}`);
  return value;
}

/**
 * Parses a comma-separated size list, returning the sizes sorted ascending without duplicates.
 *
 * @example
 * ```ts
 * parseSizeList('2^20,65536,2^16'); // [65536, 1048576]
 * ```
 */
export function parseSizeList(text: string): number[] {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (parts.length === 0) throw new Error(`sizes "${text}": expected at least one size`);
  return [...new Set(parts.map(parseSize))].sort((a, b) => a - b);
}

/**
 * Renders a size compactly: `2^k` for powers of two from 2^10, else the decimal number.
 *
 * @example
 * ```ts
 * formatSize(1 << 20); // '2^20'
 * formatSize(1000); // '1000'
 * ```
 */
export function formatSize(n: number): string {
  if (n >= 1024 && Number.isInteger(Math.log2(n))) return `2^${Math.log2(n)}`;
  return String(n);
}
