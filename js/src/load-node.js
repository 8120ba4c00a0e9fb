// load-node.js -- Node's ES-module loader of the WebAssembly module: the
// bytes read from the package's dist/ next to this file (package.json
// "imports" maps #load here under the "node" condition).
import { readFile } from 'node:fs/promises';
import { wasmImports, ready } from './imports.js';

export async function load() {
  const bytes = await readFile(new URL('../dist/libastar.wasm', import.meta.url));
  const module = await WebAssembly.compile(bytes);
  const instance = await WebAssembly.instantiate(module, wasmImports(WebAssembly.Module.imports(module)));
  return ready(instance);
}
