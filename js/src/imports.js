// imports.js -- what the standalone WebAssembly module imports, and the
// typed-array views over its memory. The module (js/binding.c linked with
// STANDALONE_WASM) imports only emscripten_notify_memory_growth; any other
// import is given a function that throws, so a rebuilt module that needs
// more fails loudly at its first call instead of at load.

/** Views over the module's memory, replaced whenever it grows. */
export const M = { u8: null, i32: null, u32: null, f32: null, f64: null, memory: null };

export function refreshViews() {
  const b = M.memory.buffer;
  M.u8 = new Uint8Array(b);
  M.i32 = new Int32Array(b);
  M.u32 = new Uint32Array(b);
  M.f32 = new Float32Array(b);
  M.f64 = new Float64Array(b);
}

/** The imports object for `module` (a WebAssembly.Module or its import list). */
export function wasmImports(list) {
  const known = { env: { emscripten_notify_memory_growth: () => refreshViews() } };
  const out = {};
  for (const { module, name, kind } of list) {
    if (kind !== 'function') continue;
    out[module] ??= {};
    out[module][name] = known[module]?.[name] ?? (() => {
      throw new Error(`libastar: the WebAssembly module called ${module}.${name}, which the loader does not provide`);
    });
  }
  return out;
}

/** Finish instantiation: views, the C runtime's constructors. */
export function ready(instance) {
  const x = instance.exports;
  M.memory = x.memory;
  refreshViews();
  x._initialize();
  return x;
}
