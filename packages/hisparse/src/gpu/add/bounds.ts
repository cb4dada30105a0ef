import { POOL_HEADER_WORDS } from '../../format/layout.js';
import { type Census, levelNodes } from '../census.js';

/**
 * Bounds on C = A + B from A's and B's censuses, which size the add's items and C's pool:
 * - `levelNodes`: per level, A's nodes there plus B's — every node of C sits where A or B has one;
 * - `nodes`: their sum, the most pairs the traversal queues (its item capacity);
 * - `words`: the most words C's pool takes, header included: A's words plus B's plus 4 for each
 *   node both have (at most min(A's, B's) nodes per level). A node of C where only one side has one
 *   is that node, type and size alike; where both have one, of a and b entries, it holds at most
 *   a + b entries, and the format's node of a + b entries takes at most 4 words more than the
 *   nodes of a and of b together (a dense node is d² words, no more than a dense operand; a COO4
 *   node of k entries takes 6⌈k/4⌉ + 2 or + 4 words; checked for every a, b ≤ d² at d ≤ 64).
 *
 * @example
 * ```ts
 * const { nodes, words } = addBoundsFromCensus(A.census, B.census);
 * ```
 */
export function addBoundsFromCensus(a: Census, b: Census): { levelNodes: number[]; nodes: number; words: number } {
  const na = levelNodes(a);
  const nb = levelNodes(b);
  const perLevel = na.map((n, level) => n + (nb[level] ?? 0));
  const sumWords = (c: Census) => c.words.reduce((sum, level) => sum + level.reduce((x, y) => x + y, 0), 0);
  const both = na.reduce((sum, n, level) => sum + Math.min(n, nb[level] ?? 0), 0);
  return {
    levelNodes: perLevel,
    nodes: perLevel.reduce((sum, n) => sum + n, 0),
    words: POOL_HEADER_WORDS + sumWords(a) + sumWords(b) + 4 * both,
  };
}
