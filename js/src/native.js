// native.js -- ownership of the library's objects from JavaScript.
//
// Every wrapper owns one C object and frees it with free() (or `using`,
// through Symbol.dispose); a FinalizationRegistry frees what the program
// forgot, as a safety net only (the garbage collector does not see the
// module's memory, so it may collect late). An object made from another
// (a finder from a grid) holds a reference to it, and the owner counts its
// live dependents: freeing a grid that still has finders would leave them
// pointing at freed memory, so free() refuses and says what to free first.
import { W } from './wasm.js';

/** Symbol.dispose where the runtime has it (Node 20+, TypeScript's polyfill otherwise). */
export const dispose = Symbol.dispose ?? Symbol.for('Symbol.dispose');

const registry = new FinalizationRegistry(({ freeFn, ptr, owners }) => {
  W[freeFn](ptr);
  for (const o of owners) o._deps--;
});

export class Native {
  /**
   * @param {number} ptr the C object
   * @param {string} freeFn the binding's export that frees it
   * @param {...Native} owners the objects it depends on (its grid, its preparations)
   */
  _own(ptr, freeFn, ...owners) {
    this._p = ptr;
    this._freeFn = freeFn;
    this._owners = owners.filter(Boolean);
    this._deps = 0;
    for (const o of this._owners) o._deps++;
    registry.register(this, { freeFn, ptr, owners: this._owners }, this);
  }

  /** Release the C object now (idempotent). */
  free() {
    if (!this._p) return;
    if (this._deps > 0) {
      throw new Error(`${this.constructor.name}.free(): ${this._deps} object(s) made from it (finders, preparations, queues) are still alive; free them first`);
    }
    registry.unregister(this);
    W[this._freeFn](this._p);
    this._p = 0;
    for (const o of this._owners) o._deps--;
  }

  /** True once freed. */
  get freed() { return this._p === 0; }

  [dispose]() { this.free(); }
}
