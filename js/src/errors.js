// errors.js -- the package's exceptions and argument checks.
//
// Bad arguments are the caller's mistakes and are found before the library
// is called: a TypeError for a wrong type, a RangeError for a value out of
// range, each naming the argument and what is accepted. A status the
// library returns is an AstarError with .status (the JavaScript name,
// 'unsupported', 'mismatch', ...), .code (the astar_status number) and the
// library's own sentence as the message.
import { W } from './wasm.js';
import { M } from './imports.js';
import { STATUS } from './params.js';

const decoder = new TextDecoder();

/** The NUL-terminated string at `ptr` in the module's memory ('' for 0). */
export function cstring(ptr) {
  if (!ptr) return '';
  const u8 = M.u8;
  let end = ptr;
  while (u8[end] !== 0) end++;
  return decoder.decode(u8.subarray(ptr, end));
}

export class AstarError extends Error {
  /**
   * @param {number} code astar_status
   * @param {string} [detail] what was being done, or a more precise sentence
   */
  constructor(code, detail, reason) {
    const what = reason || cstring(W.jsa_strerror(code));
    super(detail ? `${detail}: ${what}` : what);
    this.name = 'AstarError';
    this.code = code;
    this.status = STATUS[code] ?? 'unknown';
  }
}

/** Throw an AstarError unless `code` is ok (0). */
export function check(code, detail) {
  if (code !== 0) throw new AstarError(code, detail);
}

// The library's reasons name its C config fields; say the option instead.
const C_NAMES = [[/cfg\.jps_plus \(astar_jps_plus_new\)/g, "the jpsPlus option (new JpsPlus(grid))"],
  [/cfg\.cpd \(astar_cpd_build\)/g, 'the cpd option (new Cpd(grid))'], [/cfg\.hpa \(astar_hpa_new\)/g, 'the hpa option (new Hpa(grid))'],
  [/cfg\.(jps_plus|cpd|hpa|landmarks)/g, (_, k) => `the ${k === 'jps_plus' ? 'jpsPlus' : k} option`]];
function jsNames(text) {
  for (const [re, to] of C_NAMES) text = text.replace(re, to);
  return text;
}

/** The handle from a constructor's return (address, or -status). */
export function handle(ret, detail) {
  if (ret <= 0) {
    const reason = W.jsa_reason();
    throw new AstarError(-ret, detail, reason ? jsNames(cstring(reason)) : undefined);
  }
  return ret;
}

const show = (v) => (typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? 'an array' : String(v));

/** An integer in [lo, hi] or throw naming `name`. */
export function int(v, name, lo, hi) {
  if (typeof v !== 'number') throw new TypeError(`${name} must be an integer, not ${typeof v}`);
  if (!Number.isInteger(v) || v < lo || v > hi) {
    throw new RangeError(`${name} must be an integer in ${lo} .. ${hi}, not ${show(v)}`);
  }
  return v;
}

/** A number in [lo, hi] (NaN refused) or throw. loOpen: lo excluded. */
export function num(v, name, lo, hi, loOpen = false) {
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number, not ${typeof v}`);
  if (!(loOpen ? v > lo : v >= lo) || !(v <= hi)) {
    throw new RangeError(`${name} must be a number in ${loOpen ? '(' : '['}${lo}, ${hi}], not ${show(v)}`);
  }
  return v;
}

export function bool(v, name) {
  if (typeof v !== 'boolean') throw new TypeError(`${name} must be true or false, not ${show(v)}`);
  return v;
}

/** The index of `v` among `names`, or throw listing them. */
export function oneOf(v, name, names) {
  const i = names.indexOf(v);
  if (i < 0) {
    const fmt = (x) => (typeof x === 'string' ? `'${x}'` : String(x));
    const sameType = typeof v === typeof names[0];
    const what = sameType ? fmt(v) : v === null ? 'null' : typeof v;
    throw new (sameType ? RangeError : TypeError)(
      `${name} must be one of ${names.map(fmt).join(', ')}, not ${what}`);
  }
  return i;
}

export function object(v, name) {
  if (v === null || typeof v !== 'object') throw new TypeError(`${name} must be an object, not ${v === null ? 'null' : typeof v}`);
  return v;
}

/** Refuse keys of `opts` not in `known` (a typo would otherwise be ignored). */
export function knownKeys(opts, name, known) {
  for (const k of Object.keys(opts)) {
    if (!known.includes(k)) {
      throw new TypeError(`${name}: unknown option '${k}' (accepted: ${known.join(', ')})`);
    }
  }
}

/** The error for an object used after free(). */
export function freed(what) {
  return new Error(`${what} was used after free()`);
}
