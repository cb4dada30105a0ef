// Writes the SPIR-V that Dawn (the `webgpu` package, through @scan/core/node) makes of WGSL files, and
// counts what Tint's translation adds to it. No GPU is needed: Dawn translates for SwiftShader's
// Vulkan the same way it does for a GPU's, except for what depends on the device's features (the
// Vulkan memory model is used where the device has it; SwiftShader does). SwiftShader allows 32 KiB
// of workgroup memory, so a pass that needs more (a 13-key tile with a second tile of workgroup memory) does not compile here.
//
//   node apps/bench/cuda/onesweep/dump-spirv.mjs OUT_DIR FILE.wgsl… [--sets default,norobust,novmm]
//
// (the WGSL from dump-wgsl.ts; @scan/core must be built).
//
// A set is a group of Dawn toggles, the same names as wgsl-variants.sh's @SET: default (none),
// norobust (disable_robustness), vmm / novmm (use_vulkan_memory_model on / off), noinit
// (disable_workgroup_init). Each file and set gets OUT_DIR/<file>.<set>.spvasm and a line of counts:
//   clamps      UMin instructions (Tint's robustness clamps most indices with one);
//   arrayLength OpArrayLength (clamps against a runtime-sized buffer);
//   loopGuards  loops given Tint's 64-bit iteration counter (tint_loop_idx), which it adds to every
//               loop it cannot prove finite;
//   shuffleClamps subgroup shuffles whose lane Tint clamps to the subgroup's last lane;
//   coherent    storage buffers decorated Coherent (without the Vulkan memory model);
//   nonPrivate  loads and stores marked NonPrivatePointer (with it);
//   barriers    OpControlBarrier; instructions: every line with an `Op`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SETS = {
  default: { enable: [], disable: [] },
  norobust: { enable: ['disable_robustness'], disable: [] },
  vmm: { enable: ['use_vulkan_memory_model'], disable: [] },
  novmm: { enable: [], disable: ['use_vulkan_memory_model'] },
  noinit: { enable: ['disable_workgroup_init'], disable: [] },
};

/** Compiles one WGSL file (its `main`) with dump_shaders on; Dawn logs the SPIR-V to stdout. */
async function child(file, setName) {
  const { createNodeContext } = await import('@scan/core/node');
  const set = SETS[setName];
  const toggles = [`enable-dawn-features=${['dump_shaders', 'disable_symbol_renaming', ...set.enable].join(',')}`];
  if (set.disable.length > 0) toggles.push(`disable-dawn-features=${set.disable.join(',')}`);
  const ctx = await createNodeContext({ toggles });
  const module = ctx.device.createShaderModule({ code: readFileSync(file, 'utf8') });
  await ctx.device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  ctx.destroy();
}

/** What Tint added, counted in the SPIR-V's disassembly. */
function counts(spirv) {
  const lines = spirv.split('\n');
  const count = (re) => lines.filter((l) => re.test(l)).length;
  return {
    instructions: count(/\bOp[A-Z]/),
    clamps: count(/\bUMin\b/),
    arrayLength: count(/OpArrayLength/),
    // Each guarded loop declares one counter variable.
    loopGuards: count(/%tint_loop_idx\w* = OpVariable/),
    shuffleClamps: count(/OpLoad %uint %tint_subgroup_last_id/),
    coherent: count(/OpDecorate %\w+ Coherent/),
    nonPrivate: count(/NonPrivatePointer/),
    barriers: count(/OpControlBarrier/),
  };
}

function main(argv) {
  const setsAt = argv.indexOf('--sets');
  const sets = setsAt >= 0 ? argv[setsAt + 1].split(',') : ['default'];
  const rest = setsAt >= 0 ? argv.filter((_, i) => i !== setsAt && i !== setsAt + 1) : argv;
  const [out, ...files] = rest;
  if (!out || files.length === 0) throw new Error('usage: dump-spirv.mjs OUT_DIR FILE.wgsl… [--sets default,norobust,…]');
  for (const s of sets) if (!SETS[s]) throw new Error(`unknown set ${s} (${Object.keys(SETS).join(', ')})`);
  mkdirSync(out, { recursive: true });
  const self = fileURLToPath(import.meta.url);
  for (const file of files) {
    for (const set of sets) {
      const run = spawnSync(process.execPath, [self, '--child', file, set], { encoding: 'utf8', maxBuffer: 64 << 20 });
      const text = `${run.stdout}\n${run.stderr}`;
      const at = text.indexOf('Dumped SPIRV disassembly');
      if (run.status !== 0 || at < 0) throw new Error(`${file} (${set}): no SPIR-V dumped\n${run.stderr.slice(-1500)}`);
      // The disassembly runs to the next log entry ("info:", "warning:") or the end.
      const body = text.slice(text.indexOf('\n', at) + 1).split(/\n(?=[a-z]+:\s*$)/m)[0];
      const name = `${basename(file, '.wgsl')}.${set}.spvasm`;
      writeFileSync(join(out, name), body);
      console.log(name.padEnd(44), JSON.stringify(counts(body)));
    }
  }
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4]);
else main(process.argv.slice(2));
