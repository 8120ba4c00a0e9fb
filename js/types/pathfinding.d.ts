// Type declarations of libastar/pathfinding, the PathFinding.js 0.4.18
// drop-in (js/src/pathfinding.js, docs/pathfinding-js.md). Checked by
// js/tests/types/pathfinding-usage.ts (tsc --noEmit).

/** A path: [[x, y], ...] from start to end, both included; [] when none. */
export type Path = number[][];

export declare const DiagonalMovement: Readonly<{
  Always: 1;
  Never: 2;
  IfAtMostOneObstacle: 3;
  OnlyWhenNoObstacles: 4;
}>;
export type DiagonalMovementValue = 1 | 2 | 3 | 4;

/** (dx, dy) -> estimate. Only these four: a finder runs the library's heuristic of the same formula. */
export type HeuristicFunction = (dx: number, dy: number) => number;
export declare const Heuristic: Readonly<{
  manhattan: HeuristicFunction;
  euclidean: HeuristicFunction;
  octile: HeuristicFunction;
  chebyshev: HeuristicFunction;
}>;

/** A cell. A grid's nodes read and write their grid (walkable, weight). */
export declare class Node {
  constructor(x: number, y: number, walkable?: boolean);
  x: number;
  y: number;
  walkable: boolean;
  /** Extension: the cost factor of entering the cell (a grid's nodes only). */
  weight?: number;
}

/** PathFinding.js's matrix: matrix[y][x] truthy = not walkable. */
export type Matrix = ArrayLike<ArrayLike<number | boolean | null | undefined>>;
/** Extension: weights[y][x], the cost factor of entering each cell, in (0, 1e9]. */
export type Weights = ArrayLike<ArrayLike<number>>;

export declare class Grid {
  constructor(width: number, height: number, matrix?: Matrix, weights?: Weights);
  constructor(matrix: Matrix, weights?: Weights);
  readonly width: number;
  readonly height: number;
  /** The 2D array of nodes (made when first read). */
  nodes: Node[][];
  getNodeAt(x: number, y: number): Node;
  isWalkableAt(x: number, y: number): boolean;
  isInside(x: number, y: number): boolean;
  setWalkableAt(x: number, y: number, walkable: boolean): void;
  getNeighbors(node: { x: number; y: number }, diagonalMovement: DiagonalMovementValue): Node[];
  /** O(1): the copy shares the cells until either is edited. */
  clone(): Grid;
  /** Extension: the cost factor of entering (x, y) (1 unless set). */
  getWeightAt(x: number, y: number): number;
  /** Extension: set the cost factor of entering (x, y), in (0, 1e9]. */
  setWeightAt(x: number, y: number, weight: number): void;
  /** Extension: true once a cell has a weight other than 1. */
  hasWeights(): boolean;
}

export declare const Util: Readonly<{
  backtrace(node: { x: number; y: number; parent?: unknown }): Path;
  biBacktrace(nodeA: { x: number; y: number; parent?: unknown }, nodeB: { x: number; y: number; parent?: unknown }): Path;
  pathLength(path: Path): number;
  interpolate(x0: number, y0: number, x1: number, y1: number): Path;
  expandPath(path: Path): Path;
  smoothenPath(grid: Grid, path: Path): Path;
  compressPath(path: Path): Path;
}>;

export interface FinderOptions {
  /** Deprecated in PathFinding.js: use diagonalMovement. */
  allowDiagonal?: boolean;
  /** Deprecated in PathFinding.js: use diagonalMovement. */
  dontCrossCorners?: boolean;
  diagonalMovement?: DiagonalMovementValue;
  heuristic?: HeuristicFunction;
  weight?: number;
}
export interface IDAStarFinderOptions extends FinderOptions {
  /** Kept, not applied (docs/pathfinding-js.md). */
  trackRecursion?: boolean;
  /** Seconds; kept, not applied (docs/pathfinding-js.md). */
  timeLimit?: number;
}
export interface JumpPointFinderOptions {
  diagonalMovement?: DiagonalMovementValue;
  heuristic?: HeuristicFunction;
  trackJumpRecursion?: boolean;
}

declare abstract class Finder {
  findPath(startX: number, startY: number, endX: number, endY: number, grid: Grid): Path;
}
declare abstract class HeuristicFinder extends Finder {
  allowDiagonal?: boolean;
  dontCrossCorners?: boolean;
  diagonalMovement: DiagonalMovementValue;
  heuristic: HeuristicFunction;
  weight: number;
}
export declare class AStarFinder extends HeuristicFinder { constructor(opt?: FinderOptions); }
export declare class BestFirstFinder extends AStarFinder {}
export declare class DijkstraFinder extends AStarFinder {}
export declare class BiAStarFinder extends HeuristicFinder { constructor(opt?: FinderOptions); }
export declare class BiBestFirstFinder extends BiAStarFinder {}
export declare class BiDijkstraFinder extends BiAStarFinder {}
export declare class BreadthFirstFinder extends Finder {
  constructor(opt?: Pick<FinderOptions, 'allowDiagonal' | 'dontCrossCorners' | 'diagonalMovement'>);
  diagonalMovement: DiagonalMovementValue;
}
export declare class BiBreadthFirstFinder extends BreadthFirstFinder {}
export { BreadthFirstFinder as BreadthFirstSearchFinder };
export declare class IDAStarFinder extends HeuristicFinder {
  constructor(opt?: IDAStarFinderOptions);
  trackRecursion: boolean;
  timeLimit: number;
}
export declare class JumpPointFinder extends Finder {
  constructor(opt?: JumpPointFinderOptions);
  diagonalMovement: DiagonalMovementValue;
  heuristic: HeuristicFunction;
}
