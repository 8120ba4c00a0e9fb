// Type declarations of the libastar npm package (js/src). Checked by
// js/tests/types/usage.ts (tsc --noEmit) in js/scripts/test.sh.

/** astar_status names (astar/base.h). */
export type Status =
  | 'ok' | 'no-path' | 'limit-reached' | 'start-blocked' | 'goal-blocked' | 'buffer-too-small'
  | 'out-of-bounds' | 'invalid-argument' | 'too-large' | 'no-memory' | 'parse-error' | 'unsupported'
  | 'capacity' | 'in-progress' | 'partial' | 'stopped' | 'stale' | 'turns-not-reserved' | 'queue-full'
  | 'mismatch' | 'expired';

export declare const STATUS: readonly Status[];
/** The library's version, "0.1.0". */
export declare const version: string;

/** A status the library returned. */
export declare class AstarError extends Error {
  readonly name: 'AstarError';
  /** The status by name. */
  readonly status: Status;
  /** The astar_status number. */
  readonly code: number;
  /** Grid.fromMap: where the text is malformed (1-based). */
  readonly line?: number;
  readonly column?: number;
}

/** An object owning memory in the WebAssembly module. */
declare class Native {
  /** Release it now (idempotent). Throws while objects made from it are alive. */
  free(): void;
  /** True once freed. */
  readonly freed: boolean;
  [Symbol.dispose](): void;
}

export type Point = [x: number, y: number];

export declare class Grid extends Native {
  constructor(width: number, height: number);
  static fromArray(matrix: ArrayLike<ArrayLike<number | boolean>>): Grid;
  static fromWalls(width: number, height: number, walls: ArrayLike<number | boolean>): Grid;
  static fromMap(text: string | Uint8Array): Grid;
  readonly width: number;
  readonly height: number;
  isInside(x: number, y: number): boolean;
  isWalkable(x: number, y: number): boolean;
  setWalkable(x: number, y: number, walkable: boolean): this;
  fill(walkable: boolean): this;
  setCost(x: number, y: number, cost: number): this;
  getCost(x: number, y: number): number;
  setCosts(costs: ArrayLike<number>): this;
  costs(): Float32Array;
  walls(): Uint8Array;
  readonly hasTerrain: boolean;
  clearTerrain(): this;
  countWalkable(): number;
  readonly version: number;
  clone(): Grid;
}

export declare class HexGrid extends Native {
  constructor(width: number, height: number, options?: { orientation?: 'pointy' | 'flat'; layout?: 'odd' | 'even' });
  readonly width: number;
  readonly height: number;
  readonly orientation: 'pointy' | 'flat';
  readonly layout: 'odd' | 'even';
  isWalkable(x: number, y: number): boolean;
  setWalkable(x: number, y: number, walkable: boolean): this;
  setCost(x: number, y: number, cost: number): this;
  getCost(x: number, y: number): number;
}

export interface GraphOptions {
  directed?: boolean;
  coords?: ArrayLike<number> | ArrayLike<number>[];
  dims?: 2 | 3;
  heuristic?: 'none' | 'euclidean' | 'octile' | 'manhattan' | 'chebyshev';
}

export declare class Graph extends Native {
  constructor(nodes: number,
    edges: [from: number, to: number, cost: number][] | { from: ArrayLike<number>; to: ArrayLike<number>; cost: ArrayLike<number> },
    options?: GraphOptions);
  readonly nodes: number;
  readonly edges: number;
  readonly directed: boolean;
}

export type MethodName =
  | 'astar' | 'dijkstra' | 'greedy' | 'bidir' | 'ida' | 'beam' | 'dynamic' | 'bandwidth' | 'f2f'
  | 'retarget' | 'jps' | 'jps-plus' | 'cpd' | 'hpa' | 'theta' | 'lazy-theta' | 'anya' | 'fringe'
  | 'subgoal'
  | (string & {});

export type Attachment = 'jpsPlus' | 'cpd' | 'hpa' | 'landmarks' | 'table' | 'waypoints' | 'subgoal';

export interface MethodInfo {
  readonly name: string;
  readonly summary: string;
  readonly work: string;
  readonly optimal: boolean;
  readonly bounded: boolean;
  readonly sliced: boolean;
  readonly grid: boolean;
  readonly space: boolean;
  readonly anyAngle: boolean;
  readonly terrain: boolean;
  readonly vec: boolean;
  /** Searches a navigation mesh (Finder(mesh, {method})): polyanya, funnel. */
  readonly mesh: boolean;
  readonly needs: readonly Attachment[];
  readonly takes: readonly Attachment[];
}
export declare function methods(): readonly MethodInfo[];

/** Movement rules (a preparation is built for them; its finder must use the same). */
export interface Rules {
  moves?: 4 | 8;
  diagonal?: boolean;
  corner?: 'no-cut' | 'always' | 'one-side' | 'never';
  straightCost?: number;
  diagonalCost?: number;
}

export interface SearchOptions extends Rules {
  method?: MethodName;
  heuristic?: 'auto' | 'octile' | 'manhattan' | 'chebyshev' | 'euclidean' | 'zero';
  weight?: number;
  tie?: 'larger-g' | 'newest' | 'cross';
  reopen?: 'auto' | 'always' | 'never';
  maxExpansions?: number;
  openSet?: 'auto' | 'heap4' | 'heap2' | 'bucket';
  partial?: boolean;
  smooth?: boolean;
  unitSize?: number;
  maxCost?: number;
  terrainScale?: number;
  turnPenalty?: number;
  heuristicFloor?: number;
  beamWidth?: number;
  epsilon?: number;
  bandE?: number;
  bandD?: number;
  idaTranspositions?: boolean;
  retargetInterval?: number;
}

export interface FinderOptions extends SearchOptions {
  jpsPlus?: JpsPlus;
  cpd?: Cpd;
  hpa?: Hpa;
  landmarks?: Landmarks;
  subgoal?: Subgoal;
}

export interface FindResult<P> {
  status: Status;
  ok: boolean;
  cause: Status;
  path: P[];
  cost: number;
  length: number;
  expanded: number;
  generated: number;
  reopened: number;
  maxOpen: number;
  work: number;
  end: P | null;
  retargeted: boolean;
  dropped: number;
  iterations: number;
  sightChecks: number;
  abstractExpanded: number;
  abstractLength: number;
  gridCost: number;
  /** funnel: polygons of the corridor A* found (else 0). */
  corridor: number;
}

export declare class Finder<M extends Grid | HexGrid | Graph | Mesh | NavMesh = Grid> extends Native {
  constructor(map: M, options?: FinderOptions);
  readonly map: M;
  readonly method: string;
  readonly options: Readonly<Required<SearchOptions>>;
  /** Mesh / NavMesh (method 'polyanya' or 'funnel'): the start, the bends and the goal. */
  findPath(start: Point, goal: Point): M extends Mesh | NavMesh ? Point[] : never;
  findPathFlat(start: Point, goal: Point): M extends Mesh | NavMesh ? Float64Array : never;
  find(start: Point, goal: Point): M extends Mesh | NavMesh ? FindResult<Point> : never;
  /** Grid / HexGrid: [[x, y], ...]; Graph: findPath(start, goal) -> node ids. */
  findPath(sx: number, sy: number, gx: number, gy: number): Point[];
  findPath(start: number, goal: number): M extends Graph ? number[] : never;
  findPathFlat(sx: number, sy: number, gx: number, gy: number): Int32Array | Float64Array | Uint32Array;
  findPathFlat(start: number, goal: number): Uint32Array;
  find(sx: number, sy: number, gx: number, gy: number): FindResult<Point>;
  find(start: number, goal: number): FindResult<number>;
  refresh(): this;
}

/** Where a point is (Mesh.locate). */
export type MeshPlace = 'outside' | 'inside' | 'edge' | 'vertex';
export interface MeshLocation {
  place: MeshPlace;
  /** The smallest-index polygon whose closure holds the point; -1 outside. */
  polygon: number;
  /** On an edge: the polygon across it (-1 at a border). */
  other: number;
  /** On a vertex: the vertex. */
  vertex: number;
}
/** What is wrong with a mesh (Mesh.validate, and .fault of a read error). */
export interface MeshFault {
  kind: 'none' | 'syntax' | 'range' | 'degenerate' | 'not-convex' | 'clockwise' | 'neighbour'
    | 'overlap' | 'loose-vertex' | 'too-large' | string;
  polygon: number;
  vertex: number;
  other: number;
  line: number;
  column: number;
  message: string;
}
/** A navigation mesh (astar/mesh.h): convex polygons covering the free space. */
export declare class Mesh extends Native {
  private constructor();
  /** Polyanya's mesh format (version 2 or 1); AstarError 'parse-error' with line, column, fault. */
  static fromText(text: string | Uint8Array): Mesh;
  static fromPolygons(vertices: Point[], polygons: number[][]): Mesh;
  /** A copy of new NavMesh(grid, options).mesh. */
  static fromGrid(grid: Grid, options?: NavMeshOptions): Mesh;
  toText(): string;
  validate(): MeshFault | null;
  locate(point: Point): MeshLocation;
  readonly vertexCount: number;
  readonly polygonCount: number;
  readonly area: number;
  readonly version: number;
  readonly bounds: [Point, Point];
  vertices(): Point[];
  polygon(i: number): { vertices: number[]; neighbours: number[] };
  polygons(): number[][];
}
export interface NavMeshOptions {
  /** Agent radius, 0 .. 1e6 (default 0). */
  radius?: number;
  /** Merge the triangles into convex polygons (default true). */
  merge?: boolean;
}
export interface NavMeshStats {
  constraints: number;
  triangles: number;
  freeTriangles: number;
  polygons: number;
  removed: number;
  added: number;
  memory: number;
}
/** A navigation-mesh builder (astar/navmesh_build.h): a grid's or a polygon map's mesh. */
export declare class NavMesh extends Native {
  constructor(source: Grid | string | Uint8Array, options?: NavMeshOptions);
  readonly mesh: Mesh;
  readonly radius: number;
  readonly merge: boolean;
  readonly stats: NavMeshStats;
  /** An obstacle polygon (>= 3 points); its id. */
  addObstacle(points: Point[]): number;
  removeObstacle(id: number): this;
}

export declare class JpsPlus extends Native {
  constructor(grid: Grid);
  static load(grid: Grid, bytes: Uint8Array): JpsPlus;
  save(): Uint8Array;
  readonly map: Grid;
}
export declare class Cpd extends Native {
  constructor(grid: Grid, options?: Rules);
  static load(grid: Grid, bytes: Uint8Array): Cpd;
  save(): Uint8Array;
  readonly map: Grid;
}
export interface SubgoalOptions extends Rules {
  /** 1: the simple graph, 2: two-level, N: at most N levels, 0 (default): N-level. */
  levels?: number;
}
export declare class Subgoal extends Native {
  constructor(grid: Grid, options?: SubgoalOptions);
  static load(grid: Grid, bytes: Uint8Array): Subgoal;
  save(): Uint8Array;
  readonly map: Grid;
}
export interface HpaOptions extends Rules {
  clusterSize?: number;
  levels?: number;
  ratio?: number;
  wideEntrance?: number;
  smoothPaths?: boolean;
}
export declare class Hpa extends Native {
  constructor(grid: Grid, options?: HpaOptions);
  static load(grid: Grid, bytes: Uint8Array, options?: Rules): Hpa;
  save(): Uint8Array;
  /** Rebuild the clusters the grid's edits touched; how many. */
  sync(): number;
  readonly map: Grid;
}
export declare class Landmarks extends Native {
  constructor(map: Grid | HexGrid | Graph, options?: Rules & { count?: number });
  static load(map: Grid | HexGrid | Graph, bytes: Uint8Array, options?: Rules): Landmarks;
  save(): Uint8Array;
  readonly map: Grid | HexGrid | Graph;
}

export interface QueueFrame {
  work: number;
  finished: number;
  pending: number;
  restarted: number;
  debt: number;
}
export interface QueueOutcome {
  status: Status;
  ok: boolean;
  path: Point[];
  cost: number;
  length: number;
  expanded: number;
  work: number;
  restarts: number;
}
export type RequestState = 'unknown' | 'queued' | 'running' | 'done' | 'cancelled';

export declare class Queue extends Native {
  constructor(grid: Grid, options?: { capacity?: number });
  readonly grid: Grid;
  submit(sx: number, sy: number, gx: number, gy: number,
    options?: (SearchOptions & { priority?: number }) | { finder: Finder<Grid>; priority?: number }): number;
  update(budget: number): QueueFrame;
  state(id: number): RequestState;
  poll(id: number): QueueOutcome | null;
  take(id: number): QueueOutcome | null;
  cancel(id: number): void;
  release(id: number): void;
  readonly pending: number;
}
