// finder.test.mjs -- Grid and Finder: paths of the methods against a
// Dijkstra written here (reference.mjs) on random grids.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Grid, Finder } from 'libastar';
import { dijkstra, rng, randomWalls, pathCost } from './reference.mjs';

test('A* and JPS paths cost what Dijkstra says, on random grids', () => {
  const rand = rng(1);
  for (let round = 0; round < 20; round++) {
    const w = 8 + Math.floor(rand() * 30), h = 8 + Math.floor(rand() * 30);
    const walls = randomWalls(w, h, 0.3, rand);
    const grid = new Grid(w, h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (walls[y * w + x]) grid.setWalkable(x, y, false);
    const finders = ['astar', 'jps', 'dijkstra'].map((method) => new Finder(grid, { method }));
    for (let q = 0; q < 10; q++) {
      const sx = Math.floor(rand() * w), sy = Math.floor(rand() * h);
      const gx = Math.floor(rand() * w), gy = Math.floor(rand() * h);
      const want = dijkstra(w, h, walls, sx, sy, gx, gy);
      for (const f of finders) {
        const path = f.findPath(sx, sy, gx, gy);
        if (want === Infinity) {
          assert.deepEqual(path, [], `${f.method}: no path expected`);
          continue;
        }
        assert.deepEqual(path[0], [sx, sy]);
        assert.deepEqual(path[path.length - 1], [gx, gy]);
        assert.ok(Math.abs(pathCost(w, h, walls, path) - want) < 1e-9, `${f.method} (${sx},${sy})->(${gx},${gy}): ${pathCost(w, h, walls, path)} vs ${want}`);
      }
    }
    for (const f of finders) f.free();
    grid.free();
  }
});
