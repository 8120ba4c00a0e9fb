// Placeholder declarations of the PathFinding.js drop-in (libastar/pathfinding).
export { Grid, Finder } from './index.js';
