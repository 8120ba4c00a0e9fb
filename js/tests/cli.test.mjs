// cli.test.mjs -- determinism: the package finds exactly the path of the
// C library's own tool (`astar solve`, build/astar) for the same map and
// options, on Moving AI maps. The tool is $ASTAR_TOOL or ../../build/astar
// (cmake --build build --target astar_cli); without it the test is skipped.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Grid, Finder } from 'libastar';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TOOL = process.env.ASTAR_TOOL || path.join(ROOT, 'build/astar');
const MAPS = [
  ...fs.readdirSync(path.join(ROOT, 'tests/data/small')).filter((f) => f.endsWith('.map')).map((f) => path.join(ROOT, 'tests/data/small', f)),
  path.join(ROOT, '../shared/bench/movingai/dao/den312d.map'),
].filter((f) => fs.existsSync(f) && fs.existsSync(`${f}.scen`));
const METHODS = [['astar', {}], ['jps', {}], ['dijkstra', {}], ['theta', {}], ['astar', { moves: 4 }], ['astar', { tie: 'cross' }]];

function solve(map, q, method, opts) {
  const args = ['solve', map, ...q.map(String), '--algo', method, '--no-picture'];
  if (opts.moves) args.push('--moves', String(opts.moves));
  if (opts.tie) args.push('--tie', opts.tie);
  const out = execFileSync(TOOL, args, { encoding: 'utf8' });
  // Grid paths are printed as `path:`, any-angle ones as `waypoints:`,
  // each up to the next label.
  const sec = out.match(/^(?:path|waypoints):([^]*?)(?=^\w+:|$(?![^]))/m);
  const cost = Number(out.match(/^cost:\s+(\S+)/m)?.[1]);
  const pts = !sec ? [] : [...sec[1].matchAll(/\((\d+),(\d+)\)/g)].map((m) => [Number(m[1]), Number(m[2])]);
  return { pts, cost };
}

test('same paths as `astar solve` on Moving AI maps', { skip: !fs.existsSync(TOOL) && `no ${TOOL}` }, () => {
  let compared = 0;
  for (const map of MAPS) {
    const grid = Grid.fromMap(fs.readFileSync(map, 'utf8'));
    const lines = fs.readFileSync(`${map}.scen`, 'utf8').split('\n').slice(1).filter(Boolean);
    const qs = [0.1, 0.5, 0.9].map((t) => lines[Math.floor(t * (lines.length - 1))].split(/\s+/).slice(4, 8).map(Number));
    for (const [method, opts] of METHODS) {
      const f = new Finder(grid, { method, ...opts });
      for (const q of qs) {
        const want = solve(map, q, method, opts);
        const got = f.find(...q);
        assert.deepEqual(got.path, want.pts, `${path.basename(map)} ${method} ${JSON.stringify(opts)} ${q}`);
        if (want.pts.length) assert.ok(Math.abs(got.cost - want.cost) < 1e-6, `cost ${got.cost} vs ${want.cost}`);
        compared++;
      }
      f.free();
    }
    grid.free();
  }
  assert.ok(compared >= 60, `${compared} paths compared`);
});
