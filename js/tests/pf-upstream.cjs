'use strict';
// Runs PathFinding.js 0.4.18's own test files (test/PathTest.js, test/Grid.js,
// test/Util.js, and through PathTest.js test/PathTestScenarios.js) against a
// module standing in for PathFinding.js -- the drop-in.
//
// The files are read from node_modules/pathfinding (the devDependency pinned
// in package-lock.json), never copied into this repository. They were written
// for mocha + should.js: describe/it/beforeEach come from node:test, and a
// small strict `should` (below) covers the vocabulary they use. Their one
// `require('..')` (PathFinding.js itself) is answered with the drop-in; every
// other require goes to the real file next to them.
const fs = require('node:fs');
const path = require('node:path');
const assert = require('node:assert/strict');
const nodeTest = require('node:test');

const PF_DIR = path.dirname(require.resolve('pathfinding/package.json'));
const PF_VERSION = require('pathfinding/package.json').version;
const FILES = ['PathTest.js', 'Grid.js', 'Util.js'];

// ---- should: the subset the three files use, strict --------------------
// x.should.equal(v), x.should.eql(v), x.should.be.true, x.should.be.false.
// Any other word throws, so a test can never pass by an assertion that
// silently does nothing. `counter.n` counts assertions made.
const counter = { n: 0 };
function shouldOf(actual) {
  const be = {
    get true() { counter.n++; assert.equal(actual, true); return true; },
    get false() { counter.n++; assert.equal(actual, false); return true; },
  };
  const api = {
    equal(expected) { counter.n++; assert.equal(actual, expected); },
    eql(expected) { counter.n++; assert.deepStrictEqual(actual, expected); },
    be,
  };
  return new Proxy(api, {
    get(target, key) {
      if (!(key in target)) throw new Error(`should shim: unsupported assertion '${String(key)}'`);
      return target[key];
    },
  });
}
function installShould() {
  Object.defineProperty(Object.prototype, 'should', {
    configurable: true,
    enumerable: false,
    get() { 'use strict'; return shouldOf(this); }, // strict: primitives stay unboxed
  });
}

// Load one upstream test file with `PF` as its PathFinding.js. The file's
// describe/it calls register node:test tests; every `it` must assert at
// least once (a test body that asserts nothing is reported as a failure).
function loadUpstream(file, PF) {
  const full = path.join(PF_DIR, 'test', file);
  const source = fs.readFileSync(full, 'utf8');
  const req = (name) => (name === '..' ? PF : require(path.resolve(path.dirname(full), name)));
  const it = (title, fn) => nodeTest.it(title, function () {
    const before = counter.n;
    fn.call(this);
    assert.ok(counter.n > before, `${file}: '${title}' made no assertion`);
  });
  // Sloppy mode on purpose: PathTest.js assigns an undeclared loop variable.
  // eslint-disable-next-line no-new-func
  const run = new Function('require', 'module', 'exports', 'describe', 'it', 'beforeEach',
    '__filename', '__dirname', source);
  const mod = { exports: {} };
  // describe and beforeEach are wrapped like `it`: Node 18's test runner
  // reads its caller's location, and a caller inside `new Function` code
  // (no script behind it) crashes Node 18.20 (SIGSEGV in GetCallerLocation).
  const describe = (title, fn) => nodeTest.describe(title, fn);
  const beforeEach = (fn) => nodeTest.beforeEach(fn);
  run(req, mod, mod.exports, describe, it, beforeEach, full, path.dirname(full));
}

// Register every upstream test under one describe per file.
function runUpstreamSuite(label, PF) {
  installShould();
  for (const file of FILES) {
    nodeTest.describe(`PathFinding.js ${PF_VERSION} test/${file} through ${label}`, () => {
      loadUpstream(file, PF);
    });
  }
}

module.exports = { runUpstreamSuite, PF_DIR, PF_VERSION, counter };
