// options.js -- the search options, checked once (when a Finder or a
// preparation is made) and written into the binding's parameter block.
// Names are the C fields' in camelCase (astar/search.h, astar/engine.h,
// astar/finder.h); enum values are the C names in lower-case kebab form.
import { W } from './wasm.js';
import { M } from './imports.js';
import { P, CORNER, HEURISTIC, TIE, REOPEN, OPEN_SET, LIMIT } from './params.js';
import { int, num, bool, oneOf, object, knownKeys, cstring } from './errors.js';

const MAX = LIMIT.optionMax;

/** Every search option with its default (the library's astar_*_init). */
export const SEARCH_DEFAULTS = Object.freeze({
  method: 'astar', moves: 8, diagonal: undefined, corner: 'no-cut', straightCost: 1,
  diagonalCost: Math.SQRT2, heuristic: 'auto', weight: 1, tie: 'larger-g', reopen: 'auto',
  maxExpansions: 0, openSet: 'auto', partial: false, smooth: false, unitSize: 1, maxCost: Infinity,
  terrainScale: 1, turnPenalty: 0, heuristicFloor: 0, beamWidth: 1024, epsilon: 1, bandE: 0,
  bandD: 0, idaTranspositions: true, retargetInterval: 32,
});
/** The options naming a preparation to attach (Finder only). */
export const PREP_KEYS = ['jpsPlus', 'cpd', 'hpa', 'landmarks', 'subgoal'];

/** The method number of `name` (a methods() name), or throw listing them. */
export function methodId(name, what) {
  if (typeof name !== 'string') throw new TypeError(`${what}: method must be a string (a name from methods()), not ${typeof name}`);
  const enc = new TextEncoder().encode(name + '\0');
  const p = W.jsa_malloc(enc.length);
  M.u8.set(enc, p);
  const m = W.jsa_method_from_name(p);
  W.jsa_free(p);
  if (m < 0) {
    const names = [];
    for (let i = 0, n = W.jsa_method_count(); i < n; i++) names.push(cstring(W.jsa_method_name(i)));
    throw new RangeError(`${what}: method must be one of ${names.map((s) => `'${s}'`).join(', ')}, not ${JSON.stringify(name)}`);
  }
  return m;
}

/**
 * Check `opts` (undefined: defaults) and write them into the parameter
 * block. `extra` lists further accepted keys (checked by the caller).
 * Returns the resolved options (defaults filled in).
 */
export function writeOptions(opts, what, extra = []) {
  if (opts === undefined) opts = {};
  object(opts, `${what}: options`);
  knownKeys(opts, what, [...Object.keys(SEARCH_DEFAULTS), ...extra]);
  const o = { ...SEARCH_DEFAULTS };
  for (const k of Object.keys(SEARCH_DEFAULTS)) if (opts[k] !== undefined) o[k] = opts[k];
  const name = (k) => `${what}: ${k}`;
  const p = W.jsa_params() >> 3;
  const f = M.f64;
  f[p + P.method] = methodId(o.method, what);
  let moves = o.moves;
  if (opts.moves !== undefined) oneOf(moves, name('moves'), [4, 8]);
  if (o.diagonal !== undefined) {
    bool(o.diagonal, name('diagonal'));
    if (opts.moves !== undefined && (moves === 8) !== o.diagonal) {
      throw new RangeError(`${what}: diagonal ${o.diagonal} contradicts moves ${moves} (give one of them)`);
    }
    moves = o.diagonal ? 8 : 4;
  }
  o.moves = moves;
  f[p + P.moves] = moves;
  f[p + P.corner] = oneOf(o.corner, name('corner'), CORNER);
  f[p + P.straight] = num(o.straightCost, name('straightCost'), 0, MAX, true);
  f[p + P.diagonal] = num(o.diagonalCost, name('diagonalCost'), 0, MAX, true);
  f[p + P.heuristic] = oneOf(o.heuristic, name('heuristic'), HEURISTIC);
  f[p + P.weight] = num(o.weight, name('weight'), 0, MAX);
  f[p + P.tie] = oneOf(o.tie, name('tie'), TIE);
  f[p + P.reopen] = oneOf(o.reopen, name('reopen'), REOPEN);
  f[p + P.maxExpansions] = int(o.maxExpansions, name('maxExpansions'), 0, Number.MAX_SAFE_INTEGER);
  f[p + P.openSet] = oneOf(o.openSet, name('openSet'), OPEN_SET);
  f[p + P.partial] = bool(o.partial, name('partial')) ? 1 : 0;
  f[p + P.smooth] = bool(o.smooth, name('smooth')) ? 1 : 0;
  f[p + P.unitSize] = int(o.unitSize, name('unitSize'), 1, LIMIT.clearanceMax);
  f[p + P.maxCost] = num(o.maxCost, name('maxCost'), 0, Infinity);
  f[p + P.terrainScale] = num(o.terrainScale, name('terrainScale'), 0, 1);
  f[p + P.turnPenalty] = num(o.turnPenalty, name('turnPenalty'), 0, MAX);
  f[p + P.heuristicFloor] = num(o.heuristicFloor, name('heuristicFloor'), 0, MAX);
  f[p + P.beamWidth] = int(o.beamWidth, name('beamWidth'), 1, 2 ** 32 - 1);
  f[p + P.epsilon] = num(o.epsilon, name('epsilon'), 0, Number.MAX_VALUE);
  f[p + P.bandE] = num(o.bandE, name('bandE'), 0, Number.MAX_VALUE);
  f[p + P.bandD] = num(o.bandD, name('bandD'), 0, Number.MAX_VALUE);
  f[p + P.idaTranspositions] = bool(o.idaTranspositions, name('idaTranspositions')) ? 1 : 0;
  f[p + P.retargetInterval] = int(o.retargetInterval, name('retargetInterval'), 1, 2 ** 32 - 1);
  return o;
}
