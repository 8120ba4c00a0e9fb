// The drop-in against the real PathFinding.js 0.4.18 (the devDependency) as
// an oracle, on random grids: every finder x every diagonal rule x every
// heuristic it takes (and weights 1 and 2 where it takes a weight).
//
// What is checked, per query (docs/pathfinding-js.md, "Where answers differ"):
//   - both find a path or both return [];
//   - the drop-in's path runs from start to end, each step a move the real
//     PathFinding.js's own Grid.getNeighbors allows under the rule;
//   - the optimal finders (A*, IDA* and bidirectional A* with an admissible
//     heuristic and weight 1; Dijkstra, BiDijkstra; JPS, which the library
//     always runs exactly) give PathFinding.js's optimum: the same
//     Util.pathLength as PathFinding.js's Dijkstra (1e-9); BreadthFirst and
//     BiBreadthFirst the same number of moves as PathFinding.js's BFS;
//   - where PathFinding.js's finder is itself optimal (A*, Dijkstra, IDA*
//     with an admissible heuristic, BFS; BiDijkstra and BiBFS without
//     diagonal moves; JPS under OnlyWhenNoObstacles with octile), the same
//     length as its path (elsewhere the drop-in's optimum is never longer);
//   - weighted A* (weight w) and A* with Manhattan under diagonal moves
//     (at most sqrt 2 times the optimum, so w sqrt 2 with both) stay within
//     that factor of the optimum;
//   - best-first (one and both directions): a legal path, nothing more
//     (neither library promises a bound);
//   - start == end: [[x, y]] from every finder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as PF from 'libastar/pathfinding';
import { rng } from './reference.mjs';

const require = createRequire(import.meta.url);
const REAL = require('pathfinding');
assert.equal(require('pathfinding/package.json').version, '0.4.18');

const D = PF.DiagonalMovement;
const RULES = ['Never', 'OnlyWhenNoObstacles', 'IfAtMostOneObstacle', 'Always'];
const HEURISTICS = ['manhattan', 'euclidean', 'octile', 'chebyshev'];
const EPS = 1e-9;


// A random matrix and queries: mostly between walkable cells; some start or
// end on a wall (PathFinding.js searches from a walled start; its
// bidirectional finders reach a walled end) and some start == end.
function scene(seed, w, h, density, nq) {
  const r = rng(seed);
  const matrix = [];
  for (let y = 0; y < h; y++) {
    const row = [];
    for (let x = 0; x < w; x++) row.push(r() < density ? 1 : 0);
    matrix.push(row);
  }
  const cell = (walkable) => {
    for (let k = 0; k < 1000; k++) {
      const x = Math.floor(r() * w);
      const y = Math.floor(r() * h);
      if ((matrix[y][x] === 0) === walkable) return [x, y];
    }
    return [0, 0];
  };
  const queries = [];
  for (let i = 0; i < nq; i++) {
    const s = cell(i % 7 !== 3);
    const e = i % 11 === 5 ? s : cell(i % 9 !== 4);
    queries.push([s[0], s[1], e[0], e[1]]);
  }
  return { matrix, queries };
}

// The real PathFinding.js's own move rule decides legality.
function assertLegal(path, q, matrix, rule, where) {
  const [sx, sy, ex, ey] = q;
  assert.ok(path.length > 0, `${where}: empty path`);
  assert.deepEqual(path[0], [sx, sy], `${where}: path does not begin at the start`);
  assert.deepEqual(path[path.length - 1], [ex, ey], `${where}: path does not end at the end`);
  const open = matrix.map((row) => row.slice());
  open[sy][sx] = 0; // the endpoints as the search saw them
  open[ey][ex] = 0;
  const g = new REAL.Grid(open[0].length, open.length, open);
  for (let i = 1; i < path.length; i++) {
    const [x0, y0] = path[i - 1];
    const [x1, y1] = path[i];
    const ok = g.getNeighbors(g.getNodeAt(x0, y0), D[rule]).some((n) => n.x === x1 && n.y === y1);
    assert.ok(ok, `${where}: step ${i} (${x0},${y0}) -> (${x1},${y1}) is not a move under ${rule}`);
  }
}

const len = (p) => REAL.Util.pathLength(p);

// finder name -> how the comparison goes.
//   opt: 'length' (the optimum cost) | 'steps' (fewest moves) | null (none)
function cases() {
  const out = [];
  for (const rule of RULES) {
    const diag = rule !== 'Never';
    for (const hn of HEURISTICS) {
      const admissible = !(diag && hn === 'manhattan');
      for (const weight of [1, 2]) {
        const factor = weight * (admissible ? 1 : Math.SQRT2);
        out.push({ name: 'AStarFinder', rule, hn, weight, opt: factor === 1 ? 'length' : null,
          bound: factor, pfExact: factor === 1 });
        out.push({ name: 'BiAStarFinder', rule, hn, weight,
          opt: admissible && weight === 1 ? 'length' : null });
      }
      out.push({ name: 'BestFirstFinder', rule, hn, weight: 1, opt: null });
      out.push({ name: 'BiBestFirstFinder', rule, hn, weight: 1, opt: null });
      out.push({ name: 'IDAStarFinder', rule, hn, weight: 1, small: true,
        opt: admissible ? 'length' : null, pfExact: admissible });
      out.push({ name: 'JumpPointFinder', rule, hn, opt: 'length',
        pfExact: rule === 'OnlyWhenNoObstacles' && hn === 'octile' });
    }
    out.push({ name: 'DijkstraFinder', rule, opt: 'length', pfExact: true });
    // PathFinding.js's bidirectional searches stop at the first meeting:
    // optimal on 4-connected grids only (with diagonals they can be longer).
    out.push({ name: 'BiDijkstraFinder', rule, opt: 'length', pfExact: rule === 'Never' });
    out.push({ name: 'BreadthFirstFinder', rule, opt: 'steps', pfExact: true });
    out.push({ name: 'BiBreadthFirstFinder', rule, opt: 'steps', pfExact: rule === 'Never' });
  }
  return out;
}

function options(c, lib) {
  const o = { diagonalMovement: lib.DiagonalMovement[c.rule] };
  if (c.hn) o.heuristic = lib.Heuristic[c.hn];
  if (c.weight !== undefined) o.weight = c.weight;
  return o;
}

const SCENES = [];
for (let i = 0; i < 24; i++) {
  const w = 6 + (i * 7) % 19;
  const h = 5 + (i * 5) % 17;
  SCENES.push({ seed: 1000 + i, w, h, density: [0.15, 0.25, 0.35][i % 3], nq: 12 });
}
// IDA* (PathFinding.js's has no transposition table: exponential) on small ones.
const SMALL = [];
for (let i = 0; i < 16; i++) {
  SMALL.push({ seed: 5000 + i, w: 5 + (i % 3), h: 4 + (i % 3), density: 0.2, nq: 6 });
}

for (const c of cases()) {
  const title = `${c.name} ${c.rule}${c.hn ? ` ${c.hn}` : ''}${c.weight > 1 ? ` weight ${c.weight}` : ''}`;
  test(title, () => {
    const ours = new PF[c.name](options(c, PF));
    const theirs = new REAL[c.name](options(c, REAL));
    const bi = c.name.startsWith('Bi');
    let found = 0;
    for (const sc of c.small ? SMALL : SCENES) {
      const { matrix, queries } = scene(sc.seed, sc.w, sc.h, sc.density, sc.nq);
      const grid = new PF.Grid(sc.w, sc.h, matrix);
      for (const q of queries) {
        const where = `${title}, scene ${sc.seed}, query ${q}`;
        const p = ours.findPath(q[0], q[1], q[2], q[3], grid);
        if (q[0] === q[2] && q[1] === q[3]) {
          // PathFinding.js's JPS returns [] here and its bidirectional
          // finders a round trip [s, n, s]: the drop-in answers [s].
          assert.deepEqual(p, [[q[0], q[1]]], `${where}: start == end`);
          continue;
        }
        // The optimum: PathFinding.js's Dijkstra or BFS on the grid the
        // search saw (a walled start -- and a bidirectional search's walled
        // end -- open).
        const open = matrix.map((row) => row.slice());
        open[q[1]][q[0]] = 0;
        if (bi) open[q[3]][q[2]] = 0;
        const mk = () => new REAL.Grid(sc.w, sc.h, open);
        const dm = { diagonalMovement: REAL.DiagonalMovement[c.rule] };
        const bestPath = new REAL.DijkstraFinder(dm).findPath(q[0], q[1], q[2], q[3], mk());
        // PathFinding.js's IDA* never returns when there is no path (it
        // raises its bound forever): it is asked only when there is one.
        const pf = c.name === 'IDAStarFinder' && !bestPath.length ? []
          : theirs.findPath(q[0], q[1], q[2], q[3], new REAL.Grid(sc.w, sc.h, matrix));
        assert.equal(p.length > 0, pf.length > 0,
          `${where}: drop-in ${p.length ? 'found' : 'found no'} path, PathFinding.js ${pf.length ? 'did' : 'did not'}`);
        assert.equal(p.length > 0, bestPath.length > 0, `${where}: reachability differs from Dijkstra's`);
        if (!p.length) continue;
        found++;
        assertLegal(p, q, matrix, c.rule, where);
        const best = len(bestPath);
        const steps = new REAL.BreadthFirstFinder(dm).findPath(q[0], q[1], q[2], q[3], mk()).length;
        if (c.opt === 'length') {
          assert.ok(Math.abs(len(p) - best) < EPS, `${where}: length ${len(p)}, optimum ${best}`);
        } else if (c.opt === 'steps') {
          assert.equal(p.length, steps, `${where}: ${p.length - 1} moves, fewest ${steps - 1}`);
        }
        if (c.bound) {
          assert.ok(len(p) <= c.bound * best + EPS, `${where}: length ${len(p)} > ${c.bound} x ${best}`);
        }
        if (c.pfExact) {
          if (c.opt === 'steps') assert.equal(p.length, pf.length, `${where}: moves differ from PathFinding.js`);
          else assert.ok(Math.abs(len(p) - len(pf)) < EPS, `${where}: length ${len(p)}, PathFinding.js ${len(pf)}`);
        }
      }
    }
    assert.ok(found > 10, `${title}: only ${found} queries had a path (the scenes are too blocked)`);
  });
}
