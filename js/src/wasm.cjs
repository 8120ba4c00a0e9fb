// wasm.cjs -- the instantiated module for the CommonJS build. `require`
// cannot await, so the bytes are read and compiled synchronously (Node
// allows synchronous compilation of any size off the browser's main thread).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { wasmImports, ready } = require('./imports.cjs');

const bytes = fs.readFileSync(path.join(__dirname, '..', 'libastar.wasm'));
const module_ = new WebAssembly.Module(bytes);
const W = ready(new WebAssembly.Instance(module_, wasmImports(WebAssembly.Module.imports(module_))));
module.exports = { W };
