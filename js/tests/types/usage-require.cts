// usage-require.cts -- the declarations a CommonJS TypeScript project gets
// through the "require" condition (js/dist/cjs/*.d.cts, copied from js/types
// by js/scripts/cjs.mjs), checked by `tsc -p tsconfig.require.json` under
// node16 rules, where a CommonJS file cannot require an ES module's types.
import astar = require('libastar');
import PF = require('libastar/pathfinding');

const grid: astar.Grid = astar.Grid.fromArray([[0, 0], [1, 0]]);
const path: astar.Point[] = new astar.Finder(grid, { method: 'jps' }).findPath(0, 0, 1, 1);
const pf = new PF.AStarFinder({ diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles });
const steps: number[][] = pf.findPath(0, 0, 1, 1, new PF.Grid(2, 2));
// @ts-expect-error: a method name is a string
new astar.Finder(grid, { method: 3 });
export = [path, steps];
