// grid.js -- Grid: the square grid (astar/grid.h): walkable cells and
// terrain costs. x is the column (0 = left), y the row (0 = top).
import { W } from './wasm.js';
import { M } from './imports.js';
import { Native } from './native.js';
import { LIMIT } from './params.js';
import { check, handle, int, num, bool, freed, AstarError, cstring } from './errors.js';

const encoder = new TextEncoder();

/** Copy `bytes` into a fresh malloc block; the caller frees it. */
export function toWasm(bytes) {
  const p = W.jsa_malloc(bytes.length);
  if (!p) throw new AstarError(9, 'copying into the WebAssembly memory');
  M.u8.set(bytes, p);
  return p;
}

function checkSize(width, height, what) {
  int(width, `${what}: width`, 1, LIMIT.gridMaxSide);
  int(height, `${what}: height`, 1, LIMIT.gridMaxSide);
  if (width * height > LIMIT.gridMaxCells) {
    throw new RangeError(`${what}: width * height must be at most ${LIMIT.gridMaxCells} cells, not ${width * height}`);
  }
}

export class Grid extends Native {
  /**
   * A width x height grid, every cell walkable, every terrain cost 1.
   * @param {number} width columns, 1 .. 32768
   * @param {number} height rows, 1 .. 32768 (width * height <= 2^28)
   */
  constructor(width, height) {
    super();
    if (width === undefined && height === Grid._adopt) return; // internal: fromHandle
    checkSize(width, height, 'Grid');
    this._init(handle(W.jsa_grid_new(width, height), 'Grid'));
  }

  _init(ptr) {
    this._own(ptr, 'astar_grid_free');
    this.width = W.astar_grid_width(ptr);
    this.height = W.astar_grid_height(ptr);
  }

  static _fromHandle(ptr) {
    const g = new Grid(undefined, Grid._adopt);
    g._init(ptr);
    return g;
  }

  /**
   * A grid from a 2D array of rows (matrix[y][x]): truthy (1, true) is a wall,
   * as PathFinding.js's matrix.
   */
  static fromArray(matrix) {
    if (!Array.isArray(matrix)) throw new TypeError(`Grid.fromArray: matrix must be an array of rows, not ${typeof matrix}`);
    const height = matrix.length;
    if (height === 0) throw new RangeError('Grid.fromArray: matrix must have at least one row');
    if (!Array.isArray(matrix[0]) && !ArrayBuffer.isView(matrix[0])) {
      throw new TypeError('Grid.fromArray: matrix[0] must be an array (a row of cells)');
    }
    const width = matrix[0].length;
    checkSize(width, height, 'Grid.fromArray');
    const walls = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      const row = matrix[y];
      if (!Array.isArray(row) && !ArrayBuffer.isView(row)) throw new TypeError(`Grid.fromArray: matrix[${y}] must be an array`);
      if (row.length !== width) {
        throw new RangeError(`Grid.fromArray: matrix[${y}] has ${row.length} cells; every row must have ${width} (the length of matrix[0])`);
      }
      for (let x = 0; x < width; x++) walls[y * width + x] = row[x] ? 1 : 0;
    }
    return Grid.fromWalls(width, height, walls);
  }

  /**
   * A grid from a flat row-major array of width * height cells (index
   * y * width + x): non-zero (or true) is a wall. Uint8Array is copied in
   * one block; any array-like works.
   */
  static fromWalls(width, height, walls) {
    checkSize(width, height, 'Grid.fromWalls');
    if (walls == null || typeof walls.length !== 'number') {
      throw new TypeError('Grid.fromWalls: walls must be an array or a typed array');
    }
    if (walls.length !== width * height) {
      throw new RangeError(`Grid.fromWalls: walls must have width * height = ${width * height} cells, not ${walls.length}`);
    }
    const bytes = walls instanceof Uint8Array ? walls : Uint8Array.from(walls, (v) => (v ? 1 : 0));
    const g = new Grid(width, height);
    const p = toWasm(bytes);
    W.jsa_grid_set_walls(g._p, p);
    W.jsa_free(p);
    return g;
  }

  /**
   * A grid from a Moving AI .map text ('@', 'O', 'T', 'W' block; '.', 'G',
   * 'S' pass) or the library's ASCII map ('#' walls). A malformed text
   * throws an AstarError with status 'parse-error' and .line / .column.
   */
  static fromMap(text) {
    if (typeof text !== 'string' && !(text instanceof Uint8Array)) {
      throw new TypeError('Grid.fromMap: text must be a string or a Uint8Array');
    }
    const bytes = typeof text === 'string' ? encoder.encode(text) : text;
    const p = toWasm(bytes);
    const ret = W.jsa_grid_parse(p, bytes.length);
    W.jsa_free(p);
    if (ret <= 0) {
      const e = W.jsa_parse_error();
      const line = M.i32[e >> 2], column = M.i32[(e >> 2) + 1];
      const msg = cstring(e + 8);
      const err = new AstarError(-ret, line ? `Grid.fromMap: line ${line}, column ${column}: ${msg}` : `Grid.fromMap${msg ? `: ${msg}` : ''}`);
      err.line = line;
      err.column = column;
      throw err;
    }
    return Grid._fromHandle(ret);
  }

  get _ptr() {
    if (!this._p) throw freed('Grid');
    return this._p;
  }

  _xy(x, y, what) {
    if (!Number.isInteger(x) || x < 0 || x >= this.width) int(x, `${what}: x`, 0, this.width - 1);
    if (!Number.isInteger(y) || y < 0 || y >= this.height) int(y, `${what}: y`, 0, this.height - 1);
  }

  /** True when (x, y) lies inside the grid. */
  isInside(x, y) {
    return Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < this.width && y < this.height;
  }

  /** Walkability of (x, y); cells outside the grid read as walls (false). */
  isWalkable(x, y) {
    if (typeof x !== 'number' || typeof y !== 'number') throw new TypeError('Grid.isWalkable: x and y must be numbers');
    return W.astar_grid_passable(this._ptr, x, y) !== 0;
  }

  /** Make (x, y) walkable (true) or a wall (false). */
  setWalkable(x, y, walkable) {
    this._xy(x, y, 'Grid.setWalkable');
    bool(walkable, 'Grid.setWalkable: walkable');
    check(W.astar_grid_set_passable(this._ptr, x, y, walkable ? 1 : 0), 'Grid.setWalkable');
    return this;
  }

  /** Every cell walkable (true) or a wall (false). */
  fill(walkable) {
    bool(walkable, 'Grid.fill: walkable');
    check(W.astar_grid_fill(this._ptr, walkable ? 1 : 0), 'Grid.fill');
    return this;
  }

  /**
   * Terrain cost of entering (x, y): a move into it costs the move's cost
   * times this factor, in (0, 1e9]. Methods that ignore terrain refuse a
   * grid with terrain at Finder creation.
   */
  setCost(x, y, cost) {
    this._xy(x, y, 'Grid.setCost');
    num(cost, 'Grid.setCost: cost', 0, LIMIT.terrainMax, true);
    check(W.astar_grid_set_terrain(this._ptr, x, y, cost), 'Grid.setCost');
    return this;
  }

  /** Terrain cost of (x, y) (1 without terrain). */
  getCost(x, y) {
    this._xy(x, y, 'Grid.getCost');
    return W.astar_grid_terrain(this._ptr, x, y);
  }

  /** Every terrain cost from a row-major array of width * height values in (0, 1e9]. */
  setCosts(costs) {
    const n = this.width * this.height;
    if (costs == null || typeof costs.length !== 'number') throw new TypeError('Grid.setCosts: costs must be an array or a typed array');
    if (costs.length !== n) throw new RangeError(`Grid.setCosts: costs must have width * height = ${n} values, not ${costs.length}`);
    const f = costs instanceof Float32Array ? costs : Float32Array.from(costs);
    for (let i = 0; i < n; i++) {
      const c = f[i];
      if (!(c > 0 && c <= LIMIT.terrainMax)) {
        throw new RangeError(`Grid.setCosts: costs[${i}] (x ${i % this.width}, y ${Math.floor(i / this.width)}) must be in (0, 1e9], not ${costs[i]}`);
      }
    }
    const p = toWasm(new Uint8Array(f.buffer, f.byteOffset, f.byteLength));
    const st = W.jsa_grid_set_terrains(this._ptr, p);
    W.jsa_free(p);
    check(st, 'Grid.setCosts');
    return this;
  }

  /** The terrain costs, row-major (a new Float32Array). */
  costs() {
    const n = this.width * this.height;
    const p = W.jsa_malloc(n * 4);
    if (!p) throw new AstarError(9, 'Grid.costs');
    W.jsa_grid_get_terrains(this._ptr, p);
    const out = M.f32.slice(p >> 2, (p >> 2) + n);
    W.jsa_free(p);
    return out;
  }

  /** The walls, row-major: 1 a wall, 0 walkable (a new Uint8Array). */
  walls() {
    const n = this.width * this.height;
    const p = W.jsa_malloc(n);
    if (!p) throw new AstarError(9, 'Grid.walls');
    W.jsa_grid_get_walls(this._ptr, p);
    const out = M.u8.slice(p, p + n);
    W.jsa_free(p);
    return out;
  }

  /** True once some terrain cost is not 1. */
  get hasTerrain() { return W.astar_grid_has_terrain(this._ptr) !== 0; }

  /** Every terrain cost back to 1. */
  clearTerrain() {
    W.astar_grid_clear_terrain(this._ptr);
    return this;
  }

  /** Walkable cells. */
  countWalkable() { return W.astar_grid_count_passable(this._ptr) >>> 0; }

  /** Edit counter: every change of a cell increases it by one. */
  get version() { return W.jsa_grid_version(this._ptr); }

  /** An independent copy (cells and terrain). */
  clone() { return Grid._fromHandle(handle(W.jsa_grid_clone(this._ptr), 'Grid.clone')); }
}
Grid._adopt = Symbol('adopt');
