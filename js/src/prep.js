// prep.js -- preparations a Finder can be given (astar/finder.h
// attachments): JpsPlus (jps-plus), Cpd (cpd), Hpa (hpa) and Landmarks (the
// landmark heuristic for astar and the engine's methods), each built for
// one grid (or a HexGrid / Graph: Landmarks) and its movement rules, saved
// to and loaded from a Uint8Array in the library's own formats.
//
// A preparation depends on its map (the map cannot be freed before it) and
// a finder on its preparations. After grid edits a preparation is stale:
// finders using it throw AstarError 'stale' until it is rebuilt (Hpa:
// sync()) and the finder refresh()ed.
import { W } from './wasm.js';
import { M } from './imports.js';
import { Native } from './native.js';
import { Grid, toWasm } from './grid.js';
import { P, R, LIMIT } from './params.js';
import { handle, check, freed, int, bool, object, knownKeys, AstarError } from './errors.js';
import { writeOptions } from './options.js';

const KIND = { jpsPlus: 0, cpd: 1, hpa: 2, landmarks: 3, subgoal: 4 };

function bytesArg(bytes, what) {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${what}: bytes must be a Uint8Array (from save()), not ${bytes === null ? 'null' : typeof bytes}`);
  return bytes;
}

function gridArg(grid, what) {
  if (!(grid instanceof Grid)) throw new TypeError(`${what}: grid must be a Grid`);
  if (grid.freed) throw freed(`${what}: grid`);
  return grid;
}

class Preparation extends Native {
  _init(ptr, kind, freeFn, map) {
    this._own(ptr, freeFn, map);
    this._prepKind = kind;
    this.map = map;
  }

  /** The preparation in the library's file format (the astar tool reads it too). */
  save() {
    if (!this._p) throw freed(this.constructor.name);
    const kind = KIND[this._prepKind];
    check(W.jsa_prep_save_size(kind, this._p), `${this.constructor.name}.save`);
    const n = M.f64[(W.jsa_result() >> 3) + R.length];
    const p = W.jsa_malloc(n);
    if (!p) throw new AstarError(9, `${this.constructor.name}.save`);
    const st = W.jsa_prep_save(kind, this._p, p, n);
    const out = M.u8.slice(p, p + n);
    W.jsa_free(p);
    check(st, `${this.constructor.name}.save`);
    return out;
  }
}

/** Load helper: copy bytes in, call the loader, free the copy. */
function load(fn, args, bytes, what) {
  const p = toWasm(bytes);
  const ret = W[fn](...args, p, bytes.length);
  W.jsa_free(p);
  return handle(ret, what);
}

/** Rule options a preparation is built for (a finder must use the same). */
const RULE_KEYS = ['moves', 'diagonal', 'corner', 'straightCost', 'diagonalCost'];
function rules(options, what, extra = []) {
  if (options !== undefined) {
    object(options, `${what}: options`);
    knownKeys(options, what, [...RULE_KEYS, ...extra]);
  }
  const o = {};
  for (const k of RULE_KEYS) if (options?.[k] !== undefined) o[k] = options[k];
  return writeOptions(o, what);
}

export class JpsPlus extends Preparation {
  /** The JPS+ jump table of `grid` (8 moves, no corner cutting, no terrain). */
  constructor(grid, _bytes) {
    super();
    gridArg(grid, 'JpsPlus');
    const ret = _bytes ? load('jsa_jps_plus_load', [grid._p], _bytes, 'JpsPlus.load') : handle(W.jsa_jps_plus_new(grid._p), 'JpsPlus');
    this._init(ret, 'jpsPlus', 'jsa_jps_plus_free', grid);
  }

  /** A table saved by save(), for the same grid (AstarError 'mismatch' otherwise). */
  static load(grid, bytes) {
    return new JpsPlus(gridArg(grid, 'JpsPlus.load'), bytesArg(bytes, 'JpsPlus.load'));
  }
}

export class Cpd extends Preparation {
  /**
   * The compressed path database of `grid` under the movement rules of
   * `options` (moves, corner, straightCost, diagonalCost): every first move
   * from every cell, built in O(cells^2) time -- for maps up to a few
   * hundred cells a side.
   */
  constructor(grid, options, _bytes) {
    super();
    gridArg(grid, 'Cpd');
    rules(options, 'Cpd');
    const ret = _bytes ? load('jsa_cpd_load', [grid._p], _bytes, 'Cpd.load') : handle(W.jsa_cpd_new(grid._p), 'Cpd');
    this._init(ret, 'cpd', 'jsa_cpd_free', grid);
  }

  static load(grid, bytes) {
    return new Cpd(gridArg(grid, 'Cpd.load'), undefined, bytesArg(bytes, 'Cpd.load'));
  }
}

export class Subgoal extends Preparation {
  /**
   * The subgoal graph of `grid` (astar/subgoal.h) for method 'subgoal': A*
   * over precomputed obstacle corners, optimal paths. options: the movement
   * rules (8 moves, no corner cutting, straightCost <= diagonalCost <
   * 2 straightCost; no terrain) and levels (1 the simple graph, 2
   * two-level, N at most N levels, 0 -- the default -- N-level).
   */
  constructor(grid, options, _bytes) {
    super();
    gridArg(grid, 'Subgoal');
    rules(options, 'Subgoal', ['levels']);
    const levels = options?.levels === undefined ? 0 : int(options.levels, 'Subgoal: levels', 0, 64);
    const ret = _bytes ? load('jsa_subgoal_load', [grid._p], _bytes, 'Subgoal.load') : handle(W.jsa_subgoal_new(grid._p, levels), 'Subgoal');
    this._init(ret, 'subgoal', 'jsa_subgoal_free', grid);
  }

  /** A graph saved by save(), for the same grid (AstarError 'mismatch' otherwise). */
  static load(grid, bytes) {
    return new Subgoal(gridArg(grid, 'Subgoal.load'), undefined, bytesArg(bytes, 'Subgoal.load'));
  }
}

const HPA_DEFAULTS = { clusterSize: 16, levels: 1, ratio: 2, wideEntrance: 6, smoothPaths: true };

export class Hpa extends Preparation {
  /**
   * The HPA* hierarchy of `grid`: options are the movement rules and
   * clusterSize (4 .. 64, default 16), levels (1 .. 4), ratio (2 .. 8),
   * wideEntrance (1 .. 65, default 6), smoothPaths (default true).
   */
  constructor(grid, options, _bytes) {
    super();
    gridArg(grid, 'Hpa');
    rules(options, 'Hpa', Object.keys(HPA_DEFAULTS));
    const h = { ...HPA_DEFAULTS };
    for (const k of Object.keys(HPA_DEFAULTS)) if (options?.[k] !== undefined) h[k] = options[k];
    const f = M.f64, p = W.jsa_params() >> 3;
    f[p + P.hpaCluster] = int(h.clusterSize, 'Hpa: clusterSize', LIMIT.hpaMinCluster, LIMIT.hpaMaxCluster);
    f[p + P.hpaLevels] = int(h.levels, 'Hpa: levels', 1, LIMIT.hpaMaxLevels);
    f[p + P.hpaRatio] = int(h.ratio, 'Hpa: ratio', 2, 8);
    f[p + P.hpaWideEntrance] = int(h.wideEntrance, 'Hpa: wideEntrance', 1, LIMIT.hpaMaxCluster + 1);
    f[p + P.hpaSmooth] = bool(h.smoothPaths, 'Hpa: smoothPaths') ? 1 : 0;
    if (h.clusterSize * h.ratio ** (h.levels - 1) > LIMIT.hpaMaxTopSide) {
      throw new RangeError(`Hpa: clusterSize * ratio^(levels - 1) must be at most ${LIMIT.hpaMaxTopSide}, not ${h.clusterSize * h.ratio ** (h.levels - 1)}`);
    }
    const ret = _bytes ? load('jsa_hpa_load', [grid._p], _bytes, 'Hpa.load') : handle(W.jsa_hpa_new(grid._p), 'Hpa');
    this._init(ret, 'hpa', 'jsa_hpa_free', grid);
  }

  /** A hierarchy saved by save(), for the same grid and movement rules (options). */
  static load(grid, bytes, options) {
    return new Hpa(gridArg(grid, 'Hpa.load'), options, bytesArg(bytes, 'Hpa.load'));
  }

  /** Rebuild the clusters the grid's edits touched; returns how many. */
  sync() {
    if (!this._p) throw freed('Hpa');
    check(W.jsa_hpa_sync(this._p, this.map._ptr), 'Hpa.sync');
    return M.f64[(W.jsa_result() >> 3) + R.length];
  }
}

export class Landmarks extends Preparation {
  /**
   * Landmark (ALT) distances for the landmark heuristic: of a Grid (with
   * its movement rules: moves, corner, costs), a HexGrid or a Graph.
   * count: 1 .. 64 landmarks (default 4).
   */
  constructor(map, options, _bytes) {
    super();
    if (options !== undefined) object(options, 'Landmarks: options');
    const count = options?.count ?? 4;
    const o = options ? { ...options } : {};
    delete o.count;
    let ret;
    if (map instanceof Grid) {
      rules(o, 'Landmarks', []);
      M.f64[(W.jsa_params() >> 3) + P.lmCount] = int(count, 'Landmarks: count', 1, LIMIT.landmarksMax);
      ret = _bytes ? load('jsa_landmarks_load_grid', [map._p], _bytes, 'Landmarks.load') : handle(W.jsa_landmarks_new_grid(map._p), 'Landmarks');
    } else if (map && typeof map._space === 'function') {
      knownKeys(o, 'Landmarks (of a space)', []);
      M.f64[(W.jsa_params() >> 3) + P.lmCount] = int(count, 'Landmarks: count', 1, LIMIT.landmarksMax);
      map._space();
      ret = _bytes ? load('jsa_landmarks_load_space', [], _bytes, 'Landmarks.load') : handle(W.jsa_landmarks_new_space(), 'Landmarks');
    } else {
      throw new TypeError('Landmarks: map must be a Grid, a HexGrid or a Graph');
    }
    this._init(ret, 'landmarks', 'jsa_landmarks_free', map);
  }

  static load(map, bytes, options) {
    return new Landmarks(map, options, bytesArg(bytes, 'Landmarks.load'));
  }
}
