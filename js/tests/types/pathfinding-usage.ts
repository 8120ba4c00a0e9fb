// The drop-in's declarations in use (tsc --noEmit -p js/tests/types).
import * as PF from 'libastar/pathfinding';

const grid = new PF.Grid(5, 3, [[0, 0, 0, 0, 0], [0, 1, 1, 1, 0], [0, 0, 0, 0, 0]]);
const grid2 = new PF.Grid([[0, 1], [0, 0]], [[1, 1], [2.5, 1]]);
grid.setWalkableAt(0, 1, false);
grid.setWeightAt(2, 2, 3);
const walkable: boolean = grid.nodes[0][0].walkable && grid.getNodeAt(1, 1).walkable;
const finders: { findPath(sx: number, sy: number, ex: number, ey: number, g: PF.Grid): PF.Path }[] = [
  new PF.AStarFinder({ diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles, heuristic: PF.Heuristic.octile, weight: 1 }),
  new PF.AStarFinder({ allowDiagonal: true, dontCrossCorners: true }),
  new PF.BestFirstFinder(), new PF.BreadthFirstFinder(), new PF.BreadthFirstSearchFinder(),
  new PF.DijkstraFinder(), new PF.BiAStarFinder(), new PF.BiBestFirstFinder(),
  new PF.BiBreadthFirstFinder(), new PF.BiDijkstraFinder(),
  new PF.IDAStarFinder({ timeLimit: 1, trackRecursion: false }),
  new PF.JumpPointFinder({ diagonalMovement: PF.DiagonalMovement.Never }),
];
const path: number[][] = finders[0].findPath(0, 0, 4, 2, grid.clone());
const length: number = PF.Util.pathLength(PF.Util.compressPath(path));
// @ts-expect-error a finder takes no unknown option types
new PF.AStarFinder({ weight: 'heavy' });
export { walkable, length, grid2 };
