'use strict';
// PathFinding.js 0.4.18's own tests (test/PathTest.js with
// test/PathTestScenarios.js, test/Grid.js, test/Util.js) through the drop-in
// as CommonJS loads it: require('libastar/pathfinding').
const { runUpstreamSuite } = require('./pf-upstream.cjs');

runUpstreamSuite("require('libastar/pathfinding')", require('libastar/pathfinding'));
