import { defineConfig } from 'tsup';
import { baselineBundle } from '../shared/tsup.js';

// The luma.gl baseline as ONE self-contained ESM file (only Dawn external: see baselineBundle).
// Build: `pnpm --filter @scan/bench build:luma`.
export default defineConfig(baselineBundle('luma', 'baselines/luma/cli.ts'));
