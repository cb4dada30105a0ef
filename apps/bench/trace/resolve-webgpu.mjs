// Module resolution hook (registered by register.mjs): the specifier 'webgpu' resolves to the
// traced wrapper, except inside the wrapper itself, which imports the real package.
const wrapper = new URL('./traced-webgpu.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'webgpu' && context.parentURL !== wrapper) return { url: wrapper, shortCircuit: true };
  return nextResolve(specifier, context);
}
