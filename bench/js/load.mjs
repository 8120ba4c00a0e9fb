// bench/js/load.mjs -- package size and load time: the npm package (its
// drop-in entry libastar/pathfinding and its main entry) against
// PathFinding.js 0.4.18 (make bench-js; docs/npm-benchmark.md).
//
// Size: the tarball `make npm` wrote (build/npm/libastar-<v>.tgz, gzip), and
// what a page or a bundle ships, gzipped at level 9: the .wasm and the ES
// modules for libastar; PathFinding.js's src/ and its one dependency
// (heap), and its own minified browser build.
// Load time in Node: a fresh process per sample, the time from before
// require()/import() to the module ready (for libastar: the WebAssembly
// compiled and instantiated); the median of --runs samples.
// Load time in Chromium (when playwright-core and /usr/bin/chromium are
// there, as for js/tests/browser.mjs): a page served from localhost, time
// from the first script to the module ready, median of --runs page loads.
//
// Usage: node bench/js/load.mjs [BUILD] [--runs N]   (default build, 15)
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const JS = path.join(ROOT, 'js');
const args = process.argv.slice(2);
const ri = args.indexOf('--runs');
const RUNS = ri >= 0 ? parseInt(args.splice(ri, 2)[1], 10) : 15;
const BUILD = path.resolve(ROOT, args[0] || 'build');
const requireJs = createRequire(path.join(JS, 'package.json'));
const version = requireJs('./package.json').version;
const PF_DIR = path.dirname(requireJs.resolve('pathfinding/package.json'));
const HEAP_DIR = path.dirname(requireJs.resolve('heap/package.json'));

const gz = (buf) => zlib.gzipSync(buf, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const median = (a) => { const s = [...a].sort((x, y) => x - y); const k = s.length >> 1; return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2; };
function files(dir, re) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p, re));
    else if (re.test(e.name)) out.push(p);
  }
  return out.sort();
}
const gzOf = (list) => gz(Buffer.concat(list.map((f) => fs.readFileSync(f))));

// ---- Size --------------------------------------------------------------
const tgz = path.join(BUILD, 'npm', `libastar-${version}.tgz`);
if (!fs.existsSync(tgz)) { console.error(`load.mjs: no ${tgz} (run make npm)`); process.exit(1); }
const wasm = path.join(JS, 'dist', 'libastar.wasm');
const esm = files(path.join(JS, 'src'), /\.js$/).filter((f) => !/load-node\.js$/.test(f));
const pfSrc = [...files(path.join(PF_DIR, 'src'), /\.js$/), path.join(HEAP_DIR, 'lib', 'heap.js')];
const pfMin = path.join(PF_DIR, 'visual', 'lib', 'pathfinding-browser.min.js');
console.log('| what | bytes | gzipped |');
console.log('|---|---:|---:|');
console.log(`| libastar ${version} npm tarball (build/npm, as published) | ${kb(fs.statSync(tgz).size)} | (is gzip) |`);
console.log(`| libastar.wasm | ${kb(fs.statSync(wasm).size)} | ${kb(gz(fs.readFileSync(wasm)))} |`);
console.log(`| libastar ES modules (src/*.js, ${esm.length} files) | ${kb(esm.reduce((n, f) => n + fs.statSync(f).size, 0))} | ${kb(gzOf(esm))} |`);
console.log(`| libastar shipped to a page (wasm + modules) | | ${kb(gz(fs.readFileSync(wasm)) + gzOf(esm))} |`);
console.log(`| PathFinding.js 0.4.18 src/ + heap (what a bundle takes) | ${kb(pfSrc.reduce((n, f) => n + fs.statSync(f).size, 0))} | ${kb(gzOf(pfSrc))} |`);
if (fs.existsSync(pfMin)) {
  console.log(`| PathFinding.js 0.4.18 pathfinding-browser.min.js | ${kb(fs.statSync(pfMin).size)} | ${kb(gz(fs.readFileSync(pfMin)))} |`);
}

// ---- Load time in Node: one fresh process per sample --------------------
function nodeLoad(kind, target) {
  const code = kind === 'require'
    ? `const t0 = performance.now(); const m = require(${JSON.stringify(target)}); if (!m.AStarFinder && !m.Finder) throw 1; console.log(performance.now() - t0);`
    : `const t0 = performance.now(); const m = await import(${JSON.stringify(target)}); if (!m.AStarFinder && !m.Finder) throw 1; console.log(performance.now() - t0);`;
  const argv = kind === 'require' ? ['-e', code] : ['--input-type=module', '-e', code];
  const ms = [];
  for (let i = 0; i < RUNS; i++) ms.push(parseFloat(execFileSync(process.execPath, argv, { encoding: 'utf8' })));
  return median(ms);
}
const cases = [
  ["require('libastar/pathfinding')", 'require', path.join(JS, 'dist', 'cjs', 'pathfinding.cjs')],
  ["import('libastar/pathfinding')", 'import', pathToFileURL(path.join(JS, 'src', 'pathfinding.js')).href],
  ["import('libastar')", 'import', pathToFileURL(path.join(JS, 'src', 'index.js')).href],
  ["require('pathfinding') 0.4.18", 'require', PF_DIR],
];
console.log('');
console.log(`| load in Node ${process.version} (fresh process, median of ${RUNS}) | ms |`);
console.log('|---|---:|');
for (const [label, kind, target] of cases) console.log(`| ${label} | ${nodeLoad(kind, target).toFixed(1)} |`);

// ---- Load time in Chromium ----------------------------------------------
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
let chromium = null;
try { ({ chromium } = requireJs('playwright-core')); } catch { /* none */ }
if (!chromium || !fs.existsSync(CHROMIUM)) {
  console.log(`\n(Chromium: skipped -- ${chromium ? `no ${CHROMIUM}` : 'no playwright-core (cd js && npm ci)'})`);
  process.exit(0);
}
const PAGES = {
  '/dropin.html': `<!doctype html><script>window.t0 = performance.now();</script>
<script type="importmap">{ "imports": { "#load": "/js/src/load-browser.js" } }</script>
<script type="module">const PF = await import('/js/src/pathfinding.js');
const p = new PF.AStarFinder().findPath(0, 0, 1, 1, new PF.Grid(2, 2));
window.ms = performance.now() - window.t0; window.ok = p.length > 0;</script>`,
  '/pf.html': `<!doctype html><script>window.t0 = performance.now();</script>
<script src="/pf/visual/lib/pathfinding-browser.min.js"></script>
<script>const p = new PF.AStarFinder().findPath(0, 0, 1, 1, new PF.Grid(2, 2));
window.ms = performance.now() - window.t0; window.ok = p.length > 0;</script>`,
};
const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm' };
const server = http.createServer((req, res) => {
  const u = new URL(req.url, 'http://localhost').pathname;
  if (PAGES[u]) { res.writeHead(200, { 'content-type': 'text/html' }); return res.end(PAGES[u]); }
  const [base, rest] = u.startsWith('/pf/') ? [PF_DIR, u.slice(4)] : u.startsWith('/js/') ? [JS, u.slice(4)] : [null, null];
  const file = base && path.join(base, path.normalize(rest));
  if (!file || !file.startsWith(base + path.sep) || !fs.existsSync(file)) { res.writeHead(404); return res.end(); }
  res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
console.log('');
console.log(`| load in headless Chromium (localhost, no cache, median of ${RUNS}) | ms |`);
console.log('|---|---:|');
try {
  for (const [label, page] of [["import('libastar/pathfinding') + first findPath", '/dropin.html'],
    ['pathfinding-browser.min.js 0.4.18 + first findPath', '/pf.html']]) {
    const ms = [];
    for (let i = 0; i < RUNS; i++) {
      const ctx = await browser.newContext();
      const p = await ctx.newPage();
      await p.goto(origin + page);
      await p.waitForFunction(() => window.ms !== undefined, null, { timeout: 30000 });
      if (!(await p.evaluate(() => window.ok))) throw new Error(`${page}: no path`);
      ms.push(await p.evaluate(() => window.ms));
      await ctx.close();
    }
    console.log(`| ${label} | ${median(ms).toFixed(1)} |`);
  }
} finally {
  await browser.close();
  server.close();
}
