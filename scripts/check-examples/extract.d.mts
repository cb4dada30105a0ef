// Types of extract.mjs, for the TypeScript that imports it (tooling/node-suite/test/readme.node.test.ts).

/** One TypeScript example of the documentation. */
export interface Example {
  /** The file, relative to the repository's root, with forward slashes. */
  source: string;
  /** 1-based line of the example's first code line in `source`. */
  line: number;
  code: string;
  kind: 'jsdoc' | 'markdown';
  /** The fence says ```ts nocheck: the example is not typechecked. */
  nocheck: boolean;
  /** The package folder (packages/<pkg>) of a JSDoc example. */
  pkg?: string;
}

export function markdownFiles(root: string): string[];
export function packageNames(root: string): string[];
export function extractExamples(root: string): Example[];
export function jsdocExamples(text: string): Pick<Example, 'line' | 'code' | 'nocheck'>[];
export function markdownExamples(text: string): Pick<Example, 'line' | 'code' | 'nocheck'>[];
