// queue.js -- Queue: the request queue (astar/queue.h), which spreads
// searches over a game's frames under a budget of work. Submit requests
// (each with its own method and options, or a prepared Finder of this
// grid), call update(budget) once a frame, and poll() or take results.
import { W } from './wasm.js';
import { M } from './imports.js';
import { Native } from './native.js';
import { Grid } from './grid.js';
import { Finder } from './finder.js';
import { R, STATUS } from './params.js';
import { AstarError, handle, check, int, object, freed, knownKeys } from './errors.js';
import { writeOptions } from './options.js';

const STATE = ['unknown', 'queued', 'running', 'done', 'cancelled'];

export class Queue extends Native {
  /**
   * A queue for `grid` holding up to options.capacity requests at once
   * (default 1024).
   */
  constructor(grid, options) {
    super();
    if (!(grid instanceof Grid)) throw new TypeError('Queue: grid must be a Grid');
    if (options !== undefined) {
      object(options, 'Queue: options');
      knownKeys(options, 'Queue', ['capacity']);
    }
    const capacity = int(options?.capacity ?? 1024, 'Queue: capacity', 1, 2 ** 24);
    this._own(handle(W.jsa_queue_new(grid._ptr, capacity), 'Queue'), 'jsa_queue_free', grid);
    this.grid = grid;
    this._finders = new Map(); // id -> the Finder a pending request runs
  }

  get _ptr() {
    if (!this._p) throw freed('Queue');
    return this._p;
  }

  /**
   * Submit a path request from (sx, sy) to (gx, gy): its id. options:
   * { finder } (a Finder of this grid: its method and preparations), or the
   * search options of a Finder (method, moves, corner, ...; the queue
   * prepares them once, methods without preparations), and priority
   * (higher first; default 0).
   */
  submit(sx, sy, gx, gy, options) {
    const q = this._ptr;
    const what = 'Queue.submit';
    this.grid._xy(sx, sy, `${what}: start`);
    this.grid._xy(gx, gy, `${what}: goal`);
    let finder = null;
    let priority = 0;
    if (options !== undefined) {
      object(options, `${what}: options`);
      if (options.priority !== undefined) priority = int(options.priority, `${what}: priority`, -(2 ** 31), 2 ** 31 - 1);
      if (options.finder !== undefined) {
        finder = options.finder;
        if (!(finder instanceof Finder)) throw new TypeError(`${what}: finder must be a Finder`);
        if (finder.map !== this.grid) throw new TypeError(`${what}: finder must be made on this queue's grid`);
        if (finder.freed) throw freed(`${what}: finder`);
        knownKeys(options, what, ['finder', 'priority']);
      }
    }
    if (!finder) {
      const o = options ? { ...options } : {};
      delete o.priority;
      writeOptions(o, what);
    }
    const id = handle(W.jsa_queue_submit(q, finder ? finder._p : 0, sx, sy, gx, gy, priority), what);
    if (finder) {
      finder._deps++; // the request retains it until it ends
      this._finders.set(id, finder);
    }
    return id;
  }

  /**
   * Work on the requests for at most about `budget` units of work (node
   * expansions for A*; methods.work says each method's unit). Returns the
   * frame: { work, finished, pending, restarted, debt }.
   */
  update(budget) {
    const q = this._ptr;
    int(budget, 'Queue.update: budget', 1, Number.MAX_SAFE_INTEGER);
    check(W.jsa_queue_update(q, budget), 'Queue.update');
    const f = M.f64, r = W.jsa_result() >> 3;
    const frame = { work: f[r + R.work], finished: f[r + R.length], pending: f[r + R.expanded], restarted: f[r + R.generated], debt: f[r + R.cost] };
    for (const [id, finder] of this._finders) {
      const s = this.state(id);
      if (s === 'done' || s === 'cancelled' || s === 'unknown') this._unpin(id, finder);
    }
    return frame;
  }

  _unpin(id, finder) {
    if (this._finders.get(id) === finder) {
      this._finders.delete(id);
      finder._deps--;
    }
  }

  /** 'unknown' | 'queued' | 'running' | 'done' | 'cancelled'. */
  state(id) {
    int(id, 'Queue.state: id', 1, 2 ** 32 - 1);
    return STATE[W.jsa_queue_poll(this._ptr, id)];
  }

  /**
   * The outcome of a done request: { status, ok, path, cost, length,
   * expanded, work, restarts }, or null while it is not done.
   */
  poll(id) {
    int(id, 'Queue.poll: id', 1, 2 ** 32 - 1);
    const s = W.jsa_queue_poll(this._ptr, id);
    if (STATE[s] !== 'done') return null;
    const f = M.f64, r = W.jsa_result() >> 3;
    const n = f[r + R.length], p = W.jsa_path_ptr() >> 2;
    const path = new Array(n);
    for (let i = 0; i < n; i++) path[i] = [M.i32[p + 2 * i], M.i32[p + 2 * i + 1]];
    const st = f[r + R.status];
    return {
      status: STATUS[st], ok: st === 0, path, cost: f[r + R.cost], length: n,
      expanded: f[r + R.expanded], work: f[r + R.work], restarts: f[r + R.iterations],
    };
  }

  /** poll() then release(): the outcome of a done request, or null (kept) while not done. */
  take(id) {
    const out = this.poll(id);
    if (out) this.release(id);
    return out;
  }

  /** Cancel a queued or running request. */
  cancel(id) {
    int(id, 'Queue.cancel: id', 1, 2 ** 32 - 1);
    check(W.jsa_queue_cancel(this._ptr, id), 'Queue.cancel');
    const f = this._finders.get(id);
    if (f) this._unpin(id, f);
  }

  /** Forget a done or cancelled request (its id becomes unknown). */
  release(id) {
    int(id, 'Queue.release: id', 1, 2 ** 32 - 1);
    check(W.jsa_queue_release(this._ptr, id), 'Queue.release');
    const f = this._finders.get(id);
    if (f) this._unpin(id, f);
  }

  /** Requests not yet delivered. */
  get pending() { return W.jsa_queue_pending(this._ptr); }

  free() {
    if (this._p) for (const [id, f] of this._finders) this._unpin(id, f);
    super.free();
  }
}
