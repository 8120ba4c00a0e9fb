export { Grid, Finder } from './index.cjs';
