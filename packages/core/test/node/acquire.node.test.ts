// The decision logic of createNodeContext with an injected `webgpu` module and machine, so every
// branch (no GPU, GPU, GPU without adapter, no SwiftShader, no Vulkan loader, missing package)
// is checked without changing this machine.
import { describe, expect, test } from 'vitest';
import { ScanError } from '../../src/errors.js';
import { acquireAdapter, type Machine } from '../../src/node/acquire.js';
import { loadWebGpu, type WebGpuModule } from '../../src/node/load-webgpu.js';
import { CHROMIUM_SWIFTSHADER_ICD, findSwiftShaderIcd, hasHardwareIcd } from '../../src/node/vulkan-icd.js';
import { ensureVulkanLoader } from '../../src/node/vulkan-loader.js';

const NVIDIA_ICD = '/usr/share/vulkan/icd.d/nvidia_icd.json';

interface FakeOptions {
  files?: string[];
  env?: Record<string, string | undefined>;
  platform?: string;
  /** Libraries `dlopen` finds. */
  libraries?: string[];
  /** Which adapter a Dawn instance returns, from the environment it was created in. */
  adapterFor?: (env: Record<string, string | undefined>, options: GPURequestAdapterOptions) => string | null;
  createThrows?: string;
  requestRejects?: string;
}

/** A fake machine and `webgpu` module; `creates` records the environment at each `create()`. */
function fake(options: FakeOptions) {
  const files = new Set(options.files ?? []);
  const env: Record<string, string | undefined> = { ...(options.env ?? {}) };
  const opened: string[] = [];
  const creates: { toggles: string[]; icd: string | undefined; driverFiles: string | undefined }[] = [];
  const requests: GPURequestAdapterOptions[] = [];
  const machine: Machine = {
    env,
    platform: options.platform ?? 'linux',
    exists: (path) => files.has(path),
    list: (dir) => [...files].filter((f) => f.startsWith(`${dir}/`)).map((f) => f.slice(dir.length + 1)),
    openLibrary: (path) => {
      if (!(options.libraries ?? ['libvulkan.so.1']).includes(path)) throw new Error(`${path}: cannot open shared object file`);
      opened.push(path);
    },
  };
  const webgpu: WebGpuModule = {
    globals: {},
    create: (toggles) => {
      if (options.createThrows) throw new Error(options.createThrows);
      const snapshot = { ...env };
      creates.push({ toggles, icd: env['VK_ICD_FILENAMES'], driverFiles: env['VK_DRIVER_FILES'] });
      return {
        requestAdapter: async (o: GPURequestAdapterOptions = {}) => {
          requests.push(o);
          if (options.requestRejects) throw new Error(options.requestRejects);
          const name = (options.adapterFor ?? defaultAdapterFor)(snapshot, o);
          return name === null ? null : ({ info: { description: name } } as unknown as GPUAdapter);
        },
      } as unknown as GPU;
    },
  };
  return { env, machine, webgpu, creates, requests, opened };
}

/** Real-world behaviour: SwiftShader when Vulkan points at it, else a GPU only if an NVIDIA ICD exists. */
function defaultAdapterFor(env: Record<string, string | undefined>): string | null {
  return env['VK_DRIVER_FILES']?.includes('swiftshader') ? 'SwiftShader' : null;
}

async function rejection(promise: Promise<unknown>): Promise<ScanError> {
  try {
    await promise;
  } catch (error) {
    return error as ScanError;
  }
  throw new Error('expected a rejection');
}

describe('acquireAdapter on Linux', () => {
  test('no GPU driver: SwiftShader is selected before the first create()', async () => {
    const f = fake({ files: [CHROMIUM_SWIFTSHADER_ICD] });
    const got = await acquireAdapter(f.webgpu, { toggles: ['backend=vulkan'] }, f.machine);
    expect(got.adapter.info.description).toBe('SwiftShader');
    expect(got.swiftShaderIcd).toBe(CHROMIUM_SWIFTSHADER_ICD);
    expect(f.creates).toEqual([{ toggles: ['backend=vulkan'], icd: CHROMIUM_SWIFTSHADER_ICD, driverFiles: CHROMIUM_SWIFTSHADER_ICD }]);
    expect(f.env, 'the variables are put back once the adapter is there').toEqual({});
  });

  test('an NVIDIA ICD: Vulkan is left alone and the GPU is used', async () => {
    const f = fake({
      files: [CHROMIUM_SWIFTSHADER_ICD, NVIDIA_ICD],
      adapterFor: (env) => (env['VK_DRIVER_FILES'] ? 'SwiftShader' : 'H100'),
    });
    const got = await acquireAdapter(f.webgpu, { toggles: [], powerPreference: 'high-performance' }, f.machine);
    expect(got.adapter.info.description).toBe('H100');
    expect(got.swiftShaderIcd).toBeUndefined();
    expect(f.env['VK_ICD_FILENAMES']).toBeUndefined();
    expect(f.creates).toHaveLength(1);
    expect(f.requests[0]).toEqual({ powerPreference: 'high-performance' });
  });

  test('a driver chosen through the environment (remote.sh sets VK_DRIVER_FILES) counts as a GPU', async () => {
    const f = fake({ files: [CHROMIUM_SWIFTSHADER_ICD], env: { VK_DRIVER_FILES: '/x/nvidia_icd.json' }, adapterFor: () => 'H100' });
    expect((await acquireAdapter(f.webgpu, { toggles: [] }, f.machine)).adapter.info.description).toBe('H100');
    expect(f.env['VK_DRIVER_FILES']).toBe('/x/nvidia_icd.json');
  });

  test('only software ICDs (lavapipe, SwiftShader) installed: SwiftShader up front', async () => {
    const f = fake({ files: [CHROMIUM_SWIFTSHADER_ICD, '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json'] });
    await acquireAdapter(f.webgpu, { toggles: [] }, f.machine);
    expect(f.creates[0]?.icd).toBe(CHROMIUM_SWIFTSHADER_ICD);
  });

  test('a GPU ICD that yields no adapter: retried on a fresh instance with SwiftShader', async () => {
    const f = fake({ files: [CHROMIUM_SWIFTSHADER_ICD, '/etc/vulkan/icd.d/radeon_icd.x86_64.json'] });
    const got = await acquireAdapter(f.webgpu, { toggles: ['backend=vulkan'] }, f.machine);
    expect(got.adapter.info.description).toBe('SwiftShader');
    expect(f.creates.map((c) => c.icd)).toEqual([undefined, CHROMIUM_SWIFTSHADER_ICD]);
    expect(f.creates[1]?.toggles).toEqual(['backend=vulkan']);
  });

  test('software: true forces SwiftShader even with an NVIDIA ICD and a user-chosen driver', async () => {
    const f = fake({
      files: [CHROMIUM_SWIFTSHADER_ICD, NVIDIA_ICD],
      env: { VK_DRIVER_FILES: NVIDIA_ICD, VK_ADD_DRIVER_FILES: NVIDIA_ICD },
      adapterFor: (env) => (env['VK_DRIVER_FILES'] === CHROMIUM_SWIFTSHADER_ICD && !env['VK_ADD_DRIVER_FILES'] ? 'SwiftShader' : 'H100'),
    });
    expect((await acquireAdapter(f.webgpu, { toggles: [], software: true }, f.machine)).adapter.info.description).toBe('SwiftShader');
    expect(f.creates).toHaveLength(1);
    expect(f.env).toEqual({ VK_DRIVER_FILES: NVIDIA_ICD, VK_ADD_DRIVER_FILES: NVIDIA_ICD });
    expect((await acquireAdapter(f.webgpu, { toggles: [] }, f.machine)).adapter.info.description, 'a later context gets the GPU').toBe(
      'H100',
    );
  });

  test('SCAN_VK_ICD names another SwiftShader, and the loader beside it is tried', async () => {
    const icd = '/opt/sws/vk_swiftshader_icd.json';
    const f = fake({ files: [icd], env: { SCAN_VK_ICD: icd }, libraries: ['/opt/sws/libvulkan.so.1'] });
    expect((await acquireAdapter(f.webgpu, { toggles: [] }, f.machine)).swiftShaderIcd).toBe(icd);
    expect(f.opened).toEqual(['/opt/sws/libvulkan.so.1']);
  });

  test('no GPU and no SwiftShader: UNSUPPORTED saying what to install', async () => {
    const f = fake({ files: [] });
    const error = await rejection(acquireAdapter(f.webgpu, { toggles: [] }, f.machine));
    expect(error).toBeInstanceOf(ScanError);
    expect(error.code).toBe('UNSUPPORTED');
    expect(error.message).toContain('apt-get install chromium');
    expect(error.message).toContain('GPU driver');
    expect(error.message).toContain(`no ${CHROMIUM_SWIFTSHADER_ICD}`);
  });

  test('SCAN_VK_ICD pointing nowhere is reported, not silently replaced', async () => {
    const f = fake({ files: [CHROMIUM_SWIFTSHADER_ICD], env: { SCAN_VK_ICD: '/typo.json' } });
    const error = await rejection(acquireAdapter(f.webgpu, { toggles: [] }, f.machine));
    expect(error.message).toContain('SCAN_VK_ICD=/typo.json does not exist');
  });

  test('software: true without SwiftShader: UNSUPPORTED before any create()', async () => {
    const f = fake({ files: [NVIDIA_ICD], adapterFor: () => 'H100' });
    const error = await rejection(acquireAdapter(f.webgpu, { toggles: [], software: true }, f.machine));
    expect(error.code).toBe('UNSUPPORTED');
    expect(error.message).toContain('options.software');
    expect(f.creates).toHaveLength(0);
  });

  test('no Vulkan loader anywhere: the message says to install libvulkan1', async () => {
    const f = fake({ files: [CHROMIUM_SWIFTSHADER_ICD], libraries: [], adapterFor: () => null });
    const error = await rejection(acquireAdapter(f.webgpu, { toggles: [] }, f.machine));
    expect(error.message).toContain('apt-get install libvulkan1');
    expect(error.message).toContain('Vulkan drivers: the standard icd.d folders');
    expect(f.env).toEqual({});
  });

  test("Dawn rejecting its options becomes INVALID_ARGUMENT naming 'toggles'", async () => {
    const f = fake({ files: [CHROMIUM_SWIFTSHADER_ICD], createThrows: "unrecognised backend 'nope'" });
    const error = await rejection(acquireAdapter(f.webgpu, { toggles: ['backend=nope'] }, f.machine));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.argument).toBe('toggles');
    expect(error.message).toContain("unrecognised backend 'nope'");
  });
});

describe('acquireAdapter when requestAdapter rejects', () => {
  test('with toggles (Dawn reads backend= and adapter= there): INVALID_ARGUMENT naming them', async () => {
    const f = fake({ files: [CHROMIUM_SWIFTSHADER_ICD], requestRejects: "unrecognised backend 'nope'" });
    const error = await rejection(acquireAdapter(f.webgpu, { toggles: ['backend=nope'] }, f.machine));
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'toggles' });
    expect(error.message).toContain('backend=nope');
  });

  test('without toggles: UNSUPPORTED', async () => {
    const f = fake({ files: [CHROMIUM_SWIFTSHADER_ICD], requestRejects: 'boom' });
    expect(await rejection(acquireAdapter(f.webgpu, { toggles: [] }, f.machine))).toMatchObject({ code: 'UNSUPPORTED' });
  });
});

describe('acquireAdapter elsewhere', () => {
  test('macOS/Windows: the environment is untouched; software asks Dawn for its fallback adapter', async () => {
    const f = fake({ platform: 'darwin', adapterFor: (_env, o) => (o.forceFallbackAdapter ? 'fallback' : 'Apple M2') });
    expect((await acquireAdapter(f.webgpu, { toggles: [] }, f.machine)).adapter.info.description).toBe('Apple M2');
    expect((await acquireAdapter(f.webgpu, { toggles: [], software: true }, f.machine)).adapter.info.description).toBe('fallback');
    expect(f.env).toEqual({});
    expect(f.opened).toEqual([]);
  });

  test('no adapter: UNSUPPORTED naming the drivers to install', async () => {
    const f = fake({ platform: 'win32', adapterFor: () => null });
    const error = await rejection(acquireAdapter(f.webgpu, { toggles: [] }, f.machine));
    expect(error.code).toBe('UNSUPPORTED');
    expect(error.message).toContain('Direct3D 12');
  });
});

describe('ICD discovery', () => {
  const probe = (files: string[], env: Record<string, string> = {}) => ({
    env,
    exists: (p: string) => files.includes(p),
    list: (d: string) => files.filter((f) => f.startsWith(`${d}/`)).map((f) => f.slice(d.length + 1)),
  });

  test('findSwiftShaderIcd: SCAN_VK_ICD first, then Debian chromium', () => {
    expect(findSwiftShaderIcd(probe([CHROMIUM_SWIFTSHADER_ICD], { SCAN_VK_ICD: '/a.json' }))).toBe('/a.json');
    expect(findSwiftShaderIcd(probe([CHROMIUM_SWIFTSHADER_ICD]))).toBe(CHROMIUM_SWIFTSHADER_ICD);
    expect(findSwiftShaderIcd(probe([]))).toBeUndefined();
  });

  test('hasHardwareIcd: NVIDIA in any standard folder, or a driver variable', () => {
    expect(hasHardwareIcd(probe(['/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json']))).toBe(true);
    expect(hasHardwareIcd(probe(['/etc/vulkan/icd.d/nvidia_icd.json']))).toBe(true);
    expect(hasHardwareIcd(probe([], { VK_ICD_FILENAMES: '/x.json' }))).toBe(true);
    expect(hasHardwareIcd(probe(['/usr/share/vulkan/icd.d/lvp_icd.x86_64.json', '/usr/share/vulkan/icd.d/README']))).toBe(false);
    expect(hasHardwareIcd(probe([]))).toBe(false);
  });
});

describe('ensureVulkanLoader', () => {
  test('takes the system loader when there is one', () => {
    const opened: string[] = [];
    const result = ensureVulkanLoader([CHROMIUM_SWIFTSHADER_ICD], (p) => {
      opened.push(p);
    });
    expect(result).toEqual({ loaded: 'libvulkan.so.1', failures: [] });
    expect(opened).toEqual(['libvulkan.so.1']);
  });

  test("falls back to the copy beside SwiftShader's manifest, and reports failures", () => {
    const open = (p: string) => {
      if (p !== '/usr/lib/chromium/libvulkan.so.1') throw new Error('not found');
    };
    expect(ensureVulkanLoader([CHROMIUM_SWIFTSHADER_ICD], open).loaded).toBe('/usr/lib/chromium/libvulkan.so.1');
    const none = ensureVulkanLoader([], open);
    expect(none.loaded).toBeUndefined();
    expect(none.failures).toEqual(['libvulkan.so.1: not found']);
  });
});

describe('loadWebGpu', () => {
  test('a missing package: UNSUPPORTED saying npm install webgpu', async () => {
    const missing = Object.assign(new Error("Cannot find package 'webgpu' imported from /app/index.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    const error = await rejection(loadWebGpu(() => Promise.reject(missing)));
    expect(error).toBeInstanceOf(ScanError);
    expect(error.code).toBe('UNSUPPORTED');
    expect(error.message).toContain('npm install webgpu');
    expect(error.message).toContain('not installed');
    expect(error.cause).toBe(missing);
  });

  test('an addon that will not load: UNSUPPORTED with its reason', async () => {
    const broken = new Error('/node_modules/webgpu/dist/linux-x64/dawn.node: GLIBC_2.38 not found');
    const error = await rejection(loadWebGpu(() => Promise.reject(broken)));
    expect(error.code).toBe('UNSUPPORTED');
    expect(error.message).toContain('GLIBC_2.38 not found');
    expect(error.message).not.toContain('not installed');
  });

  test('a module without create()', async () => {
    const error = await rejection(loadWebGpu(async () => ({}) as WebGpuModule));
    expect(error.code).toBe('UNSUPPORTED');
  });

  test('the real package loads', async () => {
    expect(typeof (await loadWebGpu()).create).toBe('function');
  });
});
