/* app.js -- the playground's logic: keeps the map the user draws in step
   with the libastar grid inside the WebAssembly module (bridge.c), runs the
   real search with its observer, replays the recorded events on a canvas
   (open, closed, cells scanned by JPS jumps, both frontiers of a
   bidirectional search and where they met, IDA*'s iterations and its
   depth-first path, the entries beam search dropped, F / G / H, parent
   arrows) and shows the result -- with Theta* and Lazy Theta* (or a grid
   path string-pulled) the any-angle line through its bends, and for a unit
   of k x k cells its footprint along the path and the map's clearance. The
   same map can be drawn as hexagons (hex mode): the bridge then searches an
   astar_hex_grid of the same cells, and the page draws each cell where the
   library's astar_hex_center says. */
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);

  // astar_event_type and astar_status values (astar/search.h, astar/base.h).
  const EV_PUSH = 0, EV_EXPAND = 1, EV_IMPROVE = 2, EV_REOPEN = 3, EV_GOAL = 4, EV_SCAN = 5;
  const EV_DROP = 6, EV_ITERATION = 7, EV_MEET = 8; // the engine's variants (astar/engine.h)
  // D* Lite's observer, recorded by the bridge (PG_EVENT_REACHED): a cell whose
  // g or rhs its plan set, each once, without values (the planner keeps them).
  const EV_REACHED = 9;
  const EV_NAMES = ['push', 'expand', 'improve', 'reopen', 'goal', 'scan', 'drop', 'iteration', 'meet', 'reached'];
  // Display states of a cell (seen[]): untouched, open, closed, on the path,
  // scanned by a jump (JPS / JPS+) without being a node, dropped (beam and
  // bandwidth search).
  const S_NONE = 0, S_OPEN = 1, S_CLOSED = 2, S_PATH = 3, S_SCAN = 4, S_DROP = 5;
  const STATE_NAMES = ['none', 'open', 'closed', 'path', 'scanned', 'dropped'];
  const ST_OK = 0, ST_START_BLOCKED = 3, ST_GOAL_BLOCKED = 4, ST_UNSUPPORTED = 11;
  const PG_RUN_RECORD = 1, PG_RUN_ONCE = 2; // pg_run flags (bridge.c)
  const ALGO = { astar: 0, jps: 1, 'jps-plus': 2, theta: 4, 'lazy-theta': 5, anya: 6, hpa: 7, landmarks: 8, dstar: 9 };
  const PG_ALGO_ENGINE = 3;
  // The engine's methods (astar_method, astar/engine.h) of the page's
  // algorithms, by name: read from the library's method table when the module
  // has loaded (readMethodTable); weighted A* is A* with a weight.
  let METHOD = {};
  // Algorithms only the engine runs (on the grid as a space, astar/grid_space.h).
  const ENGINE_ONLY = new Set(['bidir', 'ida', 'beam', 'dynamic', 'bandwidth']);
  const isJump = (algo) => algo === 'jps' || algo === 'jps-plus';
  // Any-angle searches (astar/anyangle.h): the path is a line through bends.
  // Anya (astar/anya.h) finds the optimal one, bending at obstacle corners.
  const isAnyAngle = (algo) => algo === 'theta' || algo === 'lazy-theta' || algo === 'anya';
  // On hexagons every search is the engine's (on astar_hex_space).
  const usesEngine = (algo) => hex !== null || ENGINE_ONLY.has(algo);
  const NAMES = {
    astar: 'A*', dijkstra: 'Dijkstra', greedy: 'Greedy best-first', weighted: 'Weighted A*', jps: 'JPS',
    'jps-plus': 'JPS+', bidir: 'Bidirectional A*', ida: 'IDA*', beam: 'Beam search',
    dynamic: 'Dynamic weighting', bandwidth: 'Bandwidth search', theta: 'Theta*', 'lazy-theta': 'Lazy Theta*',
    anya: 'Anya', hpa: 'HPA*', landmarks: 'A* + landmarks', dstar: 'D* Lite',
  };
  const algoName = (algo) => NAMES[algo] || algo;
  // One line on each algorithm, under the selector.
  const HELP = {
    astar: 'Expands the open cell of least F = G + H; with an admissible H the path is optimal.',
    dijkstra: 'H = 0, so F = G: spreads evenly from S in every direction; optimal.',
    greedy: 'Orders the open list by H alone (cells show H, the key): fast, no bound on the cost.',
    weighted: 'F = G + w × H: fewer expansions, a cost at most w times the optimum.',
    jps: 'A* that jumps along straight and diagonal lines of a uniform-cost grid, pushing only jump points; optimal.',
    'jps-plus': 'JPS over jump distances precomputed for the map (rebuilt when it changes); optimal.',
    bidir: 'A* from S (blue / red) and from G (magenta / lavender, hatched) until the two meet (◆); optimal.',
    ida: 'Depth-first searches under an F bound, raised each iteration to the least F that exceeded it; optimal.',
    beam: 'A* whose open list keeps only the beam width best nodes; the others are dropped (×): may miss the path.',
    dynamic: 'The weight of H falls from 1 + ε at S to 1 at G: a cost at most (1 + ε) times the optimum.',
    bandwidth: 'Drops a node whose F exceeds the expanded one\'s by more than e + d (×): a cost at most the optimum + e.',
    theta: 'A* whose node may take its neighbour\'s parent when it sees it: a path of straight segments at any angle ' +
      '(orange, bends ●), G and H straight-line lengths; near-optimal.',
    'lazy-theta': 'Theta* that assumes the sight and checks it once, on expansion: the same kind of line with fewer ' +
      'line-of-sight tests.',
    anya: 'The optimal any-angle path: the shortest line from S to G, bending only at obstacle corners (purple). ' +
      'It searches intervals of grid lines, not cells: no cells to replay.',
    hpa: 'Two tiers: the map cut into clusters (borders drawn, each level its own colour); a search over the ' +
      'entrances between them (dots), then each abstract step refined into cells. Near-optimal; walls drawn ' +
      'rebuild only the clusters around them.',
    landmarks: 'A* whose H is the larger of the octile distance and the landmarks\' triangle-inequality bound ' +
      '(ALT): exact costs to a few landmark cells (★), computed once. Optimal; hover a cell for its bound.',
    dstar: 'Searches backward from G and keeps its search, so that after the map changes it repairs only what ' +
      'the change affects (Walk shows the repairs); its first plan, shown here, costs what A*\'s does. Optimal.',
  };
  // HPA*'s cluster borders, one colour and width a level (level 1 first).
  const HPA_LEVEL_STYLE = [['#2f9e44', 1], ['#1971c2', 2.5], ['#c2255c', 4]];
  // IDA*'s work can grow with the number of paths: the page stops it here.
  const IDA_MAX_EXPANSIONS = 2e6;
  const H_ZERO = 5;
  const GREEDY_WEIGHT = 1e6; // f = g + 1e6 h: ordered by h, g only breaks ties
  // Events per animation frame for speeds 1..10 (10: no animation).
  const RATES = [0.2, 0.5, 1, 2, 4, 10, 30, 100, 400, Infinity];

  // Cell colours [r, g, b].
  // Open and closed differ in luminance, not only in hue: 0.136 against
  // 0.738, a contrast of 4.2 : 1 (at least 3.2 : 1 under the terrain tint);
  // open cells carry white labels.
  const C_EMPTY = [255, 255, 255], C_WALL = [22, 26, 33];
  const C_OPEN = [30, 100, 200], C_CLOSED = [255, 214, 206], C_PATH = [163, 230, 186];
  const C_SCAN = [255, 236, 170];
  // Bidirectional search: the backward search's open and closed cells
  // (luminance 0.094 and 0.749, 5.5 : 1), hatched on top -- told from the
  // forward ones by the hatching, not by hue alone. Dropped entries: grey
  // with a cross.
  const C_BACK_OPEN = [150, 40, 120], C_BACK_CLOSED = [236, 218, 250], C_DROP = [140, 140, 150];
  // The any-angle line (Theta*, smoothing), over the cells and the green path.
  const LINE = '#e8590c';
  // The optimal line (Anya): its own path, or dashed beside the others.
  const BEST = '#7b1fa2';
  const C_T2 = [242, 231, 204], C_T9 = [170, 128, 70];

  let M = null; // the Emscripten module
  let pg = 0; // pg_state * in the module

  // Hex mode: null for square cells, else { orientation: 0 pointy | 1 flat,
  // layout: 0 odd | 1 even } (astar/hex.h). centers: the library's cell
  // centres for hexagons of circumradius 1 (pg_hex_centers), (x, y) per cell.
  let hex = null, centers = null;
  const SQRT3 = Math.sqrt(3);
  const SHAPES = { 'pointy-odd': [0, 0], 'pointy-even': [0, 1], 'flat-odd': [1, 0], 'flat-even': [1, 1] };
  const SHAPE_NAMES = [['pointy odd-r', 'pointy even-r'], ['flat odd-q', 'flat even-q']];

  // The map (mirrored into the module cell by cell): 0 wall, 1..9 terrain cost.
  let W = 40, H = 25;
  let cells = new Uint8Array(W * H).fill(1);
  let start = 0, goal = 0; // cell indices
  let mapName = '';

  // What the search display shows, rebuilt by replaying events.
  let seen, gval, hval, parent, touched, ntouched; // g and h are NaN until an event sets them
  let sideOf; // the search that set a cell: 0 forward, 1 backward (bidirectional)
  let meetCell = -1; // bidirectional: the best meeting node so far
  let path = []; // cell indices of the displayed path
  let line = []; // the any-angle line's points (Theta*, smoothing): cell indices, S first
  // The clearance of each cell (pg_clearance: the side of the largest free
  // square with the cell as its top-left corner, up to 16), fetched when
  // the overlay or a unit needs it and the map changed since.
  let clr = null, clrDirty = true;
  // The replay goes by groups (astar/search.h): an EXPAND and the events it
  // caused (PUSH, IMPROVE, REOPEN, SCAN) up to the next EXPAND or GOAL.
  let current = -1; // cell of the group's expanded node (or the last event's, stepping by event)
  let groupStart = -1; // event index of the current group's EXPAND, -1 before the first
  let search = null; // the last search: result + recorded events + replay cursor
  let playing = false, frameBudget = 0, rafId = 0;

  // Canvas.
  const canvas = $('grid');
  let ctx = canvas.getContext('2d'); // the grid's; the loupe's while drawLoupe draws
  const board = $('board');
  let cell = 20; // CSS pixels per cell (hexagons: between neighbouring centres)
  let R = 10; // hexagons: circumradius in CSS pixels
  let base, bctx, img, px; // one pixel per cell, scaled up when drawn
  let hexBase = null, hbctx = null, hexLines = null; // hexagons: the filled cells, the outlines
  let needDraw = false;

  const ui = {
    algorithm: $('algorithm'), weight: $('weight'), heuristic: $('heuristic'),
    diagonal: $('diagonal'), costs: $('costs'), tie: $('tie'), openset: $('openset'),
    turn: $('turn-penalty'), reopen: $('reopen'), speed: $('speed'), stepUnit: $('step-unit'),
    live: $('live'), terrain: $('terrain'), size: $('size'), labels: $('labels'),
    beamWidth: $('beam-width'), epsilon: $('epsilon'), bandE: $('band-e'), bandD: $('band-d'),
    hpaCluster: $('hpa-cluster'), hpaLevels: $('hpa-levels'), lmCount: $('lm-count'), lmChoice: $('lm-choice'),
    cells: $('cells'), smooth: $('smooth'), unit: $('unit'), clearance: $('clearance'),
    replan: $('replan'), walkSpeed: $('walk-speed'),
  };

  /* ---- small helpers --------------------------------------------------- */

  const xy = (i) => [i % W, (i / W) | 0];
  const idx = (x, y) => y * W + x;
  const fmt = (v, digits) => {
    if (!Number.isFinite(v)) return '–';
    if (Math.abs(v) >= 1e5) return v.toExponential(2);
    return Number.isInteger(v) ? String(v) : v.toFixed(digits);
  };
  const fmtCost = (v) => fmt(v, 4);
  const fmtInt = (v) => Math.round(v).toLocaleString('en-US');
  const mix = (a, b, t) => [0, 1, 2].map((k) => Math.round(a[k] + (b[k] - a[k]) * t));
  const rgba = (c) => (255 << 24) | (c[2] << 16) | (c[1] << 8) | c[0]; // little-endian RGBA

  function message(text, isError) {
    const m = $('message');
    m.textContent = text || '';
    m.classList.toggle('error', !!isError);
  }

  // The status word sits in a polite live region (#status-live) with a
  // sentence for screen readers (#announce); the event counter of a replay
  // (#progress) is outside it, so a running replay is not read out frame by
  // frame. Only a changed text is written: an unchanged one is not re-read.
  function setStatus(text, state, progress = '', spoken = '') {
    const s = $('status');
    if (s.textContent !== text) s.textContent = text;
    s.dataset.state = state;
    s.title = text;
    if ($('progress').textContent !== progress) $('progress').textContent = progress;
    if ($('announce').textContent !== spoken) $('announce').textContent = spoken;
  }

  /* ---- options --------------------------------------------------------- */

  function readOptions() {
    const algo = ui.algorithm.value;
    const [moves, corner] = {
      '8-no-cut': [8, 0], '8-always': [8, 1], '8-one-side': [8, 2], '8-never': [8, 3], 4: [4, 0],
    }[ui.diagonal.value];
    const [straight, diagonal] = ui.costs.value.split(',').map(Number);
    const engine = usesEngine(algo);
    let heuristic = Number(ui.heuristic.value), weight = 1;
    if (algo === 'dijkstra') heuristic = H_ZERO;
    if (algo === 'greedy' && !engine) weight = GREEDY_WEIGHT;
    if (algo === 'weighted') weight = Number(ui.weight.value);
    const turn = Math.max(0, Number(ui.turn.value) || 0);
    return {
      algo, moves, corner, straight, diagonal, heuristic, weight, turn,
      // A unit of unit x unit cells (square grids; astar/clearance.h).
      unit: hex === null ? Number(ui.unit.value) : 1,
      // String pulling of the grid path (square grids, one-cell units, not
      // the any-angle searches).
      smooth: ui.smooth.checked && hex === null && !isAnyAngle(algo) && algo !== 'hpa' && Number(ui.unit.value) === 1,
      anyAngle: isAnyAngle(algo) && hex === null,
      tie: Number(ui.tie.value), reopen: Number(ui.reopen.value), open: Number(ui.openset.value),
      engine: engine ? PG_ALGO_ENGINE : ALGO[algo] ?? 0, method: METHOD[algo] ?? 0,
      // The key the open list is ordered by, as the cells show it: F, or
      // for greedy best-first H (the grid's greedy is A* with weight 10^6:
      // H divided by it).
      hKey: algo === 'greedy', hScale: weight >= GREEDY_WEIGHT ? GREEDY_WEIGHT : 1,
      beamWidth: Number(ui.beamWidth.value), epsilon: Number(ui.epsilon.value),
      bandE: Number(ui.bandE.value), bandD: Number(ui.bandD.value),
      maxExpansions: algo === 'ida' ? IDA_MAX_EXPANSIONS : 0,
    };
  }

  function pushOptions() {
    const o = readOptions();
    let st = M._pg_set_options(pg, o.moves, o.corner, o.straight, o.diagonal, o.heuristic,
      o.weight, o.tie, o.reopen, o.engine, o.open, o.turn);
    if (st === ST_OK) st = M._pg_set_engine(pg, o.method, o.beamWidth, o.epsilon, o.bandE, o.bandD, o.maxExpansions);
    M._pg_set_smooth(pg, o.smooth ? 1 : 0);
    if (st === ST_OK) st = M._pg_set_unit(pg, o.unit);
    if (st === ST_OK) st = M._pg_set_hpa(pg, Number(ui.hpaCluster.value), Number(ui.hpaLevels.value), 1);
    if (st === ST_OK) st = M._pg_set_landmarks(pg, Number(ui.lmCount.value), Number(ui.lmChoice.value));
    return { o, st };
  }

  function syncOptionUi() {
    const algo = ui.algorithm.value;
    $('weight-row').hidden = algo !== 'weighted';
    $('weight-value').textContent = Number(ui.weight.value).toFixed(1);
    $('beam-row').hidden = algo !== 'beam';
    $('beam-width-value').textContent = ui.beamWidth.value;
    $('epsilon-row').hidden = algo !== 'dynamic';
    $('epsilon-value').textContent = Number(ui.epsilon.value).toFixed(1);
    $('band-row').hidden = algo !== 'bandwidth';
    $('band-e-value').textContent = Number(ui.bandE.value).toFixed(1);
    $('band-d-value').textContent = Number(ui.bandD.value).toFixed(1);
    $('algo-help').textContent = HELP[algo] || '';
    $('hpa-row').hidden = algo !== 'hpa';
    $('hpa-cluster-value').textContent = ui.hpaCluster.value;
    $('hpa-levels-value').textContent = ui.hpaLevels.value;
    $('lm-row').hidden = algo !== 'landmarks';
    $('lm-count-value').textContent = ui.lmCount.value;
    $('lg-back').hidden = algo !== 'bidir' && algo !== 'dstar';
    $('lg-meet').hidden = algo !== 'bidir';
    $('generated-k').textContent = algo === 'dstar' && hex === null ? 'vertex updates' : 'generated';
    $('lg-dfs').hidden = algo !== 'ida';
    $('lg-drop').hidden = algo !== 'beam' && algo !== 'bandwidth';
    const anyAngle = isAnyAngle(algo) && hex === null, unit = hex === null ? Number(ui.unit.value) : 1;
    const smoothing = ui.smooth.checked && hex === null && unit === 1 && algo !== 'hpa';
    $('lg-line').hidden = !(anyAngle && algo !== 'anya') && !smoothing;
    $('lg-best').hidden = !anyAngle && !smoothing;
    $('extra-k').textContent = anyAngle ? EXTRA_KEYS[algo] : smoothing ? 'smoothed line' : EXTRA_KEYS[algo] || 'max open';
    // Theta* has nothing to smooth; hexagons no lines of sight; a unit's
    // path is not a point's.
    ui.smooth.disabled = anyAngle || hex !== null || unit > 1 || algo === 'hpa';
    $('unit-value').textContent = `${unit} × ${unit}`;
    ui.unit.setAttribute('aria-valuetext', `${unit} by ${unit} cells`);
    ui.unit.disabled = ui.clearance.disabled = hex !== null;
    $('lg-unit').hidden = unit === 1;
    $('lg-clearance').hidden = !ui.clearance.checked || hex !== null;
    clrDirty = true;
    needDraw = true;
    ui.heuristic.disabled = algo === 'dijkstra' || hex !== null;
    const jps = algo === 'jps' || algo === 'jps-plus';
    // The engine keeps its own heap (a 4-ary one, astar/engine.h).
    // Theta* keeps its own heap and never reopens.
    // D* Lite keeps its own queue and tie order (astar/dstar.h).
    const dl = algo === 'dstar' && hex === null;
    ui.openset.disabled = algo === 'jps-plus' || usesEngine(algo) || isAnyAngle(algo) || dl;
    ui.reopen.disabled = isAnyAngle(algo) || dl;
    ui.tie.disabled = jps || dl;
    // Hexagons have six neighbours, the cost of the hexagon entered and the
    // hex distance as heuristic: the square grid's options do not apply.
    for (const el of [ui.diagonal, ui.costs, ui.turn]) el.disabled = hex !== null;
    for (const opt of ui.algorithm.querySelectorAll('option[data-square]')) opt.disabled = hex !== null;
    $('geometry-help').hidden = hex === null;
    const rate = RATES[Number(ui.speed.value) - 1];
    $('speed-value').textContent = rate === Infinity ? 'instant' : `${rate}/frame`;
    ui.speed.setAttribute('aria-valuetext', rate === Infinity ? 'instant' : `${rate} events a frame`);
    if (M) updateKey();
    $('terrain-value').textContent = ui.terrain.value;
    // Walk mode: square cells and a 1 x 1 unit; the replanners the bridge offers (pg_walk_kinds).
    $('walk').disabled = hex !== null || unit > 1;
    $('walk-speed-value').textContent = `${ui.walkSpeed.value} cells/s`;
    if (M) for (const opt of ui.replan.options) opt.disabled = !walkAvailable(opt.value);
    if (M && ui.replan.selectedOptions[0].disabled) ui.replan.value = 'astar';
    if (walk && walk.stats) $('extra-k').textContent = 'fresh A*';
    if (M) updateNotice();
  }

  // The last stat box: what the algorithm has to show beyond the others.
  const EXTRA_KEYS = {
    bidir: 'met at', ida: 'iteration · bound', beam: 'dropped', bandwidth: 'dropped',
    theta: 'sight checks', 'lazy-theta': 'sight checks', anya: 'max open',
    hpa: 'abstract nodes', landmarks: 'max open',
  };

  /* ---- undo / redo of map edits --------------------------------------- */

  // Each entry undoes one edit: a stroke ({ cells: [[i, old, new], ...] }),
  // a move of S or G ({ which, from, to }) or a whole-map change ({ before,
  // after, ends: [start, goal before, start, goal after] }). A new grid
  // (size, loaded map) starts a new history. Bounded in entries and bytes.
  const HISTORY_MAX = 200, HISTORY_BYTES = 64 << 20;
  let undoStack = [], redoStack = [];
  let stroke = null; // Map cell -> value before, while a stroke records

  const entryBytes = (e) => (e.before ? 2 * e.before.length : e.cells ? 12 * e.cells.length : 16);

  function pushHistory(e) {
    undoStack.push(e);
    redoStack = [];
    let bytes = undoStack.reduce((a, x) => a + entryBytes(x), 0);
    while (undoStack.length > HISTORY_MAX || (bytes > HISTORY_BYTES && undoStack.length > 1))
      bytes -= entryBytes(undoStack.shift());
    syncHistoryUi();
  }

  function clearHistory() {
    undoStack = [];
    redoStack = [];
    stroke = null;
    syncHistoryUi();
  }

  function syncHistoryUi() {
    for (const el of document.querySelectorAll('[data-undo]')) el.disabled = !undoStack.length;
    for (const el of document.querySelectorAll('[data-redo]')) el.disabled = !redoStack.length;
  }

  function beginStroke() {
    stroke = new Map();
  }

  function endStroke() {
    if (stroke && stroke.size) pushHistory({ cells: [...stroke].map(([i, old]) => [i, old, cells[i]]) });
    stroke = null;
  }

  // Run fn, which rewrites `cells` (and maybe start, goal), as one edit.
  function bulkEdit(fn) {
    const before = cells.slice(), ends = [start, goal];
    fn();
    pushHistory({ before, after: cells.slice(), ends: [...ends, start, goal] });
  }

  // Apply an entry backwards (undo) or forwards (redo).
  function applyHistory(e, back) {
    stopPlaying();
    if (e.cells) {
      for (const [i, old, nw] of e.cells) setCell(i, back ? old : nw);
    } else if (e.which) {
      if (e.which === 'start') start = back ? e.from : e.to;
      else goal = back ? e.from : e.to;
      needDraw = true;
    } else {
      cells.set(back ? e.before : e.after);
      putCells();
      [start, goal] = back ? e.ends.slice(0, 2) : e.ends.slice(2);
      repaintAll();
    }
    mapChanged();
  }

  function undo() {
    const e = undoStack.pop();
    if (!e) return;
    applyHistory(e, true);
    redoStack.push(e);
    syncHistoryUi();
  }

  function redo() {
    const e = redoStack.pop();
    if (!e) return;
    applyHistory(e, false);
    undoStack.push(e);
    syncHistoryUi();
  }

  /* ---- the grid in the module ------------------------------------------ */

  function setCell(i, v) {
    if (cells[i] === v) return false;
    clrDirty = true;
    if (stroke && !stroke.has(i)) stroke.set(i, cells[i]);
    cells[i] = v;
    const [x, y] = xy(i);
    M._pg_set_cell(pg, x, y, v);
    paintCell(i);
    return true;
  }

  // Write all of `cells` to the module at once.
  function putCells() {
    clrDirty = true;
    M.HEAPU8.set(cells, M._pg_cells(pg));
    M._pg_put_cells(pg);
  }

  function newGrid(w, h) {
    const st = M._pg_resize(pg, w, h);
    if (st !== ST_OK) throw new Error(`grid ${w}x${h}: ${M.UTF8ToString(M._pg_strerror(st))}`);
    W = w;
    H = h;
    cells = new Uint8Array(W * H).fill(1);
    readGeometry();
    allocView();
    layout();
    clearHistory();
  }

  function defaultEndpoints() {
    start = idx(Math.floor(W / 5), Math.floor(H / 2));
    goal = idx(W - 1 - Math.floor(W / 5), Math.floor(H / 2));
  }

  // The map a visitor first sees (and every Grid preset, scaled): a plain
  // grid, walls only -- every algorithm runs on it, JPS and the any-angle
  // ones too (terrain is a brush away) -- with a wall between S and G that
  // leaves a gap at the top, a foot to the left of it and a block beyond it.
  // On 40 x 25: the wall at x = 20, y = 4..20, the foot y = 20, x = 14..20,
  // the block x = 28..29, y = 8..12.
  const DEFAULT_SIZE = [20, 12];
  function defaultMap(w = DEFAULT_SIZE[0], h = DEFAULT_SIZE[1]) {
    newGrid(w, h);
    defaultEndpoints();
    const sx = (v) => Math.round((v * W) / 40), sy = (v) => Math.round((v * H) / 25);
    const wx = sx(20);
    for (let y = sy(4); y <= sy(20); y++) cells[idx(wx, y)] = 0;
    for (let x = sx(14); x <= wx; x++) cells[idx(x, sy(20))] = 0;
    // The block stays a free column away from G (small presets round it close).
    const gx = goal % W, bx1 = Math.min(Math.max(sx(28), sx(29)), gx - 2), bx0 = Math.min(sx(28), bx1);
    for (let y = sy(8); y <= sy(12); y++) for (let x = bx0; x <= bx1; x++) cells[idx(x, y)] = 0;
    cells[start] = cells[goal] = 1;
    putCells();
    mapName = '';
  }

  // Does the selected algorithm search square grids only (data-square)?
  const squareOnly = () => ui.algorithm.selectedOptions[0].hasAttribute('data-square');

  // Hex mode and the cell centres as the module has them (after a new grid,
  // a loaded map or a change of shape).
  function readGeometry() {
    if (M._pg_geometry(pg) === 1) {
      hex = { orientation: M._pg_hex_orientation(pg), layout: M._pg_hex_layout(pg) };
      const p = M._pg_hex_centers(pg) >> 3;
      centers = M.HEAPF64.slice(p, p + 2 * W * H);
      ui.cells.value = `${hex.orientation ? 'flat' : 'pointy'}-${hex.layout ? 'even' : 'odd'}`;
    } else {
      hex = null;
      centers = null;
      ui.cells.value = 'square';
    }
  }

  // The Cells menu: square cells, or hexagons of one of the four shapes.
  function setGeometry(value) {
    const shape = SHAPES[value];
    const st = shape ? M._pg_set_geometry(pg, 1, shape[0], shape[1]) : M._pg_set_geometry(pg, 0, 0, 0);
    if (st !== ST_OK) {
      message(`${value}: ${M.UTF8ToString(M._pg_strerror(st))}`, true);
      readGeometry();
      return;
    }
    readGeometry();
    let note = '';
    if (hex && squareOnly()) {
      note = `${algoName(ui.algorithm.value)} searches square grids only: A* instead.`;
      ui.algorithm.value = 'astar';
    }
    syncOptionUi();
    clearPath();
    layout();
    if (note) message(note);
  }

  /* ---- the search display ---------------------------------------------- */

  function allocView() {
    const n = W * H;
    clr = null;
    clrDirty = true;
    seen = new Uint8Array(n); // S_*
    gval = new Float64Array(n).fill(NaN);
    hval = new Float64Array(n).fill(NaN);
    parent = new Int32Array(n).fill(-1);
    sideOf = new Uint8Array(n);
    touched = new Int32Array(n);
    ntouched = 0;
    path = [];
    current = -1;
    meetCell = -1;
    base = document.createElement('canvas');
    base.width = W;
    base.height = H;
    bctx = base.getContext('2d');
    img = bctx.createImageData(W, H);
    px = new Uint32Array(img.data.buffer);
    search = null;
    stopPlaying();
    endWalk();
    endMapf();
    endMesh();
  }

  function resetView() {
    // Nothing of the last search stays behind (no stale G or H).
    for (let k = 0; k < ntouched; k++) {
      const i = touched[k];
      seen[i] = S_NONE;
      parent[i] = -1;
      sideOf[i] = 0;
      gval[i] = NaN;
      hval[i] = NaN;
      paintCell(i);
    }
    ntouched = 0;
    path = [];
    line = [];
    current = -1;
    groupStart = -1;
    meetCell = -1;
  }

  function colourOf(i) {
    const v = cells[i];
    if (v === 0) return C_WALL;
    const ground = v === 1 ? C_EMPTY : mix(C_T2, C_T9, (Math.min(v, 9) - 2) / 7);
    const s = seen[i];
    if (s === 0) return ground;
    const back = sideOf[i] === 1;
    const over = s === S_PATH ? C_PATH : s === S_CLOSED ? (back ? C_BACK_CLOSED : C_CLOSED)
      : s === S_SCAN ? C_SCAN : s === S_DROP ? C_DROP : back ? C_BACK_OPEN : C_OPEN;
    // On terrain: the state's colour, browned by the cost (at most 0.2, so
    // open and closed stay apart in luminance).
    return v === 1 ? over : mix(over, C_T9, 0.06 + 0.02 * (Math.min(v, 9) - 2));
  }

  function paintCell(i) {
    px[i] = rgba(colourOf(i));
    if (hbctx) fillHex(i);
    needDraw = true;
  }

  function repaintAll() {
    for (let i = 0; i < W * H; i++) px[i] = rgba(colourOf(i));
    if (hbctx) for (let i = 0; i < W * H; i++) fillHex(i);
    needDraw = true;
  }

  // Hexagons: cell i in its colour on the cached picture of the cells.
  function fillHex(i) {
    const v = px[i];
    hbctx.fillStyle = `rgb(${v & 255}, ${(v >> 8) & 255}, ${(v >> 16) & 255})`;
    hbctx.beginPath();
    hexPath(hbctx, i, -0.5); // half a pixel over the edge: no seams between neighbours
    hbctx.fill();
  }

  // Run the search now (recording events); the display starts empty and
  // the events are replayed by play() / stepOnce() / finish().
  function startSearch() {
    endWalk();
    endMapf();
    endMesh();
    stopPlaying();
    const { o, st } = pushOptions();
    resetView();
    if (st !== ST_OK) {
      search = null;
      setStatus('invalid options', 'failed');
      message(M.UTF8ToString(M._pg_strerror(st)), true);
      return null;
    }
    const [sx, sy] = xy(start), [gx, gy] = xy(goal);
    search = readSearch(o, M._pg_run(pg, sx, sy, gx, gy, PG_RUN_RECORD));
    clearStats();
    message(search.truncated ? `${fmtInt(search.n)} events recorded (the buffer is full): ` +
      'the replay stops early, the result is complete.' : '');
    return search;
  }

  // The last run's result and recorded events, as the replay's state.
  function readSearch(o, status) {
    const n = M._pg_event_count(pg), flags = M._pg_event_flags(pg);
    const evBase = M._pg_events(pg);
    // Copies: memory growth replaces the heap views, and the next run the buffer.
    const ev32 = M.HEAP32.slice(evBase >> 2, (evBase >> 2) + n * 8);
    const ev64 = M.HEAPF64.slice(evBase >> 3, (evBase >> 3) + n * 4);
    const len = status === ST_OK ? M._pg_path_length(pg) : 0;
    const pp = M._pg_path(pg) >> 2;
    const p = [];
    for (let k = 0; k < len; k++) p.push(idx(M.HEAP32[pp + 2 * k], M.HEAP32[pp + 2 * k + 1]));
    // The line (Theta*'s path, or the grid path string-pulled) and the cells it walks.
    const cellList = (ptr, n) => {
      const out = [], q = ptr >> 2;
      for (let k = 0; k < n; k++) out.push(idx(M.HEAP32[q + 2 * k], M.HEAP32[q + 2 * k + 1]));
      return out;
    };
    const line = status === ST_OK ? cellList(M._pg_line(pg), M._pg_line_length(pg)) : [];
    // Anya's optimal line: points in cell units (corners integer, centres .5).
    const nb = status === ST_OK ? M._pg_best_length(pg) : 0, bp = M._pg_best_line(pg) >> 3;
    const best = [];
    for (let k = 0; k < nb; k++) best.push([M.HEAPF64[bp + 2 * k], M.HEAPF64[bp + 2 * k + 1]]);
    const walked = line.length ? cellList(M._pg_walked(pg), M._pg_walked_length(pg)) : [];
    // HPA*: every level's cluster side and abstract nodes, the top-level
    // crossings of the path (its abstract transitions) and what was rebuilt.
    let hpa = null;
    if (o.algo === 'hpa' && M._pg_hpa_levels(pg) > 0) {
      const levels = [];
      for (let l = 1; l <= M._pg_hpa_levels(pg); l++)
        levels.push({ side: M._pg_hpa_cluster_size(pg, l), nodes: cellList(M._pg_hpa_nodes(pg, l), M._pg_hpa_node_count(pg, l)).map(xy) });
      const nc = status === ST_OK ? M._pg_hpa_crossing_count(pg) : 0, cp = M._pg_hpa_crossings(pg) >> 2;
      const crossings = [];
      for (let k = 0; k < nc; k++) crossings.push(M.HEAP32[cp + k]);
      hpa = {
        levels, crossings, rebuilt: M._pg_hpa_stat(pg, 5), clusters: M._pg_hpa_stat(pg, 6),
        expandedTop: M._pg_hpa_stat(pg, 0), expandedInsert: M._pg_hpa_stat(pg, 1),
        expandedRefine: M._pg_hpa_stat(pg, 2), abstractLength: M._pg_hpa_stat(pg, 3),
        abstractCost: M._pg_hpa_stat(pg, 4), bytes: M._pg_hpa_stat(pg, 7),
      };
    }
    const landmarks = [];
    if (o.algo === 'landmarks')
      for (let k = 0; k < M._pg_lm_count(pg); k++) landmarks.push(M._pg_lm_node(pg, k));
    return {
      hpa, landmarks,
      line, walked, lineCost: line.length ? M._pg_line_cost(pg) : NaN,
      best, bestCost: nb ? M._pg_best_cost(pg) : NaN,
      sightChecks: M._pg_stat(pg, 9), smoothMs: M._pg_stat(pg, 10),
      // (The notice gives ASTAR_UNSUPPORTED's reason, not the API's name.)
      options: o, status, statusText: M.UTF8ToString(M._pg_strerror(status)).replace(/ \(astar_\w+ says why\)$/, ''),
      cost: M._pg_cost(pg), length: len, path: p,
      expanded: M._pg_stat(pg, 0), generated: M._pg_stat(pg, 1), reopened: M._pg_stat(pg, 2),
      maxOpen: M._pg_stat(pg, 3), timeMs: M._pg_stat(pg, 4), timeRuns: M._pg_stat(pg, 5),
      precomputeMs: M._pg_stat(pg, 6), iterations: M._pg_stat(pg, 7), dropped: M._pg_stat(pg, 8),
      meet: M._pg_meet(pg),
      recorded: (flags & 1) !== 0, truncated: (flags & 2) !== 0,
      ev32, ev64, n, cursor: 0, expandedSoFar: 0, generatedSoFar: 0, scannedSoFar: 0,
      droppedSoFar: 0, meetsSoFar: 0, reachedSoFar: 0,
      // IDA*: the iteration replayed and its bound (the start's first push
      // carries the first bound, each ITERATION event the next).
      iteration: 1, bound: n > 0 ? ev64[3] : NaN, firstBound: n > 0 ? ev64[3] : NaN,
      turnMode: o.turn > 0 && !usesEngine(o.algo), done: false, preview: false,
    };
  }

  function applyEvent(k) {
    const s = search;
    const type = s.ev32[k * 8], i = s.ev32[k * 8 + 1], par = s.ev32[k * 8 + 2], side = s.ev32[k * 8 + 3];
    const g = s.ev64[k * 4 + 2], h = s.ev64[k * 4 + 3];
    const algo = s.options.algo;
    if (type === EV_ITERATION) {
      // IDA* starts over under a raised bound: so does the picture.
      resetView();
      s.iteration++;
      s.bound = h;
      groupStart = k;
      current = i;
      needDraw = true;
      return;
    }
    if (type === EV_MEET || (type === EV_GOAL && algo === 'bidir')) {
      // A cheaper meeting of the two searches (GOAL: the final one). Not
      // an expansion: the node keeps the state its search gave it.
      if (type === EV_MEET) s.meetsSoFar++;
      meetCell = i;
      if (type === EV_GOAL) groupStart = k;
      if (ui.stepUnit.value === 'event') current = i;
      needDraw = true;
      return;
    }
    if (type === EV_REACHED) {
      // D* Lite's plan set the cell's g or rhs: a cell its backward search
      // (from G, hatched like bidirectional A*'s) reached. Its values stay in
      // the planner; a step is one cell.
      s.reachedSoFar++;
      if (seen[i] === S_NONE) touched[ntouched++] = i;
      seen[i] = S_CLOSED;
      sideOf[i] = 1;
      groupStart = k;
      current = i;
      paintCell(i);
      return;
    }
    if (type === EV_DROP) {
      // An entry left the open list (beam: evicted when full) or was kept
      // out of it for good. A closed node stays closed, and a node
      // bandwidth search keeps open keeps its older entry.
      s.droppedSoFar++;
      const st = seen[i];
      if (st === S_NONE || st === S_DROP || (st === S_OPEN && algo === 'beam')) {
        if (st === S_NONE) touched[ntouched++] = i;
        seen[i] = S_DROP;
        gval[i] = g;
        hval[i] = h;
        parent[i] = par;
        sideOf[i] = 0;
        paintCell(i);
      }
      if (ui.stepUnit.value === 'event') current = i;
      return;
    }
    if (seen[i] === S_NONE) touched[ntouched++] = i;
    sideOf[i] = side === 1 && algo === 'bidir' ? 1 : 0;
    if (type === EV_SCAN) {
      // A cell a jump passed over: it shows the cheapest G a jump reached it
      // with (on the path, the path's own G) until it becomes a node.
      s.scannedSoFar++;
      if (seen[i] === S_NONE || (seen[i] === S_SCAN && g < gval[i])) {
        gval[i] = g;
        hval[i] = h;
        parent[i] = par;
        seen[i] = S_SCAN;
      }
    } else if (type === EV_EXPAND || type === EV_GOAL) {
      s.expandedSoFar++;
      // With a turn penalty a cell holds several (cell, direction) states;
      // it shows the cheapest.
      if (seen[i] === S_NONE || !s.turnMode || g <= gval[i]) {
        gval[i] = g;
        hval[i] = h;
        parent[i] = par;
      }
      seen[i] = S_CLOSED;
    } else {
      s.generatedSoFar++;
      if (seen[i] === S_NONE || seen[i] === S_SCAN || seen[i] === S_DROP || !s.turnMode || g < gval[i]) {
        gval[i] = g;
        hval[i] = h;
        parent[i] = par;
      }
      if (!(s.turnMode && seen[i] === S_CLOSED) || type === EV_REOPEN) seen[i] = S_OPEN;
    }
    if (type === EV_EXPAND || type === EV_GOAL) groupStart = k;
    if (type === EV_EXPAND || type === EV_GOAL || ui.stepUnit.value === 'event') current = i;
    paintCell(i);
  }

  // Where a step by expansion begins: an expansion (or the goal), or a new
  // iteration of IDA*.
  const isExpansion = (s, k) => {
    const t = s.ev32[k * 8];
    return t === EV_EXPAND || t === EV_GOAL || t === EV_ITERATION || t === EV_REACHED;
  };

  // End (exclusive) of the step by expansion from the cursor: the next
  // group whole -- its EXPAND and every event it caused, so the expanded
  // node shows together with the neighbours it pushed. From the first
  // event the start's push comes along; from inside a group (after steps
  // by event) the rest of that group.
  function groupEnd(s) {
    let k = s.cursor;
    if (k > 0 && k < s.n && !isExpansion(s, k)) {
      while (k < s.n && !isExpansion(s, k)) k++;
      return k;
    }
    while (k < s.n && !isExpansion(s, k)) k++;
    if (k < s.n) k++;
    while (k < s.n && !isExpansion(s, k)) k++;
    return k;
  }

  // Apply events up to `end` (exclusive) and finish when all are applied.
  function advance(end) {
    const s = search;
    end = Math.min(end, s.n);
    while (s.cursor < end) applyEvent(s.cursor++);
    if (s.cursor >= s.n) finish();
    else showProgress();
    needDraw = true;
  }

  function finish() {
    const s = search;
    if (!s || s.done) return;
    while (s.cursor < s.n) applyEvent(s.cursor++);
    s.done = true;
    stopPlaying();
    current = -1;
    line = s.line;
    if (s.options.anyAngle) {
      finishAnyAngle(s);
      return;
    }
    path = s.path;
    // A path cell shows the path's own story: G is the cost along the path
    // (each step's move cost times the entered cell's cost), the parent its
    // predecessor. For A* that is what the events said; a jump search may
    // have left a cell on the path as an open node with a dearer G, or only
    // scanned it. (With a turn penalty a cell holds several states: kept.)
    let gAcc = 0;
    for (let k = 0; k < path.length; k++) {
      const i = path[k];
      if (k > 0) {
        const [x0, y0] = xy(path[k - 1]), [x1, y1] = xy(i);
        // Hexagons: a move costs the terrain of the hexagon entered.
        gAcc += hex ? cells[i] : (x0 !== x1 && y0 !== y1 ? s.options.diagonal : s.options.straight) * footCost(i, s.options.unit);
      }
      if (seen[i] === S_NONE) touched[ntouched++] = i;
      if (!s.turnMode) {
        gval[i] = k === 0 ? 0 : gAcc;
        parent[i] = k === 0 ? -1 : path[k - 1];
        // A cell the backward search reached holds its h toward S: on the
        // path it shows the rest of the path instead (the backward G), so
        // that F is the path's cost.
        if (sideOf[i] === 1) hval[i] = s.cost - gAcc;
      }
      seen[i] = S_PATH;
      paintCell(i);
    }
    // A search without events (HPA*) leaves the path cells without H: they
    // show the heuristic's estimate to G, so F = G + H reads as for A*.
    if (!s.turnMode && path.length) {
      const floor = minTerrain();
      for (const i of path) if (Number.isNaN(hval[i])) hval[i] = hEstimate(i, s.options, floor);
    }
    showResult();
    needDraw = true;
  }

  // The smallest terrain cost of a passable cell: the grid scales its
  // heuristics by it (1 on a map without terrain).
  function minTerrain() {
    let m = Infinity;
    for (let i = 0; i < cells.length; i++) if (cells[i] > 0 && cells[i] < m) m = cells[i];
    return Number.isFinite(m) ? m : 1;
  }

  // The grid's heuristic from cell i to G under options o (astar/search.h:
  // auto is octile with 8 moves and Manhattan with 4), times `floor`.
  function hEstimate(i, o, floor) {
    const [x, y] = xy(i), [gx, gy] = xy(goal);
    const dx = Math.abs(x - gx), dy = Math.abs(y - gy), lo = Math.min(dx, dy), hi = Math.max(dx, dy);
    const kind = o.heuristic === 0 ? (o.moves === 4 ? 2 : 1) : o.heuristic;
    const d = kind === 1 ? o.diagonal * lo + o.straight * (hi - lo) : kind === 2 ? o.straight * (dx + dy)
      : kind === 3 ? o.straight * hi : kind === 4 ? o.straight * Math.hypot(dx, dy) : 0;
    return d * floor;
  }

  // The terrain factor a unit of k x k cells anchored at i pays: the largest
  // of the cells under it (astar/clearance.h).
  function footCost(i, k) {
    if (k <= 1) return cells[i];
    const [x, y] = xy(i);
    let m = 1;
    for (let dy = 0; dy < k && y + dy < H; dy++) {
      for (let dx = 0; dx < k && x + dx < W; dx++) m = Math.max(m, cells[idx(x + dx, y + dy)]);
    }
    return m;
  }

  // The clearance values, fetched again after the map changed.
  function clearanceValues() {
    if (hex) return null;
    if (clrDirty || !clr) {
      const p = M._pg_clearance(pg);
      clr = p ? M.HEAPU8.slice(p, p + W * H) : null;
      clrDirty = false;
    }
    return clr;
  }

  // Theta* / Lazy Theta*: the cells the line walks show as the path; the
  // line itself is drawn through the bends. A bend shows G = the line's
  // length up to it (straight cost x Euclidean), H its straight-line
  // distance to G, its parent the bend before; the other cells walked keep
  // what the search gave them (their own any-angle G and parent).
  function finishAnyAngle(s) {
    path = [];
    for (const i of s.walked) {
      if (seen[i] === S_NONE) touched[ntouched++] = i;
      seen[i] = S_PATH;
      paintCell(i);
    }
    const [gx, gy] = xy(goal);
    let gAcc = 0;
    for (let k = 0; k < s.line.length; k++) {
      const i = s.line[k], [x, y] = xy(i);
      if (k > 0) {
        const [x0, y0] = xy(s.line[k - 1]);
        gAcc += s.options.straight * Math.hypot(x - x0, y - y0);
      }
      if (seen[i] === S_NONE) touched[ntouched++] = i;
      seen[i] = S_PATH;
      gval[i] = gAcc;
      hval[i] = s.options.straight * Math.hypot(gx - x, gy - y);
      parent[i] = k === 0 ? -1 : s.line[k - 1];
      paintCell(i);
    }
    showResult();
    needDraw = true;
  }

  function clearStats() {
    for (const id of ['cost', 'length', 'expanded', 'generated', 'time', 'extra']) $(id).textContent = '–';
    $('extra').title = '';
  }

  const cellName = (i) => {
    const [x, y] = xy(i);
    return `(${x}, ${y})`;
  };

  // The last stat box: IDA*'s iteration and bound, the entries dropped, where
  // the bidirectional searches met; else the largest open list (at the end).
  function showExtra(done) {
    const s = search, algo = s.options.algo, box = $('extra');
    let text = '–', title = '';
    if (algo === 'ida') {
      const it = done ? s.iterations : s.iteration;
      text = `${fmtInt(it)} · ${fmt(s.bound, 1)}`;
      title = `iteration ${it}, F bound ${s.bound} (the first ${s.firstBound})`;
    } else if (algo === 'beam' || algo === 'bandwidth') {
      text = fmtInt(done ? s.dropped : s.droppedSoFar);
      title = 'entries dropped from the open list, or kept out of it';
    } else if (algo === 'bidir') {
      const m = done ? s.meet : meetCell;
      text = m >= 0 ? cellName(m) : '–';
      title = `${s.meetsSoFar} cheaper meeting${s.meetsSoFar === 1 ? '' : 's'} found`;
    } else if (algo === 'hpa') {
      // The search over the entrances: the message's "abstract nodes".
      text = done && s.hpa ? fmtInt(s.hpa.expandedTop) : '–';
      title = 'abstract nodes (entrances) expanded by the search over the clusters';
    } else if (s.options.anyAngle && algo !== 'anya') {
      text = done ? fmtInt(s.sightChecks) : '–';
      title = 'lines of sight tested (each reads the cells along the segment)';
    } else if (s.options.smooth) {
      text = done && s.line.length ? fmtCost(s.lineCost) : '–';
      title = done && s.line.length ? `the path string-pulled: ${s.line.length - 1} segment${s.line.length === 2 ? '' : 's'}, ` +
        `cost ${s.lineCost} (straight cost × its length)` +
        (timed(s.smoothMs) ? `, in ${timed(s.smoothMs)}` : '') : '';
    } else if (done) {
      text = fmtInt(s.maxOpen);
      title = 'the most nodes the open list held';
    }
    box.textContent = text;
    box.title = title;
  }

  function showProgress() {
    const s = search;
    let spoken = '';
    if (!playing && groupStart >= 0) {
      // Stepping: say what the step did.
      const t = s.ev32[groupStart * 8], at = cellName(s.ev32[groupStart * 8 + 1]);
      let pushed = 0, dropped = 0;
      for (let k = groupStart + 1; k < s.cursor; k++) {
        const u = s.ev32[k * 8];
        if (u === EV_DROP) dropped++;
        else if (u === EV_PUSH || u === EV_IMPROVE || u === EV_REOPEN) pushed++;
      }
      if (t === EV_ITERATION) {
        spoken = `: iteration ${s.iteration} begins from ${at}, F bound ${fmt(s.bound, 3)}`;
      } else if (t === EV_REACHED) {
        spoken = `: D* Lite reached ${at}`;
      } else {
        const side = s.options.algo === 'bidir' ? (s.ev32[groupStart * 8 + 3] ? ' by the backward search' : ' by the forward search') : '';
        spoken = `: expanded ${at}${side}, ${pushed} node${pushed === 1 ? '' : 's'} pushed or improved` +
          (dropped ? `, ${dropped} dropped` : '');
      }
    }
    setStatus(playing ? 'searching' : 'paused', playing ? 'running' : 'paused',
      `· ${fmtInt(s.cursor)} / ${fmtInt(s.n)}`, spoken);
    $('status').title = `event ${s.cursor} of ${s.n}`;
    // D* Lite's events are the cells it reached, not expansions: its counts
    // come at the end.
    const dl = s.options.algo === 'dstar';
    $('expanded').textContent = dl ? '–' : fmtInt(s.expandedSoFar);
    $('generated').textContent = dl ? '–' : fmtInt(s.generatedSoFar);
    showExtra(false);
  }

  // HPA*'s result, with how much of the hierarchy the last change rebuilt.
  function hpaMessage(s, ok) {
    const h = s.hpa;
    const ms = timed(s.precomputeMs) ? ` in ${timed(s.precomputeMs)}` : '';
    const rebuilt = h.rebuilt >= h.clusters ? `built ${fmtInt(h.rebuilt)} clusters${ms}`
      : `rebuilt ${fmtInt(h.rebuilt)} cluster${h.rebuilt === 1 ? '' : 's'} of ${fmtInt(h.clusters)}${ms} after the last edit`;
    const nodes = h.levels.map((L, k) => `level ${k + 1}: ${fmtInt(L.nodes.length)} entrances, clusters of ${L.side}`).join('; ');
    return `HPA*: ${rebuilt}. ${nodes}. ` + (ok
      ? `The abstract path has ${fmtInt(h.abstractLength)} nodes (cost ${fmtCost(h.abstractCost)}), crossing ` +
        `${h.crossings.length} top-level border${h.crossings.length === 1 ? '' : 's'} (ringed); refined into ` +
        `${s.length} cells, cost ${fmtCost(s.cost)}; ${fmtInt(h.expandedTop)} abstract nodes, ` +
        `${fmtInt(h.expandedInsert)} cells joining S and G and ${fmtInt(h.expandedRefine)} refining expanded ` +
        '(HPA* does not count the nodes it generates). Along the path G is the cost from S and H the octile ' +
        'estimate to G.'
      : '');
  }

  // A failed search's status in a word or two for the status box (which
  // holds one line); the full sentence goes to the message.
  const STATUS_WORDS = { 1: 'no path', 2: 'limit reached', 3: 'start blocked', 4: 'goal blocked', 9: 'out of memory',
    11: 'not supported', 14: 'partial path', 15: 'stopped' };
  const statusWord = (code, text) => STATUS_WORDS[code] || (text.length <= 20 ? text : 'failed');
  const sentence = (text) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

  function showResult() {
    const s = search;
    const ok = s.status === ST_OK;
    const aa = s.options.anyAngle, anya = s.options.algo === 'anya';
    const segs = Math.max(0, (anya ? s.best.length : s.line.length) - 1);
    const lengthText = aa ? `${segs} segment${segs === 1 ? '' : 's'}` : `${s.length} cells`;
    setStatus(ok ? 'path found' : statusWord(s.status, s.statusText), ok ? 'done' : 'failed', '', ok
      ? `: cost ${fmtCost(s.cost)}, ${lengthText}, ${fmtInt(s.expanded)} expanded` +
        (s.options.smooth && s.line.length ? `, smoothed line ${fmtCost(s.lineCost)}` : '')
      : `: ${s.statusText}`);
    $('status').title = ok ? 'path found' : s.statusText;
    let text = '';
    if (s.status === ST_UNSUPPORTED) updateNotice(true);
    else if (s.preview) text = 'Dragging: the path only; the search shows when you let go.';
    else if (ok && isJump(s.options.algo))
      text = `${algoName(s.options.algo)} expanded ${fmtInt(s.expanded)} jump points (red) and ` +
        `pushed ${fmtInt(s.generated)} (blue); its jumps scanned ${fmtInt(s.scannedSoFar)} cells ` +
        '(yellow), each with the G of the cheapest jump over it and that jump\'s origin as parent.' +
        (s.options.smooth ? ` ${smoothMessage(s)}` : '');
    else if (s.hpa)
      text = hpaMessage(s, ok);
    else if (ok && s.options.algo === 'landmarks')
      text = `A* + landmarks: ${fmtInt(s.expanded)} cells expanded with H = max(octile, landmark bound) from ` +
        `${s.landmarks.length} landmark${s.landmarks.length === 1 ? '' : 's'} (★); optimal, cost ${fmtCost(s.cost)}` +
        (timed(s.precomputeMs) ? `; table built in ${timed(s.precomputeMs)}` : '') +
        '. Hover a cell for its octile H, the landmark bound and which landmark gave it.';
    else if (ok && s.options.algo === 'dstar')
      text = `D* Lite searched backward from G (hatched: the ${fmtInt(s.reachedSoFar)} cells whose g or rhs it set) ` +
        `and made ${fmtInt(s.expanded)} of them consistent, with ${fmtInt(s.generated)} vertex updates; cost ` +
        `${fmtCost(s.cost)}, the optimum (A*'s). Along the path G is the cost from S and H the rest of the path ` +
        '(D* Lite\'s g). ' +
        'It keeps its search: Walk shows it repairing the path as you draw.';
    else if (ok && anya)
      text = `Anya: the shortest any-angle path, cost ${fmtCost(s.cost)} = straight cost × its length, ${segs} ` +
        `segment${segs === 1 ? '' : 's'} bending at ${Math.max(0, segs - 1)} obstacle corner${segs === 2 ? '' : 's'} ` +
        '(purple, labelled optimal). It searches intervals of grid lines, not cells: there are no cells to replay.';
    else if (ok && aa)
      text = `${algoName(s.options.algo)}: a line of ${segs} straight segment${segs === 1 ? '' : 's'} (orange) through ` +
        `${Math.max(0, segs - 1)} bend${segs === 2 ? '' : 's'} (●), cost ${fmtCost(s.cost)} = straight cost × its length; ` +
        `it walks the ${s.walked.length} green cells. ${fmtInt(s.sightChecks)} lines of sight tested; a node's parent ` +
        'may be far away (the arrow points at it; hover a cell for the line to it).' + bestNote(s, s.cost);
    else if (ok && s.options.smooth) text = smoothMessage(s);
    else if (s.options.unit > 1 && (s.status === ST_START_BLOCKED || s.status === ST_GOAL_BLOCKED))
      text = `A ${s.options.unit} × ${s.options.unit} unit does not fit with its top-left cell at ` +
        `${s.status === ST_START_BLOCKED ? 'S' : 'G'} (dashed outline): move it, or make the unit smaller.`;
    else if (ok && s.options.unit > 1)
      text = `The path of a ${s.options.unit} × ${s.options.unit} unit's top-left cell; the unit covers the shaded ` +
        'cells on its way (dashed: at S and G). It moves where its whole square is free (astar/clearance.h).';
    else text = variantMessage(s, ok);
    // A failure says why in full, first (the status box has the short word).
    if (!ok && s.status !== ST_UNSUPPORTED) message([sentence(s.statusText), text].filter(Boolean).join(' '));
    else if (s.status !== ST_UNSUPPORTED) message(text);
    $('status').dataset.code = String(s.status);
    $('cost').textContent = ok ? fmtCost(s.cost) : '–';
    $('cost').title = ok ? String(s.cost) : '';
    $('length').textContent = ok ? lengthText : '–';
    $('length').title = ok && aa ? `${s.walked.length} cells walked; points ${s.line.map(cellName).join(' ')}` : '';
    $('expanded').textContent = fmtInt(s.expanded);
    // HPA* counts expansions only (astar_hpa_result): three kinds, summed.
    const hpa = s.options.algo === 'hpa' && s.hpa;
    $('expanded').title = hpa ? `${fmtInt(s.hpa.expandedTop)} abstract nodes, ${fmtInt(s.hpa.expandedInsert)} cells ` +
      `joining S and G, ${fmtInt(s.hpa.expandedRefine)} refining` : '';
    $('generated').textContent = hpa ? '–' : fmtInt(s.generated);
    $('generated').title = hpa ? 'HPA* does not count the nodes it generates' : '';
    // The mean of the timed runs, when they lasted long enough to be above
    // the browser's timer resolution (a single short run is not).
    const t = timed(s.timeMs, s.timeRuns);
    $('time').textContent = t || '–';
    $('time').title = t ? `mean of ${fmtInt(s.timeRuns)} run${s.timeRuns === 1 ? '' : 's'} without observer` +
      (timed(s.precomputeMs) ? `; precomputation ${timed(s.precomputeMs)}` : '')
      : 'one run during a drag, too short to time against the browser\'s timer: let go to time it';
    showExtra(true);
  }

  // A time the browser can tell: the runs' mean when together they lasted
  // MIN_TIMED_MS or more (performance.now is coarsened to 0.1 ms or so), else
  // null -- never a value at the timer's resolution.
  const MIN_TIMED_MS = 5;
  const timed = (ms, runs = 1) => (ms * runs >= MIN_TIMED_MS ? fmtMs(ms) : null);

  const fmtMs = (t) => (t >= 1 ? `${t.toFixed(2)} ms` : `${(t * 1000).toFixed(1)} µs`);

  // What string pulling made of the grid path, in words.
  function smoothMessage(s) {
    if (!s.line.length) return '';
    const segs = s.line.length - 1, saved = s.cost > 0 ? (1 - s.lineCost / s.cost) * 100 : 0;
    return `String pulling: the grid path (green, cost ${fmtCost(s.cost)}) as a line of ${segs} segment` +
      `${segs === 1 ? '' : 's'} (orange, bends ●), cost ${fmtCost(s.lineCost)} = straight cost × its length` +
      (saved > 0.005 ? `, ${saved.toFixed(1)} % less` : '') +
      (M._pg_terrain_cells(pg) > 0 ? '; the line does not weigh terrain (segments cost their length).' : '.') +
      bestNote(s, s.lineCost);
  }

  // The optimal line beside another: how much longer that one is.
  function bestNote(s, cost) {
    if (!s.best.length) return '';
    const more = s.bestCost > 0 ? (cost / s.bestCost - 1) * 100 : 0;
    return ` The optimal line (Anya, dashed purple) costs ${fmtCost(s.bestCost)}` +
      (more > 0.005 ? `: this one is ${more.toFixed(2)} % longer.` : ': this one is as short.');
  }

  // What a finished search of the engine's variants showed, in words.
  function variantMessage(s, ok) {
    const algo = s.options.algo;
    if (s.truncated) return `${fmtInt(s.n)} events recorded (the buffer is full): the replay stopped early, the result is complete.`;
    if (algo === 'bidir' && s.meet >= 0)
      return `The forward search (from S: blue open, red closed) and the backward search (from G: magenta open, ` +
        `lavender closed, hatched) met at ${cellName(s.meet)} (◆), after ${fmtInt(s.meetsSoFar)} cheaper ` +
        `meeting${s.meetsSoFar === 1 ? '' : 's'} on the way.`;
    if (algo === 'ida')
      return `IDA* ran ${fmtInt(s.iterations)} iteration${s.iterations === 1 ? '' : 's'}, raising the F bound from ` +
        `${fmt(s.firstBound, 3)} to ${fmt(s.bound, 3)}; the picture is the last one's depth-first search. ` +
        `${fmtInt(s.expanded)} expansions in all` +
        (s.status !== ST_OK && s.expanded >= IDA_MAX_EXPANSIONS ? ' (the page stops IDA* there).' : '.');
    if (algo === 'beam' || algo === 'bandwidth') {
      const what = algo === 'beam' ? `Beam search (width ${s.options.beamWidth})` : 'Bandwidth search';
      return `${what} dropped ${fmtInt(s.dropped)} entr${s.dropped === 1 ? 'y' : 'ies'} (grey, ×)` +
        (!ok && s.dropped > 0 ? ': the goal was not reached within the beam, not proven unreachable.' : '.');
    }
    return '';
  }

  /* ---- the notice: what the chosen algorithm cannot do, and the fixes --- */

  // The options JPS and JPS+ need, as the page's controls name them.
  const JUMP_OPTIONS = { diagonal: '8-no-cut', heuristic: ['0', '1'], reopen: ['0', '2'] };

  function jumpOptionsOk() {
    return ui.diagonal.value === JUMP_OPTIONS.diagonal &&
      JUMP_OPTIONS.heuristic.includes(ui.heuristic.value) &&
      JUMP_OPTIONS.reopen.includes(ui.reopen.value) && !(Number(ui.turn.value) > 0);
  }

  // The engine's: ties by larger g or newest, no turn penalty.
  const engineOptionsOk = () => ui.tie.value !== '2' && !(Number(ui.turn.value) > 0);

  // Does the algorithm have conditions the notice may have to explain?
  const PRECOMPUTED = new Set(['hpa', 'landmarks']);
  const mayRefuse = (algo) => isJump(algo) || isAnyAngle(algo) || usesEngine(algo) || PRECOMPUTED.has(algo) ||
    algo === 'dstar';

  // D* Lite's: a consistent heuristic (not Manhattan with diagonal moves), no
  // turn penalty. HPA*'s and the landmarks': a unit of one cell, no turn penalty.
  const dstarOptionsOk = () => !(ui.heuristic.value === '2' && ui.diagonal.value !== '4') && !(Number(ui.turn.value) > 0);
  const precomputedOptionsOk = () => ui.unit.value === '1' && !(Number(ui.turn.value) > 0);

  // Theta*'s: the straight-line heuristic (auto), no turn penalty.
  const anyAngleOptionsOk = () => ui.heuristic.value === '0' && !(Number(ui.turn.value) > 0) && ui.unit.value === '1';

  // The library's sentences (the finder's, astar_finder_unsupported_reason)
  // name its fields and constants: the page gives them in the words the
  // tool uses for the same sentence (tools/algos.c, cli_reason_text), so
  // that the page and `astar solve` refuse alike, and names the constants.
  const PAGE_WORDS = [
    ['cfg.smooth', '--smooth'], ['use method astar', 'use --algo astar'],
    ['options.heuristic', '--heuristic'], ['options.weight', '--weight'], ['options.tie', '--tie'],
    ['a turn penalty', 'a turn penalty (--turn-penalty)'],
    ['(no ASTAR_TIE_CROSS)', '(no cross product)'],
  ];
  function pageWords(reason) {
    for (const [lib, page] of PAGE_WORDS) reason = reason.split(lib).join(page);
    return reason;
  }

  // Show or hide the notice for the selected algorithm: the library's
  // reason in full, the map's terrain count, and one button per fix. With
  // `failed`, a search just returned ASTAR_UNSUPPORTED.
  function updateNotice(failed = false) {
    const algo = ui.algorithm.value;
    const box = $('notice');
    let reason = null;
    if (mayRefuse(algo)) {
      const { st } = pushOptions();
      if (st === ST_OK) {
        const p = M._pg_unsupported_reason(pg);
        reason = p ? pageWords(M.UTF8ToString(p)) : null;
      }
    }
    if (!reason) {
      box.hidden = true;
      return;
    }
    const nTerrain = isJump(algo) || isAnyAngle(algo) ? M._pg_terrain_cells(pg) : 0;
    $('notice-title').textContent = `${algoName(algo)} ${failed ? 'could not run' : 'cannot run'} here:`;
    // The library's sentence, then what it means on this map.
    $('notice-text').textContent = `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.` +
      (nTerrain ? ` This map has ${fmtInt(nTerrain)} terrain cell${nTerrain === 1 ? '' : 's'} ` +
        (isJump(algo) ? '(cost 2–9), and a jump passes over cells without reading their cost.'
          : '(cost 2–9), and a straight segment costs its length, whatever cells it crosses.') : '');
    $('fix-terrain').hidden = nTerrain === 0;
    $('fix-options').hidden = isJump(algo) ? jumpOptionsOk() : isAnyAngle(algo) ? anyAngleOptionsOk()
      : algo === 'dstar' ? dstarOptionsOk() : PRECOMPUTED.has(algo) ? precomputedOptionsOk() : engineOptionsOk();
    $('fix-options').textContent = `Use ${algoName(algo)}'s options`;
    box.hidden = false;
  }

  // After a fix: recheck, and show the search if the last one was refused.
  function afterFix() {
    syncOptionUi();
    const refused = search && search.done && search.status === ST_UNSUPPORTED;
    clearPath();
    updateNotice();
    if (refused) run();
  }

  function clearTerrain() {
    for (let i = 0; i < cells.length; i++) if (cells[i] > 1) cells[i] = 1;
    putCells();
    repaintAll();
    afterFix();
  }

  // "Use <algorithm>'s options": the options the selected one needs.
  function useAlgoOptions() {
    if (isJump(ui.algorithm.value)) {
      ui.diagonal.value = JUMP_OPTIONS.diagonal;
      if (!JUMP_OPTIONS.heuristic.includes(ui.heuristic.value)) ui.heuristic.value = '0';
      if (!JUMP_OPTIONS.reopen.includes(ui.reopen.value)) ui.reopen.value = '0';
    } else if (isAnyAngle(ui.algorithm.value)) {
      ui.heuristic.value = '0';
      ui.unit.value = '1';
    } else if (ui.algorithm.value === 'dstar') {
      if (ui.heuristic.value === '2') ui.heuristic.value = '0';
    } else if (PRECOMPUTED.has(ui.algorithm.value)) {
      ui.unit.value = '1';
    } else if (ui.tie.value === '2') {
      ui.tie.value = '0';
    }
    ui.turn.value = '0';
    afterFix();
  }

  function useAstar() {
    ui.algorithm.value = 'astar';
    afterFix();
  }

  /* ---- run / step / play ----------------------------------------------- */

  function rate() {
    const r = RATES[Number(ui.speed.value) - 1];
    // Big maps need proportionally more events per frame to stay watchable.
    return r === Infinity ? r : r * Math.max(1, (W * H) / 2000);
  }

  function tick() {
    rafId = 0;
    if (!playing || !search) return;
    frameBudget += rate();
    const k = Math.floor(frameBudget);
    frameBudget -= k;
    if (k > 0) advance(search.cursor + k);
    if (playing) rafId = requestAnimationFrame(tick);
  }

  function stopPlaying() {
    playing = false;
    if (rafId) cancelAnimationFrame(rafId);
    rafId = 0;
    $('run').textContent = search && !search.done && search.cursor > 0 ? 'Resume' : 'Run';
  }

  function run() {
    if (playing) {
      // Run acts as pause while the replay plays.
      stopPlaying();
      showProgress();
      return;
    }
    if (!search || search.done) if (!startSearch()) return;
    if (rate() === Infinity) {
      finish();
      return;
    }
    playing = true;
    frameBudget = 1;
    $('run').textContent = 'Pause';
    rafId = requestAnimationFrame(tick);
  }

  function stepOnce() {
    stopPlaying();
    if (!search || search.done) {
      if (!startSearch()) return;
    }
    const s = search;
    advance(ui.stepUnit.value === 'event' ? s.cursor + 1 : groupEnd(s));
    if (!s.done) {
      $('run').textContent = 'Resume';
      showProgress();
    }
    refreshHover();
  }

  function clearPath() {
    endWalk();
    stopPlaying();
    search = null;
    resetView();
    clearStats();
    setStatus('ready', 'idle');
    message('');
    $('run').textContent = 'Run';
    updateNotice();
  }

  // The map or the options changed: show the new result at once when a
  // finished search is on display (and "re-run" is on), else drop it. The
  // re-run waits for the next animation frame, so a fast drag costs one
  // search a frame, not one per pointer event. While a drag goes on over a
  // big map (more than LIVE_FULL_CELLS cells) it is a preview: one search
  // without recording events, the path and the numbers only; releasing the
  // pointer records the search in full (finishDrag).
  const LIVE_FULL_CELLS = 40000;
  let rerunPending = false;
  const liveTimes = []; // ms per preview re-run: search, display and drawing

  function mapChanged() {
    if (walk) scheduleWalkSync();
    if (mesh) scheduleMesh();
    if (mapf) {
      endMapf();
      message('The map changed: the agents\' plan ended (press Agents to plan again).');
    }
    if (mayRefuse(ui.algorithm.value)) updateNotice();
    // A replay under way (animating, or paused by a step) is re-run too.
    const shown = search && (search.done || playing || search.cursor > 0);
    if (shown && ui.live.checked) {
      if (!rerunPending) {
        rerunPending = true;
        requestAnimationFrame(() => {
          rerunPending = false;
          if (!search) return;
          if (!search.done) rerunReplay();
          else if (drag && W * H > LIVE_FULL_CELLS) previewSearch();
          else if (startSearch()) finish();
          if (hoverCell >= 0) refreshHover();
        });
      }
    } else if (search) {
      clearPath();
    }
  }

  // The map or the options changed during a replay: the new search replayed
  // as far as the old one was (the same number of expansions, or of cells
  // D* Lite reached), then animating on if it was, else paused there.
  function rerunReplay() {
    const was = playing, steps = search.expandedSoFar + search.reachedSoFar;
    if (!startSearch()) return;
    const s = search;
    while (s.expandedSoFar + s.reachedSoFar < steps && s.cursor < s.n) {
      const end = groupEnd(s);
      while (s.cursor < end) applyEvent(s.cursor++);
    }
    if (s.cursor >= s.n) {
      finish();
      return;
    }
    needDraw = true;
    if (was && rate() !== Infinity) {
      playing = true;
      frameBudget = 1;
      $('run').textContent = 'Pause';
      rafId = requestAnimationFrame(tick);
    } else {
      $('run').textContent = 'Resume';
    }
    showProgress();
  }

  // One search without events: the display shows its path and numbers.
  function previewSearch() {
    const t0 = performance.now();
    const { o, st } = pushOptions();
    if (st !== ST_OK) return;
    resetView();
    const [sx, sy] = xy(start), [gx, gy] = xy(goal);
    const status = M._pg_run(pg, sx, sy, gx, gy, PG_RUN_ONCE);
    search = readSearch(o, status);
    search.preview = true;
    finish();
    draw();
    liveTimes.push(performance.now() - t0);
  }

  // A drag ended: a preview on display becomes the full recorded search.
  function finishDrag() {
    if (search && search.done && search.preview && startSearch()) finish();
  }

  /* ---- walk mode: a unit walks while the map changes (issue 10) ---------- */

  // A unit stands at S; Walk makes it step along its path, one cell a tick
  // (the walk speed slider), while the person goes on drawing. Every edit
  // is handed to the bridge's planner (pg_walk_*, bridge.c), which repairs
  // its path: D* Lite keeps its search and fixes what the edit changed,
  // repeated A* searches again from the unit's cell, splicing repairs the
  // broken part of the path with a local search. After each repair the
  // bridge also runs a fresh A* from that cell: both counts are shown, and
  // the cells the repair touched are highlighted. The planner is told about
  // edits by comparing the map with the copy it last saw (`known`), so every
  // way of editing -- strokes, undo, redo -- reaches it.
  const REPLAN = { dstar: 0, astar: 1, splice: 2 };
  const REPLAN_NAMES = { dstar: 'D* Lite', astar: 'repeated A*', splice: 'splicing' };
  // What a splicing repair did (astar_repair_kind, astar/splice.h).
  const SPLICE_KINDS = ['path intact', 'spliced', 'full search', 'gave up', 'blocked'];
  const C_TOUCHED = 'rgba(255, 150, 0, 0.42)', C_WALK_PATH = 'rgba(40, 170, 90, 0.9)';
  const C_TRAIL = '#1c3f8c', C_UNIT = '#1c3f8c';
  // walk: null when off, else { kind, goal, unit, trail, path, touched,
  // known, status, running, done, outcome, acc, then, rafId, syncPending,
  // repairs, stats }.
  let walk = null;

  const walkKinds = () => (M ? M._pg_walk_kinds() : 0);
  const walkAvailable = (kind) => ((walkKinds() >> REPLAN[kind]) & 1) === 1;
  const walkStat = (k) => M._pg_walk_stat(pg, k);

  // Start a new walk from S (or, paused, go on walking).
  function walkButton() {
    if (walk && !walk.done) {
      if (walk.running) pauseWalk();
      else resumeWalk();
      return;
    }
    startWalk();
  }

  function startWalk() {
    if (hex !== null || Number(ui.unit.value) > 1) {
      message('Walk mode runs on square cells with a unit of 1 × 1.', true);
      return;
    }
    const kind = ui.replan.value;
    if (!walkAvailable(kind)) {
      message(`${REPLAN_NAMES[kind]} is not offered by the bridge: choose another replanner.`, true);
      return;
    }
    clearPath();
    endMapf();
    endMesh();
    const { st: ost } = pushOptions();
    const [sx, sy] = xy(start), [gx, gy] = xy(goal);
    const st = ost !== ST_OK ? ost : M._pg_walk_new(pg, REPLAN[kind], sx, sy, gx, gy);
    if (st !== ST_OK) {
      setStatus('cannot walk', 'failed');
      message(`${REPLAN_NAMES[kind]}: ${M.UTF8ToString(M._pg_strerror(st))}` +
        (st === ST_UNSUPPORTED ? ' (D* Lite takes A*\'s move rules with a consistent heuristic: not Manhattan ' +
          'with diagonal moves).' : ''), true);
      return;
    }
    walk = {
      kind, goal, unit: start, trail: [start], path: [], touched: new Int32Array(0), known: cells.slice(),
      status: ST_OK, running: false, done: false, outcome: '', acc: 0, then: 0, rafId: 0, syncPending: false,
      repairs: 0, stats: null,
    };
    $('walk-stat').hidden = false;
    $('lg-walk').hidden = false;
    planWalk();
    if (!walkOver()) resumeWalk();
  }

  function resumeWalk() {
    walk.running = true;
    walk.then = performance.now();
    walk.acc = 0;
    $('walk').textContent = 'Pause';
    setStatus('walking', 'running');
    walk.rafId = requestAnimationFrame(walkFrame);
  }

  function pauseWalk() {
    walk.running = false;
    if (walk.rafId) cancelAnimationFrame(walk.rafId);
    walk.rafId = 0;
    $('walk').textContent = 'Resume walk';
    setStatus('paused', 'idle');
  }

  // Walk mode off: the planner freed, the overlay gone.
  function endWalk() {
    if (!walk) return;
    if (walk.rafId) cancelAnimationFrame(walk.rafId);
    walk = null;
    if (M) M._pg_walk_end(pg);
    if (M) syncOptionUi();
    $('walk').textContent = 'Walk';
    $('time-k').textContent = 'search time';
    $('walk-stat').hidden = true;
    $('lg-walk').hidden = true;
    $('walk-repair').textContent = '–';
    needDraw = true;
  }

  // Ticks at the walk speed (cells a second), from animation frames.
  function walkFrame(now) {
    walk.rafId = 0;
    if (!walk.running) return;
    walk.acc += ((now - walk.then) / 1000) * Number(ui.walkSpeed.value);
    walk.then = now;
    for (let k = 0; walk.acc >= 1 && k < 4; k++) {
      walk.acc -= 1;
      walkStep();
      if (!walk || walk.done) return;
    }
    walk.acc = Math.min(walk.acc, 1);
    walk.rafId = requestAnimationFrame(walkFrame);
  }

  // One tick: the edits so far repaired, then one cell along the path.
  function walkStep() {
    syncWalk();
    if (!walk || walkOver()) return;
    const next = walk.path[1];
    const [x, y] = xy(next);
    M._pg_walk_move(pg, x, y);
    walk.unit = next;
    walk.trail.push(next);
    planWalk();
    walkOver();
  }

  // At G, or no path: the walk stops and says why.
  function walkOver() {
    if (walk.done) return true;
    let outcome = '';
    if (walk.unit === walk.goal) outcome = 'reached G';
    else if (walk.status !== ST_OK) outcome = M.UTF8ToString(M._pg_strerror(walk.status));
    if (!outcome) return false;
    walk.done = true;
    walk.outcome = outcome;
    walk.running = false;
    if (walk.rafId) cancelAnimationFrame(walk.rafId);
    walk.rafId = 0;
    $('walk').textContent = 'Walk';
    const ok = walk.unit === walk.goal;
    setStatus(ok ? 'reached G' : statusWord(walk.status, outcome), ok ? 'done' : 'failed', '', ok
      ? `: ${walk.trail.length - 1} steps, ${walk.repairs} plans` : `: ${outcome}`);
    $('status').dataset.code = String(walk.status);
    showWalk();
    return true;
  }

  // Hand the planner the cells that changed since it last looked.
  function syncWalk() {
    walk.syncPending = false;
    if (walk.done) return;
    if (goal !== walk.goal) {
      endWalk();
      message('G moved: the walk ended.');
      return;
    }
    const changed = [];
    for (let i = 0; i < cells.length; i++) if (cells[i] !== walk.known[i]) changed.push(i);
    if (!changed.length) return;
    walk.known.set(cells);
    const p = M._malloc(changed.length * 4);
    M.HEAP32.set(changed, p >> 2);
    M._pg_walk_changed(pg, p, changed.length);
    M._free(p);
    planWalk();
    walkOver();
  }

  // Edits while walking: repaired at the next frame (one repair a frame
  // however many cells a fast stroke paints).
  function scheduleWalkSync() {
    if (!walk || walk.done || walk.syncPending) return;
    walk.syncPending = true;
    requestAnimationFrame(() => {
      if (walk && walk.syncPending) syncWalk();
    });
  }

  // Plan, then read the path, and after a repair its numbers and cells.
  function planWalk() {
    walk.status = M._pg_walk_plan(pg);
    const n = M._pg_walk_path_length(pg), p = M._pg_walk_path(pg) >> 2;
    walk.path = [];
    for (let k = 0; k < n; k++) walk.path.push(M.HEAP32[p + 2 * k + 1] * W + M.HEAP32[p + 2 * k]);
    const repairs = walkStat(3);
    if (repairs !== walk.repairs) {
      walk.repairs = repairs;
      const t = M._pg_walk_touched(pg) >> 2, nt = M._pg_walk_touched_count(pg);
      walk.touched = M.HEAP32.slice(t, t + nt);
      walk.stats = {
        expanded: walkStat(4), updated: walkStat(5), changed: walkStat(6), cost: walkStat(8),
        freshExpanded: walkStat(9), freshCost: walkStat(10), touched: nt,
        splice: SPLICE_KINDS[walkStat(16)] || null,
      };
    }
    walk.totals = { expanded: walkStat(12), fresh: walkStat(13) };
    showWalk();
  }

  // The stat boxes and the repair line.
  function showWalk() {
    const s = walk.stats, name = REPLAN_NAMES[walk.kind];
    needDraw = true;
    if (!s) return;
    $('cost').textContent = Number.isFinite(s.cost) ? fmtCost(s.cost) : '–';
    $('cost').title = 'the path\'s cost from the unit\'s cell at the last repair';
    $('length').textContent = `${Math.max(0, walk.path.length - 1)} to go`;
    $('length').title = `${walk.trail.length - 1} cells walked`;
    $('expanded').textContent = fmtInt(s.expanded);
    $('generated').textContent = fmtInt(s.updated);
    // A repair runs once and takes microseconds: below the browser's timer
    // resolution, so walk mode shows work counts, not times. This box: the
    // cells the edit changed.
    $('time-k').textContent = 'cells edited';
    $('time').textContent = fmtInt(s.changed);
    $('time').title = 'cells changed before the last repair (a repair is too short to time in the browser: ' +
      'the counts compare it with a fresh A*)';
    $('extra-k').textContent = 'fresh A*';
    $('extra').textContent = fmtInt(s.freshExpanded);
    $('extra').title = 'the expansions of a fresh A* from the unit\'s cell on the map as it is now';
    // D* Lite: the cells whose g or rhs the repair changed when the planner
    // reports them (bridge.c, dstar_touched), else its expansions and vertex
    // updates; repeated A*: its expansions and the cells it gave a G.
    const box = $('walk-repair'), fresh = `fresh A*: ${fmtInt(s.freshExpanded)} expanded`;
    box.textContent = walk.kind === 'splice'
      ? `splicing${s.splice ? ` (${s.splice})` : ''}: ${fmtInt(s.expanded)} expanded (${fmtInt(s.touched)} cells ` +
        `given a G), cost ${fmtCost(s.cost)}; ${fresh}, cost ${fmtCost(s.freshCost)}`
      : walk.kind !== 'dstar'
      ? `repeated A*: ${fmtInt(s.expanded)} expanded (${fmtInt(s.touched)} cells given a G); ${fresh}`
      : s.touched ? `D* Lite repair: ${fmtInt(s.touched)} cells updated; ${fresh}`
        : `D* Lite repair: ${fmtInt(s.expanded)} expanded (${fmtInt(s.updated)} vertex updates); ${fresh}`;
    box.title = `${name}, last repair (${fmtInt(s.changed)} cells changed): ${fmtInt(s.expanded)} expanded, ` +
      `${fmtInt(s.updated)} ${walk.kind === 'dstar' ? 'vertex updates' : 'generated'}; a fresh A* ` +
      `from the unit's cell: ${fmtInt(s.freshExpanded)} expanded. Over the walk: ${name} ` +
      `${fmtInt(walk.totals.expanded)} expanded in all, a fresh A* at each repair ${fmtInt(walk.totals.fresh)}.`;
    if (walk.repairs > 1 && !walk.done)
      message(`Edit of ${fmtInt(s.changed)} cell${s.changed === 1 ? '' : 's'}: ${name} repaired its path with ` +
        `${fmtInt(s.expanded)} expansions; a fresh A* from the unit's cell expands ` +
        `${fmtInt(s.freshExpanded)}.` + (walk.touched.length ? ' Orange: the cells the repair touched.' : ''));
    else if (walk.done)
      message(`${walk.outcome === 'reached G' ? `The unit reached G in ${walk.trail.length - 1} steps` : `The walk ` +
        `stopped: ${walk.outcome}`}; ${walk.repairs} plan${walk.repairs === 1 ? '' : 's'} after edits. ${name} ` +
        `expanded ${fmtInt(walk.totals.expanded)} in all; a fresh A* at each of them ${fmtInt(walk.totals.fresh)}.`);
    else message(`${name}: the unit walks to G; draw or erase walls in its way and watch it replan.`);
  }

  // The overlay: the cells the last repair touched, the trail, the path
  // ahead and the unit.
  function drawWalk() {
    const c = cell;
    ctx.fillStyle = C_TOUCHED;
    ctx.beginPath();
    for (const i of walk.touched) if (cells[i] !== 0 && i !== start && i !== goal) cellPath(i, 0);
    ctx.fill();
    const polyline = (list, colour, width, dash) => {
      if (list.length < 2) return;
      ctx.beginPath();
      list.forEach((i, k) => {
        const [px_, py] = center(i);
        if (k) ctx.lineTo(px_, py);
        else ctx.moveTo(px_, py);
      });
      ctx.setLineDash(dash);
      ctx.lineJoin = 'round';
      ctx.lineCap = 'round';
      ctx.strokeStyle = colour;
      ctx.lineWidth = width;
      ctx.stroke();
      ctx.setLineDash([]);
    };
    polyline(walk.path, C_WALK_PATH, Math.max(2, c * 0.16), []);
    polyline(walk.trail, C_TRAIL, Math.max(1.5, c * 0.08), [Math.max(2, c * 0.15), Math.max(2, c * 0.12)]);
    const [ux, uy] = center(walk.unit), r = Math.max(4, c * 0.34);
    ctx.beginPath();
    ctx.arc(ux, uy, r, 0, Math.PI * 2);
    ctx.fillStyle = C_UNIT;
    ctx.fill();
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = Math.max(1.5, c * 0.06);
    ctx.stroke();
  }

  // What the test reads.
  function walkState() {
    if (!walk) return null;
    return {
      kind: walk.kind, running: walk.running, done: walk.done, outcome: walk.outcome, status: walk.status,
      unit: xy(walk.unit), goal: xy(walk.goal), trail: walk.trail.map(xy), path: walk.path.map(xy),
      touched: walk.touched.length, repairs: walk.repairs, stats: walk.stats, totals: walk.totals,
      kinds: Object.keys(REPLAN).filter(walkAvailable),
    };
  }

  /* ---- MAPF mode: many agents, none colliding (issue 29) ---------------- */

  // "Agents" draws a random instance of N agents on the passable cells of
  // the map (the bridge: astar_mapf_random_instance, seeded), solves it with
  // the solver chosen from the library's MAPF table (pg_mapf_algo_*) within
  // the time limit, and lets the agents walk, one step a tick, interpolated
  // between ticks. Beside it the bridge plans each agent alone (its own
  // shortest path) and lists where those naive paths would collide -- two
  // agents in one cell, or swapping cells -- which show as red crosses, bright
  // at the moment of the collision, faint afterwards, while the MAPF agents
  // walk past each other. The map is 4-connected for MAPF whatever the move
  // rules; terrain costs do not apply. Editing the map ends the mode (the
  // plan was made on the old one).
  const MAPF_RATE = 4; // ticks a second
  const C_COLLISION = '#d7191c';
  // mapf: null when off, else { algo, n, paths: [Int32Array], goals, starts,
  // collisions: [{ t, cell, a, b }], status, stats, t (ticks, fractional),
  // end, running, rafId, then }.
  let mapf = null;
  const mapfStat = (k) => M._pg_mapf_stat(pg, k);
  const agentColour = (i) => `hsl(${(i * 137.508) % 360}, 72%, 42%)`;

  function readMapfTable() {
    const sel = $('mapf-algo');
    sel.textContent = '';
    for (let i = 0; i < M._pg_mapf_algo_count(); i++) {
      const name = M.UTF8ToString(M._pg_mapf_algo_name(i));
      const opt = document.createElement('option');
      opt.value = String(i);
      opt.textContent = name;
      opt.title = M.UTF8ToString(M._pg_mapf_algo_summary(i));
      if (name === 'lacam-star') opt.selected = true;
      sel.appendChild(opt);
    }
  }

  // Int32Array runs of a bridge plan: offsets (agents + 1) and cells.
  function readRuns(offPtr, cellPtr, n) {
    const off = M.HEAP32.slice(offPtr >> 2, (offPtr >> 2) + n + 1), runs = [];
    for (let i = 0; i < n; i++) runs.push(M.HEAP32.slice((cellPtr >> 2) + off[i], (cellPtr >> 2) + off[i + 1]));
    return runs;
  }

  function startMapf() {
    if (hex !== null) {
      message('MAPF mode runs on square cells.', true);
      return;
    }
    clearPath();
    endMapf();
    endMesh();
    const algo = Number($('mapf-algo').value), n = Math.max(1, Math.floor(Number($('mapf-agents').value) || 1));
    const seed = Math.max(0, Math.floor(Number($('mapf-seed').value) || 0));
    const limit = Math.min(60, Math.max(0.1, Number($('mapf-time').value) || 2));
    const name = M.UTF8ToString(M._pg_mapf_algo_name(algo));
    setStatus('planning', 'running');
    const st = M._pg_mapf_run(pg, algo, n, seed, limit, 0, 1.2);
    if (st !== ST_OK && !M._pg_mapf_agents(pg)) {
      setStatus('cannot plan', 'failed');
      $('status').dataset.code = String(st);
      message(`${name}: ${M.UTF8ToString(M._pg_strerror(st))}` + (st === 8 ? ` (more agents than the map's ` +
        `largest region has cells)` : ''), true);
      return;
    }
    const naive = readRuns(M._pg_mapf_naive_offsets(pg), M._pg_mapf_naive_cells(pg), n);
    const paths = st === ST_OK ? readRuns(M._pg_mapf_offsets(pg), M._pg_mapf_cells(pg), n) : [];
    const collisions = [], cp = M._pg_mapf_collisions(pg) >> 2;
    for (let k = 0; k < M._pg_mapf_collision_count(pg); k++) {
      const r = cp + 4 * k;
      collisions.push({ t: M.HEAP32[r], cell: M.HEAP32[r + 1], a: M.HEAP32[r + 2], b: M.HEAP32[r + 3] });
    }
    const stats = {
      solved: mapfStat(1) === 1, optimal: mapfStat(2) === 1, soc: mapfStat(3), makespan: mapfStat(4),
      lowerBound: mapfStat(5), ms: mapfStat(7), improvements: mapfStat(9), collisions: mapfStat(12),
      naiveSoc: mapfStat(13), naiveMakespan: mapfStat(14), fault: mapfStat(15),
    };
    mapf = {
      algo: name, n, paths, naive, starts: naive.map((p) => p[0]), goals: naive.map((p) => p[p.length - 1]),
      collisions, status: st, stats, t: 0, end: Math.max(stats.solved ? stats.makespan : 0, stats.naiveMakespan),
      running: false, rafId: 0, then: 0,
    };
    $('lg-mapf').hidden = false;
    $('mapf-run').textContent = 'Again';
    showMapf();
    if (stats.solved) resumeMapf();
    needDraw = true;
  }

  function showMapf() {
    const s = mapf.stats, naive = `their own shortest paths, each planned alone, would collide ` +
      `${fmtInt(s.collisions)} time${s.collisions === 1 ? '' : 's'} (red)`;
    if (!s.solved) {
      setStatus(mapf.status === 2 ? 'limit reached' : statusWord(mapf.status, ''), 'failed');
      $('status').dataset.code = String(mapf.status);
      message(`${mapf.algo} found no plan for ${fmtInt(mapf.n)} agents: ` +
        `${M.UTF8ToString(M._pg_strerror(mapf.status))}; ${naive}.`, true);
      return;
    }
    $('cost').textContent = fmtInt(s.soc);
    $('cost').title = `sum of costs (the lower bound, each agent alone: ${fmtInt(s.lowerBound)})`;
    $('length').textContent = `${fmtInt(s.makespan)} steps`;
    $('length').title = 'makespan: the last agent\'s arrival';
    $('time').textContent = `${fmt(s.ms, 1)} ms`;
    const valid = s.fault === 0 ? 'checked by the library\'s validator' : 'the validator found a fault!';
    setStatus(`${fmtInt(mapf.n)} agents`, 'done', '', `${mapf.algo}: ${fmtInt(mapf.n)} agents planned`);
    $('status').dataset.code = '0';
    message(`${mapf.algo}: ${fmtInt(mapf.n)} agents, sum of costs ${fmtInt(s.soc)} (lower bound ` +
      `${fmtInt(s.lowerBound)}${s.optimal ? ', optimal' : ''}), makespan ${fmtInt(s.makespan)}, ` +
      `${fmt(s.ms, 1)} ms; no two ever collide (${valid}). The naive plan: ${naive}.`);
  }

  function resumeMapf() {
    mapf.running = true;
    mapf.then = performance.now();
    if (mapf.t >= mapf.end) mapf.t = 0;
    mapf.rafId = requestAnimationFrame(mapfFrame);
  }

  function endMapf() {
    if (!mapf) return;
    if (mapf.rafId) cancelAnimationFrame(mapf.rafId);
    mapf = null;
    if (M) M._pg_mapf_end(pg);
    $('lg-mapf').hidden = true;
    $('mapf-run').textContent = 'Agents';
    needDraw = true;
  }

  function mapfFrame(now) {
    mapf.rafId = 0;
    if (!mapf.running) return;
    mapf.t = Math.min(mapf.end, mapf.t + ((now - mapf.then) / 1000) * MAPF_RATE);
    mapf.then = now;
    needDraw = true;
    if (mapf.t >= mapf.end) {
      mapf.running = false;
      return;
    }
    mapf.rafId = requestAnimationFrame(mapfFrame);
  }

  // An agent's position at time t (a fraction: between two cells), its
  // last cell once it has arrived.
  function agentAt(path, t) {
    const k = Math.min(Math.floor(t), path.length - 1), k1 = Math.min(k + 1, path.length - 1), f = t - Math.floor(t);
    const [x0, y0] = center(path[k]), [x1, y1] = center(path[k1]);
    return [x0 + (x1 - x0) * f, y0 + (y1 - y0) * f];
  }

  // The overlay: goals (squares), the naive plan's collisions (crosses) and
  // the agents (discs, numbered when the cells are big enough).
  function drawMapf() {
    const c = cell, t = mapf.t;
    ctx.lineWidth = Math.max(1.5, c * 0.08);
    mapf.goals.forEach((g, i) => {
      ctx.strokeStyle = agentColour(i);
      ctx.beginPath();
      cellPath(g, Math.max(1.5, c * 0.18));
      ctx.stroke();
    });
    if ($('mapf-naive').checked) {
      const r = Math.max(3, c * 0.32);
      for (const k of mapf.collisions) {
        if (k.t > t + 0.5) break; // in time order: the ones still to come are not shown
        const now = Math.abs(k.t - t) <= 0.5;
        const [x, y] = center(k.cell);
        ctx.globalAlpha = now ? 1 : 0.3;
        ctx.strokeStyle = C_COLLISION;
        ctx.lineWidth = Math.max(1.5, c * (now ? 0.14 : 0.08));
        ctx.beginPath();
        ctx.moveTo(x - r, y - r);
        ctx.lineTo(x + r, y + r);
        ctx.moveTo(x + r, y - r);
        ctx.lineTo(x - r, y + r);
        ctx.stroke();
      }
      ctx.globalAlpha = 1;
    }
    const paths = mapf.paths.length ? mapf.paths : mapf.starts.map((s) => Int32Array.of(s));
    const r = Math.max(2.5, c * 0.36);
    paths.forEach((p, i) => {
      const [x, y] = agentAt(p, t);
      ctx.beginPath();
      ctx.arc(x, y, r, 0, Math.PI * 2);
      ctx.fillStyle = agentColour(i);
      ctx.fill();
      if (c >= 8) {
        ctx.strokeStyle = '#ffffff';
        ctx.lineWidth = Math.max(1, c * 0.05);
        ctx.stroke();
      }
      if (c >= 22) {
        ctx.fillStyle = '#ffffff';
        ctx.font = `${Math.round(c * 0.36)}px system-ui, sans-serif`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(String(i), x, y + 0.5);
      }
    });
  }

  // What the test reads.
  function mapfState() {
    if (!mapf) return null;
    return {
      algo: mapf.algo, agents: mapf.n, status: mapf.status, running: mapf.running, t: mapf.t, end: mapf.end,
      stats: mapf.stats, paths: mapf.paths.map((p) => Array.from(p, xy)), naive: mapf.naive.map((p) => Array.from(p, xy)),
      collisions: mapf.collisions.map((k) => ({ t: k.t, cell: xy(k.cell), a: k.a, b: k.b })),
      algos: Array.from($('mapf-algo').options, (o) => o.textContent),
    };
  }

  /* ---- Mesh mode: the navigation mesh, Polyanya beside Anya (issue 30) ---- */

  // "Mesh" builds the navigation mesh of the map (the bridge:
  // astar_navmesh_from_grid -- every free cell, terrain ignored, Anya's
  // corner rule; merged convex polygons or the triangles; an agent radius)
  // and finds the path from S to G (the cells' centres) three ways:
  // Polyanya over the mesh (optimal), Anya on the grid, and the funnel (A*
  // over the polygons, string-pulled: Detour's kind of path). The polygons
  // are outlined, Polyanya's path drawn solid, Anya's dashed beside it and
  // the funnel's dotted (optional); the message gives both lengths, which
  // are equal up to rounding at radius 0 (the same Euclidean shortest path
  // under the same corner rule). Moving S or G, or editing the map, runs the
  // query again (the bridge rebuilds the mesh when the map changed).
  const C_MESH = '#2b8a3e', C_POLYANYA = '#e8590c', C_FUNNEL = '#1c7ed6';
  const MESH_NAMES = ['Polyanya', 'funnel', 'Anya'];
  // mesh: null when off, else { radius, merge, polys: [[x, y], ...][], paths:
  // [{ status, pts, cost, expanded, ms, corridor }] (Polyanya, funnel, Anya),
  // stats }.
  let mesh = null;
  let meshPending = false;

  function meshPath(which) {
    const n = M._pg_mesh_path_length(pg, which), p = M._pg_mesh_path(pg, which) >> 3, pts = [];
    for (let k = 0; k < n; k++) pts.push([M.HEAPF64[p + 2 * k], M.HEAPF64[p + 2 * k + 1]]);
    const st = (k) => M._pg_mesh_stat(pg, which, k);
    return { status: st(0), pts, cost: st(1), expanded: st(2), generated: st(3), ms: st(4), corridor: st(5) };
  }

  function readMesh() {
    const nv = M._pg_mesh_vertex_count(pg), np = M._pg_mesh_polygon_count(pg);
    const vp = M._pg_mesh_vertices(pg) >> 3, op = M._pg_mesh_offsets(pg) >> 2, ip = M._pg_mesh_indices(pg) >> 2;
    const polys = [];
    for (let i = 0; i < np; i++) {
      const poly = [];
      for (let k = M.HEAP32[op + i]; k < M.HEAP32[op + i + 1]; k++) {
        const v = M.HEAP32[ip + k];
        poly.push([M.HEAPF64[vp + 2 * v], M.HEAPF64[vp + 2 * v + 1]]);
      }
      polys.push(poly);
    }
    const st = (k) => M._pg_mesh_stat(pg, -1, k);
    return { polys, vertices: nv, stats: { polygons: st(0), vertices: st(1), area: st(2), buildMs: st(3), bytes: st(4), triangles: st(7) } };
  }

  function startMesh() {
    if (hex !== null) {
      message('Mesh mode runs on square cells.', true);
      return;
    }
    endWalk();
    endMapf();
    stopPlaying();
    clearPath();
    mesh = { radius: Number($('mesh-radius').value), merge: $('mesh-merge').checked, polys: [], paths: [], stats: null, version: 0 };
    $('lg-mesh').hidden = false;
    $('mesh-run').textContent = 'Again';
    runMesh();
  }

  // Build (or keep) the mesh and run the query from S to G.
  function runMesh() {
    if (!mesh) return;
    mesh.radius = Number($('mesh-radius').value);
    mesh.merge = $('mesh-merge').checked;
    const built = M._pg_mesh_build(pg, mesh.radius, mesh.merge ? 1 : 0);
    if (built !== ST_OK) {
      const why = built === 1 ? 'nothing on the map is free' : M.UTF8ToString(M._pg_strerror(built));
      mesh.polys = [];
      mesh.paths = [];
      mesh.status = built;
      setStatus('no mesh', 'failed');
      $('status').dataset.code = String(built);
      message(`The navigation mesh could not be built: ${why}.`, true);
      needDraw = true;
      return;
    }
    const [sx, sy] = xy(start), [gx, gy] = xy(goal);
    const st = M._pg_mesh_run(pg, sx, sy, gx, gy);
    Object.assign(mesh, readMesh());
    mesh.status = st;
    mesh.paths = [0, 1, 2].map(meshPath);
    mesh.version++;
    showMesh();
    needDraw = true;
  }

  function showMesh() {
    const [poly, funnel, anya] = mesh.paths, s = mesh.stats;
    const built = `${fmtInt(s.polygons)} ${mesh.merge ? 'convex polygons' : 'triangles'}, ${fmtInt(s.vertices)} ` +
      `vertices, built in ${fmt(s.buildMs, 1)} ms`;
    if (mesh.status !== ST_OK) {
      setStatus(statusWord(mesh.status, ''), 'failed');
      $('status').dataset.code = String(mesh.status);
      message(`Mesh of ${built}; Polyanya: ${M.UTF8ToString(M._pg_strerror(mesh.status))}.`, true);
      return;
    }
    $('cost').textContent = fmtCost(poly.cost);
    $('cost').title = `Polyanya's length over the mesh: ${poly.cost}; Anya's on the grid: ${anya.status === ST_OK ? anya.cost : '–'}`;
    $('length').textContent = `${poly.pts.length} points`;
    $('length').title = 'the start, the bends and the goal';
    $('expanded').textContent = fmtInt(poly.expanded);
    $('expanded').title = 'Polyanya\'s search nodes expanded';
    $('generated').textContent = fmtInt(poly.generated);
    // One search, timed once: below the browser's timer resolution it shows as 0.
    $('time').textContent = poly.ms > 0 ? fmtMs(poly.ms) : '< 0.1 ms';
    setStatus('path found', 'done', '', `Polyanya: length ${fmtCost(poly.cost)}`);
    $('status').dataset.code = '0';
    const anyaText = anya.status === ST_OK ? `Anya on the grid ${fmtCost(anya.cost)}` +
      (mesh.radius > 0 ? ' (no radius)' : Math.abs(anya.cost - poly.cost) <= 1e-9 * Math.max(1, anya.cost) ? ' (equal)' : ' (DIFFERENT!)')
      : `Anya: ${M.UTF8ToString(M._pg_strerror(anya.status))}`;
    const funnelText = funnel.status === ST_OK ? `; the funnel ${fmtCost(funnel.cost)} ` +
      `(${fmt(100 * (funnel.cost / poly.cost - 1), 2)}% longer, a corridor of ${fmtInt(funnel.corridor)} polygons)` : '';
    message(`Mesh of ${built}. Polyanya ${fmtCost(poly.cost)} (${fmtInt(poly.expanded)} expanded), ${anyaText}${funnelText}.`);
  }

  function endMesh() {
    if (!mesh) return;
    mesh = null;
    if (M) M._pg_mesh_end(pg);
    $('lg-mesh').hidden = true;
    $('mesh-run').textContent = 'Mesh';
    needDraw = true;
  }

  // S, G or the map changed: the query again on the next frame.
  function scheduleMesh() {
    if (meshPending) return;
    meshPending = true;
    requestAnimationFrame(() => {
      meshPending = false;
      runMesh();
    });
  }

  function drawPolyline(pts, colour, width, dash) {
    if (pts.length < 2) return;
    const c = cell;
    ctx.beginPath();
    ctx.moveTo(pts[0][0] * c, pts[0][1] * c);
    for (let k = 1; k < pts.length; k++) ctx.lineTo(pts[k][0] * c, pts[k][1] * c);
    ctx.setLineDash(dash);
    ctx.lineJoin = 'round';
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.stroke();
    ctx.setLineDash([]);
  }

  // The overlay: the polygons (tinted, outlined), then the paths.
  function drawMesh() {
    const c = cell;
    ctx.beginPath();
    for (const poly of mesh.polys) {
      ctx.moveTo(poly[0][0] * c, poly[0][1] * c);
      for (let k = 1; k < poly.length; k++) ctx.lineTo(poly[k][0] * c, poly[k][1] * c);
      ctx.closePath();
    }
    ctx.fillStyle = 'rgba(43, 138, 62, 0.10)';
    ctx.fill();
    ctx.strokeStyle = C_MESH;
    ctx.lineWidth = Math.max(0.75, Math.min(1.5, c * 0.05));
    ctx.stroke();
    if (mesh.paths.length !== 3) return;
    const [poly, funnel, anya] = mesh.paths;
    if ($('mesh-funnel').checked) drawPolyline(funnel.pts, C_FUNNEL, Math.max(1.5, c * 0.06), [Math.max(1, c * 0.05), Math.max(3, c * 0.15)]);
    drawPolyline(poly.pts, C_POLYANYA, Math.max(2, c * 0.1), []);
    drawPolyline(anya.pts, BEST, Math.max(1.5, c * 0.06), [Math.max(4, c * 0.25), Math.max(3, c * 0.15)]);
    ctx.fillStyle = C_POLYANYA;
    for (const [x, y] of poly.pts.slice(1, -1)) {
      ctx.beginPath();
      ctx.arc(x * c, y * c, Math.max(2, c * 0.1), 0, Math.PI * 2);
      ctx.fill();
    }
  }

  // What the test reads.
  function meshState() {
    if (!mesh) return null;
    const p = (q) => q && { status: q.status, pts: q.pts, cost: q.cost, expanded: q.expanded, corridor: q.corridor };
    return {
      radius: mesh.radius, merge: mesh.merge, status: mesh.status, polys: mesh.polys, stats: mesh.stats, version: mesh.version,
      polyanya: p(mesh.paths[0]), funnel: p(mesh.paths[1]), anya: p(mesh.paths[2]),
    };
  }

  /* ---- drawing --------------------------------------------------------- */

  function layout() {
    const r = board.getBoundingClientRect();
    const avw = Math.max(50, r.width - 4), avh = Math.max(50, r.height - 4);
    const dpr = window.devicePixelRatio || 1;
    if (hex) {
      const [ew, eh] = hexExtent();
      R = Math.min(avw / ew, avh / eh);
      if (R >= 3) R = Math.floor(R * 4) / 4;
      cell = SQRT3 * R;
      setCorners();
    } else {
      let c = Math.min(avw / W, avh / H);
      if (c >= 3) c = Math.floor(c);
      cell = c;
    }
    const [sw, sh] = canvasSize();
    const cw = Math.round(sw), ch = Math.round(sh);
    canvas.style.width = `${cw}px`;
    canvas.style.height = `${ch}px`;
    canvas.width = Math.round(cw * dpr);
    canvas.height = Math.round(ch * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    hexBase = hbctx = hexLines = null;
    if (hex) {
      // The cells drawn once and then cell by cell as events change them
      // (paintCell), and the outlines once: a frame copies both.
      hexBase = document.createElement('canvas');
      hexBase.width = canvas.width;
      hexBase.height = canvas.height;
      hbctx = hexBase.getContext('2d');
      hbctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      if (R >= 4) {
        hexLines = document.createElement('canvas');
        hexLines.width = canvas.width;
        hexLines.height = canvas.height;
        const lc = hexLines.getContext('2d');
        lc.setTransform(dpr, 0, 0, dpr, 0, 0);
        lc.beginPath();
        for (let i = 0; i < W * H; i++) hexPath(lc, i, 0);
        lc.strokeStyle = R >= 8 ? 'rgba(40, 55, 75, 0.16)' : 'rgba(40, 55, 75, 0.10)';
        lc.lineWidth = 1;
        lc.stroke();
      }
    }
    repaintAll();
    draw();
    updateKey();
  }

  // How a cell is read where its numbers do not fit: hovering it, or on a
  // touch screen Read (the action bar) and a touch.
  const READ_HOW = window.matchMedia('(hover: none)').matches ? 'Read' : 'hover';

  // The legend's key of the numbers in a cell follows what the canvas
  // writes: F (H for greedy: the key it orders by) top left, G bottom left,
  // H bottom right; F alone; or nothing at this cell size.
  function updateKey() {
    const mode = labelMode(), key = $('fgh-key');
    const greedy = ui.algorithm.value === 'greedy';
    const top = greedy ? 'H' : 'F';
    key.querySelector('.k-f').textContent = top;
    key.querySelector('.k-g').hidden = mode !== 'fgh';
    key.querySelector('.k-h').hidden = mode !== 'fgh';
    key.dataset.mode = mode;
    let text, label;
    if (mode === 'fgh') {
      text = greedy ? 'H: the key' : 'F = G + H';
      label = `numbers in a cell: ${top} top left, G bottom left, H bottom right` +
        (greedy ? '; greedy best-first orders by H' : '; F = G + H');
    } else if (mode === 'f') {
      text = greedy ? `H (${READ_HOW}: F, G)` : `F (${READ_HOW}: G, H)`;
      label = `numbers in a cell: ${top} top left; ${READ_HOW} a cell for F, G and H`;
    } else {
      text = `${READ_HOW}: F = G + H`;
      label = `cells too small for numbers: ${READ_HOW} a cell for F, G and H`;
    }
    key.querySelector('.key-text').textContent = text;
    key.setAttribute('aria-label', label);
    key.title = label;
  }

  // Which numbers a cell shows, by the side of the square they are written
  // in: auto shows F, G and H from FGH_AUTO px (fghLayout fits them, 9 px
  // type or more) and F alone from F_AUTO px; the Labels menu forces F, G
  // and H (smaller type, fghLayout) or F alone from LABEL_MIN px.
  const FGH_AUTO = 36, F_AUTO = 24, LABEL_MIN = 14;
  function labelMode() {
    const m = ui.labels.value, b = hex ? hexBoxSide() : cell;
    if (m === 'none' || b < LABEL_MIN) return 'none';
    if (m === 'fgh' || m === 'f') return m;
    return b >= FGH_AUTO ? 'fgh' : b >= F_AUTO ? 'f' : 'none';
  }

  function arrow(x0, y0, x1, y1, headLen) {
    const a = Math.atan2(y1 - y0, x1 - x0);
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.moveTo(x1 - headLen * Math.cos(a - 0.5), y1 - headLen * Math.sin(a - 0.5));
    ctx.lineTo(x1, y1);
    ctx.lineTo(x1 - headLen * Math.cos(a + 0.5), y1 - headLen * Math.sin(a + 0.5));
  }

  /* ---- geometry: where a cell is on the canvas ------------------------- */

  // Square cells are `cell` CSS px wide; hexagons have circumradius R, their
  // centres where the library puts them (astar_hex_center) scaled by R. The
  // centre of cell i, the square its numbers are written in ([left, top,
  // side]: for a hexagon the largest square inside it, side 2R / (1 +
  // 1/sqrt(3)), a little less) and its outline `inset` px inside, added to
  // the current path.
  function center(i) {
    if (hex) return [centers[2 * i] * R, centers[2 * i + 1] * R];
    const [x, y] = xy(i);
    return [(x + 0.5) * cell, (y + 0.5) * cell];
  }

  const hexBoxSide = () => 1.25 * R;

  function labelBox(i) {
    if (hex) {
      const b = hexBoxSide(), [cx, cy] = center(i);
      return [cx - b / 2, cy - b / 2, b];
    }
    const [x, y] = xy(i);
    return [x * cell, y * cell, cell];
  }

  // Corner k of a hexagon of circumradius 1 (astar/hex.h: at 30 + 60 k
  // degrees pointy, 60 k flat).
  let corners = [];
  function setCorners() {
    corners = [];
    for (let k = 0; k < 6; k++) {
      const a = (Math.PI / 180) * (60 * k + (hex && hex.orientation === 0 ? 30 : 0));
      corners.push([Math.cos(a), Math.sin(a)]);
    }
  }

  function hexPath(cx_, i, inset) {
    const [x0, y0] = center(i), r = R - inset;
    cx_.moveTo(x0 + r * corners[0][0], y0 + r * corners[0][1]);
    for (let k = 1; k < 6; k++) cx_.lineTo(x0 + r * corners[k][0], y0 + r * corners[k][1]);
    cx_.closePath();
  }

  function cellPath(i, inset) {
    if (hex) {
      hexPath(ctx, i, inset * 2 / SQRT3); // the inset across the edges, not the corners
      return;
    }
    const [x, y] = xy(i);
    ctx.rect(x * cell + inset, y * cell + inset, cell - 2 * inset, cell - 2 * inset);
  }

  // The picture's size for circumradius 1 (astar/hex.h: every cell lies
  // inside it).
  const hexExtent = () => (hex.orientation === 0 ? [SQRT3 * (W + 0.5), 1.5 * H + 0.5]
    : [1.5 * W + 0.5, SQRT3 * (H + 0.5)]);

  // The canvas's size in CSS px.
  const canvasSize = () => {
    if (!hex) return [cell * W, cell * H];
    const [ew, eh] = hexExtent();
    return [ew * R, eh * R];
  };

  // The cell at (px_, py) CSS px on the canvas, or -1. Hexagons: the
  // nearest centre among the cells around the estimate (the hexagon a
  // point lies in is the one whose centre is nearest), within R.
  function cellAtPoint(px_, py) {
    if (!hex) {
      const x = Math.floor(px_ / cell), y = Math.floor(py / cell);
      return x < 0 || y < 0 || x >= W || y >= H ? -1 : idx(x, y);
    }
    const ux = px_ / R, uy = py / R;
    let x0, y0;
    if (hex.orientation === 0) {
      y0 = Math.round((uy - 1) / 1.5);
      x0 = Math.round(ux / SQRT3 - 0.5);
    } else {
      x0 = Math.round((ux - 1) / 1.5);
      y0 = Math.round(uy / SQRT3 - 0.5);
    }
    let best = -1, bd = 1;
    for (let y = y0 - 1; y <= y0 + 1; y++) for (let x = x0 - 1; x <= x0 + 1; x++) {
      if (x < 0 || y < 0 || x >= W || y >= H) continue;
      const i = idx(x, y), d = Math.hypot(centers[2 * i] - ux, centers[2 * i + 1] - uy);
      if (d <= bd) {
        bd = d;
        best = i;
      }
    }
    return best;
  }

  // The map's cells and grid lines.
  function drawCells() {
    if (hex && inLoupe) {
      // The loupe's few hexagons, drawn at its scale (the cached pictures
      // are the grid's).
      const [lx, ly] = xy(loupeCell);
      ctx.beginPath();
      for (let y = Math.max(0, ly - LOUPE_REACH - 1); y <= Math.min(H - 1, ly + LOUPE_REACH + 1); y++) {
        for (let x = Math.max(0, lx - LOUPE_REACH - 1); x <= Math.min(W - 1, lx + LOUPE_REACH + 1); x++) {
          const i = idx(x, y), v = px[i];
          ctx.fillStyle = `rgb(${v & 255}, ${(v >> 8) & 255}, ${(v >> 16) & 255})`;
          const one = new Path2D();
          const [x0, y0] = center(i);
          one.moveTo(x0 + R * corners[0][0], y0 + R * corners[0][1]);
          for (let k = 1; k < 6; k++) one.lineTo(x0 + R * corners[k][0], y0 + R * corners[k][1]);
          one.closePath();
          ctx.fill(one);
          hexPath(ctx, i, 0);
        }
      }
      ctx.strokeStyle = 'rgba(40, 55, 75, 0.16)';
      ctx.lineWidth = 1;
      ctx.stroke();
      return;
    }
    if (hex) {
      const [cw, ch] = canvasSize();
      ctx.drawImage(hexBase, 0, 0, cw, ch);
      if (hexLines) ctx.drawImage(hexLines, 0, 0, cw, ch);
      return;
    }
    const c = cell, [cw, ch] = canvasSize();
    bctx.putImageData(img, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(base, 0, 0, cw, ch);
    if (c >= 7) {
      ctx.beginPath();
      for (let x = 1; x < W; x++) {
        ctx.moveTo(x * c + 0.5, 0);
        ctx.lineTo(x * c + 0.5, ch);
      }
      for (let y = 1; y < H; y++) {
        ctx.moveTo(0, y * c + 0.5);
        ctx.lineTo(cw, y * c + 0.5);
      }
      ctx.strokeStyle = c >= 14 ? 'rgba(40, 55, 75, 0.10)' : 'rgba(40, 55, 75, 0.07)';
      ctx.lineWidth = 1;
      ctx.stroke();
    }
  }

  // Marks that tell states apart without hue: the backward search's cells
  // hatched, dropped entries crossed.
  function drawMarks() {
    if (ntouched === 0 || cell < 6) return;
    for (const light of [false, true]) {
      ctx.beginPath();
      for (let k = 0; k < ntouched; k++) {
        const i = touched[k], st = seen[i];
        if ((st === S_OPEN) !== light || !inView(i)) continue;
        const [x0, y0, b] = labelBox(i);
        if (sideOf[i] === 1 && (st === S_OPEN || st === S_CLOSED)) {
          // Lines from top right to bottom left, a quarter of the box apart.
          for (let t = 0.25; t < 2; t += 0.25) {
            const a = Math.min(t, 1), z = Math.max(0, t - 1);
            ctx.moveTo(x0 + a * b, y0 + z * b);
            ctx.lineTo(x0 + z * b, y0 + a * b);
          }
        } else if (st === S_DROP) {
          const m = b * 0.2;
          ctx.moveTo(x0 + m, y0 + m);
          ctx.lineTo(x0 + b - m, y0 + b - m);
          ctx.moveTo(x0 + b - m, y0 + m);
          ctx.lineTo(x0 + m, y0 + b - m);
        }
      }
      ctx.strokeStyle = light ? 'rgba(255, 255, 255, 0.35)' : 'rgba(40, 30, 60, 0.3)';
      ctx.lineWidth = Math.max(1, cell / 24);
      ctx.stroke();
    }
  }

  // The clearance overlay's shade, one pixel a cell (scaled up like the
  // cells): a passable cell where the unit does not fit dark, where it just
  // fits (clearance k, k + 1, ...) fading out -- how tight the unit is there.
  let shade = null, shadeKey = null;
  const SHADE_ALPHA = [0.3, 0.2, 0.12, 0.06];
  function clearanceShade(values, k) {
    if (shade && shadeKey && shadeKey.values === values && shadeKey.k === k) return shade;
    shade = document.createElement('canvas');
    shade.width = W;
    shade.height = H;
    const sc = shade.getContext('2d'), im = sc.createImageData(W, H), p32 = new Uint32Array(im.data.buffer);
    for (let i = 0; i < W * H; i++) {
      const v = values[i];
      if (!cells[i]) continue;
      const a = v < k ? 0.45 : SHADE_ALPHA[v - k] || 0;
      if (a > 0) p32[i] = rgba([30, 40, 70]) & 0x00ffffff | (Math.round(a * 255) << 24);
    }
    sc.putImageData(im, 0, 0);
    shadeKey = { values, k };
    return shade;
  }

  // The unit's footprint (k x k cells, anchored top left) at cell i.
  function footRect(i, k, inset) {
    const [x, y] = xy(i), w = Math.min(k, W - x), h = Math.min(k, H - y);
    ctx.rect(x * cell + inset, y * cell + inset, w * cell - 2 * inset, h * cell - 2 * inset);
  }

  // How F, G and H fit a box of side b: the type sizes and the decimals,
  // one choice for every cell of a frame. G and H share the bottom line, so
  // the G and H of every cell on display must fit side by side (the cell
  // with the most integer digits in the two decides): first with the
  // decimals at the size the box suggests, down to 9 px, then as whole
  // numbers, then in smaller type (down to 6 px; the auto mode shows F, G
  // and H only from FGH_AUTO px). labelMetrics: the main canvas's last
  // choice (tests and the curious).
  let labelMetrics = null, loupeMetrics = null;
  function fghLayout(b, digits, key, hs) {
    // Integer digits of a value as printed (at least one).
    const intDigits = (v) => String(Math.floor(Number.isFinite(v) ? Math.abs(v) : 0)).length;
    let pair = 2, fDigits = 1;
    for (let k = 0; k < ntouched; k++) {
      const i = touched[k], g = gval[i], h = hval[i];
      if (seen[i] === S_NONE || (Number.isNaN(g) && Number.isNaN(h))) continue;
      pair = Math.max(pair, intDigits(g) + intDigits(h / hs));
      fDigits = Math.max(fDigits, intDigits(key(g, h)));
    }
    // Digits are of one width in these fonts: the widest pair is that many
    // 8s, with a decimal each when asked.
    const pad = Math.max(1, b * 0.05), gap = Math.max(2, b * 0.06);
    const width = (text, px, weight) => {
      ctx.font = `${weight} ${px}px system-ui, sans-serif`;
      return ctx.measureText(text).width;
    };
    const ghFits = (px, d) => width(`${'8'.repeat(pair)}${d ? '.8.8' : ''}`, px, 500) + 2 * pad + gap <= b;
    const first = Math.max(6, Math.min(15, Math.round(b * 0.22)));
    let ghPx = first, d = digits;
    while (d > 0 && ghPx > 9 && !ghFits(ghPx, d)) ghPx--;
    if (!ghFits(ghPx, d)) {
      d = 0;
      ghPx = first;
      while (ghPx > 6 && !ghFits(ghPx, 0)) ghPx--;
    }
    let fPx = Math.max(ghPx + 1, Math.min(18, Math.round(b * 0.27)));
    while (fPx > 7 && width(`${'8'.repeat(fDigits)}${d ? '.8' : ''}`, fPx, 700) + 2 * pad > b) fPx--;
    return { mode: 'fgh', fPx, ghPx, digits: d, pad, box: b };
  }

  // Drawing the loupe (drawLoupe): only the cells around the one it shows.
  let inLoupe = false, loupeCell = -1;
  const LOUPE_REACH = 2;
  function inView(i) {
    if (!inLoupe) return true;
    const [x, y] = xy(i), [lx, ly] = xy(loupeCell);
    return Math.abs(x - lx) <= LOUPE_REACH && Math.abs(y - ly) <= LOUPE_REACH;
  }

  function draw() {
    needDraw = false;
    const c = cell, [cw, ch] = canvasSize();
    ctx.clearRect(0, 0, cw, ch);
    drawCells();
    drawMarks();
    const unit = hex ? 1 : Number(ui.unit.value);
    const overlay = !hex && ui.clearance.checked ? clearanceValues() : null;
    if (overlay) {
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(clearanceShade(overlay, unit), 0, 0, cw, ch);
    }

    const mode = labelMode();
    // Terrain costs as faint digits where no search values are written.
    if (c >= 16) {
      ctx.font = `600 ${Math.round(c * 0.42)}px system-ui, sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillStyle = 'rgba(80, 56, 20, 0.45)';
      for (let i = 0; i < W * H; i++) {
        if (cells[i] > 1 && (seen[i] === 0 || mode === 'none') && i !== start && i !== goal && inView(i)) {
          const [px_, py] = center(i);
          ctx.fillText(String(cells[i]), px_, py + 1);
        }
      }
    }

    // Parent arrows, then F / G / H.
    if (mode !== 'none' && ntouched > 0) {
      // Two passes: light arrows on the dark open cells, dark ones elsewhere.
      const reach = mode === 'fgh' ? 0.2 : 0.3;
      for (const onOpen of [false, true]) {
        ctx.beginPath();
        for (let k = 0; k < ntouched; k++) {
          const i = touched[k], p = parent[i];
          if (p < 0 || seen[i] === S_NONE || (seen[i] === S_OPEN) !== onOpen || !inView(i)) continue;
          const [cx, cy] = center(i), [qx, qy] = center(p);
          const dx = qx - cx, dy = qy - cy, l = Math.hypot(dx, dy);
          const off = mode === 'fgh' ? 0.06 : 0.1;
          arrow(cx - (dx / l) * c * off, cy - (dy / l) * c * off,
            cx + (dx / l) * c * reach, cy + (dy / l) * c * reach, Math.max(3, c * 0.09));
        }
        ctx.strokeStyle = onOpen ? 'rgba(255, 255, 255, 0.7)' : 'rgba(35, 45, 60, 0.55)';
        ctx.lineWidth = Math.max(1, c / 36);
        ctx.stroke();
      }

      const digits = search && search.options.straight >= 10 ? 0 : 1;
      // Greedy best-first orders by H alone: show H there (the grid's greedy
      // is A* with F = G + 10^6 H: H divided by the weight).
      const o = search ? search.options : null;
      const hKey = o && o.hKey, hs = o ? o.hScale : 1;
      const key = (g, h) => hKey ? h / hs : g + h;
      const lay = mode === 'fgh' ? fghLayout(hex ? hexBoxSide() : c, digits, key, hs)
        : { mode, fPx: Math.max(8, Math.round((hex ? hexBoxSide() : c) * 0.3)), ghPx: 0, digits };
      if (!inLoupe) labelMetrics = lay;
      else loupeMetrics = lay;
      ctx.textBaseline = 'alphabetic';
      for (let k = 0; k < ntouched; k++) {
        const i = touched[k];
        if (seen[i] === 0 || !inView(i)) continue;
        const [x0, y0, b] = labelBox(i), g = gval[i], h = hval[i];
        if (Number.isNaN(g) && Number.isNaN(h)) continue; // D* Lite's cells: values inside the planner
        const light = seen[i] === S_OPEN; // white text on the dark open colour
        ctx.fillStyle = light ? '#ffffff' : '#17202b';
        if (mode === 'fgh') {
          const pad = lay.pad;
          ctx.font = `700 ${lay.fPx}px system-ui, sans-serif`;
          ctx.textAlign = 'left';
          ctx.fillText(fmt(key(g, h), lay.digits), x0 + pad, y0 + pad + lay.fPx * 0.85);
          ctx.font = `500 ${lay.ghPx}px system-ui, sans-serif`;
          ctx.fillStyle = light ? '#e3ecfa' : '#3b4756';
          ctx.fillText(fmt(g, lay.digits), x0 + pad, y0 + b - pad);
          ctx.textAlign = 'right';
          ctx.fillText(fmt(h / hs, lay.digits), x0 + b - pad, y0 + b - pad);
        } else {
          const fs = lay.fPx;
          ctx.font = `650 ${fs}px system-ui, sans-serif`;
          ctx.textAlign = 'left';
          const f = key(g, h);
          ctx.fillText(fmt(f, f >= 100 ? 0 : digits), x0 + b * 0.06, y0 + fs * 0.92);
        }
      }
    }

    // A unit's footprint along its path: the cells it covers, once each.
    if (unit > 1 && path.length > 0 && search && search.options.unit === unit) {
      ctx.beginPath();
      for (const i of path) footRect(i, unit, 0);
      ctx.fillStyle = 'rgba(22, 150, 75, 0.22)';
      ctx.fill('nonzero');
    }

    // The clearance of each cell, small in its top right corner (F sits top
    // left, G and H at the bottom); 16 means 16 or more.
    if (overlay && c >= 16) {
      ctx.font = `600 ${Math.max(8, Math.round(c * (mode === 'fgh' ? 0.17 : 0.26)))}px system-ui, sans-serif`;
      ctx.textAlign = 'right';
      ctx.textBaseline = 'top';
      for (let i = 0; i < W * H; i++) {
        if (!cells[i] || !inView(i)) continue;
        const [x, y] = xy(i);
        ctx.fillStyle = seen[i] === S_OPEN ? '#dfe8ff' : overlay[i] < unit ? '#ffffff' : '#3d4a75';
        ctx.fillText(overlay[i] >= 16 ? '16+' : String(overlay[i]), (x + 1) * c - c * 0.06, y * c + c * 0.05);
      }
    }

    // The path through cell centres.
    if (path.length > 1) {
      ctx.beginPath();
      for (let k = 0; k < path.length; k++) {
        const [px_, py] = center(path[k]);
        if (k === 0) ctx.moveTo(px_, py);
        else ctx.lineTo(px_, py);
      }
      ctx.lineJoin = 'round';
      ctx.lineCap = 'round';
      ctx.strokeStyle = 'rgba(22, 150, 75, 0.85)';
      ctx.lineWidth = Math.max(2, c * (mode === 'fgh' ? 0.08 : 0.16));
      ctx.stroke();
    }

    // Any-angle: a node's parent may be far away, so the short arrows are
    // joined by thin dashed lines to the parent -- for the node expanded and
    // the nodes it pushed (while stepping) and for the hovered cell's chain
    // back to S.
    if (search && search.options.anyAngle) {
      const from = [];
      if (!search.done && groupStart >= 0) {
        if (current >= 0) from.push(current);
        for (let k = groupStart + 1; k < search.cursor; k++) {
          const t = search.ev32[k * 8];
          if (t === EV_PUSH || t === EV_IMPROVE) from.push(search.ev32[k * 8 + 1]);
        }
      }
      ctx.beginPath();
      for (const i of from) {
        if (parent[i] < 0) continue;
        ctx.moveTo(...center(i));
        ctx.lineTo(...center(parent[i]));
      }
      for (let i = hoverCell, steps = 0; i >= 0 && parent[i] >= 0 && steps < W * H; i = parent[i], steps++) {
        ctx.moveTo(...center(i));
        ctx.lineTo(...center(parent[i]));
      }
      ctx.setLineDash([Math.max(3, c * 0.15), Math.max(2, c * 0.1)]);
      ctx.strokeStyle = 'rgba(35, 45, 60, 0.75)';
      ctx.lineWidth = Math.max(1, c * 0.04);
      ctx.stroke();
      ctx.setLineDash([]);
    }

    // The any-angle line (Theta*'s path, or the grid path string-pulled)
    // through cell centres, each bend a ringed dot.
    if (line.length > 1) {
      ctx.beginPath();
      ctx.moveTo(...center(line[0]));
      for (let k = 1; k < line.length; k++) ctx.lineTo(...center(line[k]));
      ctx.lineJoin = 'round';
      ctx.lineCap = 'round';
      ctx.strokeStyle = LINE;
      ctx.lineWidth = Math.max(2, c * 0.09);
      ctx.stroke();
      const r = Math.max(3, c * 0.17);
      for (let k = 1; k < line.length - 1; k++) {
        const [bx, by] = center(line[k]);
        ctx.beginPath();
        ctx.arc(bx, by, r, 0, Math.PI * 2);
        ctx.fillStyle = '#ffffff';
        ctx.fill();
        ctx.strokeStyle = LINE;
        ctx.lineWidth = Math.max(1.5, c * 0.06);
        ctx.stroke();
      }
    }

    // HPA*: the cluster borders of every level (finest first, each in its
    // colour and width), the entrances (abstract nodes, dots sized by level)
    // and the path's top-level crossings (ringed in orange).
    const hpa = search && search.done && !hex ? search.hpa : null;
    if (hpa) {
      hpa.levels.forEach((L, k) => {
        const [colour, width] = HPA_LEVEL_STYLE[Math.min(k, HPA_LEVEL_STYLE.length - 1)];
        ctx.strokeStyle = colour;
        ctx.lineWidth = width;
        ctx.beginPath();
        for (let x = L.side; x < W; x += L.side) { ctx.moveTo(x * c, 0); ctx.lineTo(x * c, H * c); }
        for (let y = L.side; y < H; y += L.side) { ctx.moveTo(0, y * c); ctx.lineTo(W * c, y * c); }
        ctx.stroke();
        ctx.fillStyle = colour;
        const r = Math.max(1.5, c * (0.12 + 0.06 * k));
        for (const [x, y] of L.nodes) {
          ctx.beginPath();
          ctx.arc((x + 0.5) * c, (y + 0.5) * c, r, 0, Math.PI * 2);
          ctx.fill();
        }
      });
      ctx.strokeStyle = LINE;
      ctx.lineWidth = Math.max(2, c * 0.08);
      for (const i of hpa.crossings)
        for (const j of [search.path[i], search.path[i + 1]]) {
          const [x, y] = xy(j);
          ctx.beginPath();
          ctx.arc((x + 0.5) * c, (y + 0.5) * c, Math.max(3, c * 0.36), 0, Math.PI * 2);
          ctx.stroke();
        }
    }
    // Landmarks: a star on each landmark cell, its number beside it.
    if (search && search.done && !hex && search.landmarks.length) {
      ctx.font = `700 ${Math.max(10, Math.min(18, Math.round(c * 0.6)))}px system-ui, sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      search.landmarks.forEach((i, k) => {
        const [x, y] = xy(i);
        ctx.lineWidth = 3;
        ctx.strokeStyle = '#ffffff';
        ctx.strokeText(`★${k}`, (x + 0.5) * c, (y + 0.5) * c);
        ctx.fillStyle = '#6741d9';
        ctx.fillText(`★${k}`, (x + 0.5) * c, (y + 0.5) * c);
      });
    }

    // The optimal line (Anya): solid when it is the search's path, dashed
    // beside another line; its corners dotted, labelled "optimal" on its
    // longest segment.
    const best = search && search.done ? search.best : [];
    if (best.length > 1 && !hex) {
      const anya = search.options.algo === 'anya';
      ctx.beginPath();
      ctx.moveTo(best[0][0] * c, best[0][1] * c);
      for (let k = 1; k < best.length; k++) ctx.lineTo(best[k][0] * c, best[k][1] * c);
      ctx.setLineDash(anya ? [] : [Math.max(4, c * 0.25), Math.max(3, c * 0.15)]);
      ctx.lineJoin = 'round';
      ctx.strokeStyle = BEST;
      ctx.lineWidth = Math.max(2, c * (anya ? 0.09 : 0.06));
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = BEST;
      for (let k = 1; k < best.length - 1; k++) {
        ctx.beginPath();
        ctx.arc(best[k][0] * c, best[k][1] * c, Math.max(2.5, c * 0.1), 0, Math.PI * 2);
        ctx.fill();
      }
      let far = 0, len = -1;
      for (let k = 1; k < best.length; k++) {
        const l = Math.hypot(best[k][0] - best[k - 1][0], best[k][1] - best[k - 1][1]);
        if (l > len) { len = l; far = k; }
      }
      const mx = (best[far][0] + best[far - 1][0]) / 2 * c, my = (best[far][1] + best[far - 1][1]) / 2 * c;
      ctx.font = `700 ${Math.max(11, Math.min(16, Math.round(c * 0.3)))}px system-ui, sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'bottom';
      ctx.lineWidth = 3;
      ctx.strokeStyle = '#ffffff';
      ctx.strokeText('optimal', mx, my - 3);
      ctx.fillStyle = BEST;
      ctx.fillText('optimal', mx, my - 3);
    }

    // IDA*: the depth-first path being followed, from the start to the
    // current node (the parents of its pushes), dashed.
    if (search && !search.done && search.options.algo === 'ida' && current >= 0) {
      ctx.beginPath();
      let i = current, steps = 0;
      ctx.moveTo(...center(i));
      while (parent[i] >= 0 && steps++ < ntouched) {
        i = parent[i];
        ctx.lineTo(...center(i));
      }
      ctx.setLineDash([Math.max(3, c * 0.2), Math.max(2, c * 0.12)]);
      ctx.lineJoin = 'round';
      ctx.strokeStyle = '#e67e22';
      ctx.lineWidth = Math.max(2, c * 0.1);
      ctx.stroke();
      ctx.setLineDash([]);
    }

    // The nodes the current group pushed or improved: a thin ring each.
    if (search && !search.done && groupStart >= 0 && c >= 6) {
      ctx.beginPath();
      for (let k = groupStart + 1; k < search.cursor; k++) {
        const t = search.ev32[k * 8];
        if (t !== EV_PUSH && t !== EV_IMPROVE && t !== EV_REOPEN) continue;
        cellPath(search.ev32[k * 8 + 1], Math.max(1.5, c * 0.08));
      }
      ctx.strokeStyle = '#ffffff'; // on the dark open colour
      ctx.lineWidth = Math.max(1.5, c * 0.05);
      ctx.stroke();
    }

    // The node being expanded (stepping by event: the last event's cell).
    if (current >= 0) {
      ctx.strokeStyle = '#f2b705';
      ctx.lineWidth = Math.max(2, c * 0.1);
      ctx.beginPath();
      cellPath(current, ctx.lineWidth / 2);
      ctx.stroke();
    }

    drawEndpoint(start, '#1f9d55', 'S');
    drawEndpoint(goal, '#e0483a', 'G');
    if (walk) drawWalk();
    if (mapf) drawMapf();
    if (mesh) drawMesh();

    // A unit bigger than one cell: its footprint at S and at G, outlined.
    if (unit > 1) {
      for (const [i, colour] of [[start, '#1f9d55'], [goal, '#e0483a']]) {
        ctx.beginPath();
        footRect(i, unit, Math.max(1, c * 0.04));
        ctx.strokeStyle = colour;
        ctx.lineWidth = Math.max(2, c * 0.08);
        ctx.setLineDash([Math.max(3, c * 0.2), Math.max(2, c * 0.1)]);
        ctx.stroke();
        ctx.setLineDash([]);
      }
    }

    // Bidirectional search: where the two searches met, a diamond (white
    // inside a purple one: seen on every colour).
    if (meetCell >= 0) {
      const [mx, my] = center(meetCell), r = Math.max(5, c * 0.36);
      ctx.beginPath();
      ctx.moveTo(mx, my - r);
      ctx.lineTo(mx + r, my);
      ctx.lineTo(mx, my + r);
      ctx.lineTo(mx - r, my);
      ctx.closePath();
      ctx.lineJoin = 'miter';
      ctx.strokeStyle = '#7b1fa2';
      ctx.lineWidth = Math.max(3, c * 0.12);
      ctx.stroke();
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = Math.max(1, c * 0.04);
      ctx.stroke();
    }

    if (hoverCell >= 0 && c >= 6 && (!drag || drag.kind === 'inspect') && !(kbActive && hoverCell === kbCell)) {
      ctx.strokeStyle = 'rgba(20, 28, 40, 0.85)';
      ctx.lineWidth = 2;
      ctx.beginPath();
      cellPath(hoverCell, 1);
      ctx.stroke();
    }
    // The keyboard's cell cursor (the grid has the focus): a white ring
    // inside a dark blue one, seen on every cell colour.
    if (kbActive && kbCell >= 0) {
      const w = Math.max(2, Math.min(4, c * 0.1));
      ctx.beginPath();
      cellPath(kbCell, w / 2);
      ctx.strokeStyle = '#2358b3';
      ctx.lineWidth = w;
      ctx.stroke();
      ctx.beginPath();
      cellPath(kbCell, w + 0.75);
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 1.5;
      ctx.stroke();
    }
  }

  // The loupe (issue 25): the cells around loupeCell at a size where F, G
  // and H are written, in a box in the board's corner away from that cell.
  // Shown when a cell is read -- by a finger, the Inspect brush or the
  // keyboard's cursor -- and the grid's cells are too small for the three
  // numbers (phones, big maps).
  const loupe = $('loupe'), lctx = loupe.getContext('2d');
  function wantLoupe(i) {
    return i >= 0 && labelMode() !== 'fgh' && ui.labels.value !== 'none';
  }
  function setLoupe(i) {
    const next = wantLoupe(i) ? i : -1;
    if (next === loupeCell) return;
    loupeCell = next;
    if (loupeCell < 0) loupe.hidden = true;
    needDraw = true;
  }
  function drawLoupe() {
    if (loupeCell < 0 || loupeCell >= W * H) {
      loupe.hidden = true;
      return;
    }
    const br = board.getBoundingClientRect(), cr = canvas.getBoundingClientRect();
    const side = Math.round(Math.max(120, Math.min(220, Math.min(br.width, br.height) * 0.55)));
    const dpr = window.devicePixelRatio || 1;
    if (loupe.width !== Math.round(side * dpr)) {
      loupe.width = loupe.height = Math.round(side * dpr);
      loupe.style.width = loupe.style.height = `${side}px`;
    }
    // In the top corner of the board away from the cell.
    const [mx] = center(loupeCell), scale = cr.width / canvasSize()[0];
    const left = cr.left - br.left + mx * scale < br.width / 2 ? br.width - side - 4 : 4;
    loupe.style.left = `${Math.max(0, left)}px`;
    loupe.style.top = '4px';
    const keep = { ctx, cell, R, needDraw };
    const cl = side / (2 * LOUPE_REACH - 0.6); // a little over three cells across
    ctx = lctx;
    cell = cl;
    R = cl / SQRT3;
    lctx.setTransform(1, 0, 0, 1, 0, 0);
    lctx.fillStyle = '#dfe4ea'; // outside the map
    lctx.fillRect(0, 0, loupe.width, loupe.height);
    const [lx, ly] = center(loupeCell);
    lctx.setTransform(dpr, 0, 0, dpr, dpr * (side / 2 - lx), dpr * (side / 2 - ly));
    inLoupe = true;
    try {
      draw();
    } finally {
      inLoupe = false;
      ({ ctx, cell, R, needDraw } = keep);
    }
    loupe.hidden = false;
  }

  function drawEndpoint(i, colour, letter) {
    const c = cell, [cx, cy] = center(i);
    ctx.fillStyle = colour;
    if (c >= 10) {
      const m = Math.max(1, c * 0.08);
      ctx.beginPath();
      if (hex) {
        cellPath(i, m);
      } else {
        const [x, y] = xy(i);
        ctx.roundRect(x * c + m, y * c + m, c - 2 * m, c - 2 * m, c * 0.18);
      }
      ctx.fill();
      if (c >= 14) {
        ctx.fillStyle = '#fff';
        ctx.font = `700 ${Math.round(c * 0.5)}px system-ui, sans-serif`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(letter, cx, cy + 1);
      }
    } else {
      // Tiny cells: a ringed dot that stays visible on big maps (and is
      // grabbed by itself, markerAt).
      const r = markerRadius();
      ctx.beginPath();
      ctx.arc(cx, cy, r, 0, Math.PI * 2);
      ctx.fill();
      ctx.strokeStyle = '#fff';
      ctx.lineWidth = 1.5;
      ctx.stroke();
    }
  }

  function frame() {
    if (needDraw) {
      draw();
      if (loupeCell >= 0) drawLoupe();
    }
    requestAnimationFrame(frame);
  }

  /* ---- hover ----------------------------------------------------------- */

  let hoverCell = -1, hoverX = 0, hoverY = 0;
  // The keyboard's cell cursor on the grid, and whether it shows (the grid
  // has the focus from the keyboard).
  let kbCell = -1, kbActive = false;
  // Touch screens have no hover: there Read (the Inspect brush) shows a cell.
  const HOVER_HINT = window.matchMedia('(hover: none)').matches
    ? 'Drag to draw walls · drag S and G · Read, then touch a cell: its F, G, H, magnified'
    : 'Drag to draw walls or terrain · drag S and G to move them · right-drag erases · hover a ' +
      'cell for F, G, H and parent · keys: space run/pause, n step, c clear, Ctrl+Z undo; on the grid ' +
      'arrows move, Enter or W a wall, T terrain, Delete erases, S and G place the ends';
  const DIRS = { '0,-1': '↑', '1,0': '→', '0,1': '↓', '-1,0': '←', '1,-1': '↗', '1,1': '↘', '-1,1': '↙', '-1,-1': '↖' };

  // With A* + landmarks: cell i's heuristic towards G (pg_lm_info): the
  // octile distance x the cheapest terrain, the landmark bound and the
  // landmark that gave it, the value used, and the true cost when the search
  // settled the cell on the path (G of the goal minus G here).
  function lmInfo(i) {
    if (!search || !search.done || search.options.algo !== 'landmarks' || !search.landmarks.length || cells[i] === 0)
      return null;
    const [x, y] = xy(i), [gx, gy] = xy(goal);
    const out = M._malloc(32);
    const st = M._pg_lm_info(pg, x, y, gx, gy, out);
    const v = Array.from(M.HEAPF64.subarray(out >> 3, (out >> 3) + 4));
    M._free(out);
    if (st !== ST_OK) return null;
    const k = search.path.indexOf(i);
    const exact = k >= 0 && search.status === ST_OK ? search.cost - gval[i] : NaN;
    const info = { octile: v[0], bound: v[1], h: v[2], landmark: v[3] >= 0 ? v[3] : null, exact: Number.isNaN(exact) ? null : exact };
    info.text = `H to G: octile ${fmt(info.octile, 3)}, landmarks ${fmt(info.bound, 3)}` +
      (info.landmark !== null ? ` (from ★${info.landmark})` : '') + ` → ${fmt(info.h, 3)}` +
      (info.exact !== null ? `; true cost ${fmt(info.exact, 3)}` : '');
    return info;
  }

  function describe(i) {
    const [x, y] = xy(i);
    const v = cells[i];
    let head = `(${x}, ${y})`;
    if (i === start) head += ' start';
    if (i === goal) head += ' goal';
    let ground = v === 0 ? 'wall' : v === 1 ? 'cost 1' : `terrain ${v}`;
    const k = hex ? 1 : Number(ui.unit.value);
    if (v !== 0 && (ui.clearance.checked || k > 1) && clearanceValues()) {
      const cv = clr[i];
      ground += ` · clearance ${cv >= 16 ? '16+' : cv}` + (k > 1 ? (cv >= k ? ` (a ${k} × ${k} unit fits)` : ` (a ${k} × ${k} unit does not fit)`) : '');
    }
    let state = ['', 'open', 'closed', 'on the path', 'scanned by a jump', 'dropped'][seen[i]];
    const dl = search && search.options.algo === 'dstar';
    if (dl && seen[i] === S_CLOSED) state = 'reached by D* Lite\'s backward search (its g, the cost to G, stays in the planner)';
    else if (sideOf[i] === 1 && (seen[i] === S_OPEN || seen[i] === S_CLOSED)) state += ' (backward search: G is the cost to the goal)';
    if (i === meetCell) state += `${state ? ', ' : ''}where the searches met`;
    const lm = lmInfo(i);
    if (lm) ground += ` · ${lm.text}`;
    if (search && search.done && search.hpa && search.hpa.levels.some((L) => L.nodes.some(([a, b]) => a === x && b === y)))
      ground += ` · entrance (abstract node) of level ${search.hpa.levels.filter((L) => L.nodes.some(([a, b]) => a === x && b === y)).length}`;
    if (seen[i] === S_NONE) return { head, ground, state: i === meetCell ? state : '', values: '' };
    if (Number.isNaN(gval[i]) && Number.isNaN(hval[i])) return { head, ground, state, values: '' };
    const digits = search && search.options.straight >= 10 ? 0 : 3;
    const w = search ? search.options.weight : 1;
    const g = gval[i], h = hval[i];
    let hText = fmt(h, digits);
    if (w !== 1 && w > 0) hText += ` (${fmt(w, 1)} × ${fmt(h / w, digits)})`;
    let par = '';
    if (parent[i] >= 0 && hex) {
      // The arrow nearest the way to the parent's centre.
      const [qx, qy] = xy(parent[i]), [ax, ay] = center(i), [bx, by] = center(parent[i]);
      const k = Math.round(Math.atan2(by - ay, bx - ax) / (Math.PI / 4));
      par = `parent (${qx}, ${qy}) ${['→', '↘', '↓', '↙', '←', '↖', '↑', '↗'][(k + 8) % 8]}`;
    } else if (parent[i] >= 0 && search && search.options.anyAngle) {
      // Any-angle: the parent is any cell in sight; give the distance.
      const [qx, qy] = xy(parent[i]), d = Math.hypot(qx - x, qy - y);
      const a = Math.round(Math.atan2(qy - y, qx - x) / (Math.PI / 4));
      par = `parent (${qx}, ${qy}) ${['→', '↘', '↓', '↙', '←', '↖', '↑', '↗'][(a + 8) % 8]}` +
        (d > 1.5 ? ` ${fmt(d, 2)} away, in sight` : '');
    } else if (parent[i] >= 0) {
      // Jump searches link cells several steps apart: the arrow gives the way.
      const [qx, qy] = xy(parent[i]);
      const steps = Math.max(Math.abs(qx - x), Math.abs(qy - y));
      par = `parent (${qx}, ${qy}) ${DIRS[`${Math.sign(qx - x)},${Math.sign(qy - y)}`] || ''}` +
        (steps > 1 ? ` ${steps} steps away` : '');
    } else {
      par = 'no parent (start)';
    }
    if (seen[i] === S_PATH && search && search.options.algo === 'hpa') hText += ' (octile estimate)';
    else if (seen[i] === S_PATH && sideOf[i] === 1) hText += ' (the rest of the path)';
    return { head, ground, state, values: `F ${fmt(g + h, digits)} = G ${fmt(g, digits)} + H ${hText}`, par };
  }

  // The line under the grid (one line on wide screens: its title has it whole).
  function setInfo(text) {
    const el = $('cell-info');
    el.textContent = text;
    el.title = text;
  }

  function refreshHover() {
    const tip = $('tooltip');
    if (hoverCell < 0 || hoverCell >= W * H) {
      tip.hidden = true;
      return;
    }
    const d = describe(hoverCell);
    setInfo([d.head, d.ground, d.state, d.values, d.par].filter(Boolean).join(' · '));
    tip.innerHTML = '';
    const line = (html) => {
      const div = document.createElement('div');
      div.innerHTML = html;
      tip.appendChild(div);
    };
    line(`<b>${d.head}</b> <span class="dim">${d.ground}${d.state ? ` · ${d.state}` : ''}</span>`);
    if (d.values) {
      line(d.values);
      line(`<span class="dim">${d.par}</span>`);
    }
    tip.hidden = false;
    const br = board.getBoundingClientRect();
    let tx = hoverX - br.left + 16, ty = hoverY - br.top + 16;
    const tw = tip.offsetWidth, th = tip.offsetHeight;
    if (tx + tw > br.width) tx = hoverX - br.left - tw - 12;
    if (ty + th > br.height) ty = hoverY - br.top - th - 12;
    tip.style.left = `${Math.max(0, tx)}px`;
    tip.style.top = `${Math.max(0, ty)}px`;
  }

  /* ---- mouse: drawing and dragging --------------------------------------- */

  // The drag in progress: { kind: 'paint', value, last } or { kind: 'start' |
  // 'goal', from, dx, dy } -- a marker follows the pointer minus where it was
  // grabbed (dx, dy in CSS px from the marker's centre).
  let drag = null;
  let layoutPending = false; // the board was resized during a drag

  function cellAt(ev) {
    const r = canvas.getBoundingClientRect(), scale = canvasSize()[0] / r.width;
    return cellAtPoint((ev.clientX - r.left) * scale, (ev.clientY - r.top) * scale);
  }

  function brush() {
    return document.querySelector('input[name=brush]:checked').value;
  }

  // Every cell on the segment a..b (Bresenham; hexagons: the cells under
  // points a quarter of R apart on the line between the centres), so fast
  // drags leave no gaps.
  function cellsBetween(a, b) {
    if (hex) {
      const [ax, ay] = center(a), [bx, by] = center(b);
      const n = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / (R / 4)));
      const out = [];
      for (let k = 0; k <= n; k++) {
        const j = cellAtPoint(ax + ((bx - ax) * k) / n, ay + ((by - ay) * k) / n);
        if (j >= 0 && out[out.length - 1] !== j) out.push(j);
      }
      return out;
    }
    let [x0, y0] = xy(a);
    const [x1, y1] = xy(b);
    const dx = Math.abs(x1 - x0), dy = -Math.abs(y1 - y0);
    const sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    let err = dx + dy;
    const out = [];
    for (;;) {
      out.push(idx(x0, y0));
      if (x0 === x1 && y0 === y1) break;
      const e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x0 += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y0 += sy;
      }
    }
    return out;
  }

  function paintTo(i) {
    let changed = false;
    for (const j of cellsBetween(drag.last, i)) {
      // Walking: never a wall under the unit.
      if (j !== start && j !== goal && !(walk && j === walk.unit) && setCell(j, drag.value)) changed = true;
    }
    drag.last = i;
    if (changed) mapChanged();
  }

  // Radius of the drawn S / G marker in CSS px (drawEndpoint).
  const markerRadius = () => (cell >= 10 ? cell / 2 : Math.max(6, cell * 0.75));

  // The marker under the pointer, grabbed by its drawing, not by its cell:
  // within its radius, or a finger's or a mouse's reach of its centre
  // (cells of a big map are smaller than the marker). The nearer one wins.
  function markerAt(ev) {
    const r = canvas.getBoundingClientRect(), scale = r.width / canvasSize()[0];
    const px_ = ev.clientX - r.left, py = ev.clientY - r.top;
    const reach = Math.max(markerRadius() + 2, ev.pointerType === 'touch' ? 22 : 10);
    let best = null;
    for (const [kind, i] of [['start', start], ['goal', goal]]) {
      const [cx, cy] = center(i);
      const dx = px_ - cx * scale, dy = py - cy * scale, d = Math.hypot(dx, dy);
      if (d <= reach && (!best || d < best.d)) best = { kind, d, dx, dy };
    }
    return best;
  }

  canvas.addEventListener('pointerdown', (ev) => {
    if (!M) return;
    const i = cellAt(ev);
    const mk = ev.button === 0 ? markerAt(ev) : null;
    if (i < 0 && !mk) return;
    ev.preventDefault();
    canvas.setPointerCapture(ev.pointerId);
    if (mk) {
      drag = { kind: mk.kind, from: mk.kind === 'start' ? start : goal, dx: mk.dx, dy: mk.dy };
      canvas.classList.add('drag');
      return;
    }
    let value;
    const b = brush();
    kbActive = false;
    // A finger hides the cells it touches, and the Inspect brush reads one:
    // the loupe shows them big (when the grid's cells are too small).
    if (ev.pointerType === 'touch' || b === 'inspect') setLoupe(i);
    if (b === 'inspect' && ev.button === 0) {
      drag = { kind: 'inspect' };
      hoverX = ev.clientX;
      hoverY = ev.clientY;
      hoverCell = i;
      needDraw = true;
      refreshHover();
      return;
    }
    if (ev.button === 2 || b === 'erase') value = 1;
    else if (b === 'terrain') value = cells[i] === Number(ui.terrain.value) ? 1 : Number(ui.terrain.value);
    else value = cells[i] === 0 ? 1 : 0; // start on a wall: erase
    drag = { kind: 'paint', value, last: i };
    beginStroke();
    paintTo(i);
  });

  canvas.addEventListener('pointermove', (ev) => {
    if (!M) return;
    const i = cellAt(ev);
    hoverX = ev.clientX;
    hoverY = ev.clientY;
    if (drag && i >= 0 && (ev.pointerType === 'touch' || drag.kind === 'inspect')) setLoupe(i);
    if (drag && drag.kind === 'paint' && i >= 0) {
      paintTo(i);
    } else if (drag && (drag.kind === 'start' || drag.kind === 'goal')) {
      // The marker keeps the offset it was grabbed at; it moves onto free
      // cells only and never onto the other endpoint.
      const t = cellAt({ clientX: ev.clientX - drag.dx, clientY: ev.clientY - drag.dy });
      if (t >= 0 && cells[t] !== 0 && t !== start && t !== goal) {
        if (drag.kind === 'start') start = t;
        else goal = t;
        needDraw = true;
        mapChanged();
      }
    }
    canvas.classList.toggle('over-endpoint', !drag && !!markerAt(ev));
    if (i !== hoverCell) needDraw = true;
    hoverCell = i;
    refreshHover();
  });

  const endDrag = () => {
    if (!drag) return;
    if (brush() !== 'inspect') setLoupe(-1);
    if (drag.kind === 'paint') {
      endStroke();
    } else if (drag.kind !== 'inspect') {
      const to = drag.kind === 'start' ? start : goal;
      if (to !== drag.from) pushHistory({ which: drag.kind, from: drag.from, to });
    }
    drag = null;
    canvas.classList.remove('drag');
    finishDrag();
    if (layoutPending) {
      layoutPending = false;
      layout();
    }
  };
  canvas.addEventListener('pointerup', endDrag);
  canvas.addEventListener('pointercancel', endDrag);
  canvas.addEventListener('pointerleave', (ev) => {
    if (ev.pointerType === 'touch' && brush() === 'inspect') return; // keep what the finger showed
    hoverCell = -1;
    needDraw = true;
    refreshHover();
    setInfo(HOVER_HINT);
  });
  canvas.addEventListener('contextmenu', (ev) => ev.preventDefault());

  /* ---- keyboard: the grid without a mouse -------------------------------- */

  // The grid takes the focus (tabindex 0). Arrows move a cell cursor (Shift:
  // five cells, Home / End: the row's ends), Enter or W puts a wall there or
  // takes it away, T terrain (the Terrain cost slider's), Delete or Backspace
  // erases, S and G move the start and the goal there. Each change is an
  // edit of its own (undone by Ctrl+Z). The cell under the cursor is read
  // out: #cell-info (a polite live region) says what hovering says, the
  // tooltip sits by the cell, and where the cells are too small for F, G and
  // H the loupe shows them.
  function moveCursor(i) {
    kbCell = i;
    kbActive = true;
    const r = canvas.getBoundingClientRect(), scale = r.width / canvasSize()[0], [cx, cy] = center(i);
    hoverX = r.left + cx * scale;
    hoverY = r.top + cy * scale;
    hoverCell = i;
    setLoupe(i);
    needDraw = true;
    refreshHover();
  }

  // An edit of the cursor's cell: value v, one undo step. Returns why not, or ''.
  function keyPaint(v) {
    const i = kbCell;
    if (i === start || i === goal || (walk && i === walk.unit))
      return `${i === start ? 'the start' : i === goal ? 'the goal' : 'the unit'} stays passable (move it with S or G)`;
    beginStroke();
    const changed = setCell(i, v);
    endStroke();
    if (changed) mapChanged();
    return '';
  }

  // S or G onto the cursor's cell (a passable one, not the other end).
  // Returns why not, or ''.
  function keyEndpoint(which) {
    const i = kbCell, other = which === 'start' ? goal : start, from = which === 'start' ? start : goal;
    if (cells[i] === 0) return `a wall: ${which === 'start' ? 'S' : 'G'} goes on a free cell`;
    if (i === other) return `${which === 'start' ? 'G' : 'S'} is here`;
    if (i === from) return '';
    if (which === 'start') start = i;
    else goal = i;
    pushHistory({ which, from, to: i });
    needDraw = true;
    mapChanged();
    return '';
  }

  canvas.addEventListener('focus', () => {
    if (!M || !canvas.matches(':focus-visible')) return;
    moveCursor(kbCell >= 0 && kbCell < W * H ? kbCell : start);
  });
  canvas.addEventListener('blur', () => {
    if (!kbActive) return;
    kbActive = false;
    if (hoverCell === kbCell) hoverCell = -1;
    setLoupe(-1);
    needDraw = true;
    refreshHover();
    setInfo(HOVER_HINT);
  });
  canvas.addEventListener('keydown', (ev) => {
    if (!M || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (kbCell < 0 || kbCell >= W * H) kbCell = start;
    const [x, y] = xy(kbCell), n = ev.shiftKey ? 5 : 1;
    const clamp = (v, hi) => Math.max(0, Math.min(hi, v));
    let to = -1, note = '';
    switch (ev.key) {
      case 'ArrowLeft': to = idx(clamp(x - n, W - 1), y); break;
      case 'ArrowRight': to = idx(clamp(x + n, W - 1), y); break;
      case 'ArrowUp': to = idx(x, clamp(y - n, H - 1)); break;
      case 'ArrowDown': to = idx(x, clamp(y + n, H - 1)); break;
      case 'Home': to = idx(0, y); break;
      case 'End': to = idx(W - 1, y); break;
      case 'Enter': case 'w': case 'W': note = keyPaint(cells[kbCell] === 0 ? 1 : 0); break;
      case 't': case 'T': {
        const t = Number(ui.terrain.value);
        note = keyPaint(cells[kbCell] === t ? 1 : t);
        break;
      }
      case 'Delete': case 'Backspace': note = keyPaint(1); break;
      case 's': case 'S': note = keyEndpoint('start'); break;
      case 'g': case 'G': note = keyEndpoint('goal'); break;
      default: return; // space, n, c: the page's keys
    }
    ev.preventDefault();
    ev.stopPropagation();
    moveCursor(to >= 0 ? to : kbCell);
    if (note) setInfo(`${$('cell-info').textContent} · ${note}`);
  });

  /* ---- map generators and loading -------------------------------------- */

  // Keep an endpoint on a passable cell: the nearest one (breadth-first).
  function nearestPassable(i, avoid) {
    if (cells[i] !== 0 && i !== avoid) return i;
    const dist = new Int32Array(W * H).fill(-1), q = [i];
    dist[i] = 0;
    for (let h = 0; h < q.length; h++) {
      const [x, y] = xy(q[h]);
      for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const nx = x + dx, ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= W || ny >= H) continue;
        const j = idx(nx, ny);
        if (dist[j] >= 0) continue;
        if (cells[j] !== 0 && j !== avoid) return j;
        dist[j] = 0;
        q.push(j);
      }
    }
    return i;
  }

  // Breadth-first over 4-neighbours: the farthest reachable cell from i.
  function farthest(i) {
    const dist = new Int32Array(W * H).fill(-1), q = new Int32Array(W * H);
    let head = 0, tail = 0, last = i;
    dist[i] = 0;
    q[tail++] = i;
    while (head < tail) {
      const u = q[head++];
      last = u;
      const x = u % W, y = (u / W) | 0;
      if (x > 0 && cells[u - 1] && dist[u - 1] < 0) { dist[u - 1] = dist[u] + 1; q[tail++] = u - 1; }
      if (x < W - 1 && cells[u + 1] && dist[u + 1] < 0) { dist[u + 1] = dist[u] + 1; q[tail++] = u + 1; }
      if (y > 0 && cells[u - W] && dist[u - W] < 0) { dist[u - W] = dist[u] + 1; q[tail++] = u - W; }
      if (y < H - 1 && cells[u + W] && dist[u + W] < 0) { dist[u + W] = dist[u] + 1; q[tail++] = u + W; }
    }
    return { cell: last, reached: tail };
  }

  // Endpoints far apart in the largest-looking region (two sweeps).
  function pickEndpoints() {
    let best = null;
    for (let t = 0; t < 12; t++) {
      const i = Math.floor(Math.random() * W * H);
      if (!cells[i]) continue;
      const r = farthest(i);
      if (!best || r.reached > best.reached) best = r;
    }
    if (!best) {
      const i = cells.findIndex((v) => v !== 0);
      if (i < 0) return;
      best = { cell: i };
    }
    const a = farthest(best.cell).cell;
    start = best.cell;
    goal = a === start ? start : a;
    start = farthest(goal).cell;
  }

  function afterBulkChange() {
    start = nearestPassable(start, -1);
    goal = nearestPassable(goal, start);
    putCells();
    clearPath();
    repaintAll();
    updateNotice();
  }

  function maze() {
    cells.fill(0);
    const mw = (W - 1) >> 1, mh = (H - 1) >> 1;
    const visited = new Uint8Array(mw * mh);
    const stack = [[Math.floor(Math.random() * mw), Math.floor(Math.random() * mh)]];
    visited[stack[0][1] * mw + stack[0][0]] = 1;
    cells[idx(stack[0][0] * 2 + 1, stack[0][1] * 2 + 1)] = 1;
    while (stack.length) {
      const [x, y] = stack[stack.length - 1];
      const next = [[1, 0], [-1, 0], [0, 1], [0, -1]]
        .map(([dx, dy]) => [x + dx, y + dy, dx, dy])
        .filter(([nx, ny]) => nx >= 0 && ny >= 0 && nx < mw && ny < mh && !visited[ny * mw + nx]);
      if (!next.length) {
        stack.pop();
        continue;
      }
      const [nx, ny, dx, dy] = next[Math.floor(Math.random() * next.length)];
      visited[ny * mw + nx] = 1;
      cells[idx(x * 2 + 1 + dx, y * 2 + 1 + dy)] = 1;
      cells[idx(nx * 2 + 1, ny * 2 + 1)] = 1;
      stack.push([nx, ny]);
    }
    // A few extra openings give the search more than one way round.
    for (let k = 0; k < (mw * mh) / 12; k++) {
      const x = 1 + Math.floor(Math.random() * (W - 2)), y = 1 + Math.floor(Math.random() * (H - 2));
      if ((x + y) % 2 === 1) cells[idx(x, y)] = 1;
    }
    afterBulkChange();
  }

  function obstacles() {
    for (let i = 0; i < W * H; i++) {
      const r = Math.random();
      cells[i] = r < 0.27 ? 0 : r < 0.33 ? 2 + Math.floor(Math.random() * 8) : 1;
    }
    cells[start] = 1;
    cells[goal] = 1;
    afterBulkChange();
  }

  function clearWalls() {
    cells.fill(1);
    afterBulkChange();
  }

  function setSizeOption(text) {
    let opt = ui.size.querySelector('option[data-loaded]');
    if (!opt) {
      opt = document.createElement('option');
      opt.dataset.loaded = '1';
      ui.size.appendChild(opt);
    }
    opt.value = 'loaded';
    opt.textContent = text;
    ui.size.value = 'loaded';
  }

  function loadMapText(text, name) {
    const bytes = new TextEncoder().encode(text);
    const p = M._malloc(bytes.length + 1);
    M.HEAPU8.set(bytes, p);
    const st = M._pg_load_map(pg, p, bytes.length);
    M._free(p);
    if (st !== ST_OK) {
      const line = M._pg_error_line(pg), col = M._pg_error_column(pg);
      const why = M.UTF8ToString(M._pg_error_message(pg)) || M.UTF8ToString(M._pg_strerror(st));
      message(`${name}${line ? `:${line}:${col}` : ''}: ${why}`, true);
      return false;
    }
    W = M._pg_width(pg);
    H = M._pg_height(pg);
    const cp = M._pg_cells(pg);
    cells = M.HEAPU8.slice(cp, cp + W * H);
    readGeometry();
    if (hex && squareOnly()) ui.algorithm.value = 'astar';
    syncOptionUi();
    allocView();
    const s = M._pg_loaded_start(pg), g = M._pg_loaded_goal(pg);
    if (s >= 0 && g >= 0) {
      start = s;
      goal = g;
    } else {
      pickEndpoints();
    }
    mapName = name;
    clearHistory();
    setSizeOption(`${name} (${hex ? 'hex, ' : ''}${W} × ${H})`);
    clearPath();
    layout();
    message(`${name}: ${W} × ${H}` + (W * H > 20000 ? ' · drag S and G to choose a query' : ''));
    return true;
  }

  /* ---- compact screens: drawer and action bar ----------------------------- */

  // The compact layout of style.css: the panel is a drawer, and the Run /
  // Step / Clear and Undo / Redo rows move (the same elements, so ids and
  // handlers stay) into the action bar under the grid, and back.
  const COMPACT = window.matchMedia('(max-width: 760px), (max-height: 560px)');
  const homes = {}; // row id -> { parent, next } in the panel

  function placeControls() {
    const bar = $('actionbar');
    for (const id of ['run-buttons', 'undo-buttons']) {
      const el = $(id);
      if (!homes[id]) homes[id] = { parent: el.parentNode, next: el.nextSibling };
      if (COMPACT.matches) bar.appendChild(el);
      else homes[id].parent.insertBefore(el, homes[id].next);
    }
    bar.appendChild($('read-buttons')); // last; shown only in the action bar
    closeDrawer();
  }

  // Read (the action bar): the Inspect brush on and off, for fingers --
  // touching a cell then reads it (the loupe) instead of drawing.
  let brushBeforeRead = 'wall';
  function setBrush(value) {
    document.querySelector(`input[name=brush][value=${value}]`).checked = true;
    syncRead();
  }
  function syncRead() {
    const on = brush() === 'inspect';
    $('read').setAttribute('aria-pressed', String(on));
    $('read').classList.toggle('pressed', on);
    if (!on) setLoupe(-1);
  }
  function toggleRead() {
    if (brush() === 'inspect') setBrush(brushBeforeRead);
    else {
      brushBeforeRead = brush();
      setBrush('inspect');
    }
  }

  function openDrawer() {
    document.body.classList.add('drawer-open');
    $('panel').inert = false;
    $('scrim').hidden = false;
    $('menu').setAttribute('aria-expanded', 'true');
    $('drawer-close').focus();
  }

  // Closed, the drawer is out of the tab order (inert); wide, the panel is
  // always there.
  function closeDrawer() {
    const wasOpen = document.body.classList.contains('drawer-open');
    document.body.classList.remove('drawer-open');
    $('panel').inert = COMPACT.matches;
    $('scrim').hidden = true;
    $('menu').setAttribute('aria-expanded', 'false');
    if (wasOpen && COMPACT.matches) $('menu').focus();
  }

  /* ---- wiring ------------------------------------------------------------ */

  function bind() {
    $('menu').addEventListener('click', () => (document.body.classList.contains('drawer-open') ? closeDrawer() : openDrawer()));
    $('drawer-close').addEventListener('click', closeDrawer);
    $('scrim').addEventListener('click', closeDrawer);
    COMPACT.addEventListener('change', placeControls);
    placeControls();
    $('run').addEventListener('click', run);
    $('read').addEventListener('click', toggleRead);
    for (const el of document.querySelectorAll('input[name=brush]')) el.addEventListener('change', syncRead);
    $('walk').addEventListener('click', walkButton);
    $('mapf-run').addEventListener('click', startMapf);
    $('mapf-end').addEventListener('click', endMapf);
    $('mapf-naive').addEventListener('change', () => { needDraw = true; });
    $('mesh-run').addEventListener('click', startMesh);
    $('mesh-end').addEventListener('click', endMesh);
    $('mesh-funnel').addEventListener('change', () => { needDraw = true; });
    $('mesh-merge').addEventListener('change', () => { if (mesh) runMesh(); });
    $('mesh-radius').addEventListener('input', () => {
      $('mesh-radius-value').textContent = String(Number($('mesh-radius').value));
      if (mesh) scheduleMesh();
    });
    ui.walkSpeed.addEventListener('input', syncOptionUi);
    $('step').addEventListener('click', stepOnce);
    $('clear-path').addEventListener('click', clearPath);
    $('clear-walls').addEventListener('click', () => bulkEdit(clearWalls));
    $('maze').addEventListener('click', () => bulkEdit(maze));
    $('random').addEventListener('click', () => bulkEdit(obstacles));
    $('fix-terrain').addEventListener('click', () => bulkEdit(clearTerrain));
    for (const el of document.querySelectorAll('[data-undo]')) el.addEventListener('click', undo);
    for (const el of document.querySelectorAll('[data-redo]')) el.addEventListener('click', redo);
    $('fix-options').addEventListener('click', useAlgoOptions);
    $('use-astar').addEventListener('click', useAstar);
    for (const el of [ui.algorithm, ui.heuristic, ui.diagonal, ui.costs, ui.tie, ui.openset,
      ui.reopen, ui.turn, ui.weight, ui.beamWidth, ui.epsilon, ui.bandE, ui.bandD, ui.unit,
      ui.hpaCluster, ui.hpaLevels, ui.lmCount, ui.lmChoice]) {
      el.addEventListener(el.type === 'range' ? 'input' : 'change', () => {
        syncOptionUi();
        mapChanged();
      });
    }
    ui.speed.addEventListener('input', syncOptionUi);
    // Smoothing adds the line to a finished search (re-run: the bridge
    // string-pulls after the search) or takes it away.
    ui.smooth.addEventListener('change', () => {
      syncOptionUi();
      if (search && search.done && !search.preview) {
        if (startSearch()) finish();
      }
    });
    ui.terrain.addEventListener('input', () => {
      syncOptionUi();
      document.querySelector('input[name=brush][value=terrain]').checked = true;
    });
    ui.cells.addEventListener('change', () => setGeometry(ui.cells.value));
    ui.clearance.addEventListener('change', syncOptionUi);
    ui.labels.addEventListener('change', () => {
      needDraw = true;
      updateKey();
    });
    ui.size.addEventListener('change', () => {
      const v = ui.size.value;
      if (v === 'loaded') return;
      const [w, h] = v.split('x').map(Number);
      defaultMap(w, h);
      ui.size.querySelector('option[data-loaded]')?.remove();
      clearPath();
      repaintAll();
    });
    $('map-file').addEventListener('change', async (ev) => {
      const f = ev.target.files[0];
      if (!f) return;
      loadMapText(await f.text(), f.name);
      ev.target.value = '';
    });
    document.addEventListener('keydown', (ev) => {
      const tag = ev.target.tagName;
      if (ev.key === 'Escape' && document.body.classList.contains('drawer-open')) {
        closeDrawer();
        return;
      }
      // Ctrl/Cmd+Z undoes a map edit, Ctrl/Cmd+Shift+Z or Ctrl+Y redoes it
      // (a text field keeps its own undo).
      const mod = ev.ctrlKey || ev.metaKey, key = ev.key.toLowerCase();
      if (mod && !ev.altKey && (key === 'z' || key === 'y') &&
          !(tag === 'INPUT' && ev.target.type === 'number')) {
        ev.preventDefault();
        if (key === 'y' || ev.shiftKey) redo();
        else undo();
        return;
      }
      if (tag === 'INPUT' && ev.target.type !== 'range' && ev.target.type !== 'radio' &&
          ev.target.type !== 'checkbox') return;
      if (tag === 'SELECT' || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if (tag === 'BUTTON' && ev.key === ' ') return; // the button's own click
      if (ev.key === ' ') {
        ev.preventDefault();
        run();
      } else if (ev.key === 'n') {
        stepOnce();
      } else if (ev.key === 'c') {
        clearPath();
      }
    });
    // The canvas is not resized under a finger or the mouse: a message
    // appearing mid-drag would move every cell. It follows on release.
    new ResizeObserver(() => {
      if (drag) layoutPending = true;
      else layout();
    }).observe(board);
  }

  // The map as text: an ASCII map, or on hexagons an ASCII hex map
  // (astar_hex_parse_map: a header, cells apart, shoved rows indented).
  function exportAscii(withEndpoints) {
    const rows = [];
    for (let y = 0; y < H; y++) {
      const r = [];
      for (let x = 0; x < W; x++) {
        const i = idx(x, y), v = cells[i];
        if (withEndpoints && i === start) r.push('S');
        else if (withEndpoints && i === goal) r.push('G');
        else r.push(v === 0 ? '#' : v === 1 ? '.' : String(v));
      }
      if (!hex) rows.push(r.join(''));
      else rows.push((hex.orientation === 0 && (y & 1) === (hex.layout ? 0 : 1) ? ' ' : '') + r.join(' '));
    }
    if (hex) rows.unshift(`hex ${SHAPE_NAMES[hex.orientation][hex.layout]}`);
    return `${rows.join('\n')}\n`;
  }

  const nan = (v) => (Number.isNaN(v) ? null : v); // JSON has no NaN

  // For tests and the curious: read-only views of the state, plus the map.
  window.__playground = {
    ready: false,
    error: null,
    size: () => {
      const [sx, sy] = xy(start), [gx, gy] = xy(goal);
      return {
        width: W, height: H, cell, start: { x: sx, y: sy }, goal: { x: gx, y: gy },
        geometry: hex ? 'hex' : 'square', shape: hex ? SHAPE_NAMES[hex.orientation][hex.layout] : null, radius: hex ? R : null,
      };
    },
    exportAscii: (withEndpoints = false) => exportAscii(withEndpoints),
    labelMode: () => labelMode(),
    // The type sizes and decimals the grid's numbers were last drawn with
    // (null before any), and the loupe's: shown, its cell, its sizes.
    labelMetrics: () => labelMetrics,
    loupe: () => ({ shown: !loupe.hidden, cell: loupeCell >= 0 ? xy(loupeCell) : null, metrics: loupeMetrics }),
    // The keyboard's cell cursor (null until the grid had the focus).
    cursor: () => (kbCell >= 0 ? { cell: xy(kbCell), active: kbActive } : null),
    loadMap: (text, name = 'map') => loadMapText(text, name),
    options: () => readOptions(),
    // What the display holds for cell (x, y) after the replayed events.
    cellInfo: (x, y) => {
      const i = idx(x, y);
      return {
        cell: cells[i], state: STATE_NAMES[seen[i]],
        g: nan(gval[i]), h: nan(hval[i]), f: nan(gval[i] + hval[i]),
        parent: parent[i] >= 0 ? xy(parent[i]) : null,
        side: seen[i] === S_OPEN || seen[i] === S_CLOSED || seen[i] === S_PATH ? sideOf[i] : null, meet: i === meetCell,
        clearance: !hex && clearanceValues() ? clr[i] : null,
      };
    },
    // Where cell (x, y) is drawn, in CSS px from the canvas's top left: its
    // centre and the square its numbers are written in.
    cellBox: (x, y) => {
      const i = idx(x, y), [bx, by, b] = labelBox(i), [cx, cy] = center(i);
      return { x: bx, y: by, size: b, cx, cy };
    },
    // Preview re-runs while dragging: how many and their time in ms.
    dragStats: () => {
      const t = [...liveTimes].sort((a, b) => a - b);
      return { moves: t.length, median: t.length ? t[t.length >> 1] : null, max: t.length ? t[t.length - 1] : null };
    },
    resetDragStats: () => { liveTimes.length = 0; },
    history: () => ({ undo: undoStack.length, redo: redoStack.length }),
    // The replay's position and the current group: its expanded node and
    // the nodes it pushed or improved, with the G and parent of the event.
    stepState: () => {
      if (!search) return null;
      const s = search, name = EV_NAMES;
      const group = { expanded: null, pushed: [], scanned: 0 };
      if (groupStart >= 0) {
        group.expanded = xy(s.ev32[groupStart * 8 + 1]);
        for (let k = groupStart + 1; k < s.cursor; k++) {
          const t = s.ev32[k * 8];
          if (t === EV_SCAN) group.scanned++;
          else group.pushed.push({ cell: xy(s.ev32[k * 8 + 1]), parent: xy(s.ev32[k * 8 + 2]), g: s.ev64[k * 4 + 2] });
        }
      }
      return {
        algo: s.options.algo, playing, reached: s.reachedSoFar, expanded: s.expandedSoFar,
        cursor: s.cursor, n: s.n, done: s.done, next: s.cursor < s.n ? name[s.ev32[s.cursor * 8]] : null, group,
        iteration: s.iteration, bound: s.bound, dropped: s.droppedSoFar, meets: s.meetsSoFar,
        meet: meetCell >= 0 ? xy(meetCell) : null, current: current >= 0 ? xy(current) : null,
      };
    },
    lmInfo: (x, y) => lmInfo(y * W + x),
    walkState: () => walkState(),
    mapfState: () => mapfState(),
    meshState: () => meshState(),
    result: () => search && search.done ? {
      hpa: search.hpa, landmarks: search.landmarks.map(xy), precomputeMs: search.precomputeMs,
      status: search.status, statusText: search.statusText, cost: search.cost,
      length: search.length, expanded: search.expanded, generated: search.generated,
      events: search.n, recorded: search.recorded, scanned: search.scannedSoFar,
      path: search.path.map(xy), options: search.options, maxOpen: search.maxOpen,
      line: search.line.map(xy), walked: search.walked.map(xy), lineCost: nan(search.lineCost), unit: search.options.unit,
      best: search.best, bestCost: nan(search.bestCost),
      sightChecks: search.sightChecks,
      iterations: search.iterations, bound: search.bound, firstBound: search.firstBound,
      dropped: search.dropped, droppedEvents: search.droppedSoFar,
      meet: search.meet >= 0 ? xy(search.meet) : null, meets: search.meetsSoFar,
      // Events of each type, and of each side (bidirectional).
      counts: (() => {
        const c = {}, sides = [0, 0], bidir = search.options.algo === 'bidir';
        for (let k = 0; k < search.n; k++) {
          const t = EV_NAMES[search.ev32[k * 8]];
          c[t] = (c[t] || 0) + 1;
          if (search.ev32[k * 8] <= EV_GOAL) sides[bidir && search.ev32[k * 8 + 3] === 1 ? 1 : 0]++;
        }
        return { ...c, forward: sides[0], backward: sides[1] };
      })(),
    } : null,
  };

  function fail(err) {
    console.error(err);
    window.__playground.error = String(err && err.message || err);
    setStatus('failed to load', 'failed', '', ': the WebAssembly module did not load');
    message(String(err && err.message || err), true);
    document.body.dataset.state = 'broken';
  }

  // The library's method table (astar_method_info_of, through pg_method_*):
  // METHOD gets the engine's methods by name (ASTAR_MF_SPACE), and each entry
  // of the algorithm menu that is a method of the table shows its summary on
  // hover; an entry that is neither a method of the table nor one of the
  // page's own (weighted A*, A* + landmarks, D* Lite) is disabled.
  const MF_SPACE = 0x10;
  const PAGE_ONLY = new Set(['weighted', 'landmarks', 'dstar']);
  function readMethodTable() {
    const table = {};
    for (let i = 0; i < M._pg_method_count(); i++) {
      const p = M._pg_method_name(i);
      if (p) table[M.UTF8ToString(p)] = { id: i, flags: M._pg_method_flags(i), summary: M.UTF8ToString(M._pg_method_summary(i)) };
    }
    METHOD = {};
    for (const [name, row] of Object.entries(table)) if (row.flags & MF_SPACE) METHOD[name] = row.id;
    METHOD.weighted = METHOD.astar;
    for (const opt of ui.algorithm.options) {
      const row = table[opt.value];
      if (row) opt.title = row.summary;
      else if (!PAGE_ONLY.has(opt.value)) opt.disabled = true;
    }
  }

  function init() {
    if (typeof createAstarModule !== 'function') {
      fail(new Error('astar.js did not load'));
      return;
    }
    createAstarModule().then((mod) => {
      M = mod;
      pg = M._pg_new(W, H);
      if (!pg) throw new Error('pg_new failed');
      $('version').textContent = `libastar ${M.UTF8ToString(M._pg_version())}`;
      readMethodTable();
      readMapfTable();
      defaultMap();
      bind();
      syncOptionUi();
      layout();
      setInfo(HOVER_HINT);
      setStatus('ready', 'idle');
      requestAnimationFrame(frame);
      window.__playground.ready = true;
      document.body.dataset.state = 'ready';
    }).catch(fail);
  }

  init();
})();
