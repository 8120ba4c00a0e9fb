// libastar/pathfinding -- a drop-in for PathFinding.js 0.4.18 (npm
// `pathfinding`): the same classes, option names and findPath contract,
// answered by the library's methods through the native API's Finder (the one
// query API). Nothing here searches: it keeps the cells, maps PathFinding.js's
// options onto a finder and turns the finder's path into [[x, y], ...].
//
// docs/pathfinding-js.md says how to switch, how the options map and where
// the answers differ from PathFinding.js (and why).
//
// Cells. A Grid keeps its cells in a "store" (a byte a cell, and a float a
// cell once a weight is set), with the native grid made from it on the first
// search. grid.clone() shares the store (copy on write), so the usual
// PathFinding.js pattern -- clone before every findPath because its search
// writes into the nodes -- costs nothing here, and the clones search the same
// native grid. Node objects are made only when asked for (grid.nodes,
// getNodeAt, getNeighbors); their `walkable` reads and writes the store.
import { Grid as NativeGrid, Finder as NativeFinder } from './index.js';

// ---- DiagonalMovement, Heuristic, Node: as PathFinding.js ------------------

export const DiagonalMovement = Object.freeze({
  Always: 1,
  Never: 2,
  IfAtMostOneObstacle: 3,
  OnlyWhenNoObstacles: 4,
});

// PathFinding.js's rule -> the library's corner rule (astar/search.h).
const CORNER = {
  [DiagonalMovement.Always]: 'always',
  [DiagonalMovement.IfAtMostOneObstacle]: 'one-side',
  [DiagonalMovement.OnlyWhenNoObstacles]: 'no-cut',
};

const F = Math.SQRT2 - 1;
// The same four functions as PathFinding.js (callable: PathFinding.js code
// uses them directly); a finder recognises them by identity and runs the
// library's heuristic of the same formula instead of calling them.
export const Heuristic = Object.freeze({
  manhattan(dx, dy) { return dx + dy; },
  euclidean(dx, dy) { return Math.sqrt(dx * dx + dy * dy); },
  octile(dx, dy) { return dx < dy ? F * dx + dy : F * dy + dx; },
  chebyshev(dx, dy) { return Math.max(dx, dy); },
});
const HEURISTIC_NAME = new Map(Object.entries(Heuristic).map(([k, fn]) => [fn, k]));

/** A cell: x, y and walkable, as PathFinding.js's Node. */
export function Node(x, y, walkable) {
  this.x = x;
  this.y = y;
  this.walkable = walkable === undefined ? true : walkable;
}

// A grid's node: x, y own properties like Node's; `walkable` (and the
// `weight` extension) read and write the grid, so a node stays true to the
// grid whichever way the user edits it. Made on demand and kept.
function GridNode(grid, x, y) {
  Object.defineProperty(this, '_grid', { value: grid });
  this.x = x;
  this.y = y;
}
GridNode.prototype = Object.create(Node.prototype, {
  constructor: { value: Node, writable: true, configurable: true },
  walkable: {
    get() { return this._grid._store.wall[this.y * this._grid.width + this.x] === 0; },
    set(v) { this._grid.setWalkableAt(this.x, this.y, v); },
    enumerable: true,
    configurable: true,
  },
  weight: {
    get() { return this._grid.getWeightAt(this.x, this.y); },
    set(v) { this._grid.setWeightAt(this.x, this.y, v); },
    enumerable: false,
    configurable: true,
  },
});

// ---- The store: cells shared by a grid and its clones ----------------------

// wall[i] = 1 not walkable, 0 walkable (PathFinding.js's matrix, and the
// native Grid.fromWalls's bytes). weight: null until a weight other than 1
// is set (Float32Array: the library's terrain is single precision).
// shared: a clone was taken, so the next write copies first.
//
// The native grid. A store that has one (`native`) keeps it equal to its
// cells after every edit. A copy made from such a store -- what a write after
// a clone makes, on either side -- starts without one: it is "derived" from
// that root store and records the cells it changed since (`diff`). Its
// searches borrow the root's native grid and finders: the changed cells are
// written into the native grid before the search and put back after it (a
// search is one synchronous call, so nothing else sees them). This keeps
// PathFinding.js's per-frame pattern -- edit, clone, search -- at the cost of
// the edits instead of a new native grid and a new search workspace (about
// 20 ms on a 512 x 512 grid) each frame. A derived store gets its own native
// grid once its diff grows past DIFF_MAX cells (or a quarter of the grid),
// or when its root was edited since the copy.
const DIFF_MAX = 2048;

class Store {
  constructor(width, height, wall, weight) {
    this.width = width;
    this.height = height;
    this.wall = wall;
    this.weight = weight;
    this.native = null;
    this.shared = false;
    this.version = 0; // writes so far (a derived store's root must not have moved)
    this.root = null;
    this.rootVersion = 0;
    this.diff = null; // Set of cell indices changed since derived from root
  }

  copy() {
    const c = new Store(this.width, this.height, this.wall.slice(),
      this.weight ? this.weight.slice() : null);
    if (this.native !== null) {
      c.root = this;
      c.rootVersion = this.version;
      c.diff = new Set();
    } else if (this.liveRoot() !== null) {
      c.root = this.root;
      c.rootVersion = this.rootVersion;
      c.diff = new Set(this.diff);
    }
    return c;
  }

  // The root whose native grid this store may borrow, or null.
  liveRoot() {
    const r = this.root;
    if (r === null) return null;
    // A root edited since, a diff grown too long, or weights the root's
    // native grid has no layer for: this store gets a grid of its own.
    if (r.version !== this.rootVersion ||
        this.diff.size > Math.min(DIFF_MAX, (this.width * this.height) >> 2) ||
        (this.weight !== null && r.weight === null)) {
      this.root = null;
      this.diff = null;
      return null;
    }
    return r;
  }

  // A cell was written: keep the native grid (or the diff) in step.
  wrote(i) {
    this.version++;
    if (this.native !== null) {
      const x = i % this.width;
      const y = (i - x) / this.width;
      this.native.setWalkable(x, y, this.wall[i] === 0);
      if (this.weight !== null) this.native.setCost(x, y, this.weight[i]);
    } else if (this.root !== null) {
      this.diff.add(i);
    }
  }

  // The store whose native grid a search of this one runs on: itself (its
  // own grid made if needed) or its live root.
  owner() {
    if (this.native === null && this.liveRoot() === null) {
      const g = NativeGrid.fromWalls(this.width, this.height, this.wall);
      if (this.weight !== null) g.setCosts(this.weight);
      this.native = g;
    }
    return this.native !== null ? this : this.root;
  }
}

function checkSide(name, v) {
  if (!Number.isInteger(v) || v < 1) {
    throw new RangeError(`Grid: ${name} must be an integer >= 1 (got ${v})`);
  }
}

const WEIGHT_MAX = 1e9; // ASTAR_TERRAIN_MAX
function checkWeight(where, w) {
  // Single precision, as the library keeps it: a positive number that
  // rounds to 0 is refused too.
  if (typeof w !== 'number' || !(Math.fround(w) > 0) || !(w <= WEIGHT_MAX)) {
    throw new RangeError(`${where}: a weight must be a number in (0, ${WEIGHT_MAX}] (got ${w})`);
  }
}

// ---- Grid ------------------------------------------------------------------

/**
 * Grid(width, height[, matrix[, weights]]) or Grid(matrix[, weights]), as
 * PathFinding.js: matrix[y][x] truthy = not walkable. `weights` (an
 * extension) is a matrix of the same shape: the cost factor of entering
 * each cell (1 = PathFinding.js's cost; Grid.setWeightAt).
 */
export function Grid(widthOrMatrix, height, matrix, weights) {
  let width;
  if (typeof widthOrMatrix === 'object' && widthOrMatrix !== null) {
    matrix = widthOrMatrix;
    weights = height;
    height = matrix.length;
    width = height > 0 ? matrix[0].length : 0;
  } else {
    width = widthOrMatrix;
  }
  checkSide('width', width);
  checkSide('height', height);
  this.width = width;
  this.height = height;
  const wall = new Uint8Array(width * height);
  if (matrix !== undefined) {
    if (matrix.length !== height || matrix[0].length !== width) {
      throw new Error('Matrix size does not fit');
    }
    for (let y = 0; y < height; y++) {
      const row = matrix[y];
      if (!row || row.length !== width) throw new Error('Matrix size does not fit');
      for (let x = 0; x < width; x++) if (row[x]) wall[y * width + x] = 1;
    }
  }
  let weight = null;
  if (weights !== undefined && weights !== null) {
    if (weights.length !== height) throw new Error('Weights size does not fit');
    weight = new Float32Array(width * height).fill(1);
    for (let y = 0; y < height; y++) {
      const row = weights[y];
      if (!row || row.length !== width) throw new Error('Weights size does not fit');
      for (let x = 0; x < width; x++) {
        checkWeight(`Grid: weights[${y}][${x}]`, row[x]);
        weight[y * width + x] = row[x];
      }
    }
  }
  this._store = new Store(width, height, wall, weight);
  this._nodes = null;
  this._rows = null;
}

// Nodes on demand: row arrays are filled the first time they are read.
function nodeAt(grid, x, y) {
  if (grid._rows === null) grid._rows = new Array(grid.height).fill(null);
  let row = grid._rows[y];
  if (row === null) row = grid._rows[y] = new Array(grid.width).fill(null);
  return row[x] || (row[x] = new GridNode(grid, x, y));
}

Object.defineProperty(Grid.prototype, 'nodes', {
  // PathFinding.js's 2D array of nodes; built (once) when first read.
  get() {
    if (this._nodes === null) {
      const nodes = new Array(this.height);
      for (let y = 0; y < this.height; y++) {
        const row = new Array(this.width);
        for (let x = 0; x < this.width; x++) row[x] = nodeAt(this, x, y);
        nodes[y] = row;
      }
      this._nodes = nodes;
    }
    return this._nodes;
  },
  set(v) {
    // PathFinding.js code may assign grid.nodes (its own clone() does): take
    // the cells from the nodes given.
    const g = new Grid(this.width, this.height,
      v.map((row) => row.map((n) => !n.walkable)));
    this._store = g._store;
    this._nodes = null;
    this._rows = null;
  },
  enumerable: true,
  configurable: true,
});

Grid.prototype.getNodeAt = function getNodeAt(x, y) {
  if (!this.isInside(x, y)) return undefined;
  return nodeAt(this, x, y);
};

Grid.prototype.isWalkableAt = function isWalkableAt(x, y) {
  return this.isInside(x, y) && this._store.wall[y * this.width + x] === 0;
};

Grid.prototype.isInside = function isInside(x, y) {
  return x >= 0 && x < this.width && y >= 0 && y < this.height;
};

// The store this grid may write: its own (copied first if a clone shares it).
function writable(grid) {
  let s = grid._store;
  if (s.shared) {
    s = grid._store = s.copy();
  }
  return s;
}

// `what` is appended to `where` only for the message, so that a caller on a
// hot path (findPath) builds no string when the cell is inside.
function checkCell(where, grid, x, y, what = '') {
  if (!Number.isInteger(x) || !Number.isInteger(y) || !grid.isInside(x, y)) {
    throw new RangeError(`${where}${what}: (${x}, ${y}) is outside the ${grid.width} x ${grid.height} grid`);
  }
}

Grid.prototype.setWalkableAt = function setWalkableAt(x, y, walkable) {
  checkCell('setWalkableAt', this, x, y);
  const i = y * this.width + x;
  const v = walkable ? 0 : 1;
  if (this._store.wall[i] === v) return;
  const s = writable(this);
  s.wall[i] = v;
  s.wrote(i);
};

/** Extension: the cost factor of entering (x, y) (1 unless set). */
Grid.prototype.getWeightAt = function getWeightAt(x, y) {
  checkCell('getWeightAt', this, x, y);
  const w = this._store.weight;
  return w === null ? 1 : w[y * this.width + x];
};

/** Extension: set the cost factor of entering (x, y): a number in (0, 1e9]. */
Grid.prototype.setWeightAt = function setWeightAt(x, y, weight) {
  checkCell('setWeightAt', this, x, y);
  checkWeight('setWeightAt', weight);
  if (this.getWeightAt(x, y) === Math.fround(weight)) return;
  const s = writable(this);
  if (s.weight === null) s.weight = new Float32Array(this.width * this.height).fill(1);
  s.weight[y * this.width + x] = weight;
  s.wrote(y * this.width + x);
};

/** Extension: true once some cell has a weight other than 1. */
Grid.prototype.hasWeights = function hasWeights() {
  const w = this._store.weight;
  return w !== null && w.some((v) => v !== 1);
};

// PathFinding.js's neighbour order: N, E, S, W, then NW, NE, SE, SW.
Grid.prototype.getNeighbors = function getNeighbors(node, diagonalMovement) {
  const x = node.x;
  const y = node.y;
  const out = [];
  const s0 = this.isWalkableAt(x, y - 1);
  const s1 = this.isWalkableAt(x + 1, y);
  const s2 = this.isWalkableAt(x, y + 1);
  const s3 = this.isWalkableAt(x - 1, y);
  if (s0) out.push(nodeAt(this, x, y - 1));
  if (s1) out.push(nodeAt(this, x + 1, y));
  if (s2) out.push(nodeAt(this, x, y + 1));
  if (s3) out.push(nodeAt(this, x - 1, y));
  if (diagonalMovement === DiagonalMovement.Never) return out;
  let d0;
  let d1;
  let d2;
  let d3;
  if (diagonalMovement === DiagonalMovement.OnlyWhenNoObstacles) {
    d0 = s3 && s0; d1 = s0 && s1; d2 = s1 && s2; d3 = s2 && s3;
  } else if (diagonalMovement === DiagonalMovement.IfAtMostOneObstacle) {
    d0 = s3 || s0; d1 = s0 || s1; d2 = s1 || s2; d3 = s2 || s3;
  } else if (diagonalMovement === DiagonalMovement.Always) {
    d0 = d1 = d2 = d3 = true;
  } else {
    throw new Error('Incorrect value of diagonalMovement');
  }
  if (d0 && this.isWalkableAt(x - 1, y - 1)) out.push(nodeAt(this, x - 1, y - 1));
  if (d1 && this.isWalkableAt(x + 1, y - 1)) out.push(nodeAt(this, x + 1, y - 1));
  if (d2 && this.isWalkableAt(x + 1, y + 1)) out.push(nodeAt(this, x + 1, y + 1));
  if (d3 && this.isWalkableAt(x - 1, y + 1)) out.push(nodeAt(this, x - 1, y + 1));
  return out;
};

/** A copy of the grid. O(1): the copy shares the cells until either is edited. */
Grid.prototype.clone = function clone() {
  const g = Object.create(Grid.prototype);
  g.width = this.width;
  g.height = this.height;
  this._store.shared = true;
  g._store = this._store;
  g._nodes = null;
  g._rows = null;
  return g;
};

// ---- Util: PathFinding.js's helpers (pure functions on paths) ---------------

function backtrace(node) {
  const path = [[node.x, node.y]];
  while (node.parent) {
    node = node.parent;
    path.push([node.x, node.y]);
  }
  return path.reverse();
}

function biBacktrace(nodeA, nodeB) {
  return backtrace(nodeA).concat(backtrace(nodeB).reverse());
}

function pathLength(path) {
  let sum = 0;
  for (let i = 1; i < path.length; ++i) {
    const dx = path[i - 1][0] - path[i][0];
    const dy = path[i - 1][1] - path[i][1];
    sum += Math.sqrt(dx * dx + dy * dy);
  }
  return sum;
}

// Bresenham's line from (x0, y0) to (x1, y1), both ends included.
function interpolate(x0, y0, x1, y1) {
  const line = [];
  const dx = Math.abs(x1 - x0);
  const dy = Math.abs(y1 - y0);
  const sx = x0 < x1 ? 1 : -1;
  const sy = y0 < y1 ? 1 : -1;
  let err = dx - dy;
  for (;;) {
    line.push([x0, y0]);
    if (x0 === x1 && y0 === y1) break;
    const e2 = 2 * err;
    if (e2 > -dy) { err -= dy; x0 += sx; }
    if (e2 < dx) { err += dx; y0 += sy; }
  }
  return line;
}

function expandPath(path) {
  const expanded = [];
  const len = path.length;
  if (len < 2) return expanded;
  for (let i = 0; i < len - 1; ++i) {
    const line = interpolate(path[i][0], path[i][1], path[i + 1][0], path[i + 1][1]);
    for (let j = 0; j < line.length - 1; ++j) expanded.push(line[j]);
  }
  expanded.push(path[len - 1]);
  return expanded;
}

function smoothenPath(grid, path) {
  const len = path.length;
  const x1 = path[len - 1][0];
  const y1 = path[len - 1][1];
  let sx = path[0][0];
  let sy = path[0][1];
  const newPath = [[sx, sy]];
  for (let i = 2; i < len; ++i) {
    const line = interpolate(sx, sy, path[i][0], path[i][1]);
    let blocked = false;
    for (let j = 1; j < line.length; ++j) {
      if (!grid.isWalkableAt(line[j][0], line[j][1])) { blocked = true; break; }
    }
    if (blocked) {
      const last = path[i - 1];
      newPath.push(last);
      sx = last[0];
      sy = last[1];
    }
  }
  newPath.push([x1, y1]);
  return newPath;
}

function compressPath(path) {
  if (path.length < 3) return path;
  const compressed = [];
  const sx = path[0][0];
  const sy = path[0][1];
  let px = path[1][0];
  let py = path[1][1];
  let dx = px - sx;
  let dy = py - sy;
  let sq = Math.sqrt(dx * dx + dy * dy);
  dx /= sq;
  dy /= sq;
  compressed.push([sx, sy]);
  for (let i = 2; i < path.length; i++) {
    const lx = px;
    const ly = py;
    const ldx = dx;
    const ldy = dy;
    px = path[i][0];
    py = path[i][1];
    dx = px - lx;
    dy = py - ly;
    sq = Math.sqrt(dx * dx + dy * dy);
    dx /= sq;
    dy /= sq;
    if (dx !== ldx || dy !== ldy) compressed.push([lx, ly]);
  }
  compressed.push([px, py]);
  return compressed;
}

export const Util = Object.freeze({
  backtrace, biBacktrace, pathLength, interpolate, expandPath, smoothenPath, compressPath,
});

// ---- Finders ---------------------------------------------------------------

// PathFinding.js's rule for the diagonal movement of every finder but JPS.
function diagonalOf(opt) {
  if (opt.diagonalMovement) return opt.diagonalMovement;
  if (!opt.allowDiagonal) return DiagonalMovement.Never;
  return opt.dontCrossCorners ? DiagonalMovement.OnlyWhenNoObstacles
    : DiagonalMovement.IfAtMostOneObstacle;
}

function checkDiagonal(finder, d) {
  if (!(d in CORNER) && d !== DiagonalMovement.Never) {
    throw new RangeError(`${finder}: diagonalMovement must be one of PF.DiagonalMovement's ` +
      `values (Always 1, Never 2, IfAtMostOneObstacle 3, OnlyWhenNoObstacles 4); got ${d}`);
  }
}

// The library's heuristic for a PathFinding.js heuristic function. A
// function of the user's own cannot run inside the WebAssembly search.
function heuristicName(finder, fn) {
  const name = HEURISTIC_NAME.get(fn);
  if (name === undefined) {
    throw new TypeError(`${finder}: heuristic must be one of PF.Heuristic.manhattan, ` +
      'euclidean, octile or chebyshev (the search runs in WebAssembly and cannot call a ' +
      'function of your own; see docs/pathfinding-js.md)');
  }
  return name;
}

function checkWeightOption(finder, w) {
  if (typeof w !== 'number' || !(w >= 0) || !(w <= 1e9)) {
    throw new RangeError(`${finder}: weight must be a number in [0, 1e9] (got ${w})`);
  }
}

// How many native finders one drop-in finder keeps (one per grid store it
// searched recently); the oldest is freed beyond that.
const NATIVE_CACHE = 4;

/**
 * The common part of every finder: the native finder(s) made from
 * `this._native()`'s options for the stores searched, and findPath.
 */
class DropInFinder {
  _setup(name, opt) {
    this._name = name;
    this._cache = []; // [{ store, weighted, finder }], most recent last
    return opt || {};
  }

  // The native finder's options: { method, moves, corner, heuristic, weight,
  // diagonalCost }, for cells with weights or not. Subclasses define it.
  _native(/* weighted */) { throw new Error('abstract'); }

  _finderFor(store, weighted) {
    // A native finder is made for one native grid and the options of that
    // moment; whether the searched cells have weights is part of the
    // options (JPS).
    const cache = this._cache;
    for (let i = cache.length - 1; i >= 0; i--) {
      if (cache[i].store === store && cache[i].weighted === weighted) {
        const hit = cache[i];
        if (i !== cache.length - 1) { cache.splice(i, 1); cache.push(hit); }
        return hit.finder;
      }
    }
    const finder = new NativeFinder(store.native, this._native(weighted));
    cache.push({ store, weighted, finder });
    if (cache.length > NATIVE_CACHE) cache.shift().finder.free();
    return finder;
  }

  /**
   * findPath(startX, startY, endX, endY, grid) -> [[x, y], ...] from start
   * to end, both included; [] when there is no path.
   */
  findPath(startX, startY, endX, endY, grid) {
    if (!(grid instanceof Grid)) {
      throw new TypeError(`${this._name}.findPath: grid must be a PF.Grid of libastar/pathfinding`);
    }
    checkCell(this._name, grid, startX, startY, '.findPath: start');
    checkCell(this._name, grid, endX, endY, '.findPath: end');
    const store = grid._store;
    const owner = store.owner();
    const native = owner.native;
    const finder = this._finderFor(owner, store.weight !== null);
    // The cells where the native grid must differ from `owner` for this
    // search: a derived store's changes, and -- PathFinding.js searches from
    // a start that is not walkable (it never looks at the start's own cell),
    // and its bidirectional finders reach an end that is not walkable -- those
    // ends opened, as it does. Put back afterwards.
    const w = grid.width;
    const si = startY * w + startX;
    const ei = endY * w + endX;
    const openStart = store.wall[si] === 1;
    const openEnd = this._bidirectional === true && store.wall[ei] === 1;
    if (!openStart && !openEnd && (owner === store || store.diff.size === 0)) {
      return finder.findPath(startX, startY, endX, endY);
    }
    const cells = owner === store ? [] : [...store.diff];
    if (openStart) cells.push(si);
    if (openEnd) cells.push(ei);
    try {
      for (const i of cells) {
        const x = i % w;
        const y = (i - x) / w;
        native.setWalkable(x, y, store.wall[i] === 0 || (openStart && i === si) || (openEnd && i === ei));
        if (store.weight !== null) native.setCost(x, y, store.weight[i]);
      }
      return finder.findPath(startX, startY, endX, endY);
    } finally {
      for (const i of cells) {
        const x = i % w;
        const y = (i - x) / w;
        native.setWalkable(x, y, owner.wall[i] === 0);
        if (store.weight !== null) native.setCost(x, y, owner.weight[i]);
      }
    }
  }
}

// PathFinding.js's options of the A* family, resolved as it does.
function astarFamily(self, name, opt, defaults) {
  opt = self._setup(name, opt);
  self.allowDiagonal = opt.allowDiagonal;
  self.dontCrossCorners = opt.dontCrossCorners;
  self.diagonalMovement = diagonalOf(opt);
  checkDiagonal(name, self.diagonalMovement);
  self.heuristic = opt.heuristic ||
    (self.diagonalMovement === DiagonalMovement.Never ? Heuristic.manhattan : Heuristic.octile);
  self.weight = opt.weight || 1;
  if (defaults.heuristic) heuristicName(name, self.heuristic);
  if (defaults.weight) checkWeightOption(name, self.weight);
  return opt;
}

function moveRules(diagonalMovement) {
  return diagonalMovement === DiagonalMovement.Never
    ? { moves: 4, corner: 'no-cut' }
    : { moves: 8, corner: CORNER[diagonalMovement] };
}

/** A*: the library's A* (weighted by `weight`). */
export class AStarFinder extends DropInFinder {
  constructor(opt) {
    super();
    astarFamily(this, new.target.name, opt, { heuristic: true, weight: true });
  }

  _native() {
    return {
      method: 'astar',
      ...moveRules(this.diagonalMovement),
      heuristic: heuristicName(this._name, this.heuristic),
      weight: this.weight,
    };
  }
}

/** Best-first: the library's greedy best-first search (f = h). */
export class BestFirstFinder extends AStarFinder {
  _native() {
    return { ...super._native(), method: 'greedy', weight: 1 };
  }
}

/** Dijkstra: the library's Dijkstra (no heuristic). */
export class DijkstraFinder extends AStarFinder {
  _native() {
    return { ...moveRules(this.diagonalMovement), method: 'dijkstra' };
  }
}

/** Breadth-first: fewest moves -- Dijkstra with every move costing 1. */
export class BreadthFirstFinder extends DropInFinder {
  constructor(opt) {
    super();
    opt = this._setup(new.target.name, opt);
    this.allowDiagonal = opt.allowDiagonal;
    this.dontCrossCorners = opt.dontCrossCorners;
    this.diagonalMovement = diagonalOf(opt);
    checkDiagonal(this._name, this.diagonalMovement);
  }

  _native() {
    return { ...moveRules(this.diagonalMovement), method: 'dijkstra', diagonalCost: 1 };
  }
}

/** Bidirectional A*: the library's bidirectional A* (optimal). */
export class BiAStarFinder extends DropInFinder {
  constructor(opt) {
    super();
    astarFamily(this, new.target.name, opt, { heuristic: true, weight: true });
    this._bidirectional = true;
  }

  _native() {
    return {
      method: 'bidir',
      ...moveRules(this.diagonalMovement),
      heuristic: heuristicName(this._name, this.heuristic),
      weight: this.weight,
    };
  }
}

/** Bidirectional best-first: the library's greedy best-first (one direction). */
export class BiBestFirstFinder extends BiAStarFinder {
  _native() {
    return { ...super._native(), method: 'greedy', weight: 1 };
  }
}

/** Bidirectional Dijkstra: the library's bidirectional search, no heuristic. */
export class BiDijkstraFinder extends BiAStarFinder {
  _native() {
    return { ...super._native(), heuristic: 'zero', weight: 1 };
  }
}

/** Bidirectional breadth-first: fewest moves, searched from both ends. */
export class BiBreadthFirstFinder extends BreadthFirstFinder {
  constructor(opt) {
    super(opt);
    this._bidirectional = true;
  }

  _native() {
    return { ...super._native(), method: 'bidir', heuristic: 'zero' };
  }
}

/**
 * IDA*: the library's IDA* (with its transposition cut, so it stays fast on
 * maps where PathFinding.js's runs for minutes). trackRecursion and
 * timeLimit are kept as PathFinding.js keeps them but not applied: the
 * search runs in one WebAssembly call, which nothing interrupts
 * (docs/pathfinding-js.md).
 */
export class IDAStarFinder extends DropInFinder {
  constructor(opt) {
    super();
    opt = astarFamily(this, new.target.name, opt, { heuristic: true, weight: true });
    this.trackRecursion = opt.trackRecursion || false;
    this.timeLimit = opt.timeLimit || Infinity;
  }

  _native() {
    return {
      method: 'ida',
      ...moveRules(this.diagonalMovement),
      heuristic: heuristicName(this._name, this.heuristic),
      weight: this.weight,
    };
  }
}

/**
 * Jump point search. PathFinding.js picks its JPS by diagonalMovement
 * (default IfAtMostOneObstacle; allowDiagonal is not read). The library's
 * JPS needs OnlyWhenNoObstacles and a grid without weights; under the other
 * rules, or on a weighted grid, the library's A* answers (the same optimal
 * cost).
 */
export class JumpPointFinder extends DropInFinder {
  constructor(opt) {
    super();
    opt = this._setup('JumpPointFinder', opt);
    this.heuristic = opt.heuristic || Heuristic.manhattan;
    this.trackJumpRecursion = opt.trackJumpRecursion || false;
    this.diagonalMovement = opt.diagonalMovement === undefined
      ? DiagonalMovement.IfAtMostOneObstacle : opt.diagonalMovement;
    checkDiagonal(this._name, this.diagonalMovement);
    heuristicName(this._name, this.heuristic);
  }

  _native(weighted) {
    const rules = moveRules(this.diagonalMovement);
    // JPS is exact whatever PathFinding.js's heuristic (its default,
    // Manhattan, is only a tie-break for its own JPS): run it with octile.
    if (this.diagonalMovement === DiagonalMovement.OnlyWhenNoObstacles && !weighted) {
      return { ...rules, method: 'jps', heuristic: 'octile' };
    }
    return { ...rules, method: 'astar', heuristic: 'auto' };
  }
}

/** PathFinding.js's names for the rule-specific JPS classes and an alias. */
export { BreadthFirstFinder as BreadthFirstSearchFinder };
