// cjs.test.cjs -- the CommonJS entry: require('libastar') is ready at once
// (synchronous instantiation) and gives the same answers as the ES module.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { Grid, Finder, methods, version, AstarError, Queue, HexGrid, Graph, JpsPlus } = require('libastar');
const PF = require('libastar/pathfinding');

test('require("libastar") works synchronously and matches the ES module', async () => {
  // The library's astar_version() (base.h) and package.json carry one version.
  assert.equal(version, require('../package.json').version);
  assert.ok(methods().length >= 18);
  const g = Grid.fromArray([[0, 0, 0, 0], [1, 1, 0, 1], [0, 0, 0, 0]]);
  const f = new Finder(g, { method: 'jps' });
  const path = f.findPath(0, 0, 0, 2);
  assert.deepEqual(path[0], [0, 0]);
  assert.deepEqual(path[path.length - 1], [0, 2]);
  assert.throws(() => new Finder(g, { method: 'jps-plus' }), AstarError);
  assert.equal(typeof Queue, 'function');
  assert.equal(typeof HexGrid, 'function');
  assert.equal(typeof Graph, 'function');
  assert.equal(typeof JpsPlus, 'function');
  assert.equal(typeof PF, 'object');
  const esm = await import('libastar');
  const g2 = esm.Grid.fromArray([[0, 0, 0, 0], [1, 1, 0, 1], [0, 0, 0, 0]]);
  assert.deepEqual(new esm.Finder(g2, { method: 'jps' }).findPath(0, 0, 0, 2), path);
  // Two module instances (two memories): objects do not cross.
  assert.throws(() => new Finder(g2), TypeError);
  f.free();
  g.free();
});
