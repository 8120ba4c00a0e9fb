// js/scripts/cjs.mjs -- write the CommonJS copies of the package's ES
// modules: js/src/X.js -> js/dist/cjs/X.cjs (and js/types/X.d.ts ->
// js/dist/cjs/X.d.cts), so that `require('libastar')`
// and `require('libastar/pathfinding')` run the same code as `import`.
//
// The sources keep to a small subset of module syntax, which this converts
// line by line (anything else is an error here, not a broken package):
//   import { a, b as c } from './x.js';   -> const { a, b: c } = require('./x.cjs');
//   import * as X from './x.js';          -> const X = require('./x.cjs');
//   export { a, b as c } from './x.js';   -> re-exported
//   export { a, b };                      -> exported
//   export function|class|const|let|async function NAME
// wasm.js (top-level await) and the #load loaders are ES-only: the CommonJS
// build has js/src/wasm.cjs instead, which instantiates synchronously.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const JS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(JS, 'src');
const OUT = path.join(JS, 'dist', 'cjs');
const ES_ONLY = new Set(['wasm.js', 'load-node.js', 'load-browser.js']);

const spec = (s) => {
  if (!s.startsWith('./') || !s.endsWith('.js')) {
    if (s.startsWith('node:')) return s;
    throw new Error(`unsupported import source ${s}`);
  }
  return s.slice(0, -3) + '.cjs';
};
const names = (list) => list.split(',').map((x) => x.trim()).filter(Boolean).map((x) => {
  const m = x.match(/^(\w+)(?:\s+as\s+(\w+))?$/);
  if (!m) throw new Error(`unsupported binding list item ${x}`);
  return { from: m[1], to: m[2] ?? m[1] };
});

function convert(file) {
  const src = fs.readFileSync(path.join(SRC, file), 'utf8');
  const out = ["'use strict';"];
  const exported = [];
  let reexports = 0;
  src.split('\n').forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    let m;
    if ((m = line.match(/^import\s*\{([^}]*)\}\s*from\s*'([^']+)';\s*$/))) {
      out.push(`const { ${names(m[1]).map((n) => (n.from === n.to ? n.from : `${n.from}: ${n.to}`)).join(', ')} } = require('${spec(m[2])}');`);
    } else if ((m = line.match(/^import\s+\*\s+as\s+(\w+)\s+from\s*'([^']+)';\s*$/))) {
      out.push(`const ${m[1]} = require('${spec(m[2])}');`);
    } else if ((m = line.match(/^import\s+(\w+)\s+from\s*'([^']+)';\s*$/))) {
      out.push(`const ${m[1]} = require('${spec(m[2])}');`);
    } else if ((m = line.match(/^export\s*\{([^}]*)\}\s*from\s*'([^']+)';\s*$/))) {
      const v = `__reexport${reexports++}`;
      out.push(`const ${v} = require('${spec(m[2])}');`);
      for (const n of names(m[1])) exported.push([n.to, `${v}.${n.from}`]);
    } else if ((m = line.match(/^export\s*\{([^}]*)\};\s*$/))) {
      for (const n of names(m[1])) exported.push([n.to, n.from]);
    } else if ((m = line.match(/^export\s+((?:async\s+)?function\*?|class|const|let)\s+(\w+)/))) {
      out.push(line.replace(/^export\s+/, ''));
      exported.push([m[2], m[2]]);
    } else if (/^\s*(import|export)\b/.test(line) || /\bimport\.meta\b/.test(line)) {
      throw new Error(`${where}: module syntax this converter does not handle: ${line}`);
    } else {
      out.push(line);
    }
  });
  // Getters, so that a `let` re-assigned later is seen as ES live bindings are.
  out.push('Object.defineProperties(module.exports, {');
  for (const [to, from] of exported) out.push(`  ${to}: { enumerable: true, get: () => ${from} },`);
  out.push('});');
  return out.join('\n') + '\n';
}

fs.mkdirSync(OUT, { recursive: true });
for (const f of fs.readdirSync(OUT)) fs.unlinkSync(path.join(OUT, f));
for (const file of fs.readdirSync(SRC).sort()) {
  if (file.endsWith('.cjs')) fs.copyFileSync(path.join(SRC, file), path.join(OUT, file));
  else if (file.endsWith('.js') && !ES_ONLY.has(file)) {
    fs.writeFileSync(path.join(OUT, file.replace(/\.js$/, '.cjs')), convert(file));
  }
}
// The declarations hold no imports, so one text serves both module kinds:
// TypeScript reads X.d.cts for `require` (a .d.ts in a "type": "module"
// package would declare an ES module), so each is copied here, not kept twice.
const TYPES = path.join(JS, 'types');
for (const file of fs.readdirSync(TYPES).sort()) {
  if (!file.endsWith('.d.ts')) continue;
  const text = fs.readFileSync(path.join(TYPES, file), 'utf8');
  if (/^\s*(import|export .* from)\b/m.test(text)) {
    throw new Error(`types/${file}: imports another file; the CommonJS copy cannot share it`);
  }
  fs.writeFileSync(path.join(OUT, file.replace(/\.d\.ts$/, '.d.cts')), text);
}
