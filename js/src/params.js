// params.js -- the slots of the binding's parameter and result blocks and
// the library's enums by their JavaScript names. js/binding.c has the same
// P_* and R_* lists; tests/api.test.mjs checks the counts agree.

/** Parameter block slots (binding.c P_*). */
export const P = Object.freeze({
  method: 0, moves: 1, corner: 2, straight: 3, diagonal: 4, heuristic: 5, weight: 6, tie: 7,
  reopen: 8, maxExpansions: 9, openSet: 10, partial: 11, smooth: 12, unitSize: 13, maxCost: 14,
  terrainScale: 15, turnPenalty: 16, heuristicFloor: 17, beamWidth: 18, epsilon: 19, bandE: 20,
  bandD: 21, idaTranspositions: 22, retargetInterval: 23,
  hpaCluster: 24, hpaLevels: 25, hpaRatio: 26, hpaWideEntrance: 27, hpaSmooth: 28, lmCount: 29,
  COUNT: 30,
});

/** Result block slots (binding.c R_*). */
export const R = Object.freeze({
  status: 0, cause: 1, cost: 2, length: 3, expanded: 4, generated: 5, reopened: 6, maxOpen: 7,
  work: 8, endX: 9, endY: 10, endNode: 11, retargeted: 12, dropped: 13, iterations: 14,
  sightChecks: 15, abstractExpanded: 16, abstractLength: 17, gridCost: 18, meet: 19, corridor: 20,
  COUNT: 21,
});

/** astar_status values by index (astar/base.h), as JavaScript names. */
export const STATUS = Object.freeze([
  'ok', 'no-path', 'limit-reached', 'start-blocked', 'goal-blocked', 'buffer-too-small',
  'out-of-bounds', 'invalid-argument', 'too-large', 'no-memory', 'parse-error', 'unsupported',
  'capacity', 'in-progress', 'partial', 'stopped', 'stale', 'turns-not-reserved', 'queue-full',
  'mismatch', 'expired',
]);
export const S = Object.freeze(Object.fromEntries(STATUS.map((n, i) => [n, i])));

// Enum options: the accepted names in the C enum's order (astar/search.h).
export const CORNER = ['no-cut', 'always', 'one-side', 'never'];
export const HEURISTIC = ['auto', 'octile', 'manhattan', 'chebyshev', 'euclidean', 'zero'];
export const TIE = ['larger-g', 'newest', 'cross'];
export const REOPEN = ['auto', 'always', 'never'];
export const OPEN_SET = ['auto', 'heap4', 'heap2', 'bucket'];

/** astar_method_info.flags bits (astar/finder.h). */
export const MF = Object.freeze({
  optimal: 0x1, bounded: 0x2, sliced: 0x4, grid: 0x8, space: 0x10, anyAngle: 0x20,
  terrain: 0x40, needsPrep: 0x80, vec: 0x100, mesh: 0x200,
});
/** Attachment bits (ASTAR_ATTACH_*). */
export const ATTACH = Object.freeze({
  jpsPlus: 0x1, cpd: 0x2, hpa: 0x4, landmarks: 0x8, table: 0x10, waypoints: 0x20, subgoal: 0x40,
});

/** Limits the wrapper checks before the library does (same values). */
export const LIMIT = Object.freeze({
  gridMaxSide: 32768, gridMaxCells: 2 ** 28, terrainMax: 1e9, optionMax: 1e9,
  clearanceMax: 255, hpaMinCluster: 4, hpaMaxCluster: 64, hpaMaxLevels: 4, hpaMaxTopSide: 512,
  landmarksMax: 64,
});
