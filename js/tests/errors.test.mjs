// errors.test.mjs -- every option's error path and the other bad inputs:
// a TypeError or RangeError naming the argument and what is accepted, an
// AstarError (.status, .code) for what the library refuses; never a crash.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Grid, Finder, AstarError, JpsPlus, Hpa, Cpd, Landmarks, HexGrid, Graph, Queue, STATUS } from 'libastar';
import { P, R } from '../src/params.js';
import { W } from '../src/wasm.js';

const grid = new Grid(8, 6);
const bad = (fn, type, re) => assert.throws(fn, (e) => e instanceof type && re.test(e.message), `${type.name} ${re}`);

test('the binding and the wrapper agree on the blocks and enums', () => {
  assert.equal(W.jsa_param_count(), P.COUNT);
  assert.equal(W.jsa_result_count(), R.COUNT);
  assert.equal(W.jsa_status_count(), STATUS.length);
});

test('every Finder option: wrong type and out of range name the option and the range', () => {
  const cases = [
    ['method', 42, TypeError, /method must be a string/], ['method', 'astra', RangeError, /method must be one of 'astar', .*, not "astra"/],
    ['moves', 6, RangeError, /moves must be one of 4, 8, not 6/], ['diagonal', 1, TypeError, /diagonal must be true or false/],
    ['corner', 'sometimes', RangeError, /corner must be one of 'no-cut', 'always', 'one-side', 'never'/], ['corner', 1, TypeError, /corner/],
    ['straightCost', 0, RangeError, /straightCost must be a number in \(0, 1000000000\]/], ['straightCost', '1', TypeError, /straightCost must be a number/],
    ['diagonalCost', -1, RangeError, /diagonalCost/], ['diagonalCost', NaN, RangeError, /diagonalCost/],
    ['heuristic', 'manhatan', RangeError, /heuristic must be one of 'auto', 'octile', 'manhattan'/],
    ['weight', -0.5, RangeError, /weight must be a number in \[0, 1000000000\]/], ['weight', Infinity, RangeError, /weight/],
    ['tie', 'random', RangeError, /tie must be one of 'larger-g', 'newest', 'cross'/],
    ['reopen', true, TypeError, /reopen must be one of/], ['maxExpansions', 1.5, RangeError, /maxExpansions must be an integer in 0 \.\./],
    ['openSet', 'fib', RangeError, /openSet must be one of 'auto', 'heap4', 'heap2', 'bucket'/],
    ['partial', 'yes', TypeError, /partial must be true or false/], ['smooth', 0, TypeError, /smooth must be true or false/],
    ['unitSize', 0, RangeError, /unitSize must be an integer in 1 \.\. 255/], ['unitSize', 256, RangeError, /unitSize/],
    ['maxCost', -1, RangeError, /maxCost must be a number in \[0, Infinity\]/], ['terrainScale', 2, RangeError, /terrainScale must be a number in \[0, 1\]/],
    ['turnPenalty', -1, RangeError, /turnPenalty/], ['heuristicFloor', -1, RangeError, /heuristicFloor/],
    ['beamWidth', 0, RangeError, /beamWidth must be an integer in 1 \.\./], ['epsilon', -1, RangeError, /epsilon/],
    ['bandE', -1, RangeError, /bandE/], ['bandD', NaN, RangeError, /bandD/], ['idaTranspositions', 1, TypeError, /idaTranspositions/],
    ['retargetInterval', 0, RangeError, /retargetInterval must be an integer in 1 \.\./],
    ['jpsPlus', {}, TypeError, /jpsPlus must be a JpsPlus/], ['cpd', grid, TypeError, /cpd must be a Cpd/],
    ['hpa', 1, TypeError, /hpa must be a Hpa/], ['landmarks', 'x', TypeError, /landmarks must be a Landmarks/],
  ];
  for (const [k, v, type, re] of cases) {
    assert.throws(() => new Finder(grid, { [k]: v }), (e) => e instanceof type && e.message.startsWith('Finder: ') && re.test(e.message), `${k} = ${String(v)}`);
  }
  bad(() => new Finder(grid, { wieght: 1 }), TypeError, /unknown option 'wieght' \(accepted: method, moves/);
  bad(() => new Finder(grid, { moves: 8, diagonal: false }), RangeError, /diagonal false contradicts moves 8/);
  bad(() => new Finder(grid, 'astar'), TypeError, /options must be an object/);
  bad(() => new Finder({}, {}), TypeError, /map must be a Grid, a HexGrid, a Graph, a Mesh or a NavMesh/);
});

test('what the library refuses is an AstarError with its sentence', () => {
  const g = new Grid(4, 4).setCost(1, 1, 3);
  assert.throws(() => new Finder(g, { method: 'jps' }), (e) => e instanceof AstarError && e.status === 'unsupported' && e.code === 11 && /terrain/.test(e.message));
  assert.throws(() => new Finder(grid, { method: 'jps-plus' }), (e) => e instanceof AstarError && e.status === 'unsupported' && /jps-plus/.test(e.message));
  assert.throws(() => new Finder(grid, { method: 'jps', moves: 4 }), (e) => e.status === 'unsupported');
  g.free();
});

test('coordinates: out of range and wrong types name start or goal and the range', () => {
  const f = new Finder(grid);
  bad(() => f.findPath(-1, 0, 1, 1), RangeError, /findPath: start: x must be an integer in 0 \.\. 7, not -1/);
  bad(() => f.findPath(0, 0, 1, 6), RangeError, /findPath: goal: y must be an integer in 0 \.\. 5, not 6/);
  bad(() => f.find(0.5, 0, 1, 1), RangeError, /find: start: x must be an integer/);
  bad(() => f.findPath('0', 0, 1, 1), TypeError, /start: x must be an integer, not string/);
  bad(() => grid.setWalkable(8, 0, false), RangeError, /setWalkable: x must be an integer in 0 \.\. 7/);
  bad(() => grid.setWalkable(0, 0, 0), TypeError, /walkable must be true or false/);
  bad(() => grid.setCost(0, 0, 0), RangeError, /setCost: cost must be a number in \(0, 1000000000\]/);
  assert.equal(grid.isWalkable(-1, 3), false);
  // Blocked ends and no path are outcomes, not exceptions.
  grid.setWalkable(3, 3, false);
  assert.deepEqual(f.findPath(3, 3, 0, 0), []);
  assert.equal(f.find(0, 0, 3, 3).status, 'goal-blocked');
  grid.setWalkable(3, 3, true);
  f.free();
});

test('grids from arrays: wrong shapes name the row or the length', () => {
  bad(() => new Grid(0, 5), RangeError, /Grid: width must be an integer in 1 \.\. 32768, not 0/);
  bad(() => new Grid(5, 40000), RangeError, /height must be an integer in 1 \.\. 32768/);
  bad(() => new Grid(20000, 20000), RangeError, /width \* height must be at most 268435456 cells/);
  bad(() => new Grid('5', 5), TypeError, /width must be an integer, not string/);
  bad(() => Grid.fromArray([[0, 0], [0]]), RangeError, /matrix\[1\] has 1 cells; every row must have 2/);
  bad(() => Grid.fromArray([]), RangeError, /at least one row/);
  bad(() => Grid.fromArray('..'), TypeError, /matrix must be an array of rows/);
  bad(() => Grid.fromWalls(3, 3, new Uint8Array(8)), RangeError, /walls must have width \* height = 9 cells, not 8/);
  bad(() => grid.setCosts(new Float32Array(3)), RangeError, /costs must have width \* height = 48 values, not 3/);
  bad(() => grid.setCosts(new Float32Array(48)), RangeError, /costs\[0\] \(x 0, y 0\) must be in \(0, 1e9\]/);
  const g = Grid.fromArray([[0, 1, 0], [0, 0, 0]]);
  assert.equal(g.isWalkable(1, 0), false);
  assert.deepEqual(Array.from(g.walls()), [0, 1, 0, 0, 0, 0]);
  g.free();
});

test('a malformed map names line and column', () => {
  const text = 'type octile\nheight 2\nwidth 3\nmap\n...\n.x\n';
  assert.throws(() => Grid.fromMap(text), (e) => e instanceof AstarError && e.status === 'parse-error' && e.line > 0 && e.column > 0 && /line \d+, column \d+/.test(e.message));
  const g = Grid.fromMap('type octile\nheight 2\nwidth 3\nmap\n.@.\n...\n');
  assert.equal(g.width, 3);
  assert.equal(g.isWalkable(1, 0), false);
  g.free();
  bad(() => Grid.fromMap(12), TypeError, /text must be a string or a Uint8Array/);
});

test('freed objects and freeing order', () => {
  const g = new Grid(5, 5);
  const f = new Finder(g);
  bad(() => g.free(), Error, /Grid.free\(\): 1 object\(s\) made from it .* free them first/);
  f.free();
  bad(() => f.findPath(0, 0, 1, 1), Error, /Finder was used after free\(\)/);
  g.free();
  g.free(); // idempotent
  bad(() => g.setWalkable(0, 0, true), Error, /Grid was used after free\(\)/);
  bad(() => new Finder(g), Error, /Grid was used after free\(\)/);
  const g2 = new Grid(5, 5);
  // `using` (TypeScript 5.2, newer engines) calls this at the end of the block.
  const f2 = new Finder(g2);
  f2[Symbol.dispose ?? Symbol.for('Symbol.dispose')]();
  assert.ok(f2.freed);
  g2.free();
});

test('preparations, spaces and the queue check their arguments', () => {
  bad(() => new JpsPlus({}), TypeError, /JpsPlus: grid must be a Grid/);
  bad(() => JpsPlus.load(grid, [1, 2]), TypeError, /bytes must be a Uint8Array/);
  assert.throws(() => JpsPlus.load(grid, new Uint8Array(10)), (e) => e instanceof AstarError && e.status === 'parse-error');
  bad(() => new Hpa(grid, { clusterSize: 2 }), RangeError, /Hpa: clusterSize must be an integer in 4 \.\. 64, not 2/);
  bad(() => new Hpa(grid, { clusterSize: 64, levels: 3, ratio: 4 }), RangeError, /at most 512/);
  bad(() => new Cpd(grid, { weight: 2 }), TypeError, /Cpd: unknown option 'weight'/);
  bad(() => new Landmarks(grid, { count: 0 }), RangeError, /count must be an integer in 1 \.\. 64/);
  bad(() => new HexGrid(3, 3, { orientation: 'round' }), RangeError, /orientation must be one of 'pointy', 'flat'/);
  bad(() => new Graph(3, [[0, 3, 1]]), RangeError, /edges\[0\]\[1\] \(to\) must be an integer in 0 \.\. 2, not 3/);
  bad(() => new Graph(3, [[0, 1, -1]]), RangeError, /edges\[0\]\[2\] \(cost\)/);
  bad(() => new Graph(3, { from: [0], to: [1, 2], cost: [1] }), RangeError, /edges.to must have edges.from's length 1/);
  bad(() => new Graph(3, [[0, 1, 1]], { coords: [[0, 0]] }), RangeError, /one point per node \(3\)/);
  const hex = new HexGrid(4, 4);
  const fh = new Finder(hex);
  bad(() => fh.findPath(0, 0, 4, 0), RangeError, /goal: x must be an integer in 0 \.\. 3/);
  assert.throws(() => new Finder(hex, { method: 'jps' }), (e) => e.status === 'unsupported' || e instanceof AstarError);
  fh.free(); hex.free();
  const q = new Queue(grid);
  bad(() => q.submit(0, 0, 9, 0), RangeError, /Queue.submit: goal: x must be an integer in 0 \.\. 7/);
  bad(() => q.update(0), RangeError, /budget must be an integer in 1 \.\./);
  bad(() => q.submit(0, 0, 1, 1, { method: 'nope' }), RangeError, /method must be one of/);
  assert.throws(() => q.submit(0, 0, 1, 1, { method: 'jps-plus' }), (e) => e instanceof AstarError && e.status === 'unsupported');
  q.free();
});
