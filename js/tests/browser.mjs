// browser.mjs -- the ES-module build in Debian's headless Chromium (driven
// by playwright-core; never a downloaded browser): js/ served from a
// localhost static server, a page imports src/index.js (with the import
// map a page without a bundler needs for the package's "#load" import),
// solves paths and reports its load time. Its answers must equal Node's.
// Fails on any page error, console error, failed request or request
// leaving localhost.
//
//   node js/tests/browser.mjs [--chromium PATH]
// Prints "browser: ..." lines and the load time; exit status 1 on failure.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Grid, Finder } from 'libastar';

const JS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const k = process.argv.indexOf('--chromium');
const CHROMIUM = k > 0 ? process.argv[k + 1] : process.env.CHROMIUM || '/usr/bin/chromium';
const fail = (msg) => { console.error(`browser: FAIL ${msg}`); process.exit(1); };
if (!fs.existsSync(CHROMIUM)) fail(`no chromium at ${CHROMIUM}`);

const PAGE = `<!doctype html><meta charset="utf-8"><title>libastar</title>
<script>window.t0 = performance.now();</script>
<script type="importmap">{ "imports": { "#load": "/src/load-browser.js" } }</script>
<script type="module">
  const { Grid, Finder, version } = await import('/src/index.js');
  const loadMs = performance.now() - window.t0;
  const grid = Grid.fromArray(MATRIX);
  const out = {};
  for (const method of ['astar', 'jps', 'theta']) out[method] = new Finder(grid, { method }).findPath(0, 0, 19, 14);
  window.result = { version, loadMs, out };
</script>`;

// A fixed maze-like matrix, the same in the page and here.
const W = 20, H = 15;
const matrix = Array.from({ length: H }, (_, y) => Array.from({ length: W }, (_, x) => ((x % 4 === 2 && y !== (x * 3) % H) ? 1 : 0)));

const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  if (url.pathname === '/') {
    res.writeHead(200, { 'content-type': 'text/html' });
    return res.end(PAGE.replace('MATRIX', JSON.stringify(matrix)));
  }
  const file = path.join(JS, path.normalize(decodeURIComponent(url.pathname)));
  if (!file.startsWith(JS + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404);
    return res.end();
  }
  res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const ORIGIN = `http://127.0.0.1:${server.address().port}`;

const watchdog = setTimeout(() => fail('timed out after 120 s'), 120_000);
let browser;
try {
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const problems = [];
  const context = await browser.newContext();
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(ORIGIN)) return route.continue();
    problems.push(`request outside localhost: ${url}`);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  const loads = [];
  let result;
  for (let i = 0; i < 5; i++) {
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => window.result || null, null, { timeout: 30_000 });
    result = await page.evaluate(() => window.result);
    loads.push(result.loadMs);
  }
  if (problems.length) fail(problems.join('; '));
  const grid = Grid.fromArray(matrix);
  for (const method of ['astar', 'jps', 'theta']) {
    const want = new Finder(grid, { method }).findPath(0, 0, W - 1, H - 1);
    if (JSON.stringify(result.out[method]) !== JSON.stringify(want)) fail(`${method}: page ${JSON.stringify(result.out[method])} vs node ${JSON.stringify(want)}`);
    if (!want.length) fail(`${method}: no path in the test maze`);
  }
  loads.sort((a, b) => a - b);
  console.log(`browser: ok -- version ${result.version}, astar/jps/theta paths equal Node's (${result.out.astar.length} cells)`);
  console.log(`browser: load time (import to ready, 5 page loads, no cache): median ${loads[2].toFixed(1)} ms, min ${loads[0].toFixed(1)} ms`);
} catch (e) {
  fail(e.stack || String(e));
} finally {
  clearTimeout(watchdog);
  await browser?.close();
  server.close();
}
