// index.js -- libastar for JavaScript: the C library's one query API
// (every method through one Finder) over grids, hex grids and graphs,
// compiled to WebAssembly. See README.md.
import { W } from './wasm.js';
import { cstring } from './errors.js';

export { Grid } from './grid.js';
export { Finder, methods } from './finder.js';
export { JpsPlus, Cpd, Hpa, Landmarks, Subgoal } from './prep.js';
export { HexGrid, Graph } from './space.js';
export { Mesh, NavMesh } from './mesh.js';
export { Queue } from './queue.js';
export { AstarError } from './errors.js';
export { STATUS } from './params.js';

/** The library's version ("MAJOR.MINOR.PATCH", astar_version()). */
export const version = cstring(W.jsa_version());
