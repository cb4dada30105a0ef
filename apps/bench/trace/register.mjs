// Node preload of the GPU-call trace: every `import('webgpu')` after it gets traced-webgpu.mjs,
// which records the shaders and the commands of each submit (see README.md next to this file).
// Through NODE_OPTIONS, so that the bench's child processes (one per case) load it too:
//   SCAN_TRACE_DIR=/tmp/trace NODE_OPTIONS="--import=$PWD/apps/bench/trace/register.mjs" node apps/bench/dist/cli.js …
import { register } from 'node:module';

register('./resolve-webgpu.mjs', import.meta.url);
