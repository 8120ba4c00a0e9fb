// space.js -- maps the engine's methods search besides the square grid:
// HexGrid (astar/hex.h) and Graph (astar/graph.h). A Finder on them takes
// the methods with `space: true` in methods() (astar, dijkstra, greedy,
// bidir, ida, beam, dynamic, bandwidth, f2f, retarget, fringe).
import { W } from './wasm.js';
import { M } from './imports.js';
import { Native } from './native.js';
import { toWasm } from './grid.js';
import { LIMIT } from './params.js';
import { check, handle, int, num, bool, oneOf, object, knownKeys, freed, AstarError } from './errors.js';

export class HexGrid extends Native {
  /**
   * A width x height hex grid in offset coordinates (x column, y row).
   * options.orientation: 'pointy' (default: rows of hexagons) or 'flat';
   * options.layout: 'odd' (default: odd rows / columns shoved) or 'even'.
   */
  constructor(width, height, options) {
    super();
    int(width, 'HexGrid: width', 1, LIMIT.gridMaxSide);
    int(height, 'HexGrid: height', 1, LIMIT.gridMaxSide);
    if (width * height > LIMIT.gridMaxCells) throw new RangeError(`HexGrid: width * height must be at most ${LIMIT.gridMaxCells} cells`);
    if (options !== undefined) {
      object(options, 'HexGrid: options');
      knownKeys(options, 'HexGrid', ['orientation', 'layout']);
    }
    this.orientation = options?.orientation ?? 'pointy';
    this.layout = options?.layout ?? 'odd';
    const o = oneOf(this.orientation, 'HexGrid: orientation', ['pointy', 'flat']);
    const l = oneOf(this.layout, 'HexGrid: layout', ['odd', 'even']);
    this._own(handle(W.jsa_hex_new(width, height, o, l), 'HexGrid'), 'jsa_hex_free');
    this.width = width;
    this.height = height;
  }

  get _ptr() {
    if (!this._p) throw freed('HexGrid');
    return this._p;
  }

  _xy(x, y, what) {
    int(x, `${what}: x`, 0, this.width - 1);
    int(y, `${what}: y`, 0, this.height - 1);
  }

  isWalkable(x, y) { return W.jsa_hex_passable(this._ptr, x, y) !== 0; }

  setWalkable(x, y, walkable) {
    this._xy(x, y, 'HexGrid.setWalkable');
    bool(walkable, 'HexGrid.setWalkable: walkable');
    check(W.jsa_hex_set_passable(this._ptr, x, y, walkable ? 1 : 0), 'HexGrid.setWalkable');
    return this;
  }

  setCost(x, y, cost) {
    this._xy(x, y, 'HexGrid.setCost');
    num(cost, 'HexGrid.setCost: cost', 0, LIMIT.terrainMax, true);
    check(W.jsa_hex_set_terrain(this._ptr, x, y, cost), 'HexGrid.setCost');
    return this;
  }

  getCost(x, y) {
    this._xy(x, y, 'HexGrid.getCost');
    return W.jsa_hex_terrain(this._ptr, x, y);
  }

  _space() { check(W.jsa_hex_space(this._ptr), 'HexGrid'); }

  _newFinder(landmarks) {
    this._space();
    return W.jsa_finder_new_space(landmarks);
  }

  _nodes(sx, sy, gx, gy, what) {
    this._xy(sx, sy, `${what}: start`);
    this._xy(gx, gy, `${what}: goal`);
    return [sy * this.width + sx, gy * this.width + gx];
  }

  _pathOf(nodes) {
    const w = this.width;
    return Array.from(nodes, (n) => [n % w, Math.floor(n / w)]);
  }

  _flat(nodes) {
    const out = new Int32Array(2 * nodes.length), w = this.width;
    for (let i = 0; i < nodes.length; i++) { out[2 * i] = nodes[i] % w; out[2 * i + 1] = Math.floor(nodes[i] / w); }
    return out;
  }
}

const GRAPH_H = ['none', 'euclidean', 'octile', 'manhattan', 'chebyshev'];

export class Graph extends Native {
  /**
   * A graph of `nodes` nodes (ids 0 .. nodes-1) and its edges, either
   * [[from, to, cost], ...] or { from, to, cost } arrays (typed arrays
   * welcome). options.directed (default false: every edge both ways);
   * options.coords: [[x, y], ...] or a flat array of nodes * dims values
   * with options.dims (2 or 3), for the heuristic (options.heuristic:
   * 'euclidean' (default with coords), 'octile', 'manhattan', 'chebyshev',
   * 'none').
   */
  constructor(nodes, edges, options) {
    super();
    int(nodes, 'Graph: nodes', 1, 2 ** 31);
    if (options !== undefined) {
      object(options, 'Graph: options');
      knownKeys(options, 'Graph', ['directed', 'coords', 'dims', 'heuristic']);
    }
    const directed = options?.directed === undefined ? false : bool(options.directed, 'Graph: directed');
    let from, to, cost;
    if (Array.isArray(edges)) {
      const n = edges.length;
      from = new Uint32Array(n); to = new Uint32Array(n); cost = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const e = edges[i];
        if (!Array.isArray(e) || e.length !== 3) throw new TypeError(`Graph: edges[${i}] must be [from, to, cost]`);
        from[i] = int(e[0], `Graph: edges[${i}][0] (from)`, 0, nodes - 1);
        to[i] = int(e[1], `Graph: edges[${i}][1] (to)`, 0, nodes - 1);
        cost[i] = num(e[2], `Graph: edges[${i}][2] (cost)`, 0, 1e15);
      }
    } else if (edges && typeof edges === 'object' && edges.from && edges.to && edges.cost) {
      const n = edges.from.length;
      for (const k of ['to', 'cost']) {
        if (edges[k].length !== n) throw new RangeError(`Graph: edges.${k} must have edges.from's length ${n}, not ${edges[k].length}`);
      }
      from = Uint32Array.from(edges.from); to = Uint32Array.from(edges.to); cost = Float64Array.from(edges.cost);
      for (let i = 0; i < n; i++) {
        if (!(edges.from[i] >= 0 && edges.from[i] < nodes && Number.isInteger(edges.from[i]))) int(edges.from[i], `Graph: edges.from[${i}]`, 0, nodes - 1);
        if (!(edges.to[i] >= 0 && edges.to[i] < nodes && Number.isInteger(edges.to[i]))) int(edges.to[i], `Graph: edges.to[${i}]`, 0, nodes - 1);
        if (!(cost[i] >= 0 && cost[i] <= 1e15)) num(edges.cost[i], `Graph: edges.cost[${i}]`, 0, 1e15);
      }
    } else {
      throw new TypeError('Graph: edges must be [[from, to, cost], ...] or { from, to, cost } arrays');
    }
    const n = from.length;
    const pf = toWasm(new Uint8Array(from.buffer)), pt = toWasm(new Uint8Array(to.buffer));
    const pc = toWasm(new Uint8Array(cost.buffer));
    const ret = W.jsa_graph_new(nodes, pf, pt, pc, n, directed ? 0 : 1);
    W.jsa_free(pf); W.jsa_free(pt); W.jsa_free(pc);
    this._own(handle(ret, 'Graph'), 'jsa_graph_free');
    this.nodes = nodes;
    this.edges = n;
    this.directed = directed;
    if (options?.coords !== undefined) {
      let dims = options.dims, flat;
      if (Array.isArray(options.coords) && Array.isArray(options.coords[0])) {
        dims ??= options.coords[0].length;
        if (options.coords.length !== nodes) throw new RangeError(`Graph: coords must have one point per node (${nodes}), not ${options.coords.length}`);
        flat = new Float64Array(nodes * dims);
        options.coords.forEach((c, i) => {
          if (!Array.isArray(c) || c.length !== dims) throw new RangeError(`Graph: coords[${i}] must have ${dims} values`);
          for (let k = 0; k < dims; k++) flat[i * dims + k] = num(c[k], `Graph: coords[${i}][${k}]`, -Number.MAX_VALUE, Number.MAX_VALUE);
        });
      } else {
        dims ??= 2;
        flat = Float64Array.from(options.coords);
        if (flat.length !== nodes * dims) throw new RangeError(`Graph: coords must have nodes * dims = ${nodes * dims} values, not ${flat.length}`);
      }
      oneOf(dims, 'Graph: dims', [2, 3]);
      const p = toWasm(new Uint8Array(flat.buffer));
      const st = W.jsa_graph_set_coords(this._p, dims, p);
      W.jsa_free(p);
      check(st, 'Graph: coords');
    }
    if (options?.heuristic !== undefined) {
      if (options.coords === undefined && options.heuristic !== 'none') throw new TypeError('Graph: heuristic needs coords');
      check(W.jsa_graph_set_heuristic(this._p, oneOf(options.heuristic, 'Graph: heuristic', GRAPH_H), -1), 'Graph: heuristic');
    }
  }

  get _ptr() {
    if (!this._p) throw freed('Graph');
    return this._p;
  }

  _space() { check(W.jsa_graph_space(this._ptr), 'Graph'); }

  _newFinder(landmarks) {
    this._space();
    return W.jsa_finder_new_space(landmarks);
  }

  _nodes(s, g, gx, gy, what) {
    int(s, `${what}: start`, 0, this.nodes - 1);
    int(g, `${what}: goal`, 0, this.nodes - 1);
    return [s, g];
  }

  _pathOf(nodes) { return Array.from(nodes); }
}
