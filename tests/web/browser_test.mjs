/*
** browser_test.mjs -- end-to-end test of the WebAssembly playground (web/)
** in Debian's headless Chromium, driven by playwright-core.
**
** Serves web/dist on a free localhost port, loads the page, draws walls with
** the mouse, runs searches from the UI and checks what the page displays
** against the native CLI (build/astar solve) on the same map, exported from
** the page: same cost, length and expansions. Fails on any console error,
** page error, failed request or request leaving localhost. Then the same
** page on a phone, upright (390 x 844) and on its side (844 x 390), with
** touch: layout, touch drawing and dragging, the drawer, the JPS notice.
** Saves screenshots of each size into $ASTAR_CI_LOGS/web/ (default
** build/ci-logs/web/) and prints their paths; the desktop one is copied to
** docs/images/playground.png.
**
**   node tests/web/browser_test.mjs [--dist DIR] [--cli PATH] [--chromium PATH]
**                                   [--no-docs-image]
** Prints "N passed, M failed" last; exit status 1 on any failure.
*/
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name, dflt) => {
  const k = process.argv.indexOf(name);
  return k > 0 && k + 1 < process.argv.length ? process.argv[k + 1] : dflt;
};
const DIST = path.resolve(arg('--dist', path.join(ROOT, 'web/dist')));
const CLI = path.resolve(arg('--cli', path.join(ROOT, 'build/astar')));
const CHROMIUM = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const WORK = path.join(ROOT, 'build/web-test');
const LOGS = path.resolve(ROOT, process.env.ASTAR_CI_LOGS || 'build/ci-logs', 'web');
const DOCS_SHOT = path.join(ROOT, 'docs/images/playground.png');
const MOVINGAI_MAP = path.resolve(ROOT, '../shared/bench/movingai/dao/den312d.map');

let passed = 0, failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` -- ${detail}` : ''}`);
  return ok;
}

function die(msg) {
  console.error(`browser_test: ${msg}`);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}

for (const [what, p] of [['bundle', path.join(DIST, 'astar.wasm')], ['page', path.join(DIST, 'index.html')],
  ['native CLI', CLI], ['chromium', CHROMIUM]]) {
  if (!fs.existsSync(p)) die(`${what} not found: ${p} (run \`make web\` and \`make\` first)`);
}

/* ---- a static server for web/dist on 127.0.0.1:<free port> -------------- */

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.png': 'image/png',
};
const served = [];
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  const rel = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
  const file = path.join(DIST, path.normalize(rel));
  served.push(rel);
  if (!file.startsWith(DIST + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
    return;
  }
  res.writeHead(200, {
    'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
    'cache-control': 'no-store',
  });
  fs.createReadStream(file).pipe(res);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const ORIGIN = `http://127.0.0.1:${server.address().port}`;

/* ---- the native reference ------------------------------------------------ */

fs.mkdirSync(WORK, { recursive: true });

// `astar solve` on a map file; returns { status, cost, costText, length,
// expanded, iterations (IDA*), dropped (beam, bandwidth) }.
function solve(mapFile, s, g, extra = []) {
  let out;
  const args = ['solve', mapFile, String(s.x), String(s.y), String(g.x), String(g.y), '--no-picture', ...extra];
  try {
    out = execFileSync(CLI, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    out = `${e.stdout || ''}${e.stderr || ''}`;
  }
  const field = (re) => (out.match(re) || [])[1];
  return {
    status: field(/^status:\s+(.*)$/m) || out.trim().split('\n').pop(),
    costText: field(/^cost:\s+(\S+)/m),
    cost: Number(field(/^cost:\s+(\S+)/m)),
    length: Number(field(/^length:\s+(\d+)/m)),
    expanded: Number(field(/expanded (\d+)/)),
    iterations: Number(field(/^iterations:\s+(\d+)/m)),
    dropped: Number(field(/^dropped:\s+(\d+)/m)),
    args: args.join(' '),
    raw: out,
  };
}

/* ---- the browser --------------------------------------------------------- */

const watchdog = setTimeout(() => die('timed out after 240 s'), 240_000);
const t0 = Date.now();
let browser;
try {
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
} catch (e) {
  die(`cannot launch ${CHROMIUM}: ${e.message.split('\n')[0]}`);
}

// A page in a context of its own (viewport, touch), watched for errors and
// for requests leaving localhost.
const problems = [];
async function newPage(options) {
  const context = await browser.newContext(options);
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(ORIGIN) || url.startsWith('data:')) return route.continue();
    problems.push(`request outside localhost: ${url}`);
    return route.abort();
  });
  const p = await context.newPage();
  p.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  p.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  return { context, page: p };
}

const desktop = await newPage({ viewport: { width: 1440, height: 900 } });
let page = desktop.page; // the page the helpers below drive

// Screenshots go to the CI log folder; each path is printed.
const shots = [];
async function screenshot(name) {
  fs.mkdirSync(LOGS, { recursive: true });
  const file = path.join(LOGS, `${name}.png`);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: file });
  shots.push(file);
  console.log(`     screenshot ${path.relative(process.cwd(), file) || file}`);
  return file;
}

const $text = async (sel) => (await page.locator(sel).textContent()).trim();
// The first number in a displayed text ("1,234", "34 cells", "37.1421").
const num = (s) => Number((String(s).replace(/,/g, '').match(/-?\d+(\.\d+)?(e[+-]?\d+)?/i) || [NaN])[0]);
const pg = (fn, ...a) => page.evaluate(fn, ...a);

async function setSpeed(v) {
  await page.locator('#speed').evaluate((el, val) => {
    el.value = String(val);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, v);
}

// Click Run with animation off; the page then shows the finished search.
async function runInstant() {
  await setSpeed(10);
  await page.click('#run');
  await page.waitForSelector('#status[data-state=done], #status[data-state=failed]', { timeout: 20_000 });
  return readResult();
}

async function readResult() {
  return {
    state: await page.getAttribute('#status', 'data-state'),
    code: Number(await page.getAttribute('#status', 'data-code')),
    status: await $text('#status'),
    costText: await $text('#cost'),
    cost: num(await $text('#cost')),
    length: num(await $text('#length')),
    expanded: num(await $text('#expanded')),
  };
}

// Decimal places the page printed, for comparing to that precision.
const decimals = (s) => (s.includes('.') ? s.split('.')[1].length : 0);

// The notice box: shown, its text, its buttons, and whether all of it is
// inside the viewport and unclipped.
async function noticeState() {
  return pg(() => {
    const box = document.getElementById('notice');
    const r = box.getBoundingClientRect();
    const visible = !box.hidden && r.width > 0 && r.height > 0;
    const inView = r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
    const clipped = [...box.querySelectorAll('p, span, strong, button')].some((el) =>
      !el.hidden && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1));
    return {
      visible, unclipped: visible && inView && !clipped, text: box.textContent.replace(/\s+/g, ' ').trim(),
      buttons: [...box.querySelectorAll('button')].filter((b) => !b.hidden).map((b) => b.textContent.trim()),
    };
  });
}

// After a JPS / JPS+ run: the events show jump points and scanned cells,
// and every path cell carries its true G (the cost along the path), H (the
// octile distance to the goal) and F = G + H -- not 0 or stale values.
async function checkJumpDisplay(label) {
  const d = await pg(() => {
    const P = window.__playground, r = P.result(), sz = P.size();
    const o = r.options, oct = (x, y) => {
      const dx = Math.abs(x - sz.goal.x), dy = Math.abs(y - sz.goal.y);
      return o.straight * Math.max(dx, dy) + (o.diagonal - o.straight) * Math.min(dx, dy);
    };
    let g = 0, pathOk = true, bad = '';
    r.path.forEach(([x, y], k) => {
      if (k) g += (x !== r.path[k - 1][0] && y !== r.path[k - 1][1] ? o.diagonal : o.straight);
      const c = P.cellInfo(x, y);
      const pp = k ? r.path[k - 1] : null;
      if (c.state !== 'path' || c.g === null || Math.abs(c.g - g) > 1e-9 || Math.abs(c.h - oct(x, y)) > 1e-9 ||
          Math.abs(c.f - (c.g + c.h)) > 1e-9 || (k ? !c.parent || c.parent[0] !== pp[0] || c.parent[1] !== pp[1] : c.parent)) {
        pathOk = false;
        bad = bad || `(${x}, ${y}) ${JSON.stringify(c)} want g ${g} h ${oct(x, y)}`;
      }
    });
    let scanned = 0, lines = true, closed = 0;
    for (let y = 0; y < sz.height; y++) for (let x = 0; x < sz.width; x++) {
      const c = P.cellInfo(x, y);
      if (c.state === 'closed') closed++;
      if (c.state !== 'scanned') continue;
      scanned++;
      const dx = Math.abs(c.parent[0] - x), dy = Math.abs(c.parent[1] - y);
      if (c.g === null || c.h === null || !(dx === 0 || dy === 0 || dx === dy)) lines = false;
    }
    return { recorded: r.recorded, events: r.events, scannedEvents: r.scanned, scanned, lines, closed,
      expanded: r.expanded, pathOk, bad };
  });
  check(`${label}: the jump points and the ${d.scanned} cells the jumps scanned are shown`,
    d.recorded && d.scannedEvents > 0 && d.scanned > 0 && d.closed <= d.expanded && d.lines,
    JSON.stringify(d));
  check(`${label}: every path cell shows its true F, G and H, its parent the cell before it`, d.pathOk, d.bad);
}

// After a step by expansion: the replay stopped just before the next
// expansion, and every node the group pushed or improved is displayed open
// with the event's G and the expanded node as parent.
async function checkGroup() {
  return pg(() => {
    const P = window.__playground, st = P.stepState(), gr = st.group;
    if (!gr.expanded) return { ok: false, why: 'no group' };
    const ex = P.cellInfo(...gr.expanded);
    let ok = (st.next === 'expand' || st.next === 'goal') && ex.state === 'closed';
    for (const p of gr.pushed) {
      const c = P.cellInfo(...p.cell);
      if (c.state !== 'open' || c.g !== p.g || !c.parent || c.parent[0] !== gr.expanded[0] ||
          c.parent[1] !== gr.expanded[1] || p.parent[0] !== gr.expanded[0] || p.parent[1] !== gr.expanded[1]) ok = false;
    }
    return { ok, next: st.next, expanded: gr.expanded, pushed: gr.pushed.length, scanned: gr.scanned };
  });
}

// A seeded 512 x 512 map with 20 % walls and S and G far apart.
function map512() {
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const rows = [];
  for (let y = 0; y < 512; y++) {
    let r = '';
    for (let x = 0; x < 512; x++) r += rnd() < 0.2 ? '#' : '.';
    rows.push(r);
  }
  rows[40] = rows[40].slice(0, 40) + 'S' + rows[40].slice(41);
  rows[480] = rows[480].slice(0, 470) + 'G' + rows[480].slice(471);
  return `${rows.join('\n')}\n`;
}

/* ---- compact screens -------------------------------------------------------- */

// A finger dragged from a to b (CSS px) in `steps` moves, through the
// DevTools protocol: Chromium turns it into touch pointer events. The
// finger rests at b before it lifts: lifted while still moving, the next
// tap (Undo) got pointer and touch events but no click in about one run in
// four -- seemingly taken as stopping a fling.
async function touchDrag(cdp, a, b, steps = 12) {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: a.x, y: a.y }] });
  for (let k = 1; k <= steps; k++) {
    const t = k / steps;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t }] });
  }
  await new Promise((r) => setTimeout(r, 150));
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: b.x, y: b.y }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

// What a phone user sees: nothing wider than the screen, every stat box on
// screen with its label and value unclipped, the grid on screen with cells
// of 8 px or more, the Run / Step / Clear / Undo buttons on screen.
function compactLayout() {
  return pg(() => {
    const vw = innerWidth, vh = innerHeight, bad = [];
    const inView = (el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && r.left >= -0.5 && r.top >= -0.5 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5;
    };
    const clipped = (el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
    if (document.documentElement.scrollWidth > vw || document.body.scrollWidth > vw) bad.push('wider than the screen');
    for (const st of document.querySelectorAll('.stat')) {
      if (!inView(st)) bad.push(`stat off screen: ${st.textContent.trim()}`);
      for (const el of st.querySelectorAll('.k, .v')) if (clipped(el)) bad.push(`clipped: "${el.textContent.trim()}"`);
    }
    const cv = document.getElementById('grid');
    if (!inView(cv)) bad.push('grid off screen');
    const cell = window.__playground.size().cell;
    if (cell < 8) bad.push(`cells of ${cell.toFixed(1)} px`);
    for (const id of ['run', 'step', 'clear-path', 'undo', 'menu']) if (!inView(document.getElementById(id))) bad.push(`#${id} off screen`);
    const panel = document.getElementById('panel').getBoundingClientRect();
    if (panel.right > 0.5) bad.push('the options drawer is open');
    return { ok: bad.length === 0, bad, cell };
  });
}

async function testCompact(w, h) {
  const tag = `${w} x ${h}`, name = `phone-${w}x${h}`;
  const ph = await newPage({ viewport: { width: w, height: h }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  page = ph.page;
  await page.goto(`${ORIGIN}/index.html`);
  await page.waitForFunction(() => window.__playground && window.__playground.ready, null, { timeout: 20_000 });
  const cdp = await ph.context.newCDPSession(page);

  let lay = await compactLayout();
  check(`${tag}: stats, grid (cells ${lay.cell.toFixed(1)} px) and buttons fit the screen, nothing clipped`, lay.ok, lay.bad.join('; '));

  // Touch: draw a wall along row 3, then drag S by its marker.
  await touchDrag(cdp, await cellPoint(2, 3), await cellPoint(12, 3));
  const row3 = (await pg(() => window.__playground.exportAscii())).split('\n')[3].slice(2, 13);
  check(`${tag}: a finger draws walls`, row3 === '#'.repeat(11), row3);
  const s0 = (await pg(() => window.__playground.size())).start;
  const sp = await cellPoint(s0.x, s0.y);
  await touchDrag(cdp, { x: sp.x + 3, y: sp.y - 2 }, { x: sp.x + 3, y: sp.y - 2 + 4 * (await pg(() => window.__playground.size())).cell });
  const s1 = (await pg(() => window.__playground.size())).start;
  check(`${tag}: a finger drags S by its marker`, s1.x === s0.x && s1.y === s0.y + 4, `${JSON.stringify(s0)} -> ${JSON.stringify(s1)}`);
  await page.tap('#undo');
  const s2 = (await pg(() => window.__playground.size())).start;
  check(`${tag}: Undo is at hand and takes the move back`, s2.x === s0.x && s2.y === s0.y,
    `S ${JSON.stringify(s2)}, history ${JSON.stringify(await pg(() => window.__playground.history()))}`);

  // Run from the action bar.
  await setSpeed(10);
  await page.tap('#run');
  await page.waitForSelector('#status[data-state=done]', { timeout: 20_000 });
  lay = await compactLayout();
  check(`${tag}: Run shows the result, every number readable`, lay.ok && /^\d/.test(await $text('#cost')), lay.bad.join('; '));
  await screenshot(`${name}-result`);
  const box0 = await gridBox();

  // Issue 25 item 28: the cells are too small here for F, G and H; Read
  // (the action bar) and a touch on a cell show them in the loupe, in type
  // of 9 px or more, and the hover line reads them.
  await part(`${tag}: Read and the loupe`, async () => {
  const cc = await closedCell();
  await page.tap('#read', { timeout: 5_000 });
  const pressed = await page.getAttribute('#read', 'aria-pressed');
  const cp = await cellPoint(...cc);
  await page.touchscreen.tap(cp.x, cp.y);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const lp = await pg(() => window.__playground.loupe ? window.__playground.loupe() : {});
  const lpInk = await pg(() => {
    const cv = document.getElementById('loupe'), d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
    let dark = 0;
    for (let k = 0; k < d.length; k += 4) if (d[k] + d[k + 1] + d[k + 2] < 200) dark++;
    const r = cv.getBoundingClientRect();
    return { dark, inView: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight, side: r.width };
  });
  const readInfo = await $text('#cell-info');
  check(`${tag}: cells of ${lay.cell.toFixed(1)} px: Read + a touch shows the cell's F, G and H in the loupe ` +
    `(${lp.metrics && lp.metrics.fPx} / ${lp.metrics && lp.metrics.ghPx} px type)`, pressed === 'true' && lp.shown &&
    lp.cell && lp.cell[0] === cc[0] && lp.cell[1] === cc[1] && lp.metrics && lp.metrics.mode === 'fgh' &&
    lp.metrics.ghPx >= 9 && lp.metrics.fPx >= 10 && lpInk.inView && lpInk.dark > 50 &&
    /F [\d.]+ = G [\d.]+ \+ H [\d.]+/.test(readInfo), JSON.stringify({ pressed, lp, lpInk, readInfo }));
  await screenshot(`${name}-read`);
  await page.tap('#read');
  check(`${tag}: Read again goes back to drawing, the loupe put away`,
    (await page.getAttribute('#read', 'aria-pressed')) === 'false' && !(await pg(() => window.__playground.loupe ? window.__playground.loupe() : {})).shown &&
    (await pg(() => document.querySelector('input[name=brush]:checked').value)) === 'wall');
  });

  // The options drawer.
  await page.tap('#menu');
  await page.waitForTimeout(300); // the drawer's slide
  const drawer = await pg(() => {
    const r = document.getElementById('panel').getBoundingClientRect(), a = document.getElementById('algorithm').getBoundingClientRect();
    return { left: r.left, right: r.right, w: innerWidth, inert: document.getElementById('panel').inert,
      expanded: document.getElementById('menu').getAttribute('aria-expanded'), select: a.width > 0 && a.right <= innerWidth };
  });
  check(`${tag}: Options opens the drawer with every control`, drawer.left >= -0.5 && drawer.right <= drawer.w &&
    !drawer.inert && drawer.expanded === 'true' && drawer.select, JSON.stringify(drawer));
  await screenshot(`${name}-options`);
  await page.selectOption('#algorithm', 'jps');
  await page.tap('#drawer-close');
  await page.waitForTimeout(300);
  const closed = await pg(() => ({ right: document.getElementById('panel').getBoundingClientRect().right, inert: document.getElementById('panel').inert }));
  check(`${tag}: Close puts the drawer away (off screen, inert)`, closed.right <= 0.5 && closed.inert, JSON.stringify(closed));

  // JPS on the default map runs (no terrain there); on a map with terrain
  // the notice says why, in full, with the switches.
  await page.waitForFunction(() => { const r = window.__playground.result(); return r && r.options.algo === 'jps'; }, null, { timeout: 10_000 });
  const jpsBox = await gridBox();
  check(`${tag}: JPS runs on the default map, its long message moves nothing`, !(await noticeState()).visible &&
    (await $text('#message')).length > 80 && JSON.stringify(jpsBox) === JSON.stringify(box0),
    JSON.stringify({ box0, jpsBox }));
  await pg((t) => window.__playground.loadMap(t, 'terrain.txt'), TERRAIN_MAP);
  const nt = await noticeState();
  check(`${tag}: the JPS notice is shown in full with its switches`, nt.unclipped && /terrain/.test(nt.text) &&
    nt.buttons.includes('Use A*') && nt.buttons.includes('Clear terrain'), JSON.stringify(nt));
  lay = await compactLayout();
  check(`${tag}: with the notice the grid and buttons still fit`, lay.ok, lay.bad.join('; '));
  await screenshot(`${name}-jps-notice`);
  await page.tap('#use-astar');
  check(`${tag}: "Use A*" works by touch`, (await page.inputValue('#algorithm')) === 'astar' && !(await noticeState()).visible);
  await ph.context.close();
  page = desktop.page;
}

// Set a range input and fire its input event.
async function setRange(sel, v) {
  await page.locator(sel).evaluate((el, val) => {
    el.value = String(val);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, v);
}

// The most frequent colour inside a cell on the canvas (its fill: numbers,
// arrows and hatching are thin), as [r, g, b].
function cellColour(x, y) {
  return pg(([cx, cy]) => {
    const P = window.__playground, cv = document.getElementById('grid');
    const box = P.cellBox(cx, cy), dpr = cv.width / cv.getBoundingClientRect().width;
    const d = cv.getContext('2d').getImageData(Math.round(box.x * dpr), Math.round(box.y * dpr),
      Math.max(1, Math.round(box.size * dpr)), Math.max(1, Math.round(box.size * dpr))).data;
    const count = new Map();
    for (let k = 0; k < d.length; k += 4) {
      const key = (d[k] << 16) | (d[k + 1] << 8) | d[k + 2];
      count.set(key, (count.get(key) || 0) + 1);
    }
    const [best] = [...count].sort((a, b) => b[1] - a[1])[0];
    return [best >> 16, (best >> 8) & 255, best & 255];
  }, [x, y]);
}
const colourDistance = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

// Run the selected algorithm from the UI and `astar solve` with cliArgs on
// the exported map; both must agree on the outcome, cost, length,
// expansions, and IDA*'s iterations or the entries dropped.
async function compareVariant(label, cliArgs) {
  const r = await runInstant();
  const res = await pg(() => window.__playground.result());
  const sz = await pg(() => window.__playground.size());
  const mapFile = path.join(WORK, `map${++mapSeq}.txt`);
  fs.writeFileSync(mapFile, await pg(() => window.__playground.exportAscii()));
  const n = solve(mapFile, sz.start, sz.goal, cliArgs);
  const found = n.status === 'path found';
  // A failure: the status box has the word, the message and the result the
  // library's sentence -- the CLI's.
  check(`${label}: the page's outcome "${r.status}" is the CLI's`, found ? r.state === 'done'
    : res.statusText === n.status && (await $text('#message')).toLowerCase().includes(n.status.toLowerCase()),
  `CLI "${n.status}" (${n.args}), page "${res.statusText}"`);
  if (found) {
    check(`${label}: cost ${r.costText}, length ${r.length} and expansions ${r.expanded} equal the CLI's`,
      Math.abs(r.cost - n.cost) <= 0.5 * 10 ** -decimals(r.costText) + 1e-9 && r.length === n.length && r.expanded === n.expanded,
      `CLI cost ${n.costText}, length ${n.length}, expanded ${n.expanded}`);
  } else {
    check(`${label}: expansions ${res.expanded} equal the CLI's`, res.expanded === n.expanded, `CLI ${n.expanded}`);
  }
  return { r, res, n };
}

async function testVariants(astar) {
  await page.selectOption('#step-unit', 'expansion');

  /* Bidirectional A*: two searches, told apart by colour and hatching, and
     the node where they met. */
  await page.selectOption('#algorithm', 'bidir');
  check('each algorithm has its one-line explanation', /meet/.test(await $text('#algo-help')));
  const bi = await compareVariant('bidirectional A*', ['--algo', 'bidir']);
  check('bidirectional A* finds the optimal cost (A*\'s)', Math.abs(bi.res.cost - astar.cost) < 1e-9,
    `${bi.res.cost} vs ${astar.cost}`);
  const fronts = await pg(() => {
    const P = window.__playground, sz = P.size(), out = { fwdOpen: null, backOpen: null, fwdClosed: null, backClosed: null, n: [0, 0] };
    for (let y = 0; y < sz.height; y++) for (let x = 0; x < sz.width; x++) {
      const c = P.cellInfo(x, y);
      if (c.side === null || c.cell !== 1) continue;
      out.n[c.side]++;
      const k = `${c.side ? 'back' : 'fwd'}${c.state === 'open' ? 'Open' : 'Closed'}`;
      if (!out[k]) out[k] = [x, y];
    }
    return out;
  });
  const col = {};
  for (const k of ['fwdOpen', 'backOpen', 'fwdClosed', 'backClosed']) col[k] = fronts[k] ? await cellColour(...fronts[k]) : null;
  check(`bidirectional A*: both frontiers are shown (${fronts.n[0]} cells of the forward search, ${fronts.n[1]} of the backward one)`,
    fronts.n[0] > 0 && fronts.n[1] > 0 && bi.res.counts.forward > 0 && bi.res.counts.backward > 0, JSON.stringify(fronts));
  check('bidirectional A*: the backward frontier has colours of its own, open and closed',
    Object.values(col).every(Boolean) && colourDistance(col.fwdOpen, col.backOpen) > 60 &&
    colourDistance(col.fwdClosed, col.backClosed) > 30, JSON.stringify(col));
  const meetInfo = bi.res.meet && await pg(([x, y]) => window.__playground.cellInfo(x, y), bi.res.meet);
  check(`bidirectional A*: the meeting node ${JSON.stringify(bi.res.meet)} is marked and named, after ${bi.res.meets} MEET events`,
    bi.res.meets >= 1 && bi.res.counts.meet === bi.res.meets && meetInfo && meetInfo.meet &&
    (await $text('#extra')) === `(${bi.res.meet[0]}, ${bi.res.meet[1]})` && bi.res.path.some(([x, y]) => x === bi.res.meet[0] && y === bi.res.meet[1]),
    `extra "${await $text('#extra')}"`);
  const biPath = await pg(() => {
    const P = window.__playground, r = P.result();
    return r.path.map(([x, y]) => P.cellInfo(x, y));
  });
  check('bidirectional A*: path cells show G from S, F = G + H at most the path\'s cost, equal to it on the backward side',
    biPath[0].g === 0 && biPath.some((c) => c.side === 1) && biPath.every((c, k) => c.state === 'path' &&
      (k === 0 || c.g > biPath[k - 1].g) && (c.side === 1 ? Math.abs(c.f - bi.res.cost) < 1e-9 : c.f <= bi.res.cost + 1e-9)),
    JSON.stringify(biPath.filter((c) => c.side === 1 ? Math.abs(c.f - bi.res.cost) >= 1e-9 : c.f > bi.res.cost + 1e-9).slice(0, 2)));
  check('bidirectional A*: the legend explains the backward search and the meet',
    await page.locator('#lg-back').isVisible() && await page.locator('#lg-meet').isVisible());
  await screenshot('desktop-1440x900-bidirectional');
  // Stepping: the first MEET shows the meeting node while both searches are under way.
  await page.click('#clear-path');
  const stepToMeet = await pg(() => {
    const P = window.__playground;
    for (let k = 0; k < 5000; k++) {
      document.getElementById('step').click();
      const st = P.stepState();
      if (st.meets > 0 || st.done) return st;
    }
    return P.stepState();
  });
  check('bidirectional A*: stepping, the first meeting is shown before the search ends',
    stepToMeet.meets >= 1 && !stepToMeet.done && stepToMeet.meet !== null, JSON.stringify({ ...stepToMeet, group: undefined }));
  await page.click('#clear-path');

  /* IDA*: iterations under a rising bound; each iteration starts the picture over. */
  await page.selectOption('#algorithm', 'ida');
  const ida = await compareVariant('IDA*', ['--algo', 'ida']);
  check(`IDA*: ${ida.res.iterations} iterations, the CLI's ${ida.n.iterations}, at least 2`,
    ida.res.iterations >= 2 && ida.res.iterations === ida.n.iterations && ida.res.counts.iteration === ida.res.iterations - 1,
    JSON.stringify(ida.res.counts));
  check('IDA* finds the optimal cost (A*\'s)', Math.abs(ida.res.cost - astar.cost) < 1e-9, `${ida.res.cost} vs ${astar.cost}`);
  check('IDA*: the iteration counter shows the iterations and the last bound',
    (await $text('#extra')).startsWith(`${ida.res.iterations} · `) && Math.abs(ida.res.bound - ida.res.cost) < 1e-9,
    await $text('#extra'));
  await page.click('#clear-path');
  const iter2 = await pg(() => {
    const P = window.__playground;
    let before = null;
    for (let k = 0; k < 100000; k++) {
      const st = P.stepState();
      if (st && st.iteration === 1 && st.next === 'iteration') before = st;
      document.getElementById('step').click();
      const now = P.stepState();
      if (now.iteration === 2 || now.done) {
        const sz = P.size();
        let shown = 0;
        for (let y = 0; y < sz.height; y++) for (let x = 0; x < sz.width; x++) if (P.cellInfo(x, y).state !== 'none') shown++;
        return { before: before && before.cursor, iteration: now.iteration, bound: now.bound, shown,
          current: now.current, start: [sz.start.x, sz.start.y], extra: document.getElementById('extra').textContent };
      }
    }
    return null;
  });
  check('IDA*: stepping into iteration 2 starts the picture over from S under the raised bound',
    iter2 && iter2.iteration === 2 && iter2.shown === 1 && iter2.current[0] === iter2.start[0] &&
    iter2.current[1] === iter2.start[1] && iter2.extra.startsWith('2 · '), JSON.stringify(iter2));
  await page.click('#clear-path');

  /* Beam search with a narrow beam drops entries; they are shown and counted. */
  await page.selectOption('#algorithm', 'beam');
  check('the beam width slider is named by its label',
    (await page.getByRole('slider', { name: 'Beam width', exact: true }).count()) === 1);
  await setRange('#beam-width', 2);
  const beam = await compareVariant('beam search, width 2', ['--algo', 'beam', '--width', '2']);
  const droppedCells = await pg(() => {
    const P = window.__playground, sz = P.size();
    let n = 0;
    for (let y = 0; y < sz.height; y++) for (let x = 0; x < sz.width; x++) if (P.cellInfo(x, y).state === 'dropped') n++;
    return n;
  });
  check(`beam search, width 2: ${beam.res.dropped} entries dropped, as the CLI says, ${droppedCells} cells shown dropped`,
    beam.res.dropped > 0 && beam.res.dropped === beam.n.dropped && beam.res.counts.drop === beam.res.dropped &&
    droppedCells > 0 && num(await $text('#extra')) === beam.res.dropped && await page.locator('#lg-drop').isVisible(),
    `CLI ${beam.n.dropped}, extra "${await $text('#extra')}"`);
  await setRange('#beam-width', 64);
  const wide = await compareVariant('beam search, width 64', ['--algo', 'beam', '--width', '64']);
  check('a wider beam drops fewer', wide.res.dropped < beam.res.dropped, `${wide.res.dropped} vs ${beam.res.dropped}`);

  /* Dynamic weighting and bandwidth search, with their settings. */
  await page.selectOption('#algorithm', 'dynamic');
  await setRange('#epsilon', 2);
  const dyn = await compareVariant('dynamic weighting, epsilon 2', ['--algo', 'dynamic', '--epsilon', '2']);
  check('dynamic weighting keeps its bound: cost <= (1 + epsilon) x optimal', dyn.res.cost <= 3 * astar.cost + 1e-9);
  await page.selectOption('#algorithm', 'bandwidth');
  await setRange('#band-e', 1);
  await setRange('#band-d', 0.5);
  const band = await compareVariant('bandwidth search, e 1, d 0.5', ['--algo', 'bandwidth', '--band-e', '1', '--band-d', '0.5']);
  check(`bandwidth search: ${band.res.dropped} dropped, as the CLI says`, band.res.dropped === band.n.dropped, `CLI ${band.n.dropped}`);

  /* What the engine cannot do: a cross-product tie order. */
  await page.selectOption('#algorithm', 'bidir');
  await page.selectOption('#tie', '2');
  let nt = await noticeState();
  check('the engine\'s algorithms explain that they cannot break ties by the cross product',
    nt.visible && /cross product/.test(nt.text) && nt.buttons.includes('Use Bidirectional A*\'s options'), JSON.stringify(nt));
  await page.click('#fix-options');
  nt = await noticeState();
  check('"Use Bidirectional A*\'s options" sets ties it can use', !nt.visible && (await page.inputValue('#tie')) === '0');
  await page.selectOption('#algorithm', 'astar');
}

/* ---- hex mode ------------------------------------------------------------ */

// Centre of offset cell (x, y) for hexagons of circumradius 1, as
// astar/hex.h defines the picture (astar_hex_center): neighbouring centres
// sqrt(3) apart, shoved rows (pointy) or columns (flat) half a cell over.
const SQ3 = Math.sqrt(3);
function hexCenter(shape, x, y) {
  const [orientation, layout] = shape.split(' ');
  const shoved = (k) => ((k & 1) === (layout.startsWith('odd') ? 1 : 0) ? 1 : 0);
  return orientation === 'pointy' ? [SQ3 * (x + 0.5 + 0.5 * shoved(y)), 1 + 1.5 * y]
    : [1 + 1.5 * x, SQ3 * (y + 0.5 + 0.5 * shoved(x))];
}

// Hex distance between offset cells, through axial coordinates (Patel's
// "Hexagonal Grids", as astar/hex.h names the layouts).
function hexDistance(shape, a, b) {
  const [orientation, layout] = shape.split(' ');
  const odd = layout.startsWith('odd') ? 1 : 0;
  const half = (k) => (odd ? (k - (k & 1)) / 2 : (k + (k & 1)) / 2);
  const axial = ([x, y]) => (orientation === 'pointy' ? [x - half(y), y] : [x, y - half(x)]);
  const [q1, r1] = axial(a), [q2, r2] = axial(b);
  return (Math.abs(q1 - q2) + Math.abs(r1 - r2) + Math.abs(q1 + r1 - q2 - r2)) / 2;
}

// Where the test expects cell (x, y) on screen: the canvas's box, scaled so
// that the picture of circumradius 1 fills it.
async function hexPoint(x, y) {
  const box = await page.locator('#grid').boundingBox();
  const sz = await pg(() => window.__playground.size());
  const ew = sz.shape.startsWith('pointy') ? SQ3 * (sz.width + 0.5) : 1.5 * sz.width + 0.5;
  const r = box.width / ew, [cx, cy] = hexCenter(sz.shape, x, y);
  return { x: box.x + cx * r, y: box.y + cy * r, r };
}

async function dragHex(a, b) {
  const p = await hexPoint(...a), q = await hexPoint(...b);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(q.x, q.y, { steps: 16 });
  await page.mouse.up();
}

async function clickHex(x, y) {
  const p = await hexPoint(x, y);
  await page.mouse.click(p.x, p.y);
}

const hexRows = async () => (await pg(() => window.__playground.exportAscii())).trim().split('\n').slice(1)
  .map((r) => r.trim().split(/\s+/));

// After a run on hexagons: every path cell shows G = the terrain entered
// so far, H = the hex distance to G (the map's cheapest terrain is 1), F =
// G + H, its parent the cell before it.
async function checkHexPath(label) {
  const d = await pg(() => {
    const P = window.__playground, r = P.result();
    return { path: r.path, info: r.path.map(([x, y]) => P.cellInfo(x, y)), sz: P.size() };
  });
  let g = 0, bad = '';
  d.path.forEach(([x, y], k) => {
    const c = d.info[k];
    if (k) g += c.cell;
    const h = hexDistance(d.sz.shape, [x, y], [d.sz.goal.x, d.sz.goal.y]);
    const pp = k ? d.path[k - 1] : null;
    if (!bad && (c.state !== 'path' || c.g !== g || Math.abs(c.h - h) > 1e-9 || c.f !== c.g + c.h ||
        (k ? !c.parent || c.parent[0] !== pp[0] || c.parent[1] !== pp[1] : c.parent))) {
      bad = `(${x}, ${y}) ${JSON.stringify(c)}, want G ${g} H ${h}`;
    }
  });
  check(`${label}: every path cell shows G (the terrain entered), H (the hex distance), F = G + H and its parent`,
    d.path.length > 1 && !bad, bad);
}

async function testHex() {
  await page.selectOption('#algorithm', 'astar');
  await page.selectOption('#size', '16x10');
  await page.click('#clear-walls'); // the preset's walls: an empty map here
  await page.selectOption('#cells', 'pointy-odd');
  let sz = await pg(() => window.__playground.size());
  check('Cells: hexagons switch the map to a pointy odd-r hex grid', sz.geometry === 'hex' && sz.shape === 'pointy odd-r' &&
    (await pg(() => window.__playground.exportAscii())).startsWith('hex pointy odd-r\n'), JSON.stringify(sz));
  check('Cells: on hexagons Theta*, Lazy Theta*, Anya, the smooth toggle, the unit size and the clearance overlay are off',
    (await page.locator('#algorithm option[value=theta]').isDisabled()) &&
    (await page.locator('#algorithm option[value=lazy-theta]').isDisabled()) &&
    (await page.locator('#algorithm option[value=anya]').isDisabled()) && (await page.isDisabled('#smooth')) &&
    (await page.isDisabled('#unit')) && (await page.isDisabled('#clearance')));
  // Every cell is drawn where the library's geometry puts it.
  const centres = await pg(() => {
    const P = window.__playground, sz = P.size(), out = [];
    for (let y = 0; y < sz.height; y++) for (let x = 0; x < sz.width; x++) out.push([x, y, P.cellBox(x, y).cx, P.cellBox(x, y).cy]);
    return out;
  });
  const hp0 = await hexPoint(0, 0), box0 = await page.locator('#grid').boundingBox();
  const off = centres.map(([x, y, cx, cy]) => {
    const [ux, uy] = hexCenter(sz.shape, x, y);
    return Math.hypot(cx - ux * hp0.r, cy - uy * hp0.r);
  });
  check(`hex: every cell is drawn at its astar_hex_center (worst ${Math.max(...off).toFixed(2)} px off)`, Math.max(...off) < 0.75,
    `R ${hp0.r.toFixed(2)}, canvas ${box0.width} x ${box0.height}`);
  check('hex: the square grid\'s options are off, JPS is not offered, and a line says why',
    await page.isDisabled('#diagonal') && await page.isDisabled('#costs') && await page.isDisabled('#heuristic') &&
    await page.isDisabled('#turn-penalty') && await page.locator('#algorithm option[value=jps]').isDisabled() &&
    /six neighbours/i.test(await $text('#geometry-help')));

  // Draw: a wall along row 6 by dragging over the hexagons, single walls
  // by clicks, terrain by a click with the terrain brush.
  await dragHex([3, 6], [12, 6]);
  let rows = await hexRows();
  check('hex: a mouse drag along a row of hexagons draws walls on exactly those', rows[6].join('') === '...##########...' &&
    rows.every((r, y) => y === 6 || !r.includes('#')), rows[6].join(''));
  // The canvas shows them as hexagons at those centres: dark at a wall's
  // centre and at the corners of its hexagon, light beside it.
  const pix = async (pts) => pg((ps) => {
    const cv = document.getElementById('grid'), r = cv.getBoundingClientRect(), dpr = cv.width / r.width;
    return ps.map(([x, y]) => [...cv.getContext('2d').getImageData(Math.round((x - r.left) * dpr), Math.round((y - r.top) * dpr), 1, 1).data]
      .slice(0, 3).reduce((a, b) => a + b, 0) / 3);
  }, pts);
  const w0 = await hexPoint(5, 6), f0 = await hexPoint(5, 7);
  // Just inside the top and bottom corners of the pointy wall hexagon (5, 6).
  const shades = await pix([[w0.x, w0.y], [w0.x, w0.y - 0.85 * w0.r], [w0.x, w0.y + 0.85 * w0.r], [f0.x, f0.y]]);
  check('hex: the walls are drawn as hexagons at the library\'s centres', shades[0] < 60 && shades[1] < 60 && shades[2] < 60 &&
    shades[3] > 200, JSON.stringify(shades));
  for (const y of [1, 2, 3, 4]) await clickHex(10, y);
  await page.click('label:has(> input[name=brush][value=terrain])');
  await setRange('#terrain', 5);
  await clickHex(6, 4);
  await clickHex(7, 4);
  await page.click('label:has(> input[name=brush][value=wall])');
  rows = await hexRows();
  check('hex: clicks draw single walls and terrain on the hexagons clicked',
    [1, 2, 3, 4].every((y) => rows[y][10] === '#') && rows[4][6] === '5' && rows[4][7] === '5', rows.map((r) => r.join('')).join(' / '));
  // Drag S by its marker below the wall.
  const s0 = (await pg(() => window.__playground.size())).start;
  await dragHex([s0.x, s0.y], [2, 8]);
  sz = await pg(() => window.__playground.size());
  check('hex: S is dragged onto another hexagon', sz.start.x === 2 && sz.start.y === 8, JSON.stringify(sz.start));

  // A*, Dijkstra, greedy and bidirectional A* against `astar solve MAP.hex`.
  const hexAstar = await compareWithCli('hex A*', []);
  await checkHexPath('hex A*');
  check('hex: the path goes round the wall', (await pg(() => window.__playground.result())).path.some(([x, y]) => y === 6 && (x < 3 || x > 12)));
  await screenshot('desktop-1440x900-hex');
  await page.click('#clear-path');
  const groups = [];
  for (let k = 0; k < 3; k++) {
    await page.click('#step');
    groups.push(await checkGroup());
  }
  check('hex: each step shows the expanded hexagon with the neighbours it pushed (up to six), their F/G/H and parent',
    groups.every((g) => g.ok) && groups[0].pushed >= 3 && groups.every((g) => g.pushed <= 6), JSON.stringify(groups));
  await page.click('#clear-path');
  await page.selectOption('#algorithm', 'dijkstra');
  const hexDij = await compareWithCli('hex Dijkstra', ['--algo', 'dijkstra']);
  check('hex: Dijkstra finds A*\'s cost with more expansions', hexDij.cost === hexAstar.cost && hexDij.expanded > hexAstar.expanded);
  await page.selectOption('#algorithm', 'greedy');
  await compareWithCli('hex greedy best-first', ['--algo', 'greedy']);
  await page.selectOption('#algorithm', 'bidir');
  const hexBi = await compareWithCli('hex bidirectional A*', ['--algo', 'bidir']);
  const hb = await pg(() => window.__playground.result());
  check(`hex bidirectional A*: A*'s cost, both frontiers (${hb.counts.forward} / ${hb.counts.backward} events) and the meeting node`,
    hexBi.cost === hexAstar.cost && hb.counts.forward > 0 && hb.counts.backward > 0 && hb.meets >= 1 && hb.meet &&
    (await pg(([x, y]) => window.__playground.cellInfo(x, y), hb.meet)).meet, JSON.stringify({ meet: hb.meet, meets: hb.meets }));
  await screenshot('desktop-1440x900-hex-bidirectional');

  // IDA* and beam search on hexagons (the CLI runs the four above on hex
  // maps; these are held to A*'s cost and to their own counts).
  await page.selectOption('#algorithm', 'ida');
  await runInstant();
  const hi = await pg(() => window.__playground.result());
  check(`hex IDA*: A*'s cost ${hexAstar.costText} in ${hi.iterations} iterations`,
    hi.status === 0 && Math.abs(hi.cost - hexAstar.cost) < 1e-9 && hi.iterations >= 2 && hi.counts.iteration === hi.iterations - 1 &&
    (await $text('#extra')).startsWith(`${hi.iterations} · `), JSON.stringify({ cost: hi.cost, it: hi.iterations }));
  await page.selectOption('#algorithm', 'beam');
  await setRange('#beam-width', 2);
  await runInstant();
  const hbm = await pg(() => window.__playground.result());
  check(`hex beam search, width 2: ${hbm.dropped} entries dropped, shown and counted`,
    hbm.dropped > 0 && hbm.counts.drop === hbm.dropped && num(await $text('#extra')) === hbm.dropped, JSON.stringify(hbm.counts));
  await setRange('#beam-width', 8);
  await page.selectOption('#algorithm', 'astar');

  // The other three shapes: the same cells, searched and drawn as each.
  for (const [value, shape] of [['pointy-even', 'pointy even-r'], ['flat-odd', 'flat odd-q'], ['flat-even', 'flat even-q']]) {
    await page.selectOption('#cells', value);
    const z = await pg(() => window.__playground.size());
    const p = await hexPoint(z.goal.x, z.goal.y), b = await pg(([x, y]) => window.__playground.cellBox(x, y), [z.goal.x, z.goal.y]);
    const bb = await page.locator('#grid').boundingBox();
    check(`hex ${shape}: the map takes the shape and G is drawn at its centre`, z.shape === shape &&
      Math.hypot(bb.x + b.cx - p.x, bb.y + b.cy - p.y) < 0.75, JSON.stringify({ shape: z.shape }));
    await compareWithCli(`hex ${shape} A*`, []);
    await checkHexPath(`hex ${shape} A*`);
  }

  // A hex map through the file input: hex mode with the file's shape, S and G.
  const hexMap = 'hex flat odd-q\n; a flat-topped map\nS . . # . . .\n. 3 . # . # .\n. . . # . # G\n. # . . . # .\n';
  fs.writeFileSync(path.join(WORK, 'loaded.hex'), hexMap);
  await page.setInputFiles('#map-file', { name: 'loaded.hex', mimeType: 'text/plain', buffer: Buffer.from(hexMap) });
  await page.waitForFunction(() => window.__playground.size().width === 7, null, { timeout: 10_000 });
  const lz = await pg(() => window.__playground.size());
  check('a hex map loads through the file input with its shape, S and G', lz.geometry === 'hex' && lz.shape === 'flat odd-q' &&
    (await page.inputValue('#cells')) === 'flat-odd' && lz.start.x === 0 && lz.start.y === 0 && lz.goal.x === 6 && lz.goal.y === 2,
    JSON.stringify(lz));
  const lr = await runInstant();
  const ln = solve(path.join(WORK, 'loaded.hex'), lz.start, lz.goal);
  check(`loaded hex map: cost ${lr.costText}, length and expansions equal the CLI's on the file`,
    lr.state === 'done' && lr.cost === ln.cost && lr.length === ln.length && lr.expanded === ln.expanded,
    `CLI ${ln.costText} ${ln.length} ${ln.expanded}`);

  // Back to squares.
  await page.selectOption('#cells', 'square');
  const sq = await pg(() => window.__playground.size());
  check('Cells: squares again, JPS offered again', sq.geometry === 'square' &&
    !(await page.locator('#algorithm option[value=jps]').isDisabled()) && !(await page.isDisabled('#diagonal')) &&
    !(await pg(() => window.__playground.exportAscii())).startsWith('hex'));
  await page.selectOption('#size', '40x25');
}

// The colour of the canvas at (x, y) in cell units (0.5 = a cell's centre),
// as [r, g, b], once the page has drawn its next frame (it draws on
// animation frames).
async function canvasPixel(x, y) {
  await pg(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return pg(([px, py]) => {
    const cv = document.getElementById('grid'), c = window.__playground.size().cell;
    const dpr = cv.width / cv.getBoundingClientRect().width;
    const d = cv.getContext('2d').getImageData(Math.round(px * c * dpr), Math.round(py * c * dpr), 1, 1).data;
    return [d[0], d[1], d[2]];
  }, [x, y]);
}

/* Any-angle paths (issue 11): Theta* and Lazy Theta* draw a line through
   their bends, equal to `astar solve --algo theta|lazy-theta`; the smooth
   toggle draws A*'s and JPS's path string-pulled, equal to `--smooth`. */
const AA_MAP = 'S...........\n.....#......\n.....#......\n.....#......\n.....#####..\n' +
  '............\n..######....\n.......#....\n.......#...G\n';
const LINE_RGB = [232, 89, 12]; // app.js LINE
// A map with a patch of terrain (cost 5) between S and G.
const TERRAIN_MAP = 'S.........\n...555....\n...555....\n.........G\n';
async function testAnyAngle() {
  // A map with terrain: Theta* is refused, in the CLI's words.
  await pg((t) => window.__playground.loadMap(t, 'terrain.txt'), TERRAIN_MAP);
  await page.selectOption('#algorithm', 'theta');
  const nt = await noticeState();
  const defMap = path.join(WORK, 'aa-terrain.txt');
  fs.writeFileSync(defMap, await pg(() => window.__playground.exportAscii()));
  const dz = await pg(() => window.__playground.size());
  const refused = solve(defMap, dz.start, dz.goal, ['--algo', 'theta']);
  const why = (nt.text.match(/here: (.*?)\./) || [])[1] || '';
  check('Theta* on a map with terrain: the notice gives the CLI\'s reason, with "Clear terrain" and "Use A*"',
    nt.visible && why.length > 20 && refused.status.toLowerCase().includes(why.toLowerCase()) &&
    nt.buttons.includes('Clear terrain') && nt.buttons.includes('Use A*'), `page "${nt.text}", CLI "${refused.status}"`);

  const mapFile = path.join(WORK, 'aa.txt');
  fs.writeFileSync(mapFile, AA_MAP);
  await pg((t) => window.__playground.loadMap(t, 'aa.txt'), AA_MAP);
  const z = await pg(() => window.__playground.size());
  const lines = {};
  for (const algo of ['theta', 'lazy-theta']) {
    await page.selectOption('#algorithm', algo);
    const r = await runInstant();
    const res = await pg(() => window.__playground.result());
    const n = solve(mapFile, z.start, z.goal, ['--algo', algo]);
    const pts = (n.raw.match(/^waypoints:\s+\d+ \(\d+ segments?\):(.*)$/m) || [])[1] || '';
    const cliLine = [...pts.matchAll(/\((\d+),(\d+)\)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    lines[algo] = res;
    check(`${algo}: the line through ${res.line.length - 2} bends is the CLI's, ${JSON.stringify(res.line)}`,
      r.state === 'done' && JSON.stringify(res.line) === JSON.stringify(cliLine) && res.line.length === 4 &&
      (await $text('#length')) === '3 segments', `CLI ${JSON.stringify(cliLine)}`);
    check(`${algo}: cost ${r.costText} (the line's length) is the library's, expansions and cells walked too`,
      Math.abs(res.cost - n.cost) < 1e-8 && Math.abs(r.cost - n.cost) <= 0.5 * 10 ** -decimals(r.costText) &&
      res.expanded === n.expanded && res.walked.length === Number((n.raw.match(/^cells:\s+(\d+)/m) || [])[1]),
      `CLI cost ${n.costText}, expanded ${n.expanded}; page ${res.cost}, ${res.expanded}, ${res.walked.length} cells`);
  }
  check(`Lazy Theta* tests fewer lines of sight (${lines['lazy-theta'].sightChecks}) than Theta* (${lines.theta.sightChecks}), ` +
    'as the last stat box says', lines['lazy-theta'].sightChecks < lines.theta.sightChecks &&
    num(await $text('#extra')) === lines['lazy-theta'].sightChecks && (await $text('#extra-k')) === 'sight checks');
  // Anya (astar/anya.h): the optimal line, corners at grid points, no
  // longer than Theta*'s; it is also drawn beside Theta*'s, dashed.
  await page.selectOption('#algorithm', 'anya');
  const ar = await runInstant();
  const an = await pg(() => window.__playground.result());
  const B = an.best, blen = B.slice(1).reduce((a, p, k) => a + Math.hypot(p[0] - B[k][0], p[1] - B[k][1]), 0);
  const cornersOk = B.length >= 2 && B[0][0] === z.start.x + 0.5 && B[0][1] === z.start.y + 0.5 &&
    B[B.length - 1][0] === z.goal.x + 0.5 && B[B.length - 1][1] === z.goal.y + 0.5 &&
    B.slice(1, -1).every(([x, y]) => Number.isInteger(x) && Number.isInteger(y));
  check(`Anya: the optimal line (cost ${ar.costText}) bends at grid corners, its cost its length, at most Theta*'s and Lazy Theta*'s`,
    ar.state === 'done' && cornersOk && Math.abs(an.cost - blen) < 1e-9 && an.cost <= lines.theta.cost + 1e-9 &&
    an.cost <= lines['lazy-theta'].cost + 1e-9 && !(await page.isHidden('#lg-best')), JSON.stringify(B));
  const na = solve(mapFile, z.start, z.goal, ['--algo', 'anya']);
  const naPts = [...(((na.raw.match(/^points:[^\n]*\n\s+(.*)$/m) || [])[1]) || '').matchAll(/\(([\d.]+),([\d.]+)\)/g)]
    .map((m) => [Number(m[1]), Number(m[2])]);
  check('Anya: the points, cost and expansions are `astar solve --algo anya`\'s',
    JSON.stringify(naPts) === JSON.stringify(B) && Math.abs(an.cost - na.cost) < 1e-8 && an.expanded === na.expanded,
    `CLI ${JSON.stringify(naPts)} ${na.costText} ${na.expanded}; page ${an.cost} ${an.expanded}`);
  // On the canvas: the line (orange) halfway along its first segment, a
  // white dot at each bend; the bends show G = the line's length so far,
  // their parent the bend before (far away).
  await page.selectOption('#algorithm', 'theta');
  await runInstant();
  const withBest = await pg(() => window.__playground.result());
  check('Theta*: the optimal line is shown beside it, the message says how much longer Theta*\'s is',
    JSON.stringify(withBest.best) === JSON.stringify(an.best) && Math.abs(withBest.bestCost - an.cost) < 1e-12 &&
    /optimal line \(Anya, dashed purple\) costs [\d.]+: this one is [\d.]+ % longer/.test(await $text('#message')));
  const L = lines.theta.line, mid = (a, b) => [(a[0] + b[0]) / 2 + 0.5, (a[1] + b[1]) / 2 + 0.5];
  const onLine = await canvasPixel(...mid(L[0], L[1]));
  const dots = await Promise.all(L.slice(1, -1).map(([x, y]) => canvasPixel(x + 0.5, y + 0.5)));
  check('Theta*: the line is drawn through the cell centres, each bend marked', colourDistance(onLine, LINE_RGB) < 40 &&
    dots.every((d) => colourDistance(d, [255, 255, 255]) < 30), JSON.stringify({ onLine, dots }));
  const b1 = await pg(([x, y]) => window.__playground.cellInfo(x, y), L[1]);
  const far = await pg(() => {
    const P = window.__playground, sz = P.size();
    let n = 0;
    for (let y = 0; y < sz.height; y++) for (let x = 0; x < sz.width; x++) {
      const c = P.cellInfo(x, y);
      if (c.parent && Math.max(Math.abs(c.parent[0] - x), Math.abs(c.parent[1] - y)) > 1) n++;
    }
    return n;
  });
  check(`Theta*: a bend shows G = the line's length to it and its parent the bend before; ${far} cells have a parent far away`,
    b1.state === 'path' && Math.abs(b1.g - Math.hypot(L[1][0] - L[0][0], L[1][1] - L[0][1])) < 1e-9 &&
    b1.parent && b1.parent[0] === L[0][0] && b1.parent[1] === L[0][1] && far >= 10, JSON.stringify(b1));
  const hp = await cellPoint(...L[1]);
  await page.mouse.move(hp.x, hp.y);
  const hover = await $text('#cell-info');
  check('Theta*: hovering a bend names its parent, how far away and in sight', /parent \(0, 0\) \S+ [\d.]+ away, in sight/.test(hover), hover);
  await screenshot('desktop-1440x900-theta');
  await page.mouse.move(0, 0);
  // Stepping: every node a Theta* expansion pushes has the expanded node or
  // its parent (in sight) as parent, and some the parent.
  await page.click('#clear-path');
  await page.selectOption('#step-unit', 'expansion');
  let viaParent = 0, stepOk = true;
  for (let k = 0; k < 4; k++) {
    await page.click('#step');
    const st = await pg(() => {
      const P = window.__playground, s = P.stepState(), ex = s.group.expanded, e = P.cellInfo(...ex);
      return { ex, exParent: e.parent, pushed: s.group.pushed.map((p) => ({ ...p, shown: P.cellInfo(...p.cell) })) };
    });
    for (const p of st.pushed) {
      const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
      if (same(p.parent, st.exParent)) viaParent++;
      else if (!same(p.parent, st.ex)) stepOk = false;
      if (p.shown.state !== 'open' || p.shown.g !== p.g || !same(p.shown.parent, p.parent)) stepOk = false;
    }
  }
  check(`Theta*: steps show each pushed node with its parent, ${viaParent} of them the expanded node's parent`,
    stepOk && viaParent > 0);
  await page.click('#clear-path');

  // Smoothing: A*'s path, then JPS's, string-pulled; the toggle adds and
  // removes the line; its cost is the CLI's --smooth cost.
  await page.selectOption('#algorithm', 'astar');
  await runInstant();
  const off0 = await canvasPixel(...mid(L[0], L[1]));
  await page.check('#smooth');
  await page.waitForFunction(() => { const r = window.__playground.result(); return r && r.line.length > 0; }, null, { timeout: 10_000 });
  const sm = await pg(() => window.__playground.result());
  const ns = solve(mapFile, z.start, z.goal, ['--smooth']);
  const on1 = await canvasPixel(...mid(L[0], L[1]));
  check(`smooth path: A*'s path (cost ${sm.cost.toFixed(4)}) string-pulled into a line of cost ${sm.lineCost.toFixed(4)}, the CLI's`,
    Math.abs(sm.lineCost - ns.cost) < 1e-8 && sm.lineCost < sm.cost && sm.path.length > sm.line.length &&
    (await $text('#extra-k')) === 'smoothed line' && Math.abs(num(await $text('#extra')) - sm.lineCost) < 1e-4,
    `CLI ${ns.costText}; page ${sm.lineCost} (${await $text('#extra')})`);
  await page.uncheck('#smooth');
  await page.waitForFunction(() => { const r = window.__playground.result(); return r && r.line.length === 0; }, null, { timeout: 10_000 });
  const off1 = await canvasPixel(...mid(L[0], L[1]));
  check('smooth path: the toggle draws the line over the grid path and takes it away',
    colourDistance(on1, LINE_RGB) < 40 && colourDistance(off0, LINE_RGB) > 80 && colourDistance(off1, LINE_RGB) > 80,
    JSON.stringify({ off0, on1, off1 }));
  await page.check('#smooth');
  await page.selectOption('#algorithm', 'jps');
  await runInstant();
  const sj = await pg(() => window.__playground.result());
  const nj = solve(mapFile, z.start, z.goal, ['--algo', 'jps', '--smooth']);
  check(`smooth path: JPS's path string-pulled, cost ${sj.lineCost.toFixed(4)} as the CLI's`,
    sj.line.length > 1 && Math.abs(sj.lineCost - nj.cost) < 1e-8, `CLI ${nj.costText}`);
  await page.uncheck('#smooth');
  await page.selectOption('#algorithm', 'astar');
  await page.selectOption('#size', '40x25');
}

/* Units of k x k cells (issue 11, astar/clearance.h): the unit slider makes
   the search run for that unit, equal to `astar solve --size K`; the
   clearance overlay shows every cell's clearance, kept current as walls are
   drawn; the footprint is drawn along the path. */
const UNIT_MAP = 'S..........#........\n...........#........\n...........#........\n.....#.....#........\n' +
  '.....#..............\n.....#.....#........\n.....#.....#####.###\n.....#..............\n' +
  '.....#..........G...\n.....######.........\n....................\n';
// The side of the largest free square with its top-left corner at each
// cell, up to 16 (the page's cap), from the map's text.
function bruteClearance(text) {
  const rows = text.trim().split('\n'), h = rows.length, w = rows[0].length;
  const free = (x, y) => x < w && y < h && rows[y][x] !== '#';
  const out = [];
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    let k = 0;
    while (k < 16) {
      let ok = true;
      for (let d = 0; d <= k && ok; d++) ok = free(x + k, y + d) && free(x + d, y + k);
      if (!ok) break;
      k++;
    }
    out.push(k);
  }
  return out;
}
const pageClearance = () => pg(() => {
  const P = window.__playground, sz = P.size(), out = [];
  for (let y = 0; y < sz.height; y++) for (let x = 0; x < sz.width; x++) out.push(P.cellInfo(x, y).clearance);
  return out;
});
async function setUnit(k) {
  await setRange('#unit', k);
  await page.waitForFunction((kk) => { const r = window.__playground.result(); return r && r.unit === kk; }, k, { timeout: 10_000 });
  return pg(() => window.__playground.result());
}
/* Issue 25 (items 24-28): the playground a visitor first sees, at 1440 x 900
   on the default map. Every algorithm of the menu runs on it (no terrain);
   F, G and H are written in its cells at a readable size; the grid does not
   move when messages, notices and keys come and go; D* Lite is an algorithm
   of the menu; changing the algorithm during an animation re-runs it; the
   grid works from the keyboard; the focus ring and the hover line have
   enough contrast. HPA*'s boxes are the message's numbers, its path cells
   show F = G + H; forced labels write F, G and H in 27 px cells; walk mode
   shows no time at the timer's resolution; "no path" says why in full. */

// Ink in a part of cell (x, y) on the canvas: pixels far (> 120) from the
// cell's own fill, in the box [fx0, fx1] x [fy0, fy1] (fractions of the
// cell's side).
function inkIn(x, y, [fx0, fy0, fx1, fy1]) {
  return pg(([cx, cy, f]) => {
    const P = window.__playground, cv = document.getElementById('grid');
    const box = P.cellBox(cx, cy), dpr = cv.width / cv.getBoundingClientRect().width;
    const X = Math.round(box.x * dpr), Y = Math.round(box.y * dpr), S = Math.round(box.size * dpr);
    const d = cv.getContext('2d').getImageData(X, Y, S, S).data;
    const count = new Map();
    for (let k = 0; k < d.length; k += 4) {
      const key = (d[k] << 16) | (d[k + 1] << 8) | d[k + 2];
      count.set(key, (count.get(key) || 0) + 1);
    }
    const [fill] = [...count].sort((a, b) => b[1] - a[1])[0];
    const fr = fill >> 16, fg = (fill >> 8) & 255, fb = fill & 255;
    let ink = 0;
    for (let py = Math.floor(f[1] * S); py < Math.floor(f[3] * S); py++) {
      for (let px = Math.floor(f[0] * S); px < Math.floor(f[2] * S); px++) {
        const k = (py * S + px) * 4;
        if (Math.hypot(d[k] - fr, d[k + 1] - fg, d[k + 2] - fb) > 120) ink++;
      }
    }
    return ink;
  }, [x, y, [fx0, fy0, fx1, fy1]]);
}
const G_CORNER = [0.05, 0.72, 0.35, 0.97], H_CORNER = [0.72, 0.72, 0.97, 0.97], F_CORNER = [0.04, 0.04, 0.4, 0.35];

// The first closed cell (not on the path) found in the display, [x, y].
const closedCell = () => pg(() => {
  const P = window.__playground, sz = P.size();
  for (let y = 0; y < sz.height; y++) for (let x = 0; x < sz.width; x++) {
    const c = P.cellInfo(x, y);
    if (c.state === 'closed' && c.g !== null && c.h !== null) return [x, y];
  }
  return null;
});

// WCAG contrast of two CSS colours (rgb(); a translucent one is skipped),
// as page-side helpers: new Function(CONTRAST_JS)().
const CONTRAST_JS = `
  const rgb = (s) => { const m = s.match(/[\\d.]+/g).map(Number); return m.length > 3 && m[3] < 1 ? null : m.slice(0, 3); };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  // The colour behind el: the first ancestor (or el) with an opaque background.
  const behind = (el) => { for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c) return c; } return [255, 255, 255]; };
  return { rgb, ratio, behind };
`;

// One part of a test: an exception fails that part (named) and lets the
// others run.
async function part(name, fn) {
  try {
    await fn();
  } catch (e) {
    check(`${name} (threw)`, false, (e.stack || e.message).split('\n').slice(0, 3).join(' | '));
  }
}

async function gridBox() {
  const b = await page.locator('#grid').boundingBox();
  return [b.x, b.y, b.width, b.height].map((v) => Math.round(v * 2) / 2);
}

async function testFirstVisit() {
  const sz = await pg(() => window.__playground.size());
  const box0 = await gridBox();
  const moved = [];
  const still = async (what) => {
    const b = await gridBox();
    if (JSON.stringify(b) !== JSON.stringify(box0)) moved.push(`${what}: ${JSON.stringify(box0)} -> ${JSON.stringify(b)}`);
  };

  await part('item 28: every algorithm on the default map', async () => {
    /* Item 28: every algorithm of the menu runs on the default map -- no
       "not supported", no notice -- D* Lite among them, with A*'s cost. */
    const algos = await pg(() => [...document.querySelectorAll('#algorithm option')].filter((o) => !o.disabled).map((o) => o.value));
    const refused = [], costs = {};
    for (const algo of algos) {
      await page.selectOption('#algorithm', algo);
      const r = await runInstant();
      const nt = await noticeState();
      costs[algo] = r.cost;
      if (r.code === 11 || nt.visible || /not supported/.test(r.status)) refused.push(`${algo}: ${r.status} ${nt.text}`);
      await still(`after running ${algo}`);
    }
    check(`every algorithm of the menu (${algos.length}) runs on the default map, none "not supported"`,
      algos.length >= 17 && algos.includes('jps') && algos.includes('anya') && refused.length === 0, refused.join('; '));
    check('D* Lite is an algorithm of the menu and finds A*\'s cost on the default map',
      algos.includes('dstar') && Math.abs(costs.dstar - costs.astar) < 1e-4, JSON.stringify({ dstar: costs.dstar, astar: costs.astar }));
    await page.selectOption('#algorithm', 'dstar');
    await runInstant();
    const dl = await pg(() => {
      const P = window.__playground, r = P.result();
      const bad = r.path.filter(([x, y]) => { const c = P.cellInfo(x, y); return c.g === null || c.h === null || Math.abs(c.f - c.g - c.h) > 1e-9; });
      return { reached: r.counts.reached || 0, expanded: r.expanded, bad: bad.length, goalH: P.cellInfo(r.path[0][0], r.path[0][1]).h, cost: r.cost };
    });
    check(`D* Lite shows the ${dl.reached} cells its backward search reached, its counts, and F = G + H along the path`,
      dl.reached > 0 && dl.expanded > 0 && dl.bad === 0 && Math.abs(dl.goalH - dl.cost) < 1e-9 &&
      (await pg(() => document.getElementById('generated-k')?.textContent)) === 'vertex updates' &&
      !(await page.isHidden('#lg-back')), JSON.stringify(dl));

  });
  await part('item 28: F, G, H at the default size', async () => {
    /* Item 28: the tutorial's numbers at the default size: F, G and H in the
       cells, in type of 10 px (F) and 9 px (G, H) or more. */
    await page.selectOption('#algorithm', 'astar');
    await runInstant();
    const lm = await pg(() => window.__playground.labelMetrics ? window.__playground.labelMetrics() : null);
    const cc = await closedCell();
    const ink = { f: await inkIn(...cc, F_CORNER), g: await inkIn(...cc, G_CORNER), h: await inkIn(...cc, H_CORNER) };
    check(`default map at 1440 x 900: cells of ${sz.cell} px show F, G and H (${lm && lm.fPx} / ${lm && lm.ghPx} px type)`,
      (await pg(() => window.__playground.labelMode())) === 'fgh' && lm && lm.fPx >= 10 && lm.ghPx >= 9 &&
      ink.f > 4 && ink.g > 4 && ink.h > 4, JSON.stringify({ lm, cc, ink }));
    // The picture of the docs: the first map searched, a cell hovered.
    const ccp = await cellPoint(...cc);
    await page.mouse.move(ccp.x, ccp.y);
    const firstShot = await screenshot('desktop-1440x900-default');
    await page.mouse.move(0, 0);
    if (!process.argv.includes('--no-docs-image')) {
      fs.mkdirSync(path.dirname(DOCS_SHOT), { recursive: true });
      fs.copyFileSync(firstShot, DOCS_SHOT);
    }

  });
  await part('item 26: the search time', async () => {
    /* Item 26: the search time is a mean over runs lasting 5 ms or more,
       never a single run at the timer's resolution. */
    const tt = { text: await $text('#time'), title: await page.getAttribute('#time', 'title') };
    const runs = num((tt.title.match(/mean of ([\d,]+) run/) || [])[1]);
    const perRun = /µs/.test(tt.text) ? num(tt.text) / 1000 : num(tt.text);
    check(`the search time ${tt.text} is the mean of ${runs} runs lasting 5 ms or more in all`,
      runs >= 1 && perRun * runs >= 5 - 1e-9, JSON.stringify(tt));

  });
  await part('item 24: HPA*', async () => {
    /* Item 24: HPA*'s boxes are the message's numbers; its path cells show
       F = G + H, as the hover does. */
    await page.selectOption('#algorithm', 'hpa');
    await runInstant();
    const hmsg = await $text('#message');
    const hm = hmsg.match(/([\d,]+) abstract nodes, ([\d,]+) cells joining S and G and ([\d,]+) refining expanded/);
    const hbox = { extraK: await $text('#extra-k'), extra: await $text('#extra'), expanded: await $text('#expanded'),
      generated: await $text('#generated') };
    check(`HPA*: the "abstract nodes" box (${hbox.extra}) and "expanded" (${hbox.expanded}) are the message's numbers, ` +
      `"generated" not a false 0 (${hbox.generated})`, hm && hbox.extraK === 'abstract nodes' && num(hbox.extra) === num(hm[1]) &&
      num(hbox.extra) > 0 && num(hbox.expanded) === num(hm[1]) + num(hm[2]) + num(hm[3]) && hbox.generated !== '0',
      JSON.stringify({ hbox, msg: hmsg.slice(0, 400) }));
    const hp = await pg(() => {
      const P = window.__playground, r = P.result();
      const bad = r.path.filter(([x, y]) => { const c = P.cellInfo(x, y); return c.g === null || c.h === null || c.f === null || Math.abs(c.f - c.g - c.h) > 1e-9; });
      return { n: r.path.length, bad, mid: r.path[r.path.length >> 1] };
    });
    const hpt = await cellPoint(...hp.mid);
    await page.mouse.move(hpt.x, hpt.y);
    const hhover = await $text('#cell-info');
    check(`HPA*: every one of the ${hp.n} path cells has F = G + H, and the hover reads them`,
      hp.bad.length === 0 && /F \d[\d.]* = G \d[\d.]* \+ H \d[\d.]*/.test(hhover) && !/–/.test(hhover.split('·').slice(-2).join('')),
      `${JSON.stringify(hp.bad.slice(0, 3))} "${hhover}"`);
    await page.mouse.move(0, 0);
    await still('HPA*\'s message');

  });
  await part('item 27: no path', async () => {
    /* Item 27: "no path" says why, in full: the status word unclipped, the
       library's sentence whole in the message. */
    await page.selectOption('#algorithm', 'astar');
    const g = sz.goal;
    await pg(([x, y]) => {
      const t = window.__playground.exportAscii(true).trim().split('\n').map((r) => [...r]);
      for (const [dx, dy] of [[-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [0, 1], [1, 1]]) t[y + dy][x + dx] = '#';
      window.__playground.loadMap(t.map((r) => r.join('')).join('\n') + '\n', 'walled.txt');
    }, [g.x, g.y]);
    const np = await runInstant();
    const npv = await pg(() => {
      const st = document.getElementById('status'), box = st.closest('.v'), msg = document.getElementById('message');
      const area = msg.parentElement.getBoundingClientRect(), m = msg.getBoundingClientRect();
      return { status: st.textContent, clipped: box.scrollWidth > box.clientWidth + 1, message: msg.textContent,
        shown: m.top >= area.top - 0.5 && m.bottom <= area.bottom + 0.5 && m.height > 0 };
    });
    check(`no path: the status "${npv.status}" is whole and the message gives the reason in full`,
      np.state === 'failed' && npv.status === 'no path' && !npv.clipped && npv.shown &&
      npv.message.includes('the goal is not reachable from the start'), JSON.stringify(npv));
    await still('"no path"');
    await page.selectOption('#size', '20x12');

  });
  await part('item 28: algorithm switch during an animation', async () => {
    /* Item 28: changing the algorithm during an animation re-runs it ("re-run
       when the map changes" is ticked) and the animation goes on. */
    await setSpeed(4);
    await page.click('#run');
    await page.waitForFunction(() => { const s = window.__playground.stepState(); return s && s.cursor >= 40; }, null, { timeout: 10_000 });
    const before = { ...(await pg(() => window.__playground.stepState())), state: await page.getAttribute('#status', 'data-state') };
    await page.selectOption('#algorithm', 'dijkstra');
    await page.waitForFunction(() => { const s = window.__playground.stepState(); return s && s.algo === 'dijkstra'; }, null, { timeout: 5_000 })
      .catch(() => {});
    const after = await pg(() => window.__playground.stepState());
    check('changing the algorithm during an animation re-runs it and the animation goes on',
      before.state === 'running' && after && after.algo === 'dijkstra' && after.playing && after.expanded >= before.expanded &&
      (await page.getAttribute('#status', 'data-state')) === 'running', JSON.stringify({ before: before && before.algo, after: after && { algo: after.algo, playing: after.playing, expanded: after.expanded } }));
    await setSpeed(10);
    await page.click('#run'); // pause
    await page.click('#clear-path');
    await page.selectOption('#algorithm', 'astar');

  });
  await part('item 26: walk mode', async () => {
    /* Item 26: walk mode shows work counts, no time at the timer's resolution. */
    await page.click('#walk');
    await page.waitForFunction(() => { const w = window.__playground.walkState(); return w && w.trail.length >= 2; }, null, { timeout: 10_000 });
    // A wall across the unit's way, three cells ahead of S.
    await dragCells([sz.start.x + 3, sz.start.y - 3], [sz.start.x + 3, sz.start.y + 3]);
    await page.waitForFunction(() => { const w = window.__playground.walkState(); return w && (w.repairs >= 2 || w.done); }, null,
      { timeout: 10_000 });
    const wt = await pg(() => ['time', 'walk-repair', 'message', 'extra'].map((id) => {
      const el = document.getElementById(id);
      return `${el.textContent} ${el.title || ''}`;
    }).join(' | '));
    check('walk mode: the repairs are shown by their work, no time at the timer\'s resolution (no µs or ms)',
      !/\d\s*(µs|ms)\b/.test(wt) && (await pg(() => document.getElementById('time-k')?.textContent)) === 'cells edited', wt);
    await still('walk mode\'s line');
    await page.click('#clear-path');
    await page.keyboard.press('Control+z');

  });
  await part('item 28: the grid from the keyboard', async () => {
    /* Item 28: the grid from the keyboard. */
    await page.focus('#map-file');
    await page.keyboard.press('Tab');
    const focused = await pg(() => document.activeElement && document.activeElement.id);
    const c0 = await pg(() => window.__playground.cursor ? window.__playground.cursor() : null);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowUp');
    const c1 = await pg(() => window.__playground.cursor ? window.__playground.cursor() : null);
    const wantX = sz.start.x + 2, wantY = sz.start.y - 1;
    const info1 = await $text('#cell-info');
    check('keyboard: Tab reaches the grid, arrows move a cell cursor from S, the cell info reads that cell (polite live region)',
      focused === 'grid' && c0 && c0.cell[0] === sz.start.x && c0.cell[1] === sz.start.y && c1.cell[0] === wantX &&
      c1.cell[1] === wantY && info1.startsWith(`(${wantX}, ${wantY})`) &&
      (await page.getAttribute('#cell-info', 'aria-live')) === 'polite', JSON.stringify({ focused, c0, c1, info1 }));
    await page.keyboard.press('Enter');
    const wall = (await pg(() => window.__playground.exportAscii())).split('\n')[wantY][wantX];
    await page.keyboard.press('w');
    const unwall = (await pg(() => window.__playground.exportAscii())).split('\n')[wantY][wantX];
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('s');
    const s1 = (await pg(() => window.__playground.size())).start;
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('g');
    const g1 = (await pg(() => window.__playground.size())).goal;
    check('keyboard: Enter puts a wall on the cursor\'s cell, W takes it away, S and G move the start and the goal there',
      wall === '#' && unwall === '.' && s1.x === wantX && s1.y === wantY + 1 && g1.x === wantX + 1 && g1.y === wantY + 1,
      JSON.stringify({ wall, unwall, s1, g1 }));
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+z');
    const back = await pg(() => window.__playground.size());
    check('keyboard: Ctrl+Z takes the moves back', back.start.x === sz.start.x && back.goal.x === sz.goal.x, JSON.stringify(back));

  });
  await part('item 28: contrast', async () => {
    /* Item 28: contrast -- the focus ring 3 : 1 or more against what is
       behind it (the grid's, a button's, a brush's), the hover line's text
       4.5 : 1 or more. */
    const rings = [];
    // Focused from the keyboard (Shift+Tab, Tab: :focus-visible); the ring
    // against the colour beside it -- outside the element (a positive offset)
    // what is behind it, inside (a negative one) the element's own.
    const ringOf = async (sel, target = sel) => {
      await page.focus(sel);
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      rings.push(await pg(([q, t, js]) => {
        const { rgb, ratio, behind } = new Function(js)();
        const el = document.querySelector(t), cs = getComputedStyle(el);
        const ring = rgb(cs.outlineColor) || [255, 255, 255];
        const back = parseFloat(cs.outlineOffset) < 0 ? behind(el) : behind(el.parentElement);
        return { sel: q, focused: document.activeElement === document.querySelector(q), style: cs.outlineStyle,
          width: parseFloat(cs.outlineWidth), ratio: Math.round(ratio(ring, back) * 100) / 100 };
      }, [sel, target, CONTRAST_JS]));
    };
    await ringOf('#grid');
    await ringOf('#run');
    await ringOf('#algorithm');
    await ringOf('input[name=brush]:checked', 'input[name=brush]:checked + span');
    const info = await pg((js) => {
      const { rgb, ratio, behind } = new Function(js)();
      const el = document.getElementById('cell-info');
      return Math.round(ratio(rgb(getComputedStyle(el).color), behind(el)) * 100) / 100;
    }, CONTRAST_JS);
    check('the focus ring has 3 : 1 or more against its background (grid, button, menu, brush)',
      rings.every((r) => r.focused && r.style !== 'none' && r.width >= 2 && r.ratio >= 3), JSON.stringify(rings));
    check(`#cell-info's text has ${info} : 1 against its background (4.5 : 1 needed)`, info >= 4.5);
    await page.focus('#run');
    await page.keyboard.press('Escape');

  });
  await part('item 28: a stable layout', async () => {
    /* Item 28: the legend's marks of an algorithm (bidirectional A*) and the
       notice (a turn penalty JPS refuses) appear without moving the grid. */
    await page.selectOption('#algorithm', 'bidir');
    await runInstant();
    await still('bidirectional A*\'s key');
    await page.fill('#turn-penalty', '2');
    await page.locator('#turn-penalty').dispatchEvent('change');
    await page.selectOption('#algorithm', 'jps');
    const tn = await noticeState();
    await still('the JPS notice');
    await page.fill('#turn-penalty', '0');
    await page.locator('#turn-penalty').dispatchEvent('change');
    await page.selectOption('#algorithm', 'astar');
    check('the grid stays put (same box) while messages, the notice, walk mode\'s line and the keys change',
      moved.length === 0 && tn.visible && tn.unclipped, moved.join('; ') || JSON.stringify(tn));

  });
  await part('item 25: Labels F, G, H', async () => {
    /* Item 25: Labels -> "F, G, H" writes all three in the 40 x 25 preset's
       27 px cells. */
    await page.selectOption('#size', '40x25');
    await page.selectOption('#labels', 'fgh');
    await runInstant();
    const c27 = await closedCell();
    const lm27 = await pg(() => window.__playground.labelMetrics ? window.__playground.labelMetrics() : null);
    const ink27 = { f: await inkIn(...c27, F_CORNER), g: await inkIn(...c27, G_CORNER), h: await inkIn(...c27, H_CORNER) };
    check(`Labels "F, G, H" at 1440 x 900 (${(await pg(() => window.__playground.size())).cell} px cells) writes F, G and H`,
      (await pg(() => window.__playground.labelMode())) === 'fgh' && lm27 && lm27.mode === 'fgh' && lm27.ghPx >= 6 &&
      ink27.f > 3 && ink27.g > 3 && ink27.h > 3, JSON.stringify({ lm27, c27, ink27 }));
    await screenshot('desktop-1440x900-labels-fgh');
    await page.selectOption('#labels', 'auto');
    await page.selectOption('#size', '20x12');
  });
}

/* Issue 13: HPA* (two tiers) and A* + landmarks, on a 40 x 24 map with
   walls: against `astar solve --algo hpa` and `--landmarks K`, the overlay
   data (levels, cluster sides, entrances, the path's crossings), the
   incremental rebuild after a wall is clicked in, landmarks on hover. */
async function testTwoTiers() {
  const rows = [];
  for (let y = 0; y < 24; y++) {
    let r = '';
    for (let x = 0; x < 40; x++) {
      const wall = (x === 12 && y < 18) || (x === 27 && y > 5) || (y === 11 && x > 14 && x < 24);
      r += x === 1 && y === 1 ? 'S' : x === 38 && y === 22 ? 'G' : wall ? '#' : '.';
    }
    rows.push(r);
  }
  const text = rows.join('\n') + '\n';
  const mapFile = path.join(WORK, 'tiers.txt');
  fs.writeFileSync(mapFile, text);
  await pg((t) => window.__playground.loadMap(t, 'tiers.txt'), text);
  const z = await pg(() => window.__playground.size());
  const setRange = (sel, v) => page.locator(sel).evaluate((el, val) => {
    el.value = String(val);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, v);
  await page.selectOption('#algorithm', 'hpa');
  check('HPA*: cluster and level controls shown', await page.isVisible('#hpa-cluster') && await page.isVisible('#hpa-levels'));
  await setRange('#hpa-cluster', 8);
  await setRange('#hpa-levels', 2);
  let r = await runInstant();
  let res = await pg(() => window.__playground.result());
  const n = solve(mapFile, z.start, z.goal, ['--algo', 'hpa', '--cluster', '8', '--levels', '2']);
  check(`HPA*: cost ${r.costText} and length ${res.length} are \`${n.args}\`'s`,
    r.state === 'done' && Math.abs(res.cost - n.cost) < 1e-8 && res.length === n.length,
    `CLI ${n.cost} / ${n.length}`);
  const h = res.hpa;
  check('HPA*: two levels, clusters of 8 and 16, entrances on each (a level-2 one is a level-1 one)',
    h && h.levels.length === 2 && h.levels[0].side === 8 && h.levels[1].side === 16 &&
    h.levels[0].nodes.length > 0 && h.levels[1].nodes.length > 0 &&
    h.levels[1].nodes.every(([x, y]) => h.levels[0].nodes.some(([a, b]) => a === x && b === y)),
    JSON.stringify(h && h.levels.map((L) => [L.side, L.nodes.length])));
  const cross = h ? h.crossings.every((i) => {
    const [a, b] = [res.path[i], res.path[i + 1]];
    return Math.floor(a[0] / 16) !== Math.floor(b[0] / 16) || Math.floor(a[1] / 16) !== Math.floor(b[1] / 16);
  }) : false;
  check(`HPA*: ${h ? h.crossings.length : 0} top-level crossings of the path, each across a 16-cell border; ` +
    `abstract path of ${h && h.abstractLength} nodes`, h && h.crossings.length > 0 && cross && h.abstractLength >= 2 &&
    h.abstractCost >= res.cost - 1e-9);
  const msg1 = await $text('#message');
  check(`HPA*: the first run builds every cluster ("${msg1.slice(0, 60)}...")`, /built \d+ clusters/.test(msg1));
  // A wall clicked in with the mouse: only the clusters around it rebuilt.
  const pt = await cellPoint(20, 4);
  await page.mouse.click(pt.x, pt.y);
  await page.waitForTimeout(50);
  r = await runInstant();
  res = await pg(() => window.__playground.result());
  const msg2 = await $text('#message');
  const m = msg2.match(/rebuilt (\d+) clusters? of (\d+)/);
  fs.writeFileSync(mapFile, await pg(() => window.__playground.exportAscii()));
  const n2 = solve(mapFile, z.start, z.goal, ['--algo', 'hpa', '--cluster', '8', '--levels', '2']);
  check(`HPA*: after a wall is clicked in, "${m ? m[0] : msg2.slice(0, 60)}" (incremental) and the CLI's cost on the edited map`,
    m && Number(m[1]) >= 1 && Number(m[1]) < Number(m[2]) && res.hpa.rebuilt === Number(m[1]) &&
    Math.abs(res.cost - n2.cost) < 1e-6, `CLI ${n2.cost}, page ${res.cost}`);
  await screenshot('desktop-1440x900-hpa');

  // A* + landmarks: the CLI's cost and expansions, landmark cells, hover.
  await page.selectOption('#algorithm', 'landmarks');
  await setRange('#lm-count', 3);
  r = await runInstant();
  res = await pg(() => window.__playground.result());
  const nl = solve(mapFile, z.start, z.goal, ['--landmarks', '3']);
  check(`landmarks: cost ${r.costText} and ${res.expanded} expansions are \`${nl.args}\`'s`,
    r.state === 'done' && Math.abs(res.cost - nl.cost) < 1e-8 && res.expanded === nl.expanded,
    `CLI ${nl.cost} / ${nl.expanded}`);
  check(`landmarks: 3 landmark cells ${JSON.stringify(res.landmarks)}`, res.landmarks.length === 3);
  const info = await pg((s) => window.__playground.lmInfo(s.x, s.y), z.start);
  check(`landmarks: hover at S: octile ${info && info.octile.toFixed(3)}, bound ${info && info.bound.toFixed(3)} ` +
    `from landmark ${info && info.landmark}, true cost ${info && info.exact}`,
    info && info.h >= info.octile && info.h >= info.bound - 1e-12 && info.bound <= res.cost + 1e-9 &&
    info.landmark !== null && Math.abs(info.exact - res.cost) < 1e-9 && info.bound > info.octile);
  await page.selectOption('#algorithm', 'astar');
}

async function testUnits() {
  const file = path.join(WORK, 'units.txt');
  fs.writeFileSync(file, UNIT_MAP);
  await page.selectOption('#algorithm', 'astar');
  await pg((t) => window.__playground.loadMap(t, 'units.txt'), UNIT_MAP);
  const z = await pg(() => window.__playground.size());
  await runInstant();
  check('the unit slider is named by its label', (await page.getByRole('slider', { name: 'Unit size', exact: true }).count()) === 1);
  const paths = {};
  for (const k of [1, 2]) {
    const r = await setUnit(k);
    const n = solve(file, z.start, z.goal, ['--size', String(k)]);
    paths[k] = JSON.stringify(r.path);
    check(`unit ${k} x ${k}: cost ${r.cost.toFixed(4)}, length ${r.length} and expansions ${r.expanded} equal \`astar solve --size ${k}\``,
      r.status === 0 && Math.abs(r.cost - n.cost) < 1e-8 && r.length === n.length && r.expanded === n.expanded,
      `CLI ${n.costText}, ${n.length}, ${n.expanded}`);
  }
  // The 2 x 2 unit goes round the gap the 1 x 1 one took; (10, 6), under
  // its footprint but no place for its anchor (the search never touched
  // it), is tinted by the footprint.
  await pg(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))); // drawn
  const foot = await cellColour(10, 6), footInfo = await pg(() => window.__playground.cellInfo(10, 6));
  const tint = [0, 1, 2].map((c) => Math.round(255 * 0.78 + [22, 150, 75][c] * 0.22));
  check('unit 2 x 2: another route, the footprint drawn along it', paths[1] !== paths[2] && footInfo.state === 'none' &&
    colourDistance(foot, tint) < 12, JSON.stringify({ foot, tint, footInfo }));
  await page.check('#clearance');
  const want = bruteClearance(UNIT_MAP);
  let got = await pageClearance();
  await pg(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const shaded = await cellColour(10, 6);
  check('clearance overlay: every cell\'s clearance is the largest free square\'s side, a tight cell shaded',
    JSON.stringify(got) === JSON.stringify(want) && shaded[0] + shaded[1] + shaded[2] < foot[0] + foot[1] + foot[2] - 60,
    JSON.stringify({ shaded, foot }));
  await screenshot('desktop-1440x900-units');
  // The unit's derived grid under JPS, JPS+ (precomputed on it) and the
  // engine's bidirectional A*, each against the CLI.
  const others = [];
  for (const algo of ['jps', 'jps-plus', 'bidir']) {
    await page.selectOption('#algorithm', algo);
    await page.waitForFunction((a) => { const r = window.__playground.result(); return r && r.options.algo === a; }, algo, { timeout: 10_000 });
    const r = await pg(() => window.__playground.result());
    const n = solve(file, z.start, z.goal, ['--size', '2', '--algo', algo]);
    others.push(`${algo} ${r.cost.toFixed(4)}/${r.expanded} CLI ${n.costText}/${n.expanded}`);
    if (!(r.status === 0 && r.unit === 2 && Math.abs(r.cost - n.cost) < 1e-8 && r.expanded === n.expanded)) others.push('MISMATCH');
  }
  check('unit 2 x 2: JPS, JPS+ and bidirectional A* equal the CLI\'s --size 2 too', !others.includes('MISMATCH'), others.join('; '));
  await page.selectOption('#algorithm', 'astar');
  // A wall drawn with the mouse: the clearance follows (incremental update).
  const wp = await cellPoint(14, 2);
  await page.mouse.click(wp.x, wp.y);
  const rows = UNIT_MAP.split('\n');
  rows[2] = `${rows[2].slice(0, 14)}#${rows[2].slice(15)}`;
  got = await pageClearance();
  check('clearance overlay: a wall drawn by mouse updates the clearance around it',
    JSON.stringify(got) === JSON.stringify(bruteClearance(rows.join('\n'))) && (await pg(() => window.__playground.cellInfo(13, 1))).clearance === 1);
  await page.keyboard.press('Control+z');
  const r3 = await setUnit(3);
  const n3 = solve(file, z.start, z.goal, ['--size', '3']);
  check('unit 3 x 3: no path, as the CLI says', r3.status === 1 && /^no path/.test(n3.status), `CLI "${n3.status}"`);
  await setUnit(4);
  const msg = await $text('#message');
  check('unit 4 x 4: does not fit at G, the page says so', (await page.getAttribute('#status', 'data-code')) === '4' &&
    /4 × 4 unit does not fit with its top-left cell at G/.test(msg), msg);
  await page.selectOption('#algorithm', 'theta');
  const nt = await noticeState();
  check('Theta* with a unit of 4 x 4 is refused, the notice offers Theta*\'s options (size 1)',
    nt.visible && /lines of sight/.test(nt.text) && nt.buttons.includes('Use Theta*\'s options'), nt.text);
  await page.click('#fix-options');
  check('"Use Theta*\'s options" sets the unit back to 1 x 1', (await page.inputValue('#unit')) === '1' && !(await noticeState()).visible);
  await page.uncheck('#clearance');
  await page.selectOption('#algorithm', 'astar');
  await page.selectOption('#size', '40x25');
}

/* Issue 29 item 4: MAPF mode. On a map with walls, agents of a random
   instance: the solver menu is the library's MAPF table (pg_mapf_algo_*);
   with each solver that is built into the library, the plan the page reads
   has, by the checks written here, every agent from its start to its goal
   by unit moves or waits on passable cells, no two agents in one cell at one
   time and no swap; the naive plan's collisions, recomputed here from its
   paths, are the ones the page lists and marks; the agents walk; editing
   the map ends the mode. */
const MAPF_MAP = [
  '........................',
  '..####......####....#...',
  '..#..........#......#...',
  '..#...####...#..........',
  '......#..#......######..',
  '......#.........#.......',
  '..........##....#...##..',
  '....####..##............',
  '........................',
].join('\n') + '\n';
const MAPF_DOCS_SHOT = path.join(ROOT, 'docs/images/playground-mapf.png');
async function testMapf() {
  await pg((t) => window.__playground.loadMap(t, 'mapf.txt'), MAPF_MAP);
  const rows = MAPF_MAP.trim().split('\n'), open = (x, y) => rows[y] && rows[y][x] === '.';
  const algos = await pg(() => [...document.querySelectorAll('#mapf-algo option')].map((o) => o.textContent));
  check('MAPF mode offers the library\'s MAPF table', ['pibt', 'lacam', 'lacam-star', 'cbs', 'eecbs', 'prioritized']
    .every((a) => algos.includes(a)), algos.join(', '));
  await page.fill('#mapf-agents', '14');
  await page.fill('#mapf-time', '1');
  let solvedBy = 0;
  for (const algo of algos) {
    await page.selectOption('#mapf-algo', { label: algo });
    await page.click('#mapf-run');
    await page.waitForFunction(() => window.__playground.mapfState() || document.getElementById('message')
      .classList.contains('error'), null, { timeout: 20_000 });
    const m = await pg(() => window.__playground.mapfState());
    if (!m) {
      const why = await $text('#message');
      check(`MAPF ${algo}: refused only as not built in`, /not supported/.test(why), why);
      continue;
    }
    const bad = [];
    const at = (p, t) => p[Math.min(t, p.length - 1)];
    // The naive plan: legal walks; its collisions, by brute force.
    const want = new Set();
    const T = Math.max(...m.naive.map((p) => p.length));
    for (let t = 0; t < T; t++)
      for (let j = 1; j < m.agents; j++)
        for (let i = 0; i < j; i++) {
          const a = at(m.naive[i], t), b = at(m.naive[j], t);
          const swap = t > 0 && a.join() === at(m.naive[j], t - 1).join() && b.join() === at(m.naive[i], t - 1).join() &&
            a.join() !== at(m.naive[i], t - 1).join();
          if (a.join() === b.join() || swap) want.add(`${t}:${i}:${j}`);
        }
    const listed = new Set(m.collisions.map((k) => `${k.t}:${k.a}:${k.b}`));
    for (const k of listed) if (!want.has(k)) bad.push(`listed collision ${k} is none`);
    const covered = [...want].filter((k) => listed.has(k)).length;
    if (m.stats.solved) {
      solvedBy++;
      m.paths.forEach((p, i) => {
        if (p[0].join() !== m.naive[i][0].join()) bad.push(`agent ${i} does not start at its start`);
        if (p[p.length - 1].join() !== m.naive[i][m.naive[i].length - 1].join()) bad.push(`agent ${i} ends off its goal`);
        p.forEach((c, t) => {
          if (!open(c[0], c[1])) bad.push(`agent ${i} on a wall ${c} at t ${t}`);
          if (t && Math.abs(c[0] - p[t - 1][0]) + Math.abs(c[1] - p[t - 1][1]) > 1) bad.push(`agent ${i} jumps at t ${t}`);
        });
      });
      const H = Math.max(...m.paths.map((p) => p.length));
      for (let t = 0; t < H; t++)
        for (let j = 1; j < m.agents; j++)
          for (let i = 0; i < j; i++) {
            const a = at(m.paths[i], t), b = at(m.paths[j], t);
            if (a.join() === b.join()) bad.push(`agents ${i}, ${j} in ${a} at t ${t}`);
            if (t && a.join() !== at(m.paths[i], t - 1).join() && a.join() === at(m.paths[j], t - 1).join() &&
              b.join() === at(m.paths[i], t - 1).join()) bad.push(`agents ${i}, ${j} swap at t ${t}`);
          }
    }
    check(`MAPF ${algo}: ${m.stats.solved ? `${m.agents} agents, sum of costs ${m.stats.soc}, no collision` : 'no plan'}` +
      `; the naive plan's ${want.size} collisions listed`, bad.length === 0 && m.stats.fault <= 0 && covered >= want.size - 1 &&
      m.stats.collisions === m.collisions.length, bad.slice(0, 4).join('; '));
  }
  check('MAPF: at least three solvers planned the agents', solvedBy >= 3, String(solvedBy));
  await page.selectOption('#mapf-algo', { label: 'lacam' });
  await page.click('#mapf-run');
  await page.waitForFunction(() => { const m = window.__playground.mapfState(); return m && m.t >= 2; }, null, { timeout: 10_000 });
  const shot = await screenshot('desktop-1440x900-mapf');
  if (!process.argv.includes('--no-docs-image')) fs.copyFileSync(shot, MAPF_DOCS_SHOT);
  const msg = await $text('#message');
  check('MAPF: the agents walk and the message compares them with the naive plan',
    /no two ever collide/.test(msg) && /would collide/.test(msg), msg);
  await dragCells([23, 0], [23, 1]); // a wall drawn with the mouse
  check('MAPF: editing the map ends the mode', (await pg(() => window.__playground.mapfState())) === null);
}

/* Issue 30 item 4: mesh mode. On a map with walls, the navigation mesh of the
   map and the path over it: the polygons the page outlines are convex,
   counter-clockwise (in cell units, y down) and cover exactly the free cells
   (their areas add up to the free cells' count); Polyanya's path starts and
   ends at the centres of S and G, runs on free cells only (sampled), its
   length is its cost and equals Anya's on the page and the tool's `astar
   solve --algo anya` on the same map; the funnel's is never shorter; a
   radius makes the path longer and keeps it that far from the walls;
   editing the map runs the query again on the new mesh; End ends the mode. */
const MESH_MAP = [
  '........................',
  '..####......####....#...',
  '..#..........#......#...',
  '..#...####...#..........',
  'S.....#..#......######..',
  '......#.........#......G',
  '..........##....#...##..',
  '....####..##............',
  '........................',
].join('\n') + '\n';
const MESH_DOCS_SHOT = path.join(ROOT, 'docs/images/playground-mesh.png');
async function testMesh() {
  await pg((t) => window.__playground.loadMap(t, 'mesh.txt'), MESH_MAP);
  const rows = MESH_MAP.trim().split('\n'), W = rows[0].length, H = rows.length;
  const free = (x, y) => x >= 0 && y >= 0 && x < W && y < H && rows[y][x] !== '#';
  const freeCells = rows.join('').split('').filter((c) => c !== '#').length;
  // A point on the free space: in the closure of a free cell.
  const onFree = (x, y) => [[-1, -1], [-1, 1], [1, -1], [1, 1]].some(([dx, dy]) => free(Math.floor(x + dx * 1e-9), Math.floor(y + dy * 1e-9)));
  const wallDistance = (x, y) => {
    let best = Infinity;
    for (let cy = -1; cy <= H; cy++) for (let cx = -1; cx <= W; cx++) {
      if (free(cx, cy)) continue;
      best = Math.min(best, Math.hypot(Math.max(cx - x, 0, x - cx - 1), Math.max(cy - y, 0, y - cy - 1)));
    }
    return best;
  };
  const pathFaults = (pts, r = 0) => {
    const bad = [];
    for (let k = 1; k < pts.length; k++)
      for (let t = 0; t <= 1; t += 1 / 16) {
        const x = pts[k - 1][0] + (pts[k][0] - pts[k - 1][0]) * t, y = pts[k - 1][1] + (pts[k][1] - pts[k - 1][1]) * t;
        if (!onFree(x, y)) bad.push(`(${x.toFixed(3)}, ${y.toFixed(3)}) on a wall`);
        if (r > 0 && wallDistance(x, y) < r - 1e-9) bad.push(`(${x.toFixed(3)}, ${y.toFixed(3)}) nearer than ${r} to a wall`);
      }
    return bad;
  };
  const length = (pts) => pts.slice(1).reduce((a, p, k) => a + Math.hypot(p[0] - pts[k][0], p[1] - pts[k][1]), 0);
  await page.click('#mesh-run');
  await page.waitForFunction(() => window.__playground.meshState() || document.getElementById('message')
    .classList.contains('error'), null, { timeout: 10_000 });
  const m = await pg(() => window.__playground.meshState());
  if (!check('mesh mode: a mesh and a path', m && m.status === 0 && m.polys.length > 0, m ? JSON.stringify(m.stats) : await $text('#message'))) return;
  let area = 0;
  const polyBad = [];
  m.polys.forEach((p, i) => {
    let a = 0;
    for (let k = 0; k < p.length; k++) {
      const [x0, y0] = p[k], [x1, y1] = p[(k + 1) % p.length], [x2, y2] = p[(k + 2) % p.length];
      a += x0 * y1 - x1 * y0;
      if ((x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0) < -1e-12) polyBad.push(`polygon ${i} turns clockwise at ${k + 1}`);
    }
    if (a <= 0) polyBad.push(`polygon ${i} has area ${a / 2}`);
    area += a / 2;
  });
  check(`mesh mode: ${m.polys.length} polygons, convex, counter-clockwise, covering the ${freeCells} free cells`,
    polyBad.length === 0 && Math.abs(area - freeCells) < 1e-6, `${polyBad.slice(0, 3).join('; ')} area ${area}`);
  const sz = await pg(() => window.__playground.size());
  const S = [sz.start.x + 0.5, sz.start.y + 0.5], G = [sz.goal.x + 0.5, sz.goal.y + 0.5];
  const pp = m.polyanya.pts;
  check('mesh mode: Polyanya from the centre of S to that of G, on free cells, its length its cost',
    pp[0].join() === S.join() && pp[pp.length - 1].join() === G.join() && pathFaults(pp).length === 0 &&
    Math.abs(length(pp) - m.polyanya.cost) < 1e-9, `${JSON.stringify(pp)} ${pathFaults(pp).slice(0, 3).join('; ')}`);
  const mapFile = path.join(WORK, 'mesh.txt');
  fs.writeFileSync(mapFile, MESH_MAP);
  const cli = solve(mapFile, sz.start, sz.goal, ['--algo', 'anya']);
  check('mesh mode: Polyanya\'s length equals Anya\'s on the page and the tool\'s `solve --algo anya`',
    m.anya.status === 0 && Math.abs(m.polyanya.cost - m.anya.cost) < 1e-9 && Math.abs(m.polyanya.cost - cli.cost) < 1e-4,
    `polyanya ${m.polyanya.cost}, anya ${m.anya.cost}, tool ${cli.costText} (${cli.status})`);
  check('mesh mode: the funnel path is never shorter, and on free cells',
    m.funnel.status === 0 && m.funnel.cost >= m.polyanya.cost - 1e-9 && pathFaults(m.funnel.pts).length === 0 && m.funnel.corridor >= 1,
    `${m.funnel.cost} vs ${m.polyanya.cost}`);
  const msg = await $text('#message');
  check('mesh mode: the message shows both lengths, equal', /Polyanya \d/.test(msg) && /Anya on the grid \d[^(]*\(equal\)/.test(msg), msg);
  await page.check('#mesh-funnel');
  const shot = await screenshot('desktop-1440x900-mesh');
  if (!process.argv.includes('--no-docs-image')) fs.copyFileSync(shot, MESH_DOCS_SHOT);
  await setRange('#mesh-radius', '0.25');
  await page.waitForFunction(() => { const s = window.__playground.meshState(); return s && s.radius === 0.25; }, null, { timeout: 5_000 });
  const r = await pg(() => window.__playground.meshState());
  check('mesh mode: with radius 0.25 the path is longer and keeps 0.25 from the walls',
    r.status === 0 && r.polyanya.cost > m.polyanya.cost && pathFaults(r.polyanya.pts, 0.25).length === 0,
    `${r.polyanya.cost} vs ${m.polyanya.cost}; ${pathFaults(r.polyanya.pts, 0.25).slice(0, 3).join('; ')}`);
  await setRange('#mesh-radius', '0');
  await page.waitForFunction(() => { const s = window.__playground.meshState(); return s && s.radius === 0; }, null, { timeout: 5_000 });
  const before = await pg(() => window.__playground.meshState());
  await dragCells([11, 0], [11, 1]); // a wall drawn with the mouse, across the top corridor
  await page.waitForFunction((v) => { const s = window.__playground.meshState(); return s && s.version > v; }, before.version, { timeout: 5_000 });
  const after = await pg(() => window.__playground.meshState());
  check('mesh mode: editing the map runs the query again on the new mesh',
    Math.abs(after.stats.area - (freeCells - 2)) < 1e-6 && after.polyanya.cost >= before.polyanya.cost - 1e-9,
    `${JSON.stringify(after.stats)}; ${after.polyanya.cost} vs ${before.polyanya.cost}`);
  await page.click('#mesh-end');
  check('mesh mode: End ends it', (await pg(() => window.__playground.meshState())) === null);
}

/* Walk mode (issue 10): a unit walks from S to G on a 30 x 12 open map; a
   wall is drawn by mouse across its way while it walks (a gap at the bottom
   row); with each replanner the page offers (D* Lite, repeated A*, path
   splicing) the unit reaches G, every step is a move
   to a neighbouring cell, no cell of its trail is a wall, it went through
   the gap, the last repair's cost equals the fresh A*'s from the same cell
   (splicing: is no less), and the stat line shows both counts. */
const WALK_MAP = Array.from({ length: 12 }, (_, y) =>
  Array.from({ length: 30 }, (_, x) => (y === 6 && x === 2 ? 'S' : y === 6 && x === 27 ? 'G' : '.')).join('')).join('\n') + '\n';
const WALK_DOCS_SHOT = path.join(ROOT, 'docs/images/playground-walk.png');
async function testWalk() {
  await page.selectOption('#algorithm', 'astar');
  await pg((t) => window.__playground.loadMap(t, 'walk.txt'), WALK_MAP);
  const kinds = await pg(() => [...document.querySelectorAll('#replan option')].filter((o) => !o.disabled).map((o) => o.value));
  check('walk mode offers D* Lite, repeated A* and path splicing',
    ['dstar', 'astar', 'splice'].every((k) => kinds.includes(k)), kinds.join(', '));
  const walkState = () => pg(() => window.__playground.walkState());
  for (const kind of kinds) {
    await pg((t) => window.__playground.loadMap(t, 'walk.txt'), WALK_MAP);
    await page.selectOption('#replan', kind);
    await setRange('#walk-speed', 8);
    await page.click('#walk');
    await page.waitForFunction(() => { const w = window.__playground.walkState(); return w && w.trail.length >= 3; },
      null, { timeout: 10_000 });
    // A wall across the unit's way, drawn while it walks: x = 15, rows 0..10.
    await dragCells([15, 0], [15, 10]);
    const mid = await walkState();
    if (kind === kinds[0]) {
      await page.click('#walk'); // pause for the picture: the repair's cells on display
      await page.waitForFunction(() => { const w = window.__playground.walkState(); return w && !w.running; });
      const shot = await screenshot('desktop-1440x900-walk');
      if (!process.argv.includes('--no-docs-image')) fs.copyFileSync(shot, WALK_DOCS_SHOT);
      await page.click('#walk');
    }
    await setRange('#walk-speed', 30);
    await page.waitForFunction(() => { const w = window.__playground.walkState(); return w && w.done; }, null, { timeout: 15_000 });
    const w = await walkState();
    const rows = (await pg(() => window.__playground.exportAscii())).trim().split('\n');
    const wall = rows.slice(0, 11).every((r) => r[15] === '#') && rows[11][15] !== '#';
    const name = { dstar: 'D* Lite', astar: 'repeated A*', splice: 'splicing' }[kind];
    check(`walk (${name}): the wall was drawn while the unit walked, and it reached G`,
      wall && !mid.done && mid.trail.length < 14 && w.outcome === 'reached G' && w.unit[0] === 27 && w.unit[1] === 6,
      JSON.stringify({ wall, outcome: w.outcome, unit: w.unit, midTrail: mid.trail.length }));
    const steps = w.trail.every((c, k) => k === 0 || (Math.max(Math.abs(c[0] - w.trail[k - 1][0]), Math.abs(c[1] - w.trail[k - 1][1])) === 1));
    const blocked = w.trail.filter(([x, y]) => rows[y][x] === '#');
    check(`walk (${name}): every step goes to a neighbouring cell, the trail enters no wall, it went through the gap`,
      w.trail[0][0] === 2 && w.trail[0][1] === 6 && steps && blocked.length === 0 &&
      w.trail.some(([x, y]) => x === 15 && y === 11), JSON.stringify({ steps, blocked, trail: w.trail }));
    const s = w.stats, text = await $text('#walk-repair');
    // D* Lite: the cells it updated when the planner reports them, else its
    // expansions (and vertex updates); repeated A*: its expansions.
    const shown = kind === 'dstar'
      ? text.match(/^D\* Lite repair: ([\d,]+) (?:cells updated|expanded \([\d,]+ vertex updates\)); fresh A\*: ([\d,]+) expanded$/)
      : kind === 'splice'
        ? text.match(/^splicing \((?:path intact|spliced|full search)\): ([\d,]+) expanded \([\d,]+ cells given a G\), cost [\d.]+; fresh A\*: ([\d,]+) expanded, cost [\d.]+$/)
        : text.match(/^repeated A\*: ([\d,]+) expanded \([\d,]+ cells given a G\); fresh A\*: ([\d,]+) expanded$/);
    const costOk = kind === 'splice' ? s.cost >= s.freshCost - 1e-9 : Math.abs(s.cost - s.freshCost) < 1e-9;
    check(`walk (${name}): ${w.repairs} repairs; the last one's cost ${kind === 'splice' ? 'is no less than' : 'equals'} ` +
      'a fresh A*\'s from the same cell, and the stat line shows both counts', w.repairs >= 2 && costOk && shown &&
      num(shown[1]) === (kind === 'dstar' && s.touched ? s.touched : s.expanded) && num(shown[2]) === s.freshExpanded &&
      (kind !== 'astar' || s.touched > 0), `"${text}" ${JSON.stringify(s)}`);
    console.log(`     walk with ${name}: ${w.trail.length - 1} steps, ${w.repairs} repairs, ${w.totals.expanded} expanded ` +
      `in all; a fresh A* at each repair: ${w.totals.fresh}`);
  }
  await page.click('#clear-path');
  check('Clear path ends walk mode', (await walkState()) === null && await page.locator('#walk-stat').isHidden());
  await page.selectOption('#size', '40x25');
}

let mapSeq = 0;
// Run from the UI, export the page's grid, solve natively, compare.
async function compareWithCli(label, cliArgs, { expectStatus = 'path found' } = {}) {
  const r = await runInstant();
  const sz = await pg(() => window.__playground.size());
  const mapFile = path.join(WORK, `map${++mapSeq}.txt`);
  fs.writeFileSync(mapFile, await pg(() => window.__playground.exportAscii()));
  const n = solve(mapFile, sz.start, sz.goal, cliArgs);
  if (expectStatus === 'unsupported') {
    // The CLI names the reason (astar_unsupported_reason); the page's
    // notice says the same sentence.
    // (`astar: MAP: jps: WHY`, or through the finder `astar: MAP: --algo jps: WHY`)
    const why = (n.status.match(/: (?:--algo )?(?:jps|jps-plus): (.*)$/) || [])[1] || '';
    const nt = await noticeState();
    check(`${label}: page and CLI both refuse, for the same reason`, r.state === 'failed' && r.code === 11 &&
      why.length > 20 && nt.text.toLowerCase().includes(why.toLowerCase()), `page "${r.status}" / "${nt.text}", CLI "${n.status}"`);
    return r;
  }
  if (expectStatus !== 'path found') {
    check(`${label}: page and CLI both report "${n.status}"`,
      r.state === 'failed' && r.status === n.status && n.status === expectStatus,
      `page "${r.status}", CLI "${n.status}"`);
    return r;
  }
  const tol = 0.5 * 10 ** -decimals(r.costText) + 1e-9;
  check(`${label}: page finds a path`, r.state === 'done', `status "${r.status}"`);
  check(`${label}: cost ${r.costText} equals the native CLI's ${n.costText}`,
    Math.abs(r.cost - n.cost) <= tol, `${n.args}`);
  check(`${label}: length ${r.length} and expansions ${r.expanded} equal the CLI's`,
    r.length === n.length && r.expanded === n.expanded,
    `CLI length ${n.length}, expanded ${n.expanded}`);
  return r;
}

async function cellPoint(x, y) {
  const box = await page.locator('#grid').boundingBox();
  const sz = await pg(() => window.__playground.size());
  const cw = box.width / sz.width, ch = box.height / sz.height;
  return { x: box.x + (x + 0.5) * cw, y: box.y + (y + 0.5) * ch };
}

async function dragCells(a, b) {
  const p = await cellPoint(a[0], a[1]), q = await cellPoint(b[0], b[1]);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(q.x, q.y, { steps: 12 });
  await page.mouse.up();
}

try {
  /* Load. */
  await page.goto(`${ORIGIN}/index.html`);
  await page.waitForFunction(() => window.__playground && (window.__playground.ready || window.__playground.error),
    null, { timeout: 20_000 }).catch(() => {});
  const boot = await pg(() => window.__playground ? { ready: window.__playground.ready, error: window.__playground.error } : null);
  if (!check('page loads and instantiates astar.wasm', boot && boot.ready && !boot.error,
    JSON.stringify(boot) + (problems.length ? `; ${problems.join('; ')}` : ''))) {
    throw new Error('the page is broken');
  }
  check('astar.wasm was fetched from the local server', served.includes('/astar.wasm'));
  const version = await $text('#version');
  check('the page names the library version', /^libastar \d+\.\d+\.\d+$/.test(version), version);
  const sz0 = await pg(() => window.__playground.size());
  check('default grid is 20 x 12 with start and goal, walls and no terrain', sz0.width === 20 && sz0.height === 12 &&
    (sz0.start.x !== sz0.goal.x || sz0.start.y !== sz0.goal.y) && /#/.test(await pg(() => window.__playground.exportAscii())) &&
    !/[2-9]/.test(await pg(() => window.__playground.exportAscii())), JSON.stringify(sz0));
  await testFirstVisit();
  // The rest runs on the 40 x 25 preset: the same walls, scaled.
  await page.selectOption('#size', '40x25');
  const sz = await pg(() => window.__playground.size());
  check('the 40 x 25 preset has the default map\'s walls, scaled', sz.width === 40 && sz.height === 25 &&
    (await pg(() => window.__playground.exportAscii())).split('\n').slice(4, 21).every((r) => r[20] === '#'), JSON.stringify(sz));

  /* Draw a wall across the map by mouse, one gap at row 22. */
  const WX = 26, GAP = 22;
  await dragCells([WX, 0], [WX, GAP - 1]);
  await dragCells([WX, GAP + 1], [WX, 24]);
  const rows = (await pg(() => window.__playground.exportAscii())).trim().split('\n');
  const column = rows.map((r) => r[WX]).join('');
  check('mouse drags drew the wall with one gap', column === '#'.repeat(GAP) + '.' + '#'.repeat(24 - GAP),
    `column ${WX}: ${column}`);

  /* Undo and redo of map edits: a stroke, a move of S, a whole-map change. */
  const drawn = await pg(() => window.__playground.exportAscii(true));
  await page.click('#undo');
  const undone = (await pg(() => window.__playground.exportAscii())).trim().split('\n').map((r) => r[WX]).join('');
  check('Undo takes back the last stroke', undone === '#'.repeat(GAP) + '.'.repeat(25 - GAP), undone);
  await page.click('#redo');
  check('Redo puts it back', (await pg(() => window.__playground.exportAscii(true))) === drawn);
  const sA = (await pg(() => window.__playground.size())).start;
  await dragCells([sA.x, sA.y], [sA.x - 3, sA.y + 2]);
  const sB = (await pg(() => window.__playground.size())).start;
  check('dragging S moves it', sB.x === sA.x - 3 && sB.y === sA.y + 2, JSON.stringify(sB));
  check('moving S painted no wall', (await pg(() => window.__playground.exportAscii())) ===
    drawn.replace(/[SG]/g, '.'));
  await page.keyboard.press('Control+z');
  const sC = (await pg(() => window.__playground.size())).start;
  check('Ctrl+Z takes back the move of S', sC.x === sA.x && sC.y === sA.y, JSON.stringify(sC));
  await page.click('#clear-walls');
  await page.keyboard.press('Control+z');
  check('Clear walls can be undone', (await pg(() => window.__playground.exportAscii(true))) === drawn);
  await page.keyboard.press('Control+Shift+z');
  await page.keyboard.press('Control+z');
  check('... and redone (Ctrl+Shift+Z)', (await pg(() => window.__playground.exportAscii(true))) === drawn &&
    (await pg(() => window.__playground.history())).redo === 1);

  /* Step through the first expansions: each step shows the expanded node
     together with the neighbours it pushed (one group of events). */
  await page.selectOption('#step-unit', 'expansion');
  const groupsOk = [];
  for (let k = 0; k < 5; k++) {
    await page.click('#step');
    groupsOk.push(await checkGroup());
  }
  const stepped = await readResult();
  check('Step expands one node at a time', stepped.state === 'paused' && stepped.expanded === 5,
    `${stepped.status}, expanded ${stepped.expanded}`);
  check('each step shows the expanded node with the neighbours it pushed, their F/G/H and parent set',
    groupsOk.every((g) => g.ok) && groupsOk[0].pushed >= 3, JSON.stringify(groupsOk));
  await page.selectOption('#step-unit', 'event');
  const before = (await pg(() => window.__playground.stepState())).cursor;
  await page.click('#step');
  check('Step by event applies exactly one event', (await pg(() => window.__playground.stepState())).cursor === before + 1);
  await page.selectOption('#step-unit', 'expansion');
  await page.click('#step');
  check('a step by expansion from inside a group completes that group',
    (await pg(() => window.__playground.stepState())).next === 'expand');
  await page.click('#clear-path');

  /* Animated run to the end. */
  await setSpeed(7);
  await page.click('#run');
  const midState = await page.getAttribute('#status', 'data-state');
  await page.waitForSelector('#status[data-state=done]', { timeout: 30_000 });
  const animated = await readResult();
  check('Run animates the recorded events to the end', ['running', 'done'].includes(midState) &&
    animated.state === 'done', `state during run: ${midState}`);

  /* A* against the native CLI (defaults on both sides). */
  const astar = await compareWithCli('A*', []);
  check('the animated and the instant run agree', animated.cost === astar.cost &&
    animated.expanded === astar.expanded);
  const route = (await pg(() => window.__playground.result())).path;
  check('the path goes through the gap', route.some(([x, y]) => x === WX && y === GAP));

  // The replayed events leave G = 0 at the start and G = the path cost at
  // the goal, and every path cell's parent is its predecessor on the path.
  const cinfo = (x, y) => pg(([a, b]) => window.__playground.cellInfo(a, b), [x, y]);
  const s0 = await cinfo(...route[0]), gN = await cinfo(...route[route.length - 1]);
  let parentsOk = true;
  for (let k = 1; k < route.length; k++) {
    const ci = await cinfo(...route[k]);
    if (!ci.parent || ci.parent[0] !== route[k - 1][0] || ci.parent[1] !== route[k - 1][1]) parentsOk = false;
  }
  check('event replay: G(start) = 0, G(goal) = path cost, parents follow the path',
    s0.g === 0 && Math.abs(gN.g - astar.cost) <= 1e-4 && parentsOk, `G(goal) ${gN.g}`);

  // Hover a closed cell beside the path (for the check and the screenshot).
  let hoverAt = route[Math.floor(route.length / 3)];
  for (const [x, y] of route.slice(Math.floor(route.length / 3))) {
    if (y + 1 < sz.height && (await cinfo(x, y + 1)).state === 'closed') {
      hoverAt = [x, y + 1];
      break;
    }
  }
  const hp = await cellPoint(hoverAt[0], hoverAt[1]);
  await page.mouse.move(hp.x, hp.y);
  const info = await $text('#cell-info');
  const hc = await cinfo(...hoverAt);
  check('hovering a cell shows its F, G, H and parent', /F [\d.]+ = G [\d.]+ \+ H [\d.]+/.test(info) &&
    /parent \(\d+, \d+\)/.test(info) && info.includes(`G ${hc.g.toFixed(3).replace(/\.?0+$/, '')}`), info);
  const deskShot = await screenshot('desktop-1440x900');
  check('desktop screenshot saved', fs.statSync(deskShot).size > 10_000, deskShot);

  /* Dijkstra expands more than A*, same cost. */
  await page.selectOption('#algorithm', 'dijkstra');
  const dij = await compareWithCli('Dijkstra', ['--heuristic', 'zero']);
  check(`Dijkstra expands more cells than A* (${dij.expanded} > ${astar.expanded})`,
    dij.expanded > astar.expanded);
  check('Dijkstra and A* find the same cost', Math.abs(dij.cost - astar.cost) < 1e-6);

  /* Other options, each against the CLI. */
  await page.selectOption('#algorithm', 'astar');
  await page.selectOption('#costs', '10,14');
  await compareWithCli('A* with costs 10/14', ['--costs', '10,14']);
  await page.selectOption('#costs', '1,1.4142135623730951');
  await page.selectOption('#diagonal', '4');
  await compareWithCli('A* with 4 moves', ['--moves', '4']);
  await page.selectOption('#diagonal', '8-no-cut');
  await page.fill('#turn-penalty', '2');
  await page.locator('#turn-penalty').dispatchEvent('change');
  await compareWithCli('A* with turn penalty 2', ['--turn-penalty', '2']);
  await page.fill('#turn-penalty', '0');
  await page.locator('#turn-penalty').dispatchEvent('change');
  await page.selectOption('#algorithm', 'weighted');
  await compareWithCli('weighted A* (w = 2)', ['--weight', '2']);

  /* JPS: refused on a map with terrain (painted here with the terrain
     brush: a 3 x 4 block of cost 5), explained in full, with the switches
     offered: "Use A*" and "Clear terrain". */
  await page.click('label:has(> input[name=brush][value=terrain])');
  await setRange('#terrain', 5);
  for (let y = 14; y <= 17; y++) await dragCells([11, y], [13, y]);
  await page.click('label:has(> input[name=brush][value=wall])');
  check('the terrain brush paints terrain', (await pg(() => window.__playground.exportAscii())).split('\n')
    .slice(14, 18).every((r) => r.slice(11, 14) === '555'));
  await page.selectOption('#algorithm', 'jps');
  let nt = await noticeState();
  check('selecting JPS on a map with terrain explains why, in full, with the fixes',
    nt.visible && nt.unclipped && /JPS needs uniform costs/.test(nt.text) &&
    /terrain cells/.test(nt.text) && nt.buttons.includes('Clear terrain') && nt.buttons.includes('Use A*'),
    JSON.stringify(nt));
  await compareWithCli('JPS on a map with terrain', ['--algo', 'jps'], { expectStatus: 'unsupported' });
  nt = await noticeState();
  check('after the refused run the notice says it could not run', nt.visible && /could not run/.test(nt.text), nt.text);
  await page.click('#use-astar');
  check('"Use A*" switches the algorithm and hides the notice',
    (await page.inputValue('#algorithm')) === 'astar' && !(await noticeState()).visible);
  await page.selectOption('#algorithm', 'jps-plus');
  check('JPS+ is refused the same way', (await noticeState()).visible);
  // The erase brush removes one row of terrain; "Clear terrain" the rest.
  await page.click('label:has(> input[name=brush][value=erase])');
  const ascii = (await pg(() => window.__playground.exportAscii())).trim().split('\n');
  const terrainRows = ascii.map((r, y) => [y, [...r].map((ch, x) => (/[2-9]/.test(ch) ? x : -1)).filter((x) => x >= 0)])
    .filter(([, xs]) => xs.length);
  const [ty, txs] = terrainRows[0];
  await dragCells([txs[0], ty], [txs[txs.length - 1], ty]);
  check('the erase brush removed a row of terrain',
    !/[2-9]/.test((await pg(() => window.__playground.exportAscii())).split('\n')[ty]));
  await page.click('label:has(> input[name=brush][value=wall])');
  await page.click('#fix-terrain');
  check('"Clear terrain" removes all terrain and the notice',
    !/[2-9]/.test(await pg(() => window.__playground.exportAscii())) && !(await noticeState()).visible);
  await page.selectOption('#algorithm', 'jps');
  await page.click('#clear-path');
  await page.click('#step');
  const jg = await checkGroup();
  check('JPS: a step shows the expanded jump point, the cells its jumps scanned and the jump points pushed',
    jg.ok && jg.pushed > 0 && jg.scanned > 0, JSON.stringify(jg));
  await page.click('#clear-path');
  const jps = await compareWithCli('JPS', ['--algo', 'jps']);
  await checkJumpDisplay('JPS');
  await screenshot('desktop-1440x900-jps');
  const jpsPlus = await page.selectOption('#algorithm', 'jps-plus').then(() => compareWithCli('JPS+', ['--algo', 'jps-plus']));
  await checkJumpDisplay('JPS+');
  await page.selectOption('#algorithm', 'astar');
  const astar2 = await compareWithCli('A* without terrain', []);
  check('JPS, JPS+ and A* find the same cost', Math.abs(jps.cost - astar2.cost) < 1e-6 &&
    Math.abs(jpsPlus.cost - astar2.cost) < 1e-6);

  /* The engine's algorithms on the grid as a space (issue 9): each against
     `astar solve --algo NAME` on the same map, and what each one shows. */
  await testVariants(await pg(() => window.__playground.result())); // A*'s exact result

  /* Hex mode (issue 9): the map as hexagons, searched by the library's hex
     grid, drawn where astar_hex_center puts each cell. */
  await testHex();

  /* Any-angle paths (issue 11): Theta*, Lazy Theta*, smoothing. */
  const tAny = Date.now();
  await testAnyAngle();
  console.log(`     any-angle checks took ${((Date.now() - tAny) / 1000).toFixed(1)} s`);
  const tUnits = Date.now();
  await testUnits();
  console.log(`     unit and clearance checks took ${((Date.now() - tUnits) / 1000).toFixed(1)} s`);
  const tTiers = Date.now();
  await testTwoTiers();
  console.log(`     HPA* and landmark checks took ${((Date.now() - tTiers) / 1000).toFixed(1)} s`);
  const tWalk = Date.now();
  await testWalk();
  console.log(`     walk mode checks took ${((Date.now() - tWalk) / 1000).toFixed(1)} s`);
  const tMapf = Date.now();
  await part('item 29: MAPF mode', testMapf);
  console.log(`     MAPF mode checks took ${((Date.now() - tMapf) / 1000).toFixed(1)} s`);
  const tMesh = Date.now();
  await part('item 30: mesh mode', testMesh);
  console.log(`     mesh mode checks took ${((Date.now() - tMesh) / 1000).toFixed(1)} s`);

  /* A 512 x 512 map: S and G are grabbed by their marker, not by the cell
     under the pointer (cells are about 1.5 px, the marker 12), and
     dragging S re-runs the search at every animation frame without
     recording events; letting go records the search in full. */
  {
    const big = map512();
    fs.writeFileSync(path.join(WORK, 'r512.txt'), big);
    await pg((t) => window.__playground.loadMap(t, 'r512.txt'), big);
    await page.selectOption('#algorithm', 'astar');
    await runInstant();
    const before = await pg(() => window.__playground.exportAscii());
    const b0 = await pg(() => window.__playground.size());
    const box = await page.locator('#grid').boundingBox();
    const cw = box.width / b0.width;
    // 4 px right and 3 px up of S's centre: another cell, on the marker.
    const gx0 = box.x + (b0.start.x + 0.5) * cw + 4, gy0 = box.y + (b0.start.y + 0.5) * cw - 3;
    check('on a 512 x 512 map the grab point lies in another cell than S',
      Math.floor((gx0 - box.x) / cw) !== b0.start.x || Math.floor((gy0 - box.y) / cw) !== b0.start.y);
    await pg(() => window.__playground.resetDragStats());
    await page.mouse.move(gx0, gy0);
    await page.mouse.down();
    for (let k = 1; k <= 30; k++) {
      await page.mouse.move(gx0 + k * 5, gy0 + k * 3);
      await pg(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    }
    const during = await pg(() => window.__playground.result());
    await page.mouse.up();
    await page.waitForFunction(() => { const r = window.__playground.result(); return r && r.recorded; }, null, { timeout: 20_000 });
    const b1 = await pg(() => window.__playground.size());
    const ds = await pg(() => window.__playground.dragStats());
    check('grabbing the S marker off its cell moved S and painted nothing',
      (b1.start.x !== b0.start.x || b1.start.y !== b0.start.y) && (await pg(() => window.__playground.exportAscii())) === before,
      `S ${JSON.stringify(b0.start)} -> ${JSON.stringify(b1.start)}`);
    check('during the drag the search re-ran without recording events', ds.moves >= 10 && during && !during.recorded,
      JSON.stringify(ds));
    console.log(`     drag S on 512 x 512 (A*, ${during ? during.expanded : '?'} expansions): ${ds.moves} re-runs, ` +
      `median ${ds.median.toFixed(1)} ms, max ${ds.max.toFixed(1)} ms per move`);
    // Speed is measured and printed above, not asserted: a timed check
    // flakes on a busy machine (performance lives in benchmarks).
    const rel = await pg(() => window.__playground.result());
    const n = solve(path.join(WORK, 'r512.txt'), b1.start, b1.goal);
    check('after letting go the recorded search equals the CLI', rel.recorded && rel.events > 0 &&
      Math.abs(rel.cost - n.cost) < 1e-6 && rel.expanded === n.expanded, `CLI ${n.costText} ${n.expanded}; page ${rel.cost} ${rel.expanded}`);
    await page.keyboard.press('Control+z');
    const b2 = await pg(() => window.__playground.size());
    check('the move of S on the big map can be undone', b2.start.x === b0.start.x && b2.start.y === b0.start.y);
  }

  /* Accessibility: every control has a label bound to it (sliders found by
     role and name), the status sits in a polite live region that reads the
     result, open and closed cells differ in luminance by 3 : 1 or more, and
     the legend says which number in a cell is F, G and H. */
  {
    const unlabelled = await pg(() => [...document.querySelectorAll('input, select, button')]
      .filter((el) => !el.closest('[hidden]') && !(el.labels && el.labels.length) && !el.getAttribute('aria-label') &&
        !(el.tagName === 'BUTTON' && el.textContent.trim()))
      .map((el) => el.id || el.outerHTML.slice(0, 60)));
    check('every control has a label', unlabelled.length === 0, unlabelled.join(', '));
    let sliders = 0;
    for (const name of ['Speed', 'Terrain cost']) sliders += await page.getByRole('slider', { name, exact: true }).count();
    await page.selectOption('#algorithm', 'weighted');
    sliders += await page.getByRole('slider', { name: 'Weight', exact: true }).count();
    await page.selectOption('#algorithm', 'astar');
    check('the sliders Speed, Terrain cost and Weight are named by their labels', sliders === 3, `${sliders} of 3`);
    await page.selectOption('#size', '40x25'); // the default map
    await runInstant();
    const live = await pg(() => {
      const r = document.getElementById('status').closest('[aria-live]');
      return r ? { live: r.getAttribute('aria-live'), role: r.getAttribute('role'), text: r.textContent } : null;
    });
    check('the status is in a polite live region that reads the result',
      live && live.live === 'polite' && live.role === 'status' && /path found: cost [\d.]+, \d+ cells/.test(live.text),
      JSON.stringify(live));
    const lum = await pg(() => {
      const P = window.__playground, sz = P.size(), cv = document.getElementById('grid');
      const cx = cv.getContext('2d'), dpr = cv.width / cv.getBoundingClientRect().width, c = sz.cell;
      const L = ([r, g, b]) => {
        const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const sample = (x, y) => L(cx.getImageData(Math.round((x * c + c - 2.5) * dpr), Math.round((y * c + c / 2) * dpr), 1, 1).data);
      let open = null, closed = null;
      for (let y = 0; y < sz.height && !(open && closed); y++) for (let x = 0; x < sz.width; x++) {
        const ci = P.cellInfo(x, y);
        if (ci.cell !== 1) continue;
        if (ci.state === 'open' && !open) open = sample(x, y);
        if (ci.state === 'closed' && !closed) closed = sample(x, y);
      }
      return { open, closed, ratio: (Math.max(open, closed) + 0.05) / (Math.min(open, closed) + 0.05) };
    });
    check(`open and closed cells differ in luminance (${lum.ratio.toFixed(2)} : 1 >= 3 : 1)`, lum.ratio >= 3, JSON.stringify(lum));
    const keyOf = () => pg(() => {
      const k = document.getElementById('fgh-key'), r = (s) => k.querySelector(s).getBoundingClientRect();
      const f = r('.k-f'), g = r('.k-g'), h = r('.k-h');
      return { mode: k.dataset.mode, canvas: window.__playground.labelMode(), label: k.getAttribute('aria-label'),
        visible: k.getBoundingClientRect().width > 0, gShown: g.width > 0, hShown: h.width > 0,
        layout: f.top < g.top && Math.abs(f.left - g.left) < 2 && h.left > g.left && Math.abs(h.top - g.top) < 2 };
    });
    const k1 = await keyOf();
    await page.selectOption('#size', '16x10');
    const k2 = await keyOf();
    check('the legend keys the numbers as the canvas writes them: F top left, G bottom left, H bottom right',
      k2.visible && k2.mode === 'fgh' && k2.canvas === 'fgh' && k2.layout && /F top left, G bottom left, H bottom right/.test(k2.label) &&
      k1.mode === k1.canvas && (k1.mode === 'fgh') === (k1.gShown && k1.hShown), JSON.stringify([k1, k2]));
  }

  /* A Moving AI map through the file input (when the benchmark data is there). */
  if (fs.existsSync(MOVINGAI_MAP)) {
    const head = fs.readFileSync(MOVINGAI_MAP, 'utf8');
    const hw = Number(head.match(/^width (\d+)/m)[1]), hh = Number(head.match(/^height (\d+)/m)[1]);
    await page.setInputFiles('#map-file', MOVINGAI_MAP);
    // Until the file's size shows (the page reads the file asynchronously;
    // "not 40 wide" held at once when an earlier part left another size).
    await page.waitForFunction((w) => window.__playground.size().width === w, hw, { timeout: 10_000 }).catch(() => {});
    const m = await pg(() => window.__playground.size());
    check('a Moving AI .map loads through the file input', m.width === hw && m.height === hh,
      `${m.width} x ${m.height}, file says ${hw} x ${hh}`);
    const r = await runInstant();
    const n = solve(MOVINGAI_MAP, m.start, m.goal);
    check(`Moving AI map: cost ${r.costText} and expansions equal the CLI's on the .map file`,
      r.state === 'done' && Math.abs(r.cost - n.cost) <= 0.5 * 10 ** -decimals(r.costText) + 1e-9 &&
      r.expanded === n.expanded, `CLI ${n.costText}, expanded ${n.expanded}; page expanded ${r.expanded}`);
  } else {
    console.log(`skip Moving AI map (${MOVINGAI_MAP} not found)`);
  }

  /* An ASCII map with S and G through the file input, then a malformed one. */
  const tiny = 'S..#....\n.#.#.##.\n.#...#G.\n';
  await page.setInputFiles('#map-file', { name: 'tiny.txt', mimeType: 'text/plain', buffer: Buffer.from(tiny) });
  await page.waitForFunction(() => window.__playground.size().width === 8, null, { timeout: 10_000 });
  const t = await pg(() => window.__playground.size());
  check('an ASCII map loads with its S and G', t.height === 3 && t.start.x === 0 && t.start.y === 0 &&
    t.goal.x === 6 && t.goal.y === 2, JSON.stringify(t));
  fs.writeFileSync(path.join(WORK, 'tiny.txt'), tiny);
  const tr = await runInstant();
  const tn = solve(path.join(WORK, 'tiny.txt'), t.start, t.goal);
  check(`ASCII map: cost ${tr.costText} and expansions equal the CLI's`,
    Math.abs(tr.cost - tn.cost) < 1e-4 && tr.expanded === tn.expanded, `CLI ${tn.costText}, ${tn.expanded}`);
  await page.setInputFiles('#map-file', { name: 'bad.map', mimeType: 'text/plain', buffer: Buffer.from('..\n.x\n') });
  await page.waitForFunction(() => document.getElementById('message').classList.contains('error'), null,
    { timeout: 10_000 }).catch(() => {});
  const bad = await $text('#message');
  check('a malformed map is reported with line and column', /^bad\.map:2:2: /.test(bad), bad);

  /* Maze button makes a solvable-or-not map without breaking the page. */
  await page.click('#maze');
  const mz = await runInstant();
  check('Maze + Run gives an outcome', mz.state === 'done' || mz.state === 'failed', mz.status);
} catch (e) {
  check('browser session', false, e.stack || e.message);
}

/* Phones: upright and on its side, with touch. */
for (const [w, h] of [[390, 844], [844, 390]]) {
  try {
    await testCompact(w, h);
  } catch (e) {
    check(`${w} x ${h} session`, false, e.stack || e.message);
  }
}

check('no console errors, page errors or failed requests', problems.length === 0, problems.join('; '));
check(`screenshots at desktop and phone sizes in ${LOGS}`, shots.length >= 8 &&
  ['1440x900', '390x844', '844x390'].every((sz) => shots.some((f) => f.includes(sz))), shots.join(', '));
await browser.close();
server.close();
clearTimeout(watchdog);
console.log(`time ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
