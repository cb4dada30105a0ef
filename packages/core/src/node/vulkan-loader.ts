import { dirname, join } from 'node:path';

/**
 * The Vulkan loader's name as Dawn opens it.
 *
 * @example
 * ```ts
 * openLibraryForGood(VULKAN_LOADER); // throws when the system has no libvulkan1
 * ```
 */
export const VULKAN_LOADER = 'libvulkan.so.1';

// glibc's RTLD_NODELETE; Node's os.constants.dlopen leaves it out, but process.dlopen passes the
// flags through to dlopen(3) unchanged.
const RTLD_NOW = 0x2;
const RTLD_GLOBAL = 0x100;
const RTLD_NODELETE = 0x1000;

/** Opens a shared library and keeps it loaded; throws with dlopen's message when it cannot. */
export type OpenLibrary = (path: string) => void;

/**
 * Opens a shared library for good through `process.dlopen`. The library is no Node addon, so Node
 * reports "did not self-register" and closes its handle; `RTLD_NODELETE` keeps it in the process
 * all the same, which is the point. Any other error means it could not be opened.
 *
 * @example
 * ```ts
 * openLibraryForGood('/usr/lib/chromium/libvulkan.so.1');
 * ```
 */
export const openLibraryForGood: OpenLibrary = (path) => {
  try {
    process.dlopen({ exports: {} }, path, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE);
  } catch (error) {
    if (!String((error as Error)?.message).includes('self-register')) throw error;
  }
};

/** The outcome of {@link ensureVulkanLoader}. */
export interface VulkanLoaderResult {
  /** The library that is now loaded (`libvulkan.so.1` itself when the system has it), if any. */
  readonly loaded: string | undefined;
  /** Why each candidate failed, for the error message when none loaded. */
  readonly failures: readonly string[];
}

/**
 * Makes sure Dawn will find the Vulkan loader. Dawn `dlopen`s `libvulkan.so.1` by name when it
 * creates its Vulkan instance; a machine with only Debian's `chromium` (no `libvulkan1`) has no
 * such library on the search path, but chromium ships one next to SwiftShader. Loading that copy
 * first makes Dawn's later `dlopen` find it by its soname, with no `LD_LIBRARY_PATH` (which glibc
 * reads only at process start). `icds` are the driver manifests in play; a loader beside one of
 * them is the fallback.
 *
 * @example
 * ```ts
 * ensureVulkanLoader(['/usr/lib/chromium/vk_swiftshader_icd.json']); // { loaded: 'libvulkan.so.1', failures: [] } with libvulkan1 installed
 * ```
 */
export function ensureVulkanLoader(icds: readonly string[], open: OpenLibrary = openLibraryForGood): VulkanLoaderResult {
  const candidates = [VULKAN_LOADER, ...icds.map((icd) => join(dirname(icd), VULKAN_LOADER))];
  const failures: string[] = [];
  for (const candidate of new Set(candidates)) {
    try {
      open(candidate);
      return { loaded: candidate, failures };
    } catch (error) {
      const message = (error as Error)?.message ?? String(error);
      failures.push(message.startsWith(candidate) ? message : `${candidate}: ${message}`);
    }
  }
  return { loaded: undefined, failures };
}
