// pathfinding.js -- placeholder for the PathFinding.js drop-in
// (`import * as PF from 'libastar/pathfinding'`), built on index.js.
export { Grid, Finder } from './index.js';
