// mesh.js -- navigation meshes (astar/mesh.h, astar/navmesh_build.h):
// Mesh (read, written, made from polygons, located in) and NavMesh (the
// builder: a grid's or a polygon map's mesh, an agent radius, obstacles
// added and removed later). A Finder on a Mesh or a NavMesh searches it with
// Polyanya (the Euclidean shortest path) or the funnel (A* over the polygons,
// then string pulling): finder.js.
import { W } from './wasm.js';
import { M } from './imports.js';
import { Native } from './native.js';
import { Grid, toWasm } from './grid.js';
import { AstarError, handle, num, bool, int, object, knownKeys, freed, cstring } from './errors.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Where a point is (Mesh.locate().place), by astar_mesh_place. */
export const PLACES = Object.freeze(['outside', 'inside', 'edge', 'vertex']);
/** Fault kinds (err.fault.kind), by astar_mesh_fault_kind. */
export const FAULTS = Object.freeze(['none', 'syntax', 'range', 'degenerate', 'not-convex', 'clockwise',
  'neighbour', 'overlap', 'loose-vertex', 'too-large']);

/** The last mesh fault as an object. */
function fault() {
  const f = (i) => W.jsa_mesh_fault_field(i);
  return {
    kind: FAULTS[f(0)] ?? String(f(0)), polygon: f(1), vertex: f(2), other: f(3), line: f(4), column: f(5),
    message: cstring(W.jsa_mesh_fault_message()),
  };
}

/** The error of a failed read or make: AstarError with .line, .column, .fault. */
function faultError(code, what) {
  const fl = fault();
  const where = fl.line ? `line ${fl.line}, column ${fl.column}: ` : '';
  const err = new AstarError(code, fl.message ? `${what}: ${where}${fl.message}` : what);
  err.line = fl.line;
  err.column = fl.column;
  err.fault = fl;
  return err;
}

/** Bytes of text (a string or bytes). */
function textBytes(text, what) {
  if (typeof text === 'string') return encoder.encode(text);
  if (text instanceof Uint8Array) return text;
  throw new TypeError(`${what}: text must be a string or a Uint8Array, not ${text === null ? 'null' : typeof text}`);
}

/** A finite number, named. */
function coord(v, name) {
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number, not ${typeof v}`);
  if (!Number.isFinite(v)) throw new RangeError(`${name} must be a finite number, not ${v}`);
  return v;
}

/** An [x, y] point of finite numbers. */
export function point(p, name) {
  if (!Array.isArray(p) && !ArrayBuffer.isView(p)) throw new TypeError(`${name} must be an [x, y] array, not ${p === null ? 'null' : typeof p}`);
  if (p.length !== 2) throw new RangeError(`${name} must be an [x, y] pair, not ${p.length} numbers`);
  return [coord(p[0], `${name}[0]`), coord(p[1], `${name}[1]`)];
}

/** Points [[x, y], ...] copied into a malloc block of doubles; the caller frees it. */
function pointsToWasm(points, name, minCount) {
  if (!Array.isArray(points)) throw new TypeError(`${name} must be an array of [x, y] points`);
  if (points.length < minCount) throw new RangeError(`${name} must have at least ${minCount} points, not ${points.length}`);
  const a = new Float64Array(2 * points.length);
  points.forEach((p, i) => { const [x, y] = point(p, `${name}[${i}]`); a[2 * i] = x; a[2 * i + 1] = y; });
  return toWasm(new Uint8Array(a.buffer));
}

export class Mesh extends Native {
  /** Use Mesh.fromText, Mesh.fromPolygons, Mesh.fromGrid or new NavMesh(...).mesh. */
  constructor(ptr, builder) {
    super();
    if (builder === undefined) {
      if (ptr !== Mesh._adopt) throw new TypeError('Mesh: make one with Mesh.fromText(text), Mesh.fromPolygons(vertices, polygons) or Mesh.fromGrid(grid)');
      return;
    }
    // A builder's mesh: borrowed, freed with its builder.
    this._p = ptr;
    this._builder = builder;
    this._deps = 0;
  }

  static _adopt = Symbol('adopt');

  static _owned(ptr) {
    const m = new Mesh(Mesh._adopt);
    m._own(ptr, 'jsa_mesh_free');
    return m;
  }

  /**
   * A mesh from Polyanya's mesh format (version 2, or 1). A malformed or
   * invalid mesh throws an AstarError ('parse-error') with .line, .column
   * and .fault (kind, polygon, vertex, message).
   */
  static fromText(text) {
    const bytes = textBytes(text, 'Mesh.fromText');
    const p = toWasm(bytes);
    let ret;
    try { ret = W.jsa_mesh_read(p, bytes.length); } finally { W.jsa_free(p); }
    if (ret <= 0) throw faultError(-ret, 'Mesh.fromText');
    return Mesh._owned(ret);
  }

  /**
   * A mesh from vertices [[x, y], ...] and polygons [[i, j, k, ...], ...]
   * (counter-clockwise by the cross product); neighbours from shared edges.
   */
  static fromPolygons(vertices, polygons) {
    if (!Array.isArray(polygons)) throw new TypeError('Mesh.fromPolygons: polygons must be an array of index arrays');
    const sizes = new Uint32Array(polygons.length);
    const flat = [];
    polygons.forEach((poly, i) => {
      if (!Array.isArray(poly)) throw new TypeError(`Mesh.fromPolygons: polygons[${i}] must be an array of vertex indices`);
      sizes[i] = poly.length;
      poly.forEach((k, j) => flat.push(int(k, `Mesh.fromPolygons: polygons[${i}][${j}]`, -(2 ** 31), 2 ** 31 - 1)));
    });
    const pv = pointsToWasm(vertices, 'Mesh.fromPolygons: vertices', 0);
    const ps = toWasm(new Uint8Array(sizes.buffer));
    const pi = toWasm(new Uint8Array(Int32Array.from(flat).buffer));
    let ret;
    try { ret = W.jsa_mesh_from_polygons(pv, vertices.length, ps, pi, polygons.length); } finally {
      W.jsa_free(pv); W.jsa_free(ps); W.jsa_free(pi);
    }
    if (ret <= 0) throw faultError(-ret, 'Mesh.fromPolygons');
    return Mesh._owned(ret);
  }

  /**
   * The mesh of a grid (NavMesh's: cells are unit squares, y down, Anya's
   * corner rule), copied out of its builder: new NavMesh(grid, options).mesh
   * keeps the builder for obstacles.
   */
  static fromGrid(grid, options) {
    const nm = new NavMesh(grid, options);
    try { return Mesh.fromText(nm.mesh.toText()); } finally { nm.free(); }
  }

  get _ptr() {
    if (!this._p || (this._builder && this._builder.freed)) throw freed('Mesh');
    return this._p;
  }

  /** Release an own mesh (a builder's is released with its builder). */
  free() {
    if (this._builder) { this._p = 0; return; }
    super.free();
  }

  /** The mesh in format version 2 (empty slots left out). */
  toText() {
    const n = W.jsa_mesh_write(this._ptr);
    if (n < 0) throw new AstarError(-n, 'Mesh.toText');
    const p = W.jsa_path_ptr();
    return decoder.decode(M.u8.subarray(p, p + n));
  }

  /** null when valid, else the first fault {kind, polygon, vertex, other, message}. */
  validate() {
    const st = W.jsa_mesh_validate(this._ptr);
    if (st === 0) return null;
    if (st !== 7) throw new AstarError(st, 'Mesh.validate');
    return fault();
  }

  /**
   * Which polygon holds [x, y]: {place: 'outside'|'inside'|'edge'|'vertex',
   * polygon (-1 outside; the smallest index on an edge or vertex), other
   * (the polygon across an edge), vertex}.
   */
  locate(p) {
    const [x, y] = point(p, 'Mesh.locate: point');
    W.jsa_mesh_locate(this._ptr, x, y);
    const a = W.jsa_mesh_location() >> 2;
    const i = M.i32;
    return { place: PLACES[i[a]], polygon: i[a + 1], other: i[a + 2], vertex: i[a + 3] };
  }

  get vertexCount() { return W.jsa_mesh_vertex_count(this._ptr); }
  /** Polygon slots, empty ones included. */
  get polygonCount() { return W.jsa_mesh_polygon_count(this._ptr); }
  get area() { return W.jsa_mesh_area(this._ptr); }
  /** Edits by its builder so far. */
  get version() { return W.jsa_mesh_version(this._ptr); }
  /** [[minX, minY], [maxX, maxY]] */
  get bounds() {
    const b = W.jsa_mesh_bounds(this._ptr) >> 3;
    const f = M.f64;
    return [[f[b], f[b + 1]], [f[b + 2], f[b + 3]]];
  }

  /** The vertices as [[x, y], ...]. */
  vertices() {
    const st = W.jsa_mesh_vertices(this._ptr);
    if (st < 0) throw new AstarError(-st, 'Mesh.vertices');
    const n = this.vertexCount;
    const p = W.jsa_path_ptr() >> 3;
    const f = M.f64;
    const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = [f[p + 2 * i], f[p + 2 * i + 1]];
    return out;
  }

  /** Polygon i: {vertices: [indices], neighbours: [polygon or -1]} ([] for an empty slot). */
  polygon(i) {
    int(i, 'Mesh.polygon: i', 0, Math.max(0, this.polygonCount - 1));
    const n = W.jsa_mesh_polygon(this._ptr, i);
    if (n < 0) throw new AstarError(-n, 'Mesh.polygon');
    const p = W.jsa_path_ptr() >> 2;
    return { vertices: Array.from(M.i32.subarray(p, p + n)), neighbours: Array.from(M.i32.subarray(p + n, p + 2 * n)) };
  }

  /** Every polygon slot's vertex indices ([] for an empty slot). */
  polygons() {
    const out = [];
    for (let i = 0, n = this.polygonCount; i < n; i++) out.push(this.polygon(i).vertices);
    return out;
  }
}

const BUILD_KEYS = ['radius', 'merge'];

function buildOptions(options, what) {
  if (options === undefined) options = {};
  object(options, `${what}: options`);
  knownKeys(options, what, BUILD_KEYS);
  const radius = options.radius === undefined ? 0 : num(options.radius, `${what}: radius`, 0, 1e6);
  const merge = options.merge === undefined ? true : bool(options.merge, `${what}: merge`);
  return { radius, merge };
}

export class NavMesh extends Native {
  /**
   * Build the navigation mesh of a Grid, or of a polygon map's text (the poly
   * format): constrained Delaunay triangulation, merged into convex polygons
   * (options.merge, default true), free space shrunk by options.radius
   * (0 .. 1e6). `.mesh` is the Mesh, edited in place by addObstacle and
   * removeObstacle (a Finder on it follows the edits).
   */
  constructor(source, options) {
    super();
    const o = buildOptions(options, 'NavMesh');
    let ret;
    if (source instanceof Grid) {
      ret = W.jsa_navmesh_from_grid(source._ptr, o.radius, o.merge ? 1 : 0);
      if (ret <= 0) throw new AstarError(-ret, -ret === 1 ? 'NavMesh: nothing is free in the grid' : 'NavMesh');
    } else if (typeof source === 'string' || source instanceof Uint8Array) {
      const bytes = textBytes(source, 'NavMesh');
      const p = toWasm(bytes);
      try { ret = W.jsa_navmesh_from_poly(p, bytes.length, o.radius, o.merge ? 1 : 0); } finally { W.jsa_free(p); }
      if (ret <= 0) throw faultError(-ret, 'NavMesh (polygon map)');
    } else {
      throw new TypeError(`NavMesh: source must be a Grid or polygon-map text, not ${source === null ? 'null' : typeof source}`);
    }
    this._own(handle(ret, 'NavMesh'), 'jsa_navmesh_free');
    this.radius = o.radius;
    this.merge = o.merge;
    this._mesh = new Mesh(W.jsa_navmesh_mesh(ret), this);
  }

  /** The mesh (owned by the builder). */
  get mesh() {
    if (!this._p) throw freed('NavMesh');
    return this._mesh;
  }

  /** Add an obstacle polygon [[x, y], ...] (>= 3 points); its id (from 1). */
  addObstacle(points) {
    if (!this._p) throw freed('NavMesh');
    const p = pointsToWasm(points, 'NavMesh.addObstacle: points', 3);
    let id;
    try { id = W.jsa_navmesh_add_obstacle(this._p, p, points.length); } finally { W.jsa_free(p); }
    if (id <= 0) throw new AstarError(-id, 'NavMesh.addObstacle: points must be a simple polygon');
    return id;
  }

  /** Remove obstacle `id`; an unknown id is an AstarError ('invalid-argument'). */
  removeObstacle(id) {
    if (!this._p) throw freed('NavMesh');
    int(id, 'NavMesh.removeObstacle: id', 1, 2 ** 32 - 1);
    const st = W.jsa_navmesh_remove_obstacle(this._p, id);
    if (st !== 0) throw new AstarError(st, `NavMesh.removeObstacle: no obstacle ${id}`);
    return this;
  }

  /** What the build and the last edit did. */
  get stats() {
    if (!this._p) throw freed('NavMesh');
    const s = (i) => W.jsa_navmesh_stat(this._p, i);
    return {
      constraints: s(0), triangles: s(1), freeTriangles: s(2), polygons: s(3), removed: s(4),
      added: s(5), memory: s(6),
    };
  }

  free() {
    super.free();
    if (this._mesh) this._mesh._p = 0;
  }
}


