// reference.mjs -- a plain Dijkstra on the grid, written for the tests: the
// ground truth every method's path cost is checked against. Moves and
// corner rule as the library's (astar/search.h): 4 or 8 moves, straight 1,
// diagonal sqrt 2, terrain multiplies the cost of entering a cell.

/** Cost of the cheapest path, Infinity when none. walls: Uint8Array row-major. */
export function dijkstra(w, h, walls, sx, sy, gx, gy, { moves = 8, corner = 'no-cut', costs = null } = {}) {
  const n = w * h;
  const dist = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  const free = (x, y) => x >= 0 && y >= 0 && x < w && y < h && !walls[y * w + x];
  if (!free(sx, sy) || !free(gx, gy)) return Infinity;
  // A binary heap of [d, cell].
  const heap = [];
  const push = (d, c) => {
    heap.push([d, c]);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heap[p][0] <= heap[i][0]) break;
      [heap[p], heap[i]] = [heap[i], heap[p]];
      i = p;
    }
  };
  const pop = () => {
    const top = heap[0], last = heap.pop();
    if (heap.length) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < heap.length && heap[l][0] < heap[m][0]) m = l;
        if (r < heap.length && heap[r][0] < heap[m][0]) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i], heap[m]];
        i = m;
      }
    }
    return top;
  };
  dist[sy * w + sx] = 0;
  push(0, sy * w + sx);
  const dirs = [[0, -1], [1, 0], [0, 1], [-1, 0]];
  if (moves === 8) dirs.push([1, -1], [1, 1], [-1, 1], [-1, -1]);
  while (heap.length) {
    const [d, c] = pop();
    if (done[c]) continue;
    done[c] = 1;
    if (c === gy * w + gx) return d;
    const x = c % w, y = (c - x) / w;
    for (const [dx, dy] of dirs) {
      const nx = x + dx, ny = y + dy;
      if (!free(nx, ny)) continue;
      if (dx && dy) {
        const a = free(x + dx, y), b = free(x, y + dy);
        if (corner === 'never') continue;
        if (corner === 'no-cut' && !(a && b)) continue;
        if (corner === 'one-side' && !(a || b)) continue;
      }
      const step = (dx && dy ? Math.SQRT2 : 1) * (costs ? costs[ny * w + nx] : 1);
      const nd = d + step;
      if (nd < dist[ny * w + nx]) {
        dist[ny * w + nx] = nd;
        push(nd, ny * w + nx);
      }
    }
  }
  return Infinity;
}

/** A deterministic pseudo-random generator (mulberry32). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random walls with density p. */
export function randomWalls(w, h, p, rand) {
  const walls = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) walls[i] = rand() < p ? 1 : 0;
  return walls;
}

/** Cost of a cell path (8 moves, terrain), checking every step is a legal move. */
export function pathCost(w, h, walls, path, { corner = 'no-cut', costs = null } = {}) {
  let c = 0;
  for (let i = 1; i < path.length; i++) {
    const [x0, y0] = path[i - 1], [x1, y1] = path[i];
    const dx = x1 - x0, dy = y1 - y0;
    if (Math.abs(dx) > 1 || Math.abs(dy) > 1 || (!dx && !dy)) throw new Error(`step ${i} is not a move: ${path[i - 1]} -> ${path[i]}`);
    if (walls[y1 * w + x1]) throw new Error(`step ${i} enters a wall at ${path[i]}`);
    if (dx && dy && corner === 'no-cut' && (walls[y0 * w + x1] || walls[y1 * w + x0])) throw new Error(`step ${i} cuts a corner`);
    c += (dx && dy ? Math.SQRT2 : 1) * (costs ? costs[y1 * w + x1] : 1);
  }
  return c;
}
