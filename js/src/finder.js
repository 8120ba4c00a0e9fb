// finder.js -- Finder: one prepared query (astar/finder.h) for every
// method, and methods(), the library's method table.
//
// The options are checked once, here; every search afterwards is one call
// into the module on the finder's own workspace, its figures and path read
// back from the binding's result block and path buffer through typed
// arrays (no allocation in the module per query).
import { W } from './wasm.js';
import { M } from './imports.js';
import { Native } from './native.js';
import { Grid } from './grid.js';
import { Mesh, NavMesh, point } from './mesh.js';
import { R, STATUS, S, MF, ATTACH } from './params.js';
import { AstarError, handle, cstring, freed } from './errors.js';
import { writeOptions, PREP_KEYS } from './options.js';

const KIND_POINTS = 0, KIND_VEC = 1, KIND_NODES = 2, KIND_MESH = 3;

/** The result block's index in M.f64: a static array, so its address never moves. */
const RES = W.jsa_result() >> 3;

/** Outcomes findPath() answers with an empty path instead of an exception. */
const NO_PATH_STATUSES = new Set([S['no-path'], S['limit-reached'], S['start-blocked'], S['goal-blocked'], S.stopped]);

function bits(mask, table) {
  return Object.keys(table).filter((k) => mask & table[k]);
}

let methodList = null;

/**
 * The library's methods (astar_method_info rows), in table order: their
 * names are what Finder's `method` option takes.
 * @returns {{name: string, summary: string, work: string, optimal: boolean, bounded: boolean,
 *   sliced: boolean, grid: boolean, space: boolean, anyAngle: boolean, terrain: boolean,
 *   vec: boolean, needs: string[], takes: string[]}[]}
 */
export function methods() {
  if (!methodList) {
    methodList = [];
    for (let m = 0, n = W.jsa_method_count(); m < n; m++) {
      const flags = W.jsa_method_flags(m);
      methodList.push(Object.freeze({
        name: cstring(W.jsa_method_name(m)),
        summary: cstring(W.jsa_method_summary(m)),
        work: cstring(W.jsa_method_work(m)),
        optimal: !!(flags & MF.optimal), bounded: !!(flags & MF.bounded),
        sliced: !!(flags & MF.sliced), grid: !!(flags & MF.grid), space: !!(flags & MF.space),
        anyAngle: !!(flags & MF.anyAngle), terrain: !!(flags & MF.terrain), vec: !!(flags & MF.vec),
        mesh: !!(flags & MF.mesh),
        needs: Object.freeze(bits(W.jsa_method_needs(m), ATTACH)),
        takes: Object.freeze(bits(W.jsa_method_takes(m), ATTACH)),
      }));
    }
    Object.freeze(methodList);
  }
  return methodList;
}

export class Finder extends Native {
  /**
   * Prepare a query: the method, the map it searches and the options,
   * checked once.
   * @param {Grid|import('./space.js').HexGrid|import('./space.js').Graph} map
   * @param {object} [options] see README "Options"
   */
  constructor(map, options) {
    super();
    const o = writeOptions(options, 'Finder', PREP_KEYS);
    const prep = {};
    for (const k of PREP_KEYS) {
      const v = options?.[k];
      if (v === undefined || v === null) { prep[k] = 0; continue; }
      if (!v || typeof v._prepKind !== 'string' || v._prepKind !== k) {
        throw new TypeError(`Finder: ${k} must be a ${k === 'jpsPlus' ? 'JpsPlus' : k[0].toUpperCase() + k.slice(1)} made for this map`);
      }
      if (v.freed) throw freed(`Finder: ${k}`);
      prep[k] = v._p;
    }
    let ret;
    let owner = map;
    if (map instanceof Mesh || map instanceof NavMesh) {
      for (const k of PREP_KEYS) {
        if (prep[k]) throw new TypeError(`Finder: ${k} is for a Grid, not a ${map.constructor.name}`);
      }
      const mesh = map instanceof NavMesh ? map.mesh : map;
      owner = mesh._builder ?? mesh;
      ret = W.jsa_finder_new_mesh(mesh._ptr);
      this._mesh = mesh;
    } else if (map instanceof Grid) {
      this._kind = null;
      ret = W.jsa_finder_new(map._ptr, prep.jpsPlus, prep.cpd, prep.hpa, prep.landmarks, prep.subgoal);
    } else if (map && typeof map._newFinder === 'function') {
      for (const k of ['jpsPlus', 'cpd', 'hpa', 'subgoal']) {
        if (prep[k]) throw new TypeError(`Finder: ${k} is for a Grid, not a ${map.constructor.name}`);
      }
      ret = map._newFinder(prep.landmarks);
    } else {
      throw new TypeError(`Finder: map must be a Grid, a HexGrid, a Graph, a Mesh or a NavMesh, not ${map === null ? 'null' : typeof map === 'object' ? map.constructor?.name ?? 'an object' : typeof map}`);
    }
    const preps = options ? PREP_KEYS.map((k) => options[k]).filter(Boolean) : [];
    this._own(handle(ret, `Finder (method '${o.method}')`), 'jsa_finder_free', owner, ...preps);
    this.map = map;
    this.method = o.method;
    this.options = Object.freeze(o);
    this._prep = preps;
    this._pathKind = W.jsa_finder_kind(this._p);
    this._spaceCheck = map instanceof Grid || this._mesh ? null : map;
  }

  _search(sx, sy, gx, gy, what) {
    const h = this._p;
    if (!h) throw freed('Finder');
    const map = this.map;
    if (this._mesh) {
      // findPath([x, y], [x, y]), or (sx, sy, gx, gy)
      let s, g;
      if (gx === undefined && gy === undefined) {
        s = point(sx, `Finder.${what}: start`);
        g = point(sy, `Finder.${what}: goal`);
      } else {
        s = point([sx, sy], `Finder.${what}: start`);
        g = point([gx, gy], `Finder.${what}: goal`);
      }
      const mp = this._mesh._ptr;
      if (!mp) throw freed('Finder: its Mesh');
      return W.jsa_find_points(h, s[0], s[1], g[0], g[1]);
    }
    if (this._spaceCheck === null) {
      const w = map.width, hh = map.height;
      if (!(Number.isInteger(sx) && sx >= 0 && sx < w) || !(Number.isInteger(sy) && sy >= 0 && sy < hh) ||
          !(Number.isInteger(gx) && gx >= 0 && gx < w) || !(Number.isInteger(gy) && gy >= 0 && gy < hh)) {
        map._xy(sx, sy, `Finder.${what}: start`);
        map._xy(gx, gy, `Finder.${what}: goal`);
      }
      if (!map._p) throw freed('Finder: its Grid');
      return W.jsa_find(h, sx, sy, gx, gy);
    }
    const [s, g] = map._nodes(sx, sy, gx, gy, `Finder.${what}`);
    return W.jsa_find(h, s, 0, g, 0);
  }

  /**
   * The path from (sx, sy) to (gx, gy) as [[x, y], ...], start and goal
   * included; [] when there is none (walls, blocked ends, an expansion
   * limit). Any-angle methods give their bends; Anya's are grid corners
   * (fractional). On a HexGrid, (x, y) are offset coordinates; on a
   * Graph, findPath(start, goal) gives node ids [n, ...].
   */
  findPath(sx, sy, gx, gy) {
    const st = this._search(sx, sy, gx, gy, 'findPath');
    if (st !== 0 && st !== S.partial) {
      if (NO_PATH_STATUSES.has(st)) return [];
      throw new AstarError(st, `Finder.findPath (${this.method})`);
    }
    return this._path(M.f64[RES + R.length]);
  }

  /**
   * The path as a flat array [x0, y0, x1, y1, ...] (an Int32Array; a
   * Float64Array for Anya; node ids for a Graph); empty when none.
   */
  findPathFlat(sx, sy, gx, gy) {
    const st = this._search(sx, sy, gx, gy, 'findPathFlat');
    if (st !== 0 && st !== S.partial) {
      if (NO_PATH_STATUSES.has(st)) return this._pathKind === KIND_VEC || this._pathKind === KIND_MESH ? new Float64Array(0) : new Int32Array(0);
      throw new AstarError(st, `Finder.findPathFlat (${this.method})`);
    }
    const n = M.f64[RES + R.length];
    const p = W.jsa_path_ptr();
    if (this._pathKind === KIND_POINTS) return M.i32.slice(p >> 2, (p >> 2) + 2 * n);
    if (this._pathKind === KIND_VEC || this._pathKind === KIND_MESH) return M.f64.slice(p >> 3, (p >> 3) + 2 * n);
    return this._flatNodes(p, n);
  }

  _flatNodes(p, n) {
    const nodes = M.u32.slice(p >> 2, (p >> 2) + n);
    return this.map._flat ? this.map._flat(nodes) : nodes;
  }

  _path(n) {
    const p = W.jsa_path_ptr();
    const out = new Array(n);
    if (this._pathKind === KIND_POINTS) {
      const a = M.i32;
      for (let i = 0, k = p >> 2; i < n; i++, k += 2) out[i] = [a[k], a[k + 1]];
    } else if (this._pathKind === KIND_VEC || this._pathKind === KIND_MESH) {
      const a = M.f64;
      for (let i = 0, k = p >> 3; i < n; i++, k += 2) out[i] = [a[k], a[k + 1]];
    } else {
      return this.map._pathOf(M.u32.slice(p >> 2, (p >> 2) + n));
    }
    return out;
  }

  /**
   * One search with everything it produced: { status, ok, path, cost,
   * length, expanded, generated, reopened, maxOpen, work, end, ... }.
   * Search outcomes (no path, limit reached, blocked ends) are statuses
   * here, not exceptions.
   */
  find(sx, sy, gx, gy) {
    const st = this._search(sx, sy, gx, gy, 'find');
    const r = RES;
    const f = M.f64;
    const hasPath = st === 0 || st === S.partial;
    if (!hasPath && !NO_PATH_STATUSES.has(st)) throw new AstarError(st, `Finder.find (${this.method})`);
    const length = hasPath ? f[r + R.length] : 0;
    const res = {
      status: STATUS[st],
      ok: st === 0,
      cause: STATUS[f[r + R.cause]],
      path: hasPath ? this._path(length) : [],
      cost: f[r + R.cost],
      length,
      expanded: f[r + R.expanded],
      generated: f[r + R.generated],
      reopened: f[r + R.reopened],
      maxOpen: f[r + R.maxOpen],
      work: f[r + R.work],
      end: null,
      retargeted: f[r + R.retargeted] !== 0,
      dropped: f[r + R.dropped],
      iterations: f[r + R.iterations],
      sightChecks: f[r + R.sightChecks],
      abstractExpanded: f[r + R.abstractExpanded],
      abstractLength: f[r + R.abstractLength],
      gridCost: f[r + R.gridCost],
      corridor: f[r + R.corridor],
    };
    if (this._mesh) {
      if (hasPath) res.end = res.path[length - 1];
    } else if (this._spaceCheck === null) {
      if (f[r + R.endX] >= 0) res.end = [f[r + R.endX], f[r + R.endY]];
    } else if (f[r + R.endNode] >= 0) {
      res.end = this.map._pathOf(Uint32Array.of(f[r + R.endNode]))[0];
    }
    return res;
  }

  /**
   * After grid edits, bring a finder with preparations up to date: update
   * the preparations first (Hpa.sync(), or new ones), then refresh().
   * A finder without preparations follows the grid by itself.
   */
  refresh() {
    if (!this._p) throw freed('Finder');
    const st = W.jsa_finder_refresh(this._p);
    if (st !== 0) throw new AstarError(st, 'Finder.refresh');
    return this;
  }
}
