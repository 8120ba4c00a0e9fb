// load-browser.js -- browsers' and bundlers' loader of the WebAssembly
// module. `new URL('../dist/libastar.wasm', import.meta.url)` is the form
// Vite, webpack 5, esbuild and Parcel recognise: they copy the file and
// rewrite the address, so no configuration is needed.
import { wasmImports, ready } from './imports.js';

const url = new URL('../dist/libastar.wasm', import.meta.url);

export async function load() {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`libastar: could not fetch ${url}: HTTP ${response.status}`);
  let module;
  if (WebAssembly.compileStreaming && (response.headers.get('content-type') || '').startsWith('application/wasm')) {
    module = await WebAssembly.compileStreaming(response);
  } else {
    // Served without the wasm type (file servers, some dev servers).
    module = await WebAssembly.compile(await response.arrayBuffer());
  }
  const instance = await WebAssembly.instantiate(module, wasmImports(WebAssembly.Module.imports(module)));
  return ready(instance);
}
