// PathFinding.js 0.4.18's own tests through the drop-in as an ES module
// loads it: import * as PF from 'libastar/pathfinding'.
import { createRequire } from 'node:module';
import * as PF from 'libastar/pathfinding';

const { runUpstreamSuite } = createRequire(import.meta.url)('./pf-upstream.cjs');
runUpstreamSuite("import * as PF from 'libastar/pathfinding'", PF);
