// wasm.js -- the instantiated module for the ES-module build: loaded once,
// with top-level await, so `import ... from 'libastar'` gives a ready API.
// The CommonJS build has its own wasm.cjs (synchronous instantiation).
import { load } from '#load';

export const W = await load();
