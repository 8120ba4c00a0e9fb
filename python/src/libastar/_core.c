/*
** _core.c -- the C extension of the libastar Python package: thin types
** over the library's handles (Grid, Workspace, JpsPlus, Queue, HexGrid,
** Waypoints) and the searches. The Pythonic layer (options by name, NumPy arrays, Path
** objects, exceptions) is libastar/__init__.py; this file converts plain
** values and releases the GIL around every search that calls no Python
** code, so Python threads search in parallel.
**
** Thread rules, enforced here rather than left to undefined behaviour:
**   - a grid may be searched by many threads at once, but not modified
**     while any search on it runs (RuntimeError);
**   - a workspace serves one search at a time (RuntimeError otherwise);
**     libastar/__init__.py keeps one per thread;
**   - a queue is used by one thread at a time; its callbacks run in the
**     thread that called update(), with the GIL held.
** Searches with a Python heuristic or observer keep the GIL (they call
** Python for every node).
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <astar/astar.h>
#include <astar/mapf.h>
#include <astar/navmesh_build.h>

/* ---- Python 3.9 ---------------------------------------------------------------------- */
/* The package supports CPython >= 3.9 (python/setup.py's python_requires);
** these two helpers of the C API arrived in 3.10. Same semantics: a new
** reference; AddObjectRef does not steal v, whatever it returns. */
#if PY_VERSION_HEX < 0x030A0000
static inline PyObject *astar_py_newref(PyObject *o) {
  Py_INCREF(o);
  return o;
}
#define Py_NewRef(o) astar_py_newref((PyObject *)(o))
static int PyModule_AddObjectRef(PyObject *m, const char *name, PyObject *v) {
  if (!v) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_SystemError, "PyModule_AddObjectRef: NULL value");
    return -1;
  }
  Py_INCREF(v);
  if (PyModule_AddObject(m, name, v) < 0) {
    Py_DECREF(v);
    return -1;
  }
  return 0;
}
#endif

/* ---- statuses and errors ---------------------------------------------------------- */

static const char *const status_names[] = {
    "OK",
    "NO_PATH",
    "LIMIT_REACHED",
    "START_BLOCKED",
    "GOAL_BLOCKED",
    "BUFFER_TOO_SMALL",
    "OUT_OF_BOUNDS",
    "INVALID_ARGUMENT",
    "TOO_LARGE",
    "NO_MEMORY",
    "PARSE_ERROR",
    "UNSUPPORTED",
    "CAPACITY",
    "IN_PROGRESS",
    "PARTIAL",
    "STOPPED",
    "STALE",
    "TURNS_NOT_RESERVED",
    "QUEUE_FULL",
    "MISMATCH",
    "EXPIRED",
};
_Static_assert(sizeof status_names / sizeof status_names[0] == ASTAR_STATUS_COUNT,
               "a status was added to astar_status: name it here and in libastar/__init__.py");

/* libastar/__init__.py installs factory(code, detail, info) -> exception. */
static PyObject *error_factory;

/* Raise the exception of status `st` (with a detail sentence and extra
** attributes in `info`, both optional). Returns NULL. */
static PyObject *raise_status(astar_status st, const char *detail, PyObject *info) {
  if (!error_factory) {
    PyErr_Format(PyExc_RuntimeError, "libastar: %s", astar_strerror(st));
    return NULL;
  }
  PyObject *exc =
      PyObject_CallFunction(error_factory, "izO", (int)st, detail, info ? info : Py_None);
  if (exc) {
    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    Py_DECREF(exc);
  }
  return NULL;
}

static PyObject *py_set_error_factory(PyObject *self, PyObject *fn) {
  (void)self;
  if (!PyCallable_Check(fn)) return PyErr_Format(PyExc_TypeError, "a callable is required");
  Py_INCREF(fn);
  Py_XSETREF(error_factory, fn);
  Py_RETURN_NONE;
}

static PyObject *py_version(PyObject *self, PyObject *noargs) {
  (void)self;
  (void)noargs;
  return PyUnicode_FromString(astar_version());
}

static PyObject *busy_error(const char *what) {
  PyErr_Format(PyExc_RuntimeError, "%s", what);
  return NULL;
}

/* ---- integer arguments: cells, sizes, counts, limits, indices ------------------------------- */

/* The one rule for every integer argument the package takes -- a cell's
** coordinates, a grid's sizes, every count, limit, budget, index and
** direction: an integer -- a Python int or a NumPy integer, anything with
** __index__ -- but not a bool; str, float and the rest are refused with
** TypeError naming the argument (int() would turn "3" into 3, 2.99 into 2
** and True into 1: a wrong value used without a word). A value outside the
** argument's range is an error naming the argument and the range (never
** OverflowError, never wrapped modulo 2^64 as the "k" and "K" formats of
** PyArg_ParseTuple do). The converters below apply it: int_arg and
** point_arg for coordinates, range_arg for everything else; _core.point
** and _core.integer hand them to libastar/__init__.py. The "i", "I", "K"
** formats left in this file read the Python layer's own tuples (options,
** engine settings, cells), built from values these converters checked. */
enum { INT_OK, INT_NOT_INTEGER, INT_BEYOND, INT_FAILED };

static int is_bool(PyObject *o) {
  /* numpy.bool_ (numpy.bool in NumPy 2) has __index__, with a warning. */
  const char *t = Py_TYPE(o)->tp_name;
  return PyBool_Check(o) || strcmp(t, "numpy.bool_") == 0 || strcmp(t, "numpy.bool") == 0;
}

/* The type rule: INT_OK with *out a new reference to the int of `o`,
** INT_NOT_INTEGER (no exception set) or INT_FAILED (an exception is set). */
static int integer_of(PyObject *o, PyObject **out) {
  if (is_bool(o) || !PyIndex_Check(o)) return INT_NOT_INTEGER;
  *out = PyNumber_Index(o);
  if (*out) return INT_OK;
  /* A NumPy array of several values has __index__ and refuses it. */
  if (!PyErr_ExceptionMatches(PyExc_TypeError)) return INT_FAILED;
  PyErr_Clear();
  return INT_NOT_INTEGER;
}

/* The TypeError of an argument that is not an integer. Returns 0. */
static int not_integer(const char *name, PyObject *o) {
  PyErr_Format(PyExc_TypeError, "%s: an integer expected, got %.80s %R", name, Py_TYPE(o)->tp_name,
               o);
  return 0;
}

/* Coordinates: values beyond int32 cannot be a cell of any grid, so they
** saturate to INT32_MIN / INT32_MAX and the library answers them as any
** other cell outside the grid (ASTAR_OUT_OF_BOUNDS, "blocked" for a query),
** or, for the coordinates not tied to a grid (`strict`: hex distances,
** walked lines), raise OutOfBoundsError. INT_OK, INT_NOT_INTEGER (no
** exception set), INT_BEYOND (*out saturated, no exception) or INT_FAILED
** (an exception is set). */
static int int_value(PyObject *o, int32_t *out) {
  PyObject *i = NULL;
  const int kind = integer_of(o, &i);
  if (kind != INT_OK) return kind;
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
  Py_DECREF(i);
  if (v == -1 && PyErr_Occurred()) return INT_FAILED;
  if (overflow > 0 || v > INT32_MAX) {
    *out = INT32_MAX;
    return INT_BEYOND;
  }
  if (overflow < 0 || v < INT32_MIN) {
    *out = INT32_MIN;
    return INT_BEYOND;
  }
  *out = (int32_t)v;
  return INT_OK;
}

/* An "O&" converter's argument: `name` (and `strict`) set by the caller
** name it in errors; `value` receives it. */
typedef struct {
  const char *name;
  int strict;
  int32_t value;
} int_arg;

typedef struct {
  const char *name;
  int strict;
  astar_point value;
} point_arg;

static void beyond_int32(const char *name, PyObject *given) {
  PyObject *msg = PyUnicode_FromFormat("%s: %R lies beyond the int32 coordinates", name, given);
  if (msg) {
    raise_status(ASTAR_OUT_OF_BOUNDS, PyUnicode_AsUTF8(msg), NULL);
    Py_DECREF(msg);
  }
}

static int int_arg_convert(PyObject *o, void *p) {
  int_arg *a = p;
  switch (int_value(o, &a->value)) {
  case INT_OK:
    return 1;
  case INT_BEYOND:
    if (!a->strict) return 1;
    beyond_int32(a->name, o);
    return 0;
  case INT_NOT_INTEGER:
    return not_integer(a->name, o);
  default:
    return 0;
  }
}

/* A cell: a sequence of two integers (a tuple, a list, a NumPy array), not
** a str or bytes. */
static int point_arg_convert(PyObject *o, void *p) {
  point_arg *a = p;
  int32_t xy[2];
  int kind = INT_NOT_INTEGER;
  if (!PyUnicode_Check(o) && !PyBytes_Check(o) && !PyByteArray_Check(o) && PySequence_Check(o)) {
    Py_ssize_t n = PySequence_Size(o);
    if (n < 0) return 0;
    kind = n == 2 ? INT_OK : INT_NOT_INTEGER;
    for (Py_ssize_t i = 0; i < n && kind != INT_NOT_INTEGER && kind != INT_FAILED; i++) {
      PyObject *item = PySequence_GetItem(o, i);
      if (!item) return 0;
      int k = int_value(item, &xy[i]);
      Py_DECREF(item);
      if (k != INT_OK) kind = k;
    }
  }
  if (kind == INT_FAILED) return 0;
  if (kind == INT_NOT_INTEGER) {
    PyErr_Format(PyExc_TypeError, "%s: an (x, y) pair of integers expected, got %.80s %R", a->name,
                 Py_TYPE(o)->tp_name, o);
    return 0;
  }
  if (kind == INT_BEYOND && a->strict) {
    beyond_int32(a->name, o);
    return 0;
  }
  a->value = (astar_point){xy[0], xy[1]};
  return 1;
}

/* The (x, y) arguments of the cell methods (contains, passable, ...). */
#define XY_ARGS int_arg x = {"x", 0, 0}, y = {"y", 0, 0}
#define XY_PARSE int_arg_convert, &x, int_arg_convert, &y

/* Every other integer argument: an integer in [min, max] (any part of
** [-2^63, 2^64 - 1], the C types' ranges). A value outside raises `status`
** (ASTAR_INVALID_ARGUMENT when 0: InvalidArgumentError, a ValueError; an
** index: ASTAR_OUT_OF_BOUNDS, an IndexError), or ASTAR_TOO_LARGE above max
** when `too_large` (a grid's sides), with "name: an integer in [min, max]
** expected, got v"; `empty` says why when min > max (no waypoints). The
** converter sets `u` to a value >= 0 and `i` to a value <= 2^63 - 1: read
** the one the range fits in. */
typedef struct {
  const char *name;
  long long min;
  unsigned long long max;
  astar_status status;
  int too_large;
  const char *empty;
  unsigned long long u;
  long long i;
} range_arg;

/* A bound as the messages print it: 2^k, 2^k - 1 and -2^k by name (what
** the C types' ranges are), other values in decimal. */
static void bound_text(char *buf, size_t size, int negative, unsigned long long magnitude) {
  for (int k = 16; k <= 64; k++) {
    const unsigned long long p = k < 64 ? 1ull << k : 0; /* 2^64 wraps to 0 */
    if (k < 64 && magnitude == p) {
      snprintf(buf, size, "%s2^%d", negative ? "-" : "", k);
      return;
    }
    if (!negative && magnitude == p - 1) {
      snprintf(buf, size, "2^%d - 1", k);
      return;
    }
  }
  snprintf(buf, size, "%s%llu", negative ? "-" : "", magnitude);
}

static int range_error(const range_arg *a, PyObject *o, int above) {
  PyObject *msg;
  if (a->min > 0 && (unsigned long long)a->min > a->max) {
    msg = PyUnicode_FromFormat("%s: %s, got %R", a->name, a->empty ? a->empty : "no value fits", o);
  } else {
    char lo[32], hi[32];
    const unsigned long long mag =
        a->min < 0 ? 0ull - (unsigned long long)a->min : (unsigned long long)a->min;
    bound_text(lo, sizeof lo, a->min < 0, mag);
    bound_text(hi, sizeof hi, 0, a->max);
    msg = PyUnicode_FromFormat("%s: an integer in [%s, %s] expected, got %R", a->name, lo, hi, o);
  }
  if (!msg) return 0;
  astar_status st = a->status ? a->status : ASTAR_INVALID_ARGUMENT;
  if (above && a->too_large) st = ASTAR_TOO_LARGE;
  /* The library's sentence for ASTAR_OUT_OF_BOUNDS speaks of coordinates. */
  PyObject *info =
      st == ASTAR_OUT_OF_BOUNDS ? Py_BuildValue("{s:s}", "message", "index out of range") : NULL;
  if (st != ASTAR_OUT_OF_BOUNDS || info) raise_status(st, PyUnicode_AsUTF8(msg), info);
  Py_XDECREF(info);
  Py_DECREF(msg);
  return 0;
}

static int range_arg_convert(PyObject *o, void *p) {
  range_arg *a = p;
  PyObject *n = NULL;
  const int kind = integer_of(o, &n);
  if (kind == INT_NOT_INTEGER) return not_integer(a->name, o);
  if (kind != INT_OK) return 0;
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(n, &overflow);
  if (v == -1 && PyErr_Occurred()) {
    Py_DECREF(n);
    return 0;
  }
  /* A negative value is compared as long long (max >= 0 is above it), any
  ** other as unsigned long long (2^63 .. 2^64 - 1 overflow long long). */
  unsigned long long u = 0;
  int below = 0, above = 0;
  if (overflow < 0 || (overflow == 0 && v < 0)) {
    below = overflow < 0 || v < a->min;
  } else {
    u = overflow ? PyLong_AsUnsignedLongLong(n) : (unsigned long long)v;
    if (u == (unsigned long long)-1 && PyErr_Occurred()) {
      if (!PyErr_ExceptionMatches(PyExc_OverflowError)) {
        Py_DECREF(n);
        return 0;
      }
      PyErr_Clear();
      above = 1; /* >= 2^64 */
    } else {
      below = a->min > 0 && u < (unsigned long long)a->min;
      above = u > a->max;
    }
  }
  Py_DECREF(n);
  if (below || above || (a->min > 0 && (unsigned long long)a->min > a->max))
    return range_error(a, o, above);
  a->u = u;
  a->i = overflow ? 0 : v;
  return 1;
}

/* integer(value, name, min, max) -> int: range_arg's rule for the Python
** layer (Options' counts and limits, the queue's sizes). */
static PyObject *py_integer(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *o;
  range_arg a = {.status = ASTAR_INVALID_ARGUMENT};
  if (!PyArg_ParseTuple(args, "OsLK", &o, &a.name, &a.min, &a.max)) return NULL;
  if (!range_arg_convert(o, &a)) return NULL;
  return a.min < 0 ? PyLong_FromLongLong(a.i) : PyLong_FromUnsignedLongLong(a.u);
}

/* strerror(status): astar_strerror of a status code (0 .. count - 1). */
static PyObject *py_strerror(PyObject *self, PyObject *arg) {
  (void)self;
  range_arg code = {.name = "status", .min = 0, .max = ASTAR_STATUS_COUNT - 1};
  if (!range_arg_convert(arg, &code)) return NULL;
  return PyUnicode_FromString(astar_strerror((astar_status)code.u));
}

/* ---- real numbers and flags: costs, weights, factors; yes-or-no arguments ------------------- */

/* The rule for every real-number argument -- a move or terrain cost, a
** weight, a factor, a penalty, the variants' epsilon and bands, and the
** values Python callbacks hand the library (heuristic estimates, arc
** costs): a Python int or float, or a NumPy integer or floating scalar (or
** a 0-d array of one), and nothing else. A str, a bool, a complex, None, a
** Decimal or a Fraction raises TypeError naming the argument (float()
** would read "2" as 2.0 and True as 1.0: a value used without a word). A
** value outside the library's range for it (include/astar/search.h,
** engine.h, grid.h) -- NaN and the infinities included -- raises
** InvalidArgumentError naming the argument and the range, here rather
** than as the library's bare "invalid argument" after the fact.
** real_arg_convert applies it; _core.real hands it to libastar/__init__.py.
** The "d" formats left in this file read the Python layer's own tuples,
** built from values this converter checked.
**
** NumPy's scalar types are recognised by the names of the classes they
** derive from (the extension does not import NumPy): numpy.number, minus
** the complex ones and numpy.timedelta64 (an integer to NumPy, a duration
** to everyone else). */
static int derives_from(PyObject *o, const char *type_name) {
  PyObject *mro = Py_TYPE(o)->tp_mro;
  if (!mro || !PyTuple_Check(mro)) return strcmp(Py_TYPE(o)->tp_name, type_name) == 0;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(mro); i++)
    if (strcmp(((PyTypeObject *)PyTuple_GET_ITEM(mro, i))->tp_name, type_name) == 0) return 1;
  return 0;
}

static int numpy_real_scalar(PyObject *o) {
  return derives_from(o, "numpy.number") && !derives_from(o, "numpy.complexfloating") &&
         !derives_from(o, "numpy.timedelta64");
}

/* A 0-d NumPy array's scalar (arr[()]; an array of more dimensions gives
** an array back), else `o` itself: a new reference, NULL with an exception. */
static PyObject *numpy_unwrap(PyObject *o) {
  if (!derives_from(o, "numpy.ndarray")) return Py_NewRef(o);
  PyObject *empty = PyTuple_New(0);
  if (!empty) return NULL;
  PyObject *s = PyObject_GetItem(o, empty);
  Py_DECREF(empty);
  if (!s) return NULL;
  if (derives_from(s, "numpy.ndarray") || !derives_from(s, "numpy.generic")) {
    Py_DECREF(s); /* not 0-d, or an object array's element: the array it was */
    return Py_NewRef(o);
  }
  return s;
}

enum { REAL_OK, REAL_NOT_NUMBER, REAL_FAILED };

/* The type rule: REAL_OK with *out the value (an int beyond the doubles:
** +-inf, which every range refuses), REAL_NOT_NUMBER (no exception set) or
** REAL_FAILED (an exception is set). */
static int real_of(PyObject *o, double *out) {
  PyObject *s = numpy_unwrap(o);
  if (!s) return REAL_FAILED;
  int kind = REAL_NOT_NUMBER;
  if (is_bool(s)) {
    kind = REAL_NOT_NUMBER;
  } else if (PyFloat_Check(s)) { /* numpy.float64 too */
    *out = PyFloat_AS_DOUBLE(s);
    kind = REAL_OK;
  } else if (PyLong_Check(s)) {
    *out = PyLong_AsDouble(s);
    kind = REAL_OK;
    if (*out == -1.0 && PyErr_Occurred()) {
      kind = REAL_FAILED;
      if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
        PyErr_Clear();
        int sign = 0;
        (void)PyLong_AsLongLongAndOverflow(s, &sign);
        *out = sign < 0 ? -HUGE_VAL : HUGE_VAL;
        kind = REAL_OK;
      }
    }
  } else if (numpy_real_scalar(s)) {
    *out = PyFloat_AsDouble(s);
    kind = *out == -1.0 && PyErr_Occurred() ? REAL_FAILED : REAL_OK;
  }
  Py_DECREF(s);
  return kind;
}

/* An "O&" converter's argument: a real number in the range from min to max
** (min excluded when `min_open`; max = HUGE_VAL: any finite value), named
** `name` in errors; `value` receives it. */
typedef struct {
  const char *name;
  double min, max;
  int min_open;
  double value;
} real_arg;

/* A bound as the messages print it: 1e9, not 1e+09. */
static void real_text(char *buf, size_t size, double v) {
  char tmp[32];
  snprintf(tmp, sizeof tmp, "%g", v);
  char *e = strchr(tmp, 'e');
  if (e) {
    char *d = e + 1;
    const int negative = *d == '-';
    if (*d == '+' || *d == '-') d++;
    while (*d == '0' && d[1]) d++;
    snprintf(buf, size, "%.*se%s%s", (int)(e - tmp), tmp, negative ? "-" : "", d);
  } else {
    snprintf(buf, size, "%s", tmp);
  }
}

/* The range of `a` as the messages say it: "a number in (0, 1e9]", "a
** finite number >= 0". */
static void real_range_text(char *buf, size_t size, const real_arg *a) {
  char lo[32], hi[32];
  real_text(lo, sizeof lo, a->min);
  if (isinf(a->max)) {
    snprintf(buf, size, "a finite number %s %s", a->min_open ? ">" : ">=", lo);
  } else {
    real_text(hi, sizeof hi, a->max);
    snprintf(buf, size, "a number in %c%s, %s]", a->min_open ? '(' : '[', lo, hi);
  }
}

static int real_in_range(const real_arg *a, double v) {
  return isfinite(v) && (a->min_open ? v > a->min : v >= a->min) && v <= a->max;
}

static int real_arg_convert(PyObject *o, void *p) {
  real_arg *a = p;
  double v = 0.0;
  switch (real_of(o, &v)) {
  case REAL_NOT_NUMBER:
    PyErr_Format(PyExc_TypeError, "%s: a real number expected, got %.80s %R", a->name,
                 Py_TYPE(o)->tp_name, o);
    return 0;
  case REAL_FAILED:
    return 0;
  default:
    break;
  }
  if (!real_in_range(a, v)) {
    char range[80];
    real_range_text(range, sizeof range, a);
    PyObject *msg = PyUnicode_FromFormat("%s: %s expected, got %R", a->name, range, o);
    if (msg) {
      raise_status(ASTAR_INVALID_ARGUMENT, PyUnicode_AsUTF8(msg), NULL);
      Py_DECREF(msg);
    }
    return 0;
  }
  a->value = v;
  return 1;
}

/* real(value, name, min, max, min_open=False) -> float: real_arg's rule
** for the Python layer (Options' costs and factors, the engine's weight
** and variant settings). max = inf: any finite value. */
static PyObject *py_real(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *o;
  real_arg a = {NULL, 0.0, 0.0, 0, 0.0};
  if (!PyArg_ParseTuple(args, "Osdd|i", &o, &a.name, &a.min, &a.max, &a.min_open)) return NULL;
  if (!real_arg_convert(o, &a)) return NULL;
  return PyFloat_FromDouble(a.value);
}

/* The rule for every yes-or-no argument (a cell's passability, partial,
** consistent, side_cells, ...): True or False -- a bool or a NumPy bool
** (or a 0-d array of one) -- or the integers 1 and 0 (a Python int or a
** NumPy integer: what a uint8 passability array holds). Any other
** integer raises InvalidArgumentError naming the argument, anything else
** (a str, a float, None, a list, an array of several values) TypeError
** naming it: the "p" format took anything truthy, so "no", "False" and
** [0] all meant yes. flag_arg_convert applies it, _core.flag hands it to
** libastar/__init__.py. The "p" formats left in this file read the Python
** layer's own tuples, built from values this converter checked. */
typedef struct {
  const char *name;
  int value;
} flag_arg;

static int flag_arg_convert(PyObject *o, void *p) {
  flag_arg *a = p;
  PyObject *s = numpy_unwrap(o);
  if (!s) return 0;
  int ok = 0;
  if (is_bool(s)) {
    const int t = PyObject_IsTrue(s);
    if (t >= 0) {
      a->value = t;
      ok = 1;
    }
  } else {
    PyObject *n = NULL;
    const int kind = integer_of(s, &n);
    if (kind == INT_OK) {
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(n, &overflow);
      Py_DECREF(n);
      if (!overflow && (v == 0 || v == 1)) {
        a->value = (int)v;
        ok = 1;
      } else if (!(v == -1 && PyErr_Occurred())) {
        PyObject *msg =
            PyUnicode_FromFormat("%s: True or False (or 1 or 0) expected, got %R", a->name, o);
        if (msg) {
          raise_status(ASTAR_INVALID_ARGUMENT, PyUnicode_AsUTF8(msg), NULL);
          Py_DECREF(msg);
        }
      }
    } else if (kind == INT_NOT_INTEGER) {
      PyErr_Format(PyExc_TypeError, "%s: True or False expected, got %.80s %R", a->name,
                   Py_TYPE(o)->tp_name, o);
    }
  }
  Py_DECREF(s);
  return ok;
}

/* flag(value, name) -> bool: flag_arg's rule for the Python layer. */
static PyObject *py_flag(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *o;
  flag_arg a = {NULL, 0};
  if (!PyArg_ParseTuple(args, "Os", &o, &a.name)) return NULL;
  if (!flag_arg_convert(o, &a)) return NULL;
  return PyBool_FromLong(a.value);
}

/* point(p, what, strict=False) -> (x, y): the cell converter for the Python
** layer (find_path's start and goal, the queue's, ...), the same rule as
** the methods taking x and y. */
static PyObject *py_point(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *o;
  point_arg a = {NULL, 0, {0, 0}};
  flag_arg strict = {"strict", 0};
  if (!PyArg_ParseTuple(args, "Os|O&", &o, &a.name, flag_arg_convert, &strict)) return NULL;
  a.strict = strict.value;
  if (!point_arg_convert(o, &a)) return NULL;
  return Py_BuildValue("(ii)", (int)a.value.x, (int)a.value.y);
}

/* Grid and HexGrid sizes: 1 <= side <= max_side (range_arg), width * height
** <= max_cells; the library would say only "invalid argument" or "too
** large". -1 with the exception. */
static int check_size(const range_arg *w, const range_arg *h, uint32_t max_cells) {
  if (w->u * h->u > max_cells) {
    char msg[160];
    snprintf(msg, sizeof msg, "width x height: at most %lu cells, got %llu x %llu = %llu",
             (unsigned long)max_cells, w->u, h->u, w->u * h->u);
    raise_status(ASTAR_TOO_LARGE, msg, NULL);
    return -1;
  }
  return 0;
}

#define SIDE_ARG(side, max_side)                                                                   \
  { .name = #side, .min = 1, .max = (max_side), .status = ASTAR_INVALID_ARGUMENT, .too_large = 1 }

/* A terrain cost as the grids store it (float32): the library takes costs
** in (0, ASTAR_TERRAIN_MAX] (TERRAIN_ARG checks that) and would call a cost
** that rounds to 0 in float32 (1e-50) "cost 0". -1 with the exception,
** naming `what`. */
static int terrain_value(double c, float *out, const char *what) {
  const float f = (float)c;
  if (f != 0.0f) {
    *out = f;
    return 0;
  }
  char msg[200];
  snprintf(msg, sizeof msg,
           "%s %g: it rounds to 0 in float32, as the grid stores costs (the smallest is 1.4e-45)",
           what, c);
  raise_status(ASTAR_INVALID_ARGUMENT, msg, NULL);
  return -1;
}

#define TERRAIN_ARG                                                                                \
  { .name = "cost", .min = 0.0, .max = (double)ASTAR_TERRAIN_MAX, .min_open = 1 }

/* ---- Grid ----------------------------------------------------------------------- */

typedef struct {
  PyObject_HEAD astar_grid *grid;
  Py_ssize_t searching; /* searches (or builds) reading it with the GIL released */
  PyObject *weakrefs;
} GridObject;

static PyTypeObject GridType;

#define GRID_MODIFIABLE(self)                                                                      \
  do {                                                                                             \
    if (!(self)->grid) return busy_error("the grid is not initialised");                           \
    if ((self)->searching > 0)                                                                     \
      return busy_error("the grid is being searched in another thread; a grid may not change "     \
                        "during a search");                                                        \
  } while (0)

#define GRID_READY(self)                                                                           \
  do {                                                                                             \
    if (!(self)->grid) return busy_error("the grid is not initialised");                           \
  } while (0)

static void Grid_dealloc(GridObject *self) {
  if (self->weakrefs) PyObject_ClearWeakRefs((PyObject *)self);
  astar_grid_free(self->grid);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Grid_init(GridObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"width", "height", NULL};
  range_arg w = SIDE_ARG(width, ASTAR_GRID_MAX_SIDE), h = SIDE_ARG(height, ASTAR_GRID_MAX_SIDE);
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&", kwlist, range_arg_convert, &w,
                                   range_arg_convert, &h))
    return -1;
  if (self->grid) {
    /* Objects built on it (JPS+, queues) hold its address. */
    busy_error("a grid is initialised once (make a new Grid)");
    return -1;
  }
  if (check_size(&w, &h, ASTAR_GRID_MAX_CELLS) < 0) return -1;
  astar_grid *g = NULL;
  astar_status st = astar_grid_new(&g, (int32_t)w.i, (int32_t)h.i, NULL);
  if (st != ASTAR_OK) {
    raise_status(st, NULL, NULL);
    return -1;
  }
  self->grid = g;
  return 0;
}

/* A new object of `type` (Grid or a subclass) owning `g`. */
static PyObject *grid_wrap(PyTypeObject *type, astar_grid *g) {
  GridObject *obj = (GridObject *)type->tp_alloc(type, 0);
  if (!obj) {
    astar_grid_free(g);
    return NULL;
  }
  obj->grid = g;
  return (PyObject *)obj;
}

static PyObject *Grid_width(GridObject *self, void *c) {
  (void)c;
  GRID_READY(self);
  return PyLong_FromLong(astar_grid_width(self->grid));
}
static PyObject *Grid_height(GridObject *self, void *c) {
  (void)c;
  GRID_READY(self);
  return PyLong_FromLong(astar_grid_height(self->grid));
}
static PyObject *Grid_version(GridObject *self, void *c) {
  (void)c;
  GRID_READY(self);
  return PyLong_FromUnsignedLongLong(astar_grid_version(self->grid));
}
static PyObject *Grid_has_terrain(GridObject *self, void *c) {
  (void)c;
  GRID_READY(self);
  return PyBool_FromLong(astar_grid_has_terrain(self->grid));
}
static PyObject *Grid_min_terrain(GridObject *self, void *c) {
  (void)c;
  GRID_READY(self);
  return PyFloat_FromDouble(astar_grid_min_terrain(self->grid));
}
static PyObject *Grid_memory(GridObject *self, void *c) {
  (void)c;
  GRID_READY(self);
  return PyLong_FromSize_t(astar_grid_memory(self->grid));
}

static PyObject *Grid_contains(GridObject *self, PyObject *args) {
  XY_ARGS;
  if (!PyArg_ParseTuple(args, "O&O&", XY_PARSE)) return NULL;
  GRID_READY(self);
  return PyBool_FromLong(astar_grid_contains(self->grid, x.value, y.value));
}

static PyObject *Grid_passable(GridObject *self, PyObject *args) {
  XY_ARGS;
  if (!PyArg_ParseTuple(args, "O&O&", XY_PARSE)) return NULL;
  GRID_READY(self);
  return PyBool_FromLong(astar_grid_passable(self->grid, x.value, y.value));
}

static PyObject *Grid_set_passable(GridObject *self, PyObject *args) {
  XY_ARGS;
  flag_arg v = {"passable", 1};
  if (!PyArg_ParseTuple(args, "O&O&|O&", XY_PARSE, flag_arg_convert, &v)) return NULL;
  GRID_MODIFIABLE(self);
  astar_status st = astar_grid_set_passable(self->grid, x.value, y.value, v.value != 0);
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  Py_RETURN_NONE;
}

static PyObject *Grid_terrain(GridObject *self, PyObject *args) {
  XY_ARGS;
  if (!PyArg_ParseTuple(args, "O&O&", XY_PARSE)) return NULL;
  GRID_READY(self);
  return PyFloat_FromDouble(astar_grid_terrain(self->grid, x.value, y.value));
}

static PyObject *Grid_set_terrain(GridObject *self, PyObject *args) {
  XY_ARGS;
  real_arg c = TERRAIN_ARG;
  float cost;
  if (!PyArg_ParseTuple(args, "O&O&O&", XY_PARSE, real_arg_convert, &c)) return NULL;
  GRID_MODIFIABLE(self);
  if (terrain_value(c.value, &cost, "cost") < 0) return NULL;
  astar_status st = astar_grid_set_terrain(self->grid, x.value, y.value, cost);
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  Py_RETURN_NONE;
}

static PyObject *Grid_fill(GridObject *self, PyObject *args) {
  flag_arg v = {"passable", 0};
  if (!PyArg_ParseTuple(args, "O&", flag_arg_convert, &v)) return NULL;
  GRID_MODIFIABLE(self);
  astar_status st = astar_grid_fill(self->grid, v.value != 0);
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  Py_RETURN_NONE;
}

static PyObject *Grid_clear_terrain(GridObject *self, PyObject *noargs) {
  (void)noargs;
  GRID_MODIFIABLE(self);
  astar_grid_clear_terrain(self->grid);
  Py_RETURN_NONE;
}

static PyObject *Grid_count_passable(GridObject *self, PyObject *noargs) {
  (void)noargs;
  GRID_READY(self);
  return PyLong_FromSize_t(astar_grid_count_passable(self->grid));
}

static PyObject *Grid_copy(GridObject *self, PyObject *noargs) {
  (void)noargs;
  GRID_READY(self);
  astar_grid *g = NULL;
  astar_status st = astar_grid_clone(&g, self->grid, NULL);
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  return grid_wrap(Py_TYPE(self), g);
}

/* _load(passable, terrain=None): passable is h*w bytes (0 blocked), row
** after row; terrain (optional) h*w native float32 values. */
static PyObject *Grid_load(GridObject *self, PyObject *args) {
  Py_buffer pass, terr = {0};
  PyObject *terr_obj = Py_None;
  if (!PyArg_ParseTuple(args, "y*|O", &pass, &terr_obj)) return NULL;
  PyObject *ret = NULL;
  if (!self->grid || self->searching > 0) {
    busy_error(self->grid ? "the grid is being searched" : "the grid is not initialised");
    goto done;
  }
  const int32_t w = astar_grid_width(self->grid), h = astar_grid_height(self->grid);
  const size_t n = (size_t)w * (size_t)h;
  if ((size_t)pass.len != n) {
    PyErr_Format(PyExc_ValueError, "passable: %zu bytes expected, got %zd", n, pass.len);
    goto done;
  }
  if (terr_obj != Py_None) {
    if (PyObject_GetBuffer(terr_obj, &terr, PyBUF_SIMPLE) < 0) goto done;
    if ((size_t)terr.len != n * sizeof(float)) {
      PyErr_Format(PyExc_ValueError, "terrain: %zu bytes expected, got %zd", n * sizeof(float),
                   terr.len);
      goto done;
    }
  }
  const unsigned char *p = pass.buf;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) astar_grid_set_passable(self->grid, x, y, p[(size_t)y * w + x]);
  if (terr.buf) {
    const float *t = terr.buf;
    for (int32_t y = 0; y < h; y++)
      for (int32_t x = 0; x < w; x++) {
        float c = t[(size_t)y * w + x];
        if (c == 1.0f && !astar_grid_has_terrain(self->grid)) continue;
        astar_status st = astar_grid_set_terrain(self->grid, x, y, c);
        if (st != ASTAR_OK) {
          char msg[120];
          snprintf(msg, sizeof msg, "terrain cost %g at (%d, %d): costs are finite and in (0, 1e9]",
                   (double)c, (int)x, (int)y);
          raise_status(st, msg, NULL);
          goto done;
        }
      }
  }
  ret = Py_NewRef(Py_None);
done:
  PyBuffer_Release(&pass);
  if (terr.buf) PyBuffer_Release(&terr);
  return ret;
}

/* _export() -> (passable bytes, terrain bytes or None), the layout of _load. */
static PyObject *Grid_export(GridObject *self, PyObject *noargs) {
  (void)noargs;
  GRID_READY(self);
  const int32_t w = astar_grid_width(self->grid), h = astar_grid_height(self->grid);
  const size_t n = (size_t)w * (size_t)h;
  PyObject *pass = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
  if (!pass) return NULL;
  unsigned char *p = (unsigned char *)PyBytes_AS_STRING(pass);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) p[(size_t)y * w + x] = astar_grid_passable(self->grid, x, y);
  PyObject *terr = Py_NewRef(Py_None);
  if (astar_grid_has_terrain(self->grid)) {
    Py_DECREF(terr);
    terr = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * sizeof(float)));
    if (!terr) {
      Py_DECREF(pass);
      return NULL;
    }
    float *t = (float *)(void *)PyBytes_AS_STRING(terr);
    for (int32_t y = 0; y < h; y++)
      for (int32_t x = 0; x < w; x++) t[(size_t)y * w + x] = astar_grid_terrain(self->grid, x, y);
  }
  return Py_BuildValue("(NN)", pass, terr);
}

static PyMethodDef Grid_methods[] = {
    {"contains", (PyCFunction)Grid_contains, METH_VARARGS, "contains(x, y): inside the grid?"},
    {"passable", (PyCFunction)Grid_passable, METH_VARARGS,
     "passable(x, y): is the cell passable? (outside: False)"},
    {"set_passable", (PyCFunction)Grid_set_passable, METH_VARARGS,
     "set_passable(x, y, passable=True)"},
    {"terrain", (PyCFunction)Grid_terrain, METH_VARARGS,
     "terrain(x, y): the cost factor of entering the cell (1 unless set; 0 outside)"},
    {"set_terrain", (PyCFunction)Grid_set_terrain, METH_VARARGS,
     "set_terrain(x, y, cost): cost finite and in (0, 1e9]"},
    {"fill", (PyCFunction)Grid_fill, METH_VARARGS,
     "fill(passable): every cell passable or blocked"},
    {"clear_terrain", (PyCFunction)Grid_clear_terrain, METH_NOARGS,
     "clear_terrain(): every terrain cost back to 1"},
    {"count_passable", (PyCFunction)Grid_count_passable, METH_NOARGS,
     "count_passable(): number of passable cells"},
    {"copy", (PyCFunction)Grid_copy, METH_NOARGS, "copy(): an independent copy"},
    {"_load", (PyCFunction)Grid_load, METH_VARARGS, NULL},
    {"_export", (PyCFunction)Grid_export, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Grid_getset[] = {
    {"width", (getter)Grid_width, NULL, "columns", NULL},
    {"height", (getter)Grid_height, NULL, "rows", NULL},
    {"version", (getter)Grid_version, NULL,
     "a counter every change of passability or terrain increases", NULL},
    {"has_terrain", (getter)Grid_has_terrain, NULL, "True once a terrain cost other than 1 was set",
     NULL},
    {"min_terrain", (getter)Grid_min_terrain, NULL, "the smallest terrain cost of any cell", NULL},
    {"memory", (getter)Grid_memory, NULL, "bytes the grid holds", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject GridType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.Grid",
    .tp_basicsize = sizeof(GridObject),
    .tp_dealloc = (destructor)Grid_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Grid(width, height): a square grid, every cell passable, terrain cost 1.",
    .tp_weaklistoffset = offsetof(GridObject, weakrefs),
    .tp_methods = Grid_methods,
    .tp_getset = Grid_getset,
    .tp_init = (initproc)Grid_init,
    .tp_new = PyType_GenericNew,
};

/* ---- parsing ------------------------------------------------------------------- */

static PyObject *parse_error(astar_status st, const astar_parse_error *err) {
  PyObject *info = Py_BuildValue("{s:i,s:i}", "line", (int)err->line, "column", (int)err->column);
  if (!info) return NULL;
  raise_status(st, err->message[0] ? err->message : NULL, info);
  Py_DECREF(info);
  return NULL;
}

static PyObject *point_or_none(astar_point p) {
  if (p.x < 0 || p.y < 0) Py_RETURN_NONE;
  return Py_BuildValue("(ii)", (int)p.x, (int)p.y);
}

/* parse_map(cls, text, kind) -> (grid, start, goal); kind 'auto', 'movingai', 'ascii'. */
static PyObject *py_parse_map(PyObject *self, PyObject *args) {
  (void)self;
  PyTypeObject *cls;
  Py_buffer text;
  const char *kind;
  if (!PyArg_ParseTuple(args, "O!y*s", &PyType_Type, &cls, &text, &kind)) return NULL;
  if (!PyType_IsSubtype(cls, &GridType)) {
    PyBuffer_Release(&text);
    return PyErr_Format(PyExc_TypeError, "a Grid class is required");
  }
  astar_grid *g = NULL;
  astar_point s = {-1, -1}, gl = {-1, -1};
  astar_parse_error err;
  memset(&err, 0, sizeof err);
  astar_status st;
  Py_BEGIN_ALLOW_THREADS;
  if (strcmp(kind, "movingai") == 0)
    st = astar_movingai_parse_map(&g, text.buf, (size_t)text.len, NULL, &err);
  else if (strcmp(kind, "ascii") == 0)
    st = astar_ascii_parse_map(&g, text.buf, (size_t)text.len, NULL, &s, &gl, &err);
  else
    st = astar_parse_map(&g, text.buf, (size_t)text.len, NULL, &s, &gl, &err);
  Py_END_ALLOW_THREADS;
  PyBuffer_Release(&text);
  if (st != ASTAR_OK) return parse_error(st, &err);
  PyObject *grid = grid_wrap(cls, g);
  if (!grid) return NULL;
  return Py_BuildValue("(NNN)", grid, point_or_none(s), point_or_none(gl));
}

/* parse_scen(text) -> (version, [(bucket, map, w, h, sx, sy, gx, gy, optimal, line), ...]) */
static PyObject *py_parse_scen(PyObject *self, PyObject *args) {
  (void)self;
  Py_buffer text;
  if (!PyArg_ParseTuple(args, "y*", &text)) return NULL;
  astar_scen *scen = NULL;
  astar_parse_error err;
  memset(&err, 0, sizeof err);
  astar_status st = astar_movingai_parse_scen(&scen, text.buf, (size_t)text.len, NULL, &err);
  PyBuffer_Release(&text);
  if (st != ASTAR_OK) return parse_error(st, &err);
  const size_t n = astar_scen_count(scen);
  const astar_scen_query *q = astar_scen_queries(scen);
  PyObject *list = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; list && i < n; i++) {
    PyObject *t =
        Py_BuildValue("(isiiiiiidi)", (int)q[i].bucket, q[i].map, (int)q[i].map_width,
                      (int)q[i].map_height, (int)q[i].start.x, (int)q[i].start.y, (int)q[i].goal.x,
                      (int)q[i].goal.y, q[i].optimal_length, (int)q[i].line);
    if (!t) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)i, t);
  }
  double version = astar_scen_version(scen);
  astar_scen_free(scen);
  if (!list) return NULL;
  return Py_BuildValue("(dN)", version, list);
}

/* ---- Workspace -------------------------------------------------------------------- */

typedef struct {
  PyObject_HEAD astar_workspace *ws;
  int busy;
  /* The finder searches' path buffer, grown to the longest path (cells,
  ** and Anya's points or a graph search's nodes in `vecs`), cap points. */
  astar_point *cells;
  astar_vec2 *vecs;
  size_t cap;
} WorkspaceObject;

static PyTypeObject WorkspaceType;

static void Workspace_dealloc(WorkspaceObject *self) {
  astar_workspace_free(self->ws);
  PyMem_Free(self->cells);
  PyMem_Free(self->vecs);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Workspace_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "", kwlist)) return NULL;
  WorkspaceObject *self = (WorkspaceObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  astar_status st = astar_workspace_new_empty(&self->ws, NULL);
  if (st != ASTAR_OK) {
    Py_DECREF(self);
    return raise_status(st, NULL, NULL);
  }
  return (PyObject *)self;
}

static PyObject *Workspace_memory(WorkspaceObject *self, void *c) {
  (void)c;
  return PyLong_FromSize_t(self->ws ? astar_workspace_memory(self->ws) : 0);
}

/* Bytes held: the library's workspace and the path buffer beside it. */
static size_t workspace_nbytes(const WorkspaceObject *self) {
  if (!self->ws) return 0;
  return astar_workspace_memory(self->ws) + self->cap * (sizeof *self->cells + sizeof *self->vecs);
}

static PyObject *Workspace_nbytes(WorkspaceObject *self, void *c) {
  (void)c;
  return PyLong_FromSize_t(workspace_nbytes(self));
}

static PyObject *Workspace_closed(WorkspaceObject *self, void *c) {
  (void)c;
  return PyBool_FromLong(self->ws == NULL);
}

/* Give back everything a workspace grew to. The library has no trim of a
** workspace in place; a fresh empty one (astar_workspace_new_empty: a few
** kilobytes) replaces it, made first so that a failure changes nothing.
** `close`: no new one, and later searches with it raise. Refused while a
** search holds it (a sliced search keeps its state there until finish). */
static PyObject *workspace_drop(WorkspaceObject *self, int close) {
  if (self->busy) return busy_error("the workspace is in use by a search (finish or cancel it)");
  const size_t before = workspace_nbytes(self);
  astar_workspace *fresh = NULL;
  if (!close && self->ws) {
    astar_status st = astar_workspace_new_empty(&fresh, NULL);
    if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  }
  astar_workspace_free(self->ws);
  self->ws = fresh;
  PyMem_Free(self->cells);
  PyMem_Free(self->vecs);
  self->cells = NULL;
  self->vecs = NULL;
  self->cap = 0;
  const size_t after = workspace_nbytes(self);
  return PyLong_FromSize_t(before > after ? before - after : 0);
}

static PyObject *Workspace_shrink(WorkspaceObject *self, PyObject *unused) {
  (void)unused;
  return workspace_drop(self, 0);
}

static PyObject *Workspace_close(WorkspaceObject *self, PyObject *unused) {
  (void)unused;
  return workspace_drop(self, 1);
}

static PyMethodDef Workspace_methods[] = {
    {"shrink", (PyCFunction)Workspace_shrink, METH_NOARGS,
     "shrink() -> int: free what the workspace grew to (it grows again on the next search); "
     "the bytes freed. RuntimeError while a search holds it."},
    {"close", (PyCFunction)Workspace_close, METH_NOARGS,
     "close() -> int: free all of it; searches with it then raise ValueError. The bytes "
     "freed. RuntimeError while a search holds it."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Workspace_getset[] = {
    {"memory", (getter)Workspace_memory, NULL, "bytes the workspace holds", NULL},
    {"nbytes", (getter)Workspace_nbytes, NULL,
     "bytes the workspace holds (the library's workspace and the path buffer)", NULL},
    {"closed", (getter)Workspace_closed, NULL, "True after close()", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject WorkspaceType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.Workspace",
    .tp_basicsize = sizeof(WorkspaceObject),
    .tp_dealloc = (destructor)Workspace_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, /* libastar.Workspace */
    .tp_doc = "Workspace(): the scratch memory of searches; one search at a time. It grows to "
              "the largest grid or space searched with it.",
    .tp_getset = Workspace_getset,
    .tp_methods = Workspace_methods,
    .tp_new = Workspace_new,
};

static int take_workspace(WorkspaceObject *ws) {
  if (!ws->ws) {
    PyErr_SetString(PyExc_ValueError, "workspace: it was closed (make a new Workspace)");
    return -1;
  }
  if (ws->busy) {
    busy_error("the workspace is in use by another search (use one workspace per thread)");
    return -1;
  }
  ws->busy = 1;
  return 0;
}

/* ---- JpsPlus ------------------------------------------------------------------------ */

typedef struct {
  PyObject_HEAD astar_jps_plus *pre;
  GridObject *grid;
} JpsPlusObject;

static PyTypeObject JpsPlusType;

/* A grid keeps its JPS+ (libastar/__init__.py) and the JPS+ its grid: a
** cycle the garbage collector must see. */
static int JpsPlus_traverse(JpsPlusObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->grid);
  return 0;
}

static int JpsPlus_clear(JpsPlusObject *self) {
  astar_jps_plus_free(self->pre);
  self->pre = NULL;
  Py_CLEAR(self->grid);
  return 0;
}

static void JpsPlus_dealloc(JpsPlusObject *self) {
  PyObject_GC_UnTrack(self);
  JpsPlus_clear(self);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

#define JPP_READY(self)                                                                            \
  do {                                                                                             \
    if (!(self)->pre || !(self)->grid) return busy_error("the JpsPlus object was cleared");        \
  } while (0)

static PyObject *JpsPlus_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"grid", NULL};
  GridObject *grid;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!", kwlist, &GridType, &grid)) return NULL;
  GRID_READY(grid);
  JpsPlusObject *self = (JpsPlusObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->grid = (GridObject *)Py_NewRef(grid);
  astar_status st;
  grid->searching++;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_jps_plus_new(&self->pre, grid->grid, NULL);
  Py_END_ALLOW_THREADS;
  grid->searching--;
  if (st != ASTAR_OK) {
    Py_DECREF(self);
    return raise_status(st,
                        st == ASTAR_UNSUPPORTED ? "the grid has terrain costs; JPS+ needs "
                                                  "uniform costs (clear the terrain, or use A*)"
                                                : NULL,
                        NULL);
  }
  return (PyObject *)self;
}

/* JpsPlus._load(grid, data) */
static PyObject *JpsPlus_load(PyObject *cls, PyObject *args) {
  GridObject *grid;
  Py_buffer data;
  if (!PyArg_ParseTuple(args, "O!y*", &GridType, &grid, &data)) return NULL;
  if (!grid->grid) {
    PyBuffer_Release(&data);
    return busy_error("the grid is not initialised");
  }
  astar_jps_plus *pre = NULL;
  astar_status st = astar_jps_plus_load(&pre, grid->grid, data.buf, (size_t)data.len, NULL);
  PyBuffer_Release(&data);
  if (st != ASTAR_OK)
    return raise_status(st,
                        st == ASTAR_PARSE_ERROR ? "not a valid JPS+ precomputation (damaged, "
                                                  "truncated or another format)"
                        : st == ASTAR_MISMATCH  ? "the precomputation belongs to another map"
                                                : NULL,
                        NULL);
  JpsPlusObject *self = (JpsPlusObject *)((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 0);
  if (!self) {
    astar_jps_plus_free(pre);
    return NULL;
  }
  self->pre = pre;
  self->grid = (GridObject *)Py_NewRef(grid);
  return (PyObject *)self;
}

static PyObject *JpsPlus_save(JpsPlusObject *self, PyObject *noargs) {
  (void)noargs;
  JPP_READY(self);
  size_t len = 0;
  astar_status st = astar_jps_plus_save(self->pre, NULL, 0, &len);
  if (st != ASTAR_BUFFER_TOO_SMALL && st != ASTAR_OK) return raise_status(st, NULL, NULL);
  PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)len);
  if (!out) return NULL;
  st = astar_jps_plus_save(self->pre, PyBytes_AS_STRING(out), len, &len);
  if (st != ASTAR_OK) {
    Py_DECREF(out);
    return raise_status(st, NULL, NULL);
  }
  return out;
}

static PyObject *JpsPlus_verify(JpsPlusObject *self, PyObject *noargs) {
  (void)noargs;
  JPP_READY(self);
  astar_status st;
  self->grid->searching++;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_jps_plus_verify(self->pre, self->grid->grid);
  Py_END_ALLOW_THREADS;
  self->grid->searching--;
  if (st != ASTAR_OK)
    return raise_status(st,
                        st == ASTAR_PARSE_ERROR ? "an entry differs from what the grid gives: "
                                                  "the bytes it was loaded from were wrong"
                                                : NULL,
                        NULL);
  Py_RETURN_NONE;
}

static PyObject *JpsPlus_memory(JpsPlusObject *self, void *c) {
  (void)c;
  JPP_READY(self);
  return PyLong_FromSize_t(astar_jps_plus_memory(self->pre));
}

static PyObject *JpsPlus_grid(JpsPlusObject *self, void *c) {
  (void)c;
  JPP_READY(self);
  return Py_NewRef(self->grid);
}

static PyMethodDef JpsPlus_methods[] = {
    {"save", (PyCFunction)JpsPlus_save, METH_NOARGS, "save() -> bytes (a portable format)"},
    {"verify", (PyCFunction)JpsPlus_verify, METH_NOARGS,
     "verify(): check every entry against the grid (for files from untrusted sources)"},
    {"_load", (PyCFunction)JpsPlus_load, METH_VARARGS | METH_CLASS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef JpsPlus_getset[] = {
    {"memory", (getter)JpsPlus_memory, NULL, "bytes held", NULL},
    {"grid", (getter)JpsPlus_grid, NULL, "the grid it was built for", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject JpsPlusType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.JpsPlus",
    .tp_basicsize = sizeof(JpsPlusObject),
    .tp_dealloc = (destructor)JpsPlus_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)JpsPlus_traverse,
    .tp_clear = (inquiry)JpsPlus_clear,
    .tp_doc = "JpsPlus(grid): the JPS+ precomputation of a grid (jump distances).",
    .tp_methods = JpsPlus_methods,
    .tp_getset = JpsPlus_getset,
    .tp_new = JpsPlus_new,
};

/* ---- search options ------------------------------------------------------------------ */

/* Algorithms, as libastar/__init__.py numbers them. */
enum {
  ALGO_ASTAR = 0,
  ALGO_JPS,
  ALGO_JPS_PLUS,
  ALGO_DIJKSTRA,
  ALGO_GREEDY,
  ALGO_BIDIR,
  ALGO_GRAPH_ASTAR,
  ALGO_GRAPH_DIJKSTRA,
  ALGO_IDA, /* the engine's variants (astar/engine.h), on the grid as a space */
  ALGO_BEAM,
  ALGO_DYNAMIC,
  ALGO_BANDWIDTH,
  ALGO_F2F,
  ALGO_RETARGET,
  ALGO_COUNT
};

/* The Python callbacks of one search (heuristic, observer) and the first
** exception one raised: the search is then stopped (stop_fn). */
typedef struct {
  PyObject *heuristic; /* borrowed; NULL: none */
  PyObject *observer;  /* borrowed; NULL: none */
  int failed;
} py_callbacks;

/* The value a Python heuristic returned (`r`, a new reference, NULL when it
** raised; consumed), by the rule of real-number arguments (real_of): not a
** real number (a str, a bool, None) is a TypeError. The library takes
** finite values >= 0 and treats the others as 0, so a NaN or a negative
** estimate would pass unnoticed: ValueError instead. Both are raised where
** the value came back, naming the call (its cells for a grid's heuristic;
** NULL: a graph's, whose nodes are the Python layer's numbers for them).
** 0, or -1 with the exception. */
static int heuristic_value(PyObject *r, double *out, const astar_point *cell,
                           const astar_point *goal) {
  if (!r) return -1;
  double v = 0.0;
  const int kind = real_of(r, &v);
  if (kind == REAL_FAILED) {
    Py_DECREF(r);
    return -1;
  }
  if (kind == REAL_NOT_NUMBER || !(v >= 0.0) || !isfinite(v)) {
    PyObject *exc = kind == REAL_NOT_NUMBER ? PyExc_TypeError : PyExc_ValueError;
    const char *type = kind == REAL_NOT_NUMBER ? Py_TYPE(r)->tp_name : "";
    const char *space = kind == REAL_NOT_NUMBER ? " " : "";
    if (cell)
      PyErr_Format(exc,
                   "heuristic((%d, %d), (%d, %d)) returned %.80s%s%R: a heuristic is a finite "
                   "number >= 0",
                   (int)cell->x, (int)cell->y, (int)goal->x, (int)goal->y, type, space, r);
    else
      PyErr_Format(exc,
                   "heuristic(node, goal) returned %.80s%s%R: a heuristic is a finite number >= 0",
                   type, space, r);
    Py_DECREF(r);
    return -1;
  }
  Py_DECREF(r);
  *out = v;
  return 0;
}

static double cb_heuristic(void *ctx, astar_point cell, astar_point goal) {
  py_callbacks *cb = ctx;
  double v = 0.0;
  if (cb->failed) return 0.0;
  PyObject *r = PyObject_CallFunction(cb->heuristic, "(ii)(ii)", (int)cell.x, (int)cell.y,
                                      (int)goal.x, (int)goal.y);
  if (heuristic_value(r, &v, &cell, &goal) < 0) {
    cb->failed = 1;
    return 0.0;
  }
  return v;
}

static const char *const event_names[] = {"push", "expand", "improve", "reopen", "goal", "scan"};

static void cb_observer(void *ctx, const astar_event *e) {
  py_callbacks *cb = ctx;
  if (cb->failed) return;
  const char *name = (unsigned)e->type < 6 ? event_names[e->type] : "unknown";
  PyObject *r = PyObject_CallFunction(cb->observer, "(s(ii)(ii)dddKi)", name, (int)e->cell.x,
                                      (int)e->cell.y, (int)e->parent.x, (int)e->parent.y, e->g,
                                      e->h, e->f, (unsigned long long)e->expanded, e->direction);
  if (!r)
    cb->failed = 1;
  else
    Py_DECREF(r);
}

static bool cb_stop(void *ctx) {
  return ((py_callbacks *)ctx)->failed != 0;
}

/* The settings of the engine's variants as libastar/__init__.py passes
** them (_variant): (beam_width, epsilon, band_e, band_d, retarget_interval,
** ida_transpositions). Sets those fields of *eo; -1 with an exception. */
static int parse_variant(PyObject *tuple, astar_engine_options *eo) {
  unsigned int width, interval;
  int transpositions;
  if (!PyArg_ParseTuple(tuple, "IdddIp;bad variant tuple", &width, &eo->epsilon, &eo->band_e,
                        &eo->band_d, &interval, &transpositions))
    return -1;
  eo->beam_width = width;
  eo->retarget_interval = interval;
  eo->ida_transpositions = transpositions != 0;
  return 0;
}

/* The engine tuple of libastar/__init__.py (_engine_tuple): (method,
** weight, tie, reopen, max_expansions, partial, variant). Fills *eo from
** the defaults; -1 with an exception. */
static int parse_engine(PyObject *tuple, astar_engine_options *eo) {
  int method, tie, reopen, partial;
  unsigned long long maxexp;
  PyObject *variant;
  astar_engine_options_init(eo);
  if (!PyArg_ParseTuple(tuple, "idiiKpO!;bad engine tuple", &method, &eo->weight, &tie, &reopen,
                        &maxexp, &partial, &PyTuple_Type, &variant))
    return -1;
  eo->method = (astar_method)method;
  eo->tie = (astar_tie)tie;
  eo->reopen = (astar_reopen)reopen;
  eo->max_expansions = maxexp;
  eo->partial = partial != 0;
  return parse_variant(variant, eo);
}

/* What astar_workspace_reserve_space must reserve besides the forward
** search for method m (astar/engine.h says which methods need what). */
static unsigned method_reserve(astar_method m) {
  switch (m) {
  case ASTAR_METHOD_BIDIRECTIONAL:
  case ASTAR_METHOD_RETARGETING:
  case ASTAR_METHOD_BEAM:
    return ASTAR_RESERVE_BACKWARD;
  case ASTAR_METHOD_FRONT_TO_FRONT:
    return ASTAR_RESERVE_FRONT_TO_FRONT;
  default:
    return 0u;
  }
}

/* The option tuple of libastar/__init__.py (Options._tuple):
** (algo, moves, corner, straight, diagonal, heuristic, weight, tie, reopen,
**  max_expansions, open_set, partial, terrain_scale, turn_penalty,
**  heuristic_floor, heuristic_fn, observer, variant). `eo` (may be NULL)
** receives the defaults and the variant's settings (parse_variant); the
** engine searches take the rest from *o. */
static int parse_options(PyObject *tuple, int *algo, astar_options *o, py_callbacks *cb,
                         astar_engine_options *eo) {
  astar_options_init(o);
  int moves, corner, heur, tie, reopen, open_set, partial;
  unsigned long long maxexp;
  PyObject *hfn, *obs, *variant;
  if (!PyArg_ParseTuple(tuple, "iiiddidiiKipdddOOO!;bad option tuple", algo, &moves, &corner,
                        &o->straight_cost, &o->diagonal_cost, &heur, &o->weight, &tie, &reopen,
                        &maxexp, &open_set, &partial, &o->terrain_scale, &o->turn_penalty,
                        &o->heuristic_floor, &hfn, &obs, &PyTuple_Type, &variant))
    return -1;
  if (eo) {
    astar_engine_options_init(eo);
    if (parse_variant(variant, eo) < 0) return -1;
  }
  if (*algo < 0 || *algo >= ALGO_COUNT) {
    PyErr_SetString(PyExc_ValueError, "unknown algorithm");
    return -1;
  }
  o->moves = moves;
  o->corner = (astar_corner)corner;
  o->heuristic = (astar_heuristic)heur;
  o->tie = (astar_tie)tie;
  o->reopen = (astar_reopen)reopen;
  o->max_expansions = maxexp;
  o->open_set = (astar_open_set)open_set;
  o->partial = partial != 0;
  cb->heuristic = hfn != Py_None ? hfn : NULL;
  cb->observer = obs != Py_None ? obs : NULL;
  cb->failed = 0;
  if (cb->heuristic) {
    o->heuristic = ASTAR_H_CALLBACK;
    o->heuristic_fn = cb_heuristic;
    o->heuristic_ctx = cb;
  }
  if (cb->observer) {
    o->observer = cb_observer;
    o->observer_ctx = cb;
  }
  /* A callback that raised stops the search at the next expansion (the jump
  ** searches have no stop hook: they run to their end, calling no more
  ** Python). */
  if ((cb->heuristic || cb->observer) && *algo != ALGO_JPS && *algo != ALGO_JPS_PLUS) {
    o->stop_fn = cb_stop;
    o->stop_ctx = cb;
    o->stop_interval = 1;
  }
  if (*algo == ALGO_JPS) o->algorithm = ASTAR_ALGO_JPS;
  if (*algo == ALGO_DIJKSTRA || *algo == ALGO_GRAPH_DIJKSTRA) o->heuristic = ASTAR_H_ZERO;
  return 0;
}

/* Does `algo` run on the engine (the grid as a space)? Every algorithm but
** the grid's own A* (and Dijkstra), JPS and JPS+. */
static int algo_is_engine(int algo) {
  return algo == ALGO_GREEDY || algo == ALGO_BIDIR || algo >= ALGO_GRAPH_ASTAR;
}

static astar_method algo_method(int algo) {
  switch (algo) {
  case ALGO_GREEDY:
    return ASTAR_METHOD_GREEDY;
  case ALGO_BIDIR:
    return ASTAR_METHOD_BIDIRECTIONAL;
  case ALGO_GRAPH_DIJKSTRA:
    return ASTAR_METHOD_DIJKSTRA;
  case ALGO_IDA:
    return ASTAR_METHOD_IDA;
  case ALGO_BEAM:
    return ASTAR_METHOD_BEAM;
  case ALGO_DYNAMIC:
    return ASTAR_METHOD_DYNAMIC;
  case ALGO_BANDWIDTH:
    return ASTAR_METHOD_BANDWIDTH;
  case ALGO_F2F:
    return ASTAR_METHOD_FRONT_TO_FRONT;
  case ALGO_RETARGET:
    return ASTAR_METHOD_RETARGETING;
  default:
    return ASTAR_METHOD_ASTAR;
  }
}

/* What the engine on the grid as a space cannot honour (NULL: nothing) --
** the same rules as the tool's --space graph. */
static const char *engine_unsupported(const astar_options *o, const py_callbacks *cb) {
  if (o->heuristic == ASTAR_H_CALLBACK) return "the engine takes the space's own heuristic";
  if (cb->observer) return "the observer is for the grid's own searches (astar, jps, jps-plus)";
  if (o->tie == ASTAR_TIE_CROSS)
    return "the engine breaks ties by larger g or newest, then node id (no cross product)";
  if (o->turn_penalty != 0.0 || o->terrain_scale != 1.0)
    return "turn penalties and terrain scaling are options of A* on the grid (use "
           "algo='astar' with space='grid')";
  return NULL;
}

/* ---- grid searches ------------------------------------------------------------------- */

#define STACK_CELLS 1024

/* The result tuple handed to libastar/__init__.py:
** (status, cells bytes or None, cost, expanded, generated, reopened, max_open,
**  end or None, cause, retargeted, detail or None, dropped, iterations);
** the last two from `er`, the engine's result (NULL: 0). */
static PyObject *result_tuple(astar_status st, const astar_point *cells, size_t len,
                              const astar_result *r, const char *detail,
                              const astar_engine_result *er) {
  PyObject *bytes = Py_NewRef(Py_None);
  if (cells && (st == ASTAR_OK || st == ASTAR_PARTIAL)) {
    Py_DECREF(bytes);
    bytes = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(len * 2 * sizeof(int32_t)));
    if (!bytes) return NULL;
    int32_t *out = (int32_t *)(void *)PyByteArray_AS_STRING(bytes);
    for (size_t i = 0; i < len; i++) {
      out[2 * i] = cells[i].x;
      out[2 * i + 1] = cells[i].y;
    }
  }
  return Py_BuildValue(
      "(iNdKKKKNiOzKK)", (int)st, bytes, r->cost, (unsigned long long)r->stats.expanded,
      (unsigned long long)r->stats.generated, (unsigned long long)r->stats.reopened,
      (unsigned long long)r->stats.max_open, point_or_none(r->end), (int)r->cause,
      r->retargeted ? Py_True : Py_False, detail, (unsigned long long)(er ? er->dropped : 0),
      (unsigned long long)(er ? er->iterations : 0));
}

/* A finished search's status once its path is in hand: a path that did
** not fit the first buffer was found all the same; with options.partial it
** may be a partial one (cause says). */
static astar_status after_copy(const astar_options *o, const astar_result *r) {
  if (o->partial &&
      (r->cause == ASTAR_NO_PATH || r->cause == ASTAR_LIMIT_REACHED || r->cause == ASTAR_STOPPED))
    return ASTAR_PARTIAL;
  return ASTAR_OK;
}

/* grid_find(grid, workspace, jps_plus_or_None, start, goal, options) where
** goal is (x, y) or a bytes-like of int32 pairs (several goals, A* only). */
static PyObject *py_grid_find(PyObject *self, PyObject *args) {
  (void)self;
  GridObject *grid;
  WorkspaceObject *ws;
  PyObject *pre_obj, *goal_obj, *opt_tuple;
  int sx, sy;
  if (!PyArg_ParseTuple(args, "O!O!O(ii)OO", &GridType, &grid, &WorkspaceType, &ws, &pre_obj, &sx,
                        &sy, &goal_obj, &opt_tuple))
    return NULL;
  GRID_READY(grid);
  int algo;
  astar_options o;
  py_callbacks cb;
  astar_engine_options eo;
  if (parse_options(opt_tuple, &algo, &o, &cb, &eo) < 0) return NULL;
  const astar_jps_plus *pre = NULL;
  if (pre_obj != Py_None) {
    if (!PyObject_TypeCheck(pre_obj, &JpsPlusType))
      return PyErr_Format(PyExc_TypeError, "jps_plus: a JpsPlus object is required");
    pre = ((JpsPlusObject *)pre_obj)->pre;
    if (!pre) return busy_error("the JpsPlus object was cleared");
  }
  if (algo == ALGO_JPS_PLUS && !pre)
    return PyErr_Format(PyExc_ValueError, "jps-plus needs a JpsPlus precomputation");

  /* Goals. */
  astar_point goal = {0, 0};
  Py_buffer goals = {0};
  int multi = 0;
  if (PyTuple_Check(goal_obj)) {
    if (!PyArg_ParseTuple(goal_obj, "ii;goal: (x, y) expected", &goal.x, &goal.y)) return NULL;
  } else {
    if (PyObject_GetBuffer(goal_obj, &goals, PyBUF_SIMPLE) < 0) return NULL;
    multi = 1;
    if (goals.len % (Py_ssize_t)sizeof(astar_point) != 0 || goals.len == 0) {
      PyBuffer_Release(&goals);
      return PyErr_Format(PyExc_ValueError, "goals: int32 (x, y) pairs expected");
    }
    if (algo != ALGO_ASTAR && algo != ALGO_DIJKSTRA) {
      PyBuffer_Release(&goals);
      return raise_status(ASTAR_UNSUPPORTED, "several goals: A* and Dijkstra only", NULL);
    }
  }
  const astar_point start = {sx, sy};
  const int keep_gil = cb.heuristic || cb.observer;

  if (take_workspace(ws) < 0) {
    if (multi) PyBuffer_Release(&goals);
    return NULL;
  }
  PyObject *ret = NULL;
  astar_point stack_cells[STACK_CELLS];
  astar_node stack_nodes[STACK_CELLS];
  astar_point *cells = stack_cells;
  astar_node *nodes = stack_nodes;
  size_t cap = STACK_CELLS;
  astar_result r;
  memset(&r, 0, sizeof r);
  r.end = (astar_point){-1, -1};
  astar_engine_result er;
  memset(&er, 0, sizeof er);
  const char *detail = NULL;
  astar_status st = astar_workspace_reserve(ws->ws, grid->grid);
  if (st == ASTAR_OK && o.turn_penalty > 0.0 && !algo_is_engine(algo))
    st = astar_workspace_reserve_turns(ws->ws, grid->grid);
  astar_grid_space holder;
  astar_space space;
  if (st == ASTAR_OK && algo_is_engine(algo)) {
    detail = engine_unsupported(&o, &cb);
    if (detail) st = ASTAR_UNSUPPORTED;
    eo.method = algo_method(algo);
    if (st == ASTAR_OK) st = astar_grid_space_init(&space, &holder, grid->grid, &o);
    if (st == ASTAR_OK)
      st = astar_workspace_reserve_space(ws->ws, &space, method_reserve(eo.method));
    eo.weight = o.weight;
    eo.tie = o.tie;
    eo.reopen = o.reopen;
    eo.max_expansions = o.max_expansions;
    eo.partial = o.partial;
    if (st == ASTAR_OK && (!astar_grid_contains(grid->grid, start.x, start.y) ||
                           !astar_grid_contains(grid->grid, goal.x, goal.y)))
      st = ASTAR_OUT_OF_BOUNDS;
  }
  if (st != ASTAR_OK) {
    r.cause = st;
    ret = result_tuple(st, NULL, 0, &r, detail, NULL);
    goto done;
  }

  PyThreadState *ts = NULL;
  grid->searching++;
  if (!keep_gil) ts = PyEval_SaveThread();
  if (algo_is_engine(algo)) {
    st = astar_space_find_path(ws->ws, &space, &eo, astar_grid_space_node(&holder, start),
                               astar_grid_space_node(&holder, goal), nodes, cap, &er);
    r.cost = er.cost;
    r.length = er.length;
    r.stats = er.stats;
    r.cause = er.cause;
    r.end =
        er.end == ASTAR_NODE_NONE ? (astar_point){-1, -1} : astar_grid_space_cell(&holder, er.end);
  } else if (algo == ALGO_JPS_PLUS) {
    st = astar_jps_plus_find_path(ws->ws, pre, grid->grid, &o, start, goal, cells, cap, &r);
  } else if (multi) {
    st = astar_find_path_multi(ws->ws, grid->grid, &o, start, goals.buf,
                               (size_t)goals.len / sizeof(astar_point), cells, cap, &r);
  } else {
    st = astar_find_path(ws->ws, grid->grid, &o, start, goal, cells, cap, &r);
  }
  if (ts) PyEval_RestoreThread(ts);
  grid->searching--;

  if (cb.failed) goto done; /* a Python callback raised: its exception */
  if (st == ASTAR_BUFFER_TOO_SMALL) {
    /* Found, longer than the first buffer: copy it from the workspace. */
    size_t len = r.length;
    cells = PyMem_Malloc(len * sizeof *cells);
    if (algo_is_engine(algo)) nodes = PyMem_Malloc(len * sizeof *nodes);
    if (!cells || !nodes) {
      PyErr_NoMemory();
      goto done;
    }
    cap = len;
    st = algo_is_engine(algo) ? astar_workspace_space_path(ws->ws, nodes, cap, &len)
                              : astar_workspace_path(ws->ws, cells, cap, &len);
    if (st == ASTAR_OK) st = after_copy(&o, &r);
  }
  if (st == ASTAR_UNSUPPORTED) {
    astar_options ro = o;
    if (algo == ALGO_JPS_PLUS) ro.algorithm = ASTAR_ALGO_JPS;
    detail = astar_unsupported_reason(&ro, grid->grid);
  }
  if ((st == ASTAR_OK || st == ASTAR_PARTIAL) && algo_is_engine(algo))
    for (size_t i = 0; i < r.length; i++) cells[i] = astar_grid_space_cell(&holder, nodes[i]);
  ret = result_tuple(st, cells, r.length, &r, detail, &er);
done:
  ws->busy = 0;
  if (cells != stack_cells) PyMem_Free(cells);
  if (nodes != stack_nodes) PyMem_Free(nodes);
  if (multi) PyBuffer_Release(&goals);
  return ret;
}

/* unsupported_reason(grid, options) -> str or None: why the algorithm of
** `options` cannot run on `grid` (the library's sentence). */
static PyObject *py_unsupported_reason(PyObject *self, PyObject *args) {
  (void)self;
  GridObject *grid;
  PyObject *opt_tuple;
  if (!PyArg_ParseTuple(args, "O!O", &GridType, &grid, &opt_tuple)) return NULL;
  GRID_READY(grid);
  int algo;
  astar_options o;
  py_callbacks cb;
  if (parse_options(opt_tuple, &algo, &o, &cb, NULL) < 0) return NULL;
  const char *why;
  if (algo_is_engine(algo)) {
    why = engine_unsupported(&o, &cb);
  } else {
    if (algo == ALGO_JPS_PLUS) o.algorithm = ASTAR_ALGO_JPS;
    why = astar_unsupported_reason(&o, grid->grid);
  }
  if (!why) Py_RETURN_NONE;
  return PyUnicode_FromString(why);
}

/* path_cost(grid, cells bytes, options) -> cost; raises with the index of
** the first bad cell. */
static PyObject *py_path_cost(PyObject *self, PyObject *args) {
  (void)self;
  GridObject *grid;
  Py_buffer cells;
  PyObject *opt_tuple;
  if (!PyArg_ParseTuple(args, "O!y*O", &GridType, &grid, &cells, &opt_tuple)) return NULL;
  int algo;
  astar_options o;
  py_callbacks cb;
  double cost = 0.0;
  size_t bad = 0;
  PyObject *ret = NULL;
  if (!grid->grid) {
    busy_error("the grid is not initialised");
  } else if (parse_options(opt_tuple, &algo, &o, &cb, NULL) == 0) {
    astar_status st = astar_path_cost(grid->grid, &o, cells.buf,
                                      (size_t)cells.len / sizeof(astar_point), &cost, &bad);
    if (st == ASTAR_OK) {
      ret = PyFloat_FromDouble(cost);
    } else {
      PyObject *info = Py_BuildValue("{s:n}", "index", (Py_ssize_t)bad);
      char msg[96];
      snprintf(msg, sizeof msg, "cell %zu of the path is not a legal move from the one before",
               bad);
      if (info) raise_status(st, msg, info);
      Py_XDECREF(info);
    }
  }
  PyBuffer_Release(&cells);
  return ret;
}

/* ---- Queue ------------------------------------------------------------------------ */

typedef struct {
  PyObject_HEAD astar_queue *q;
  GridObject *grid;
  PyObject *buffers;    /* dict: request id -> bytearray (the request's path buffer) */
  PyObject *sink;       /* called with each outcome tuple during update */
  PyThreadState *saved; /* during update: the thread state released */
  unsigned long owner;  /* during update: the thread running it */
  int updating;
  PyObject *exc_type, *exc_value, *exc_tb; /* first exception raised by the sink */
} QueueObject;

static PyTypeObject QueueType;

static int Queue_traverse(QueueObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->grid);
  Py_VISIT(self->buffers);
  Py_VISIT(self->sink);
  return 0;
}

static int Queue_clear(QueueObject *self) {
  Py_CLEAR(self->sink);
  return 0;
}

static void Queue_dealloc(QueueObject *self) {
  PyObject_GC_UnTrack(self);
  astar_queue_free(self->q);
  Py_XDECREF(self->grid);
  Py_XDECREF(self->buffers);
  Py_XDECREF(self->sink);
  Py_XDECREF(self->exc_type);
  Py_XDECREF(self->exc_value);
  Py_XDECREF(self->exc_tb);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static void queue_done(void *ctx, const astar_request_done *done);

/* The most requests a queue holds: queue.c's MAX_CAPACITY, beyond which
** astar_queue_new says only ASTAR_INVALID_ARGUMENT. */
#define QUEUE_MAX_CAPACITY (1ull << 24)

static PyObject *Queue_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"grid", "capacity", "sink", NULL};
  GridObject *grid;
  range_arg capacity = {.name = "capacity", .min = 1, .max = QUEUE_MAX_CAPACITY};
  PyObject *sink;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O&O", kwlist, &GridType, &grid, range_arg_convert,
                                   &capacity, &sink))
    return NULL;
  GRID_READY(grid);
  QueueObject *self = (QueueObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->grid = (GridObject *)Py_NewRef(grid);
  self->sink = Py_NewRef(sink);
  self->buffers = PyDict_New();
  if (!self->buffers) {
    Py_DECREF(self);
    return NULL;
  }
  astar_status st = astar_queue_new(&self->q, grid->grid, (size_t)capacity.u, NULL);
  if (st != ASTAR_OK) {
    Py_DECREF(self);
    return raise_status(st, NULL, NULL);
  }
  astar_queue_set_callback(self->q, queue_done, self);
  return (PyObject *)self;
}

/* Methods may be called from the update's callbacks (same thread), not
** from another thread while an update runs. */
static int queue_usable(QueueObject *self) {
  if (self->updating && self->owner != PyThread_get_thread_ident()) {
    busy_error("the queue is being updated in another thread");
    return -1;
  }
  return 0;
}

/* The outcome tuple handed to the sink:
** (id, status, cells bytes or None, cost, expanded, generated, reopened,
**  max_open, end or None, cause, grid_version, restarts) */
static void queue_done(void *ctx, const astar_request_done *done) {
  QueueObject *self = ctx;
  PyEval_RestoreThread(self->saved);
  self->grid->searching--;
  astar_status st = done->status;
  const astar_point *cells = done->path;
  size_t len = done->len;
  astar_point *copy = NULL;
  if (st == ASTAR_BUFFER_TOO_SMALL) {
    /* The path outgrew its buffer: the queue holds it during the callback. */
    len = done->result.length;
    copy = PyMem_Malloc((len ? len : 1) * sizeof *copy);
    if (copy && astar_queue_path(self->q, done->id, copy, len, &len) == ASTAR_OK) {
      cells = copy;
      st = done->result.cause == ASTAR_OK || done->result.cause == ASTAR_BUFFER_TOO_SMALL
               ? ASTAR_OK
               : ASTAR_PARTIAL;
    }
  }
  if (!self->exc_type) {
    astar_result r = done->result;
    PyObject *t = result_tuple(st, cells, len, &r, NULL, NULL);
    PyObject *res = NULL;
    if (t)
      res = PyObject_CallFunction(self->sink, "(kNKI)", (unsigned long)done->id, t,
                                  (unsigned long long)done->grid_version,
                                  (unsigned int)done->restarts);
    if (!res)
      PyErr_Fetch(&self->exc_type, &self->exc_value, &self->exc_tb);
    else
      Py_DECREF(res);
  }
  PyMem_Free(copy);
  self->grid->searching++;
  self->saved = PyEval_SaveThread();
}

/* submit(start, goal, priority, options, cap) -> id; start and goal from
** _core.point, cap the queue's path_capacity: the cells of the buffer a
** path goes to first (a longer path is copied when it is delivered), at
** most a grid's cells. */
static const astar_finder *queue_finder_of(PyObject *o);

/* submit(start, goal, priority, options, cap[, method, unit_size, smooth,
** finder]): options None with a finder (a Finder's _core object: the
** request runs it); otherwise the queue prepares method (an astar_method),
** unit_size and smooth for the request (astar_request). */
static PyObject *Queue_submit(QueueObject *self, PyObject *args) {
  int sx, sy, gx, gy;
  range_arg priority = {.name = "priority", .min = INT_MIN, .max = INT_MAX};
  range_arg cap = {.name = "path_capacity", .min = 1, .max = ASTAR_GRID_MAX_CELLS};
  range_arg unit = {.name = "unit_size", .min = 1, .max = ASTAR_CLEARANCE_MAX};
  unit.u = 1;
  int method = ASTAR_METHOD_ASTAR, smooth = 0;
  PyObject *opt_tuple, *finder_obj = Py_None;
  if (!PyArg_ParseTuple(args, "(ii)(ii)O&OO&|iO&pO", &sx, &sy, &gx, &gy, range_arg_convert,
                        &priority, &opt_tuple, range_arg_convert, &cap, &method, range_arg_convert,
                        &unit, &smooth, &finder_obj))
    return NULL;
  if (queue_usable(self) < 0) return NULL;
  int algo;
  astar_options o;
  py_callbacks cb;
  const astar_finder *finder = NULL;
  if (finder_obj != Py_None) {
    if (!(finder = queue_finder_of(finder_obj))) return NULL;
  } else {
    if (parse_options(opt_tuple, &algo, &o, &cb, NULL) < 0) return NULL;
    if (cb.heuristic || cb.observer)
      return raise_status(ASTAR_UNSUPPORTED,
                          "queued requests run without the GIL: no Python heuristic or observer",
                          NULL);
    if (!astar_method_info_of((astar_method)method))
      return PyErr_Format(PyExc_ValueError, "unknown method");
  }
  /* 2^28 cells are 2 GiB: more than a 32-bit process may ask for. */
  if (cap.u > (unsigned long long)(PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(astar_point)))
    return PyErr_NoMemory();
  PyObject *buf =
      PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)cap.u * (Py_ssize_t)sizeof(astar_point));
  if (!buf) return NULL;
  astar_request req;
  memset(&req, 0, sizeof req);
  req.start = (astar_point){sx, sy};
  req.goal = (astar_point){gx, gy};
  req.priority = (int)priority.i;
  req.path = (astar_point *)(void *)PyByteArray_AS_STRING(buf);
  req.cap = (size_t)cap.u;
  if (finder) {
    req.finder = finder;
  } else {
    req.opt = &o;
    req.method = (astar_method)method;
    req.unit_size = (int32_t)unit.u;
    req.smooth = smooth != 0;
  }
  astar_request_id id = 0;
  astar_status st = astar_queue_submit_request(self->q, &req, &id);
  if (st != ASTAR_OK) {
    const char *why = st == ASTAR_UNSUPPORTED || st == ASTAR_MISMATCH
                          ? astar_queue_unsupported_reason(self->q, &req)
                          : NULL;
    if (!why && st == ASTAR_INVALID_ARGUMENT && unit.u > 1)
      why = "unit_size: beyond the queue's largest unit (Queue(max_unit=...))";
    Py_DECREF(buf);
    return raise_status(st, why, NULL);
  }
  /* The buffer, and the finder the request runs, live until release. */
  PyObject *held = finder ? Py_BuildValue("(OO)", buf, finder_obj) : Py_NewRef(buf);
  PyObject *key = held ? PyLong_FromUnsignedLong(id) : NULL;
  if (!key || PyDict_SetItem(self->buffers, key, held) < 0) {
    Py_XDECREF(held);
    Py_XDECREF(key);
    Py_DECREF(buf);
    astar_queue_cancel(self->q, id);
    astar_queue_release(self->q, id);
    return NULL;
  }
  Py_DECREF(held);
  Py_DECREF(buf);
  return key;
}

/* set_units(max_size): units up to max_size x max_size cells
** (astar_queue_set_units, every terrain type). */
static PyObject *Queue_set_units(QueueObject *self, PyObject *args) {
  range_arg m = {.name = "max_unit", .min = 1, .max = ASTAR_CLEARANCE_MAX};
  if (!PyArg_ParseTuple(args, "O&", range_arg_convert, &m) || queue_usable(self) < 0) return NULL;
  astar_status st = astar_queue_set_units(self->q, NULL, NULL, 0, (int32_t)m.u);
  if (st != ASTAR_OK)
    return raise_status(st,
                        st == ASTAR_INVALID_ARGUMENT
                            ? "max_unit: set it before submitting requests of big units"
                            : NULL,
                        NULL);
  Py_RETURN_NONE;
}

static PyObject *Queue_update(QueueObject *self, PyObject *args) {
  range_arg budget = {.name = "budget", .min = 1, .max = UINT64_MAX};
  if (!PyArg_ParseTuple(args, "O&", range_arg_convert, &budget)) return NULL;
  if (self->updating)
    return raise_status(ASTAR_INVALID_ARGUMENT, "update() from inside a callback of update()",
                        NULL);
  astar_queue_frame frame;
  memset(&frame, 0, sizeof frame);
  self->updating = 1;
  self->owner = PyThread_get_thread_ident();
  self->grid->searching++;
  self->saved = PyEval_SaveThread();
  astar_status st = astar_queue_update(self->q, budget.u, &frame);
  PyEval_RestoreThread(self->saved);
  self->saved = NULL;
  self->grid->searching--;
  self->updating = 0;
  if (self->exc_type) {
    PyErr_Restore(self->exc_type, self->exc_value, self->exc_tb);
    self->exc_type = self->exc_value = self->exc_tb = NULL;
    return NULL;
  }
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  return Py_BuildValue("(KIIIO)", (unsigned long long)frame.expanded, (unsigned)frame.finished,
                       (unsigned)frame.pending, (unsigned)frame.restarted,
                       frame.path_held ? Py_True : Py_False);
}

/* A request id (astar_request_id: uint32_t) of poll, cancel, release. */
static int parse_id(PyObject *args, astar_request_id *id) {
  range_arg v = {.name = "rid", .min = 0, .max = UINT32_MAX};
  if (!PyArg_ParseTuple(args, "O&", range_arg_convert, &v)) return -1;
  *id = (astar_request_id)v.u;
  return 0;
}

static PyObject *Queue_cancel(QueueObject *self, PyObject *args) {
  astar_request_id id;
  if (parse_id(args, &id) < 0 || queue_usable(self) < 0) return NULL;
  astar_status st = astar_queue_cancel(self->q, id);
  if (st != ASTAR_OK)
    return raise_status(st, "the request is unknown or already done (release it instead)", NULL);
  Py_RETURN_NONE;
}

static PyObject *Queue_release(QueueObject *self, PyObject *args) {
  astar_request_id id;
  if (parse_id(args, &id) < 0 || queue_usable(self) < 0) return NULL;
  astar_status st = astar_queue_release(self->q, id);
  if (st != ASTAR_OK)
    return raise_status(st, "the request is unknown, or still queued or running (cancel it first)",
                        NULL);
  PyObject *key = PyLong_FromUnsignedLong(id);
  if (!key) return NULL;
  if (PyDict_DelItem(self->buffers, key) < 0) PyErr_Clear();
  Py_DECREF(key);
  Py_RETURN_NONE;
}

static const char *const request_states[] = {"unknown", "queued", "running", "done", "cancelled"};

/* poll(id) -> (state name, status code or None) */
static PyObject *Queue_poll(QueueObject *self, PyObject *args) {
  astar_request_id id;
  if (parse_id(args, &id) < 0 || queue_usable(self) < 0) return NULL;
  astar_status st = ASTAR_IN_PROGRESS;
  astar_request_state s = astar_queue_poll(self->q, id, &st, NULL);
  const char *name = (unsigned)s < 5 ? request_states[s] : "unknown";
  if (s == ASTAR_REQUEST_DONE) return Py_BuildValue("(si)", name, (int)st);
  return Py_BuildValue("(sO)", name, Py_None);
}

static PyObject *Queue_set_restarts(QueueObject *self, PyObject *args) {
  range_arg n = {.name = "n", .min = 0, .max = UINT32_MAX};
  if (!PyArg_ParseTuple(args, "O&", range_arg_convert, &n) || queue_usable(self) < 0) return NULL;
  astar_queue_set_restarts(self->q, (uint32_t)n.u);
  Py_RETURN_NONE;
}

static PyObject *Queue_reserve_turns(QueueObject *self, PyObject *noargs) {
  (void)noargs;
  if (queue_usable(self) < 0) return NULL;
  astar_status st = astar_queue_reserve_turns(self->q);
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  Py_RETURN_NONE;
}

static PyObject *Queue_pending(QueueObject *self, void *c) {
  (void)c;
  return PyLong_FromSize_t(astar_queue_pending(self->q));
}

static PyObject *Queue_grid(QueueObject *self, void *c) {
  (void)c;
  return Py_NewRef(self->grid);
}

static PyMethodDef Queue_methods[] = {
    {"submit", (PyCFunction)Queue_submit, METH_VARARGS, NULL},
    {"update", (PyCFunction)Queue_update, METH_VARARGS, NULL},
    {"cancel", (PyCFunction)Queue_cancel, METH_VARARGS, NULL},
    {"release", (PyCFunction)Queue_release, METH_VARARGS, NULL},
    {"poll", (PyCFunction)Queue_poll, METH_VARARGS, NULL},
    {"set_restarts", (PyCFunction)Queue_set_restarts, METH_VARARGS, NULL},
    {"reserve_turns", (PyCFunction)Queue_reserve_turns, METH_NOARGS, NULL},
    {"set_units", (PyCFunction)Queue_set_units, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Queue_getset[] = {
    {"pending", (getter)Queue_pending, NULL, "requests queued or running, or awaiting delivery",
     NULL},
    {"grid", (getter)Queue_grid, NULL, "the grid", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject QueueType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.Queue",
    .tp_basicsize = sizeof(QueueObject),
    .tp_dealloc = (destructor)Queue_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The request queue (use libastar.Queue).",
    .tp_traverse = (traverseproc)Queue_traverse,
    .tp_clear = (inquiry)Queue_clear,
    .tp_methods = Queue_methods,
    .tp_getset = Queue_getset,
    .tp_new = Queue_new,
};

/* ---- HexGrid ---------------------------------------------------------------------- */

typedef struct {
  PyObject_HEAD astar_hex_grid *grid;
  Py_ssize_t searching;
} HexGridObject;

static PyTypeObject HexGridType;

static void HexGrid_dealloc(HexGridObject *self) {
  astar_hex_grid_free(self->grid);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int HexGrid_init(HexGridObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"width", "height", "flat", "even", NULL};
  range_arg w = SIDE_ARG(width, ASTAR_HEX_MAX_SIDE), h = SIDE_ARG(height, ASTAR_HEX_MAX_SIDE);
  flag_arg flat = {"flat", 0}, even = {"even", 0};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|O&O&", kwlist, range_arg_convert, &w,
                                   range_arg_convert, &h, flag_arg_convert, &flat, flag_arg_convert,
                                   &even))
    return -1;
  if (self->grid) {
    busy_error("a grid is initialised once (make a new HexGrid)");
    return -1;
  }
  if (check_size(&w, &h, ASTAR_HEX_MAX_CELLS) < 0) return -1;
  astar_hex_grid *g = NULL;
  astar_status st = astar_hex_grid_new(&g, (int32_t)w.i, (int32_t)h.i,
                                       flat.value ? ASTAR_HEX_FLAT : ASTAR_HEX_POINTY,
                                       even.value ? ASTAR_HEX_EVEN : ASTAR_HEX_ODD, NULL);
  if (st != ASTAR_OK) {
    raise_status(st, NULL, NULL);
    return -1;
  }
  self->grid = g;
  return 0;
}

#define HEX_READY(self)                                                                            \
  do {                                                                                             \
    if (!(self)->grid) return busy_error("the grid is not initialised");                           \
  } while (0)
#define HEX_MODIFIABLE(self)                                                                       \
  do {                                                                                             \
    HEX_READY(self);                                                                               \
    if ((self)->searching > 0)                                                                     \
      return busy_error("the grid is being searched in another thread; a grid may not change "     \
                        "during a search");                                                        \
  } while (0)

static PyObject *HexGrid_width(HexGridObject *self, void *c) {
  (void)c;
  HEX_READY(self);
  return PyLong_FromLong(astar_hex_grid_width(self->grid));
}
static PyObject *HexGrid_height(HexGridObject *self, void *c) {
  (void)c;
  HEX_READY(self);
  return PyLong_FromLong(astar_hex_grid_height(self->grid));
}
static PyObject *HexGrid_flat(HexGridObject *self, void *c) {
  (void)c;
  HEX_READY(self);
  return PyBool_FromLong(astar_hex_grid_orientation(self->grid) == ASTAR_HEX_FLAT);
}
static PyObject *HexGrid_even(HexGridObject *self, void *c) {
  (void)c;
  HEX_READY(self);
  return PyBool_FromLong(astar_hex_grid_layout(self->grid) == ASTAR_HEX_EVEN);
}
static PyObject *HexGrid_version(HexGridObject *self, void *c) {
  (void)c;
  HEX_READY(self);
  return PyLong_FromUnsignedLongLong(astar_hex_grid_version(self->grid));
}
static PyObject *HexGrid_min_terrain(HexGridObject *self, void *c) {
  (void)c;
  HEX_READY(self);
  return PyFloat_FromDouble(astar_hex_grid_min_terrain(self->grid));
}

static PyObject *HexGrid_contains(HexGridObject *self, PyObject *args) {
  XY_ARGS;
  if (!PyArg_ParseTuple(args, "O&O&", XY_PARSE)) return NULL;
  HEX_READY(self);
  return PyBool_FromLong(astar_hex_grid_contains(self->grid, x.value, y.value));
}
static PyObject *HexGrid_passable(HexGridObject *self, PyObject *args) {
  XY_ARGS;
  if (!PyArg_ParseTuple(args, "O&O&", XY_PARSE)) return NULL;
  HEX_READY(self);
  return PyBool_FromLong(astar_hex_grid_passable(self->grid, x.value, y.value));
}
static PyObject *HexGrid_set_passable(HexGridObject *self, PyObject *args) {
  XY_ARGS;
  flag_arg v = {"passable", 1};
  if (!PyArg_ParseTuple(args, "O&O&|O&", XY_PARSE, flag_arg_convert, &v)) return NULL;
  HEX_MODIFIABLE(self);
  astar_status st = astar_hex_grid_set_passable(self->grid, x.value, y.value, v.value != 0);
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  Py_RETURN_NONE;
}
static PyObject *HexGrid_terrain(HexGridObject *self, PyObject *args) {
  XY_ARGS;
  if (!PyArg_ParseTuple(args, "O&O&", XY_PARSE)) return NULL;
  HEX_READY(self);
  return PyFloat_FromDouble(astar_hex_grid_terrain(self->grid, x.value, y.value));
}
static PyObject *HexGrid_set_terrain(HexGridObject *self, PyObject *args) {
  XY_ARGS;
  real_arg c = TERRAIN_ARG;
  float cost;
  if (!PyArg_ParseTuple(args, "O&O&O&", XY_PARSE, real_arg_convert, &c)) return NULL;
  HEX_MODIFIABLE(self);
  if (terrain_value(c.value, &cost, "cost") < 0) return NULL;
  astar_status st = astar_hex_grid_set_terrain(self->grid, x.value, y.value, cost);
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  Py_RETURN_NONE;
}
static PyObject *HexGrid_count_passable(HexGridObject *self, PyObject *noargs) {
  (void)noargs;
  HEX_READY(self);
  return PyLong_FromSize_t(astar_hex_grid_count_passable(self->grid));
}

static PyObject *HexGrid_distance(HexGridObject *self, PyObject *args) {
  point_arg a = {"a", 1, {0, 0}}, b = {"b", 1, {0, 0}};
  if (!PyArg_ParseTuple(args, "O&O&", point_arg_convert, &a, point_arg_convert, &b)) return NULL;
  HEX_READY(self);
  astar_hex_orientation o = astar_hex_grid_orientation(self->grid);
  astar_hex_layout l = astar_hex_grid_layout(self->grid);
  return PyLong_FromLongLong(astar_hex_distance(astar_hex_offset_to_axial(o, l, a.value),
                                                astar_hex_offset_to_axial(o, l, b.value)));
}

static PyObject *HexGrid_neighbor(HexGridObject *self, PyObject *args) {
  point_arg cell = {"cell", 1, {0, 0}};
  /* The library takes d modulo 6; the package, the six directions. */
  range_arg d = {.name = "d", .min = 0, .max = 5};
  if (!PyArg_ParseTuple(args, "O&O&", point_arg_convert, &cell, range_arg_convert, &d)) return NULL;
  HEX_READY(self);
  astar_point p = astar_hex_neighbor(astar_hex_grid_orientation(self->grid),
                                     astar_hex_grid_layout(self->grid), cell.value, (int)d.i);
  return Py_BuildValue("(ii)", (int)p.x, (int)p.y);
}

static PyObject *HexGrid_load(HexGridObject *self, PyObject *args) {
  Py_buffer pass, terr = {0};
  PyObject *terr_obj = Py_None;
  if (!PyArg_ParseTuple(args, "y*|O", &pass, &terr_obj)) return NULL;
  PyObject *ret = NULL;
  if (!self->grid || self->searching > 0) {
    busy_error(self->grid ? "the grid is being searched" : "the grid is not initialised");
    goto done;
  }
  const int32_t w = astar_hex_grid_width(self->grid), h = astar_hex_grid_height(self->grid);
  const size_t n = (size_t)w * (size_t)h;
  if ((size_t)pass.len != n) {
    PyErr_Format(PyExc_ValueError, "passable: %zu bytes expected, got %zd", n, pass.len);
    goto done;
  }
  if (terr_obj != Py_None) {
    if (PyObject_GetBuffer(terr_obj, &terr, PyBUF_SIMPLE) < 0) goto done;
    if ((size_t)terr.len != n * sizeof(float)) {
      PyErr_Format(PyExc_ValueError, "terrain: %zu bytes expected", n * sizeof(float));
      goto done;
    }
  }
  const unsigned char *p = pass.buf;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++)
      astar_hex_grid_set_passable(self->grid, x, y, p[(size_t)y * w + x]);
  if (terr.buf) {
    const float *t = terr.buf;
    for (int32_t y = 0; y < h; y++)
      for (int32_t x = 0; x < w; x++) {
        astar_status st = astar_hex_grid_set_terrain(self->grid, x, y, t[(size_t)y * w + x]);
        if (st != ASTAR_OK) {
          char msg[120];
          snprintf(msg, sizeof msg, "terrain cost %g at (%d, %d): costs are finite and in (0, 1e9]",
                   (double)t[(size_t)y * w + x], (int)x, (int)y);
          raise_status(st, msg, NULL);
          goto done;
        }
      }
  }
  ret = Py_NewRef(Py_None);
done:
  PyBuffer_Release(&pass);
  if (terr.buf) PyBuffer_Release(&terr);
  return ret;
}

static PyObject *HexGrid_export(HexGridObject *self, PyObject *noargs) {
  (void)noargs;
  HEX_READY(self);
  const int32_t w = astar_hex_grid_width(self->grid), h = astar_hex_grid_height(self->grid);
  const size_t n = (size_t)w * (size_t)h;
  PyObject *pass = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
  PyObject *terr = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * sizeof(float)));
  if (!pass || !terr) {
    Py_XDECREF(pass);
    Py_XDECREF(terr);
    return NULL;
  }
  unsigned char *p = (unsigned char *)PyBytes_AS_STRING(pass);
  float *t = (float *)(void *)PyBytes_AS_STRING(terr);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      p[(size_t)y * w + x] = astar_hex_grid_passable(self->grid, x, y);
      t[(size_t)y * w + x] = astar_hex_grid_terrain(self->grid, x, y);
    }
  return Py_BuildValue("(NN)", pass, terr);
}

/* hex_find(grid, workspace, start, goal, engine tuple (parse_engine)) */
static PyObject *py_hex_find(PyObject *self, PyObject *args) {
  (void)self;
  HexGridObject *grid;
  WorkspaceObject *ws;
  int sx, sy, gx, gy;
  PyObject *engine;
  if (!PyArg_ParseTuple(args, "O!O!(ii)(ii)O", &HexGridType, &grid, &WorkspaceType, &ws, &sx, &sy,
                        &gx, &gy, &engine))
    return NULL;
  HEX_READY(grid);
  astar_engine_options eo;
  if (parse_engine(engine, &eo) < 0) return NULL;
  if (take_workspace(ws) < 0) return NULL;
  astar_space space;
  astar_status st = astar_hex_space(grid->grid, &space);
  if (st == ASTAR_OK) st = astar_workspace_reserve_space(ws->ws, &space, method_reserve(eo.method));
  astar_result r;
  memset(&r, 0, sizeof r);
  r.end = (astar_point){-1, -1};
  PyObject *ret = NULL;
  astar_node stack_nodes[STACK_CELLS];
  astar_node *nodes = stack_nodes;
  astar_point *cells = NULL;
  if (st == ASTAR_OK && (!astar_hex_grid_contains(grid->grid, sx, sy) ||
                         !astar_hex_grid_contains(grid->grid, gx, gy)))
    st = ASTAR_OUT_OF_BOUNDS;
  if (st != ASTAR_OK) {
    r.cause = st;
    ret = result_tuple(st, NULL, 0, &r, NULL, NULL);
    goto done;
  }
  /* Through the finder (astar/finder.h): the engine's method over the hex
  ** grid as a space, prepared for this query. */
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  cfg.method = eo.method;
  cfg.engine = eo;
  astar_finder *f = NULL;
  st = astar_finder_new_space(&f, &space, &cfg, NULL);
  if (st != ASTAR_OK) {
    r.cause = st;
    ret = result_tuple(
        st, NULL, 0, &r,
        st == ASTAR_UNSUPPORTED ? astar_finder_unsupported_reason(NULL, &space, &cfg) : NULL, NULL);
    goto done;
  }
  astar_engine_result er;
  memset(&er, 0, sizeof er);
  astar_path_result pr;
  const astar_node ns = astar_hex_grid_node(grid->grid, (astar_point){sx, sy});
  const astar_node ng = astar_hex_grid_node(grid->grid, (astar_point){gx, gy});
  grid->searching++;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_finder_find_nodes(f, ws->ws, ns, ng, nodes, STACK_CELLS, &pr);
  Py_END_ALLOW_THREADS;
  if (st == ASTAR_BUFFER_TOO_SMALL && pr.length > STACK_CELLS &&
      (nodes = PyMem_Malloc(pr.length * sizeof *nodes)) != NULL) {
    /* Longer than the first buffer: the same search into one that fits. */
    Py_BEGIN_ALLOW_THREADS;
    st = astar_finder_find_nodes(f, ws->ws, ns, ng, nodes, pr.length, &pr);
    Py_END_ALLOW_THREADS;
  }
  grid->searching--;
  astar_finder_free(f);
  if (!nodes) {
    nodes = stack_nodes;
    PyErr_NoMemory();
    goto done;
  }
  r.cost = pr.cost;
  r.length = pr.length;
  r.stats = pr.stats;
  r.cause = pr.cause;
  r.end = pr.end_node == ASTAR_NODE_NONE ? (astar_point){-1, -1}
                                         : astar_hex_grid_cell(grid->grid, pr.end_node);
  er.dropped = pr.dropped;
  er.iterations = pr.iterations;
  if (st == ASTAR_OK || st == ASTAR_PARTIAL) {
    cells = PyMem_Malloc((r.length ? r.length : 1) * sizeof *cells);
    if (!cells) {
      PyErr_NoMemory();
      goto done;
    }
    for (size_t i = 0; i < r.length; i++) cells[i] = astar_hex_grid_cell(grid->grid, nodes[i]);
  }
  ret = result_tuple(st, cells, r.length, &r, NULL, &er);
done:
  ws->busy = 0;
  if (nodes != stack_nodes) PyMem_Free(nodes);
  PyMem_Free(cells);
  return ret;
}

/* parse_hex(cls, text) -> (grid, start, goal) */
static PyObject *py_parse_hex(PyObject *self, PyObject *args) {
  (void)self;
  PyTypeObject *cls;
  Py_buffer text;
  if (!PyArg_ParseTuple(args, "O!y*", &PyType_Type, &cls, &text)) return NULL;
  if (!PyType_IsSubtype(cls, &HexGridType)) {
    PyBuffer_Release(&text);
    return PyErr_Format(PyExc_TypeError, "a HexGrid class is required");
  }
  astar_hex_grid *g = NULL;
  astar_point s = {-1, -1}, gl = {-1, -1};
  astar_parse_error err;
  memset(&err, 0, sizeof err);
  astar_status st = astar_hex_parse_map(&g, text.buf, (size_t)text.len, NULL, &s, &gl, &err);
  PyBuffer_Release(&text);
  if (st != ASTAR_OK) return parse_error(st, &err);
  HexGridObject *obj = (HexGridObject *)cls->tp_alloc(cls, 0);
  if (!obj) {
    astar_hex_grid_free(g);
    return NULL;
  }
  obj->grid = g;
  return Py_BuildValue("(NNN)", (PyObject *)obj, point_or_none(s), point_or_none(gl));
}

static PyMethodDef HexGrid_methods[] = {
    {"contains", (PyCFunction)HexGrid_contains, METH_VARARGS, "contains(x, y)"},
    {"passable", (PyCFunction)HexGrid_passable, METH_VARARGS, "passable(x, y)"},
    {"set_passable", (PyCFunction)HexGrid_set_passable, METH_VARARGS,
     "set_passable(x, y, passable=True)"},
    {"terrain", (PyCFunction)HexGrid_terrain, METH_VARARGS, "terrain(x, y)"},
    {"set_terrain", (PyCFunction)HexGrid_set_terrain, METH_VARARGS, "set_terrain(x, y, cost)"},
    {"count_passable", (PyCFunction)HexGrid_count_passable, METH_NOARGS, "count_passable()"},
    {"distance", (PyCFunction)HexGrid_distance, METH_VARARGS,
     "distance(a, b): steps between two cells (offset coordinates)"},
    {"neighbor", (PyCFunction)HexGrid_neighbor, METH_VARARGS,
     "neighbor(cell, d): the cell next to `cell` in direction d (0..5)"},
    {"_load", (PyCFunction)HexGrid_load, METH_VARARGS, NULL},
    {"_export", (PyCFunction)HexGrid_export, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef HexGrid_getset[] = {
    {"width", (getter)HexGrid_width, NULL, "columns", NULL},
    {"height", (getter)HexGrid_height, NULL, "rows", NULL},
    {"flat", (getter)HexGrid_flat, NULL, "flat-topped (else pointy-topped)", NULL},
    {"even", (getter)HexGrid_even, NULL, "even rows/columns shoved (else odd)", NULL},
    {"version", (getter)HexGrid_version, NULL, "change counter", NULL},
    {"min_terrain", (getter)HexGrid_min_terrain, NULL, "smallest terrain cost", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject HexGridType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.HexGrid",
    .tp_basicsize = sizeof(HexGridObject),
    .tp_dealloc = (destructor)HexGrid_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "HexGrid(width, height, flat=False, even=False): a hex grid.",
    .tp_methods = HexGrid_methods,
    .tp_getset = HexGrid_getset,
    .tp_init = (initproc)HexGrid_init,
    .tp_new = PyType_GenericNew,
};

/* ---- implicit graphs: the engine over Python callbacks --------------------------------- */

/* Nodes are ints 0 .. 2^64-1 the Python layer hands out; the callbacks hold
** the GIL throughout (they call Python for every node). */
typedef struct {
  PyObject *successors, *predecessors, *heuristic;
  size_t max_degree; /* the space's (the workspace may hand a larger buffer) */
  int failed;
} py_graph;

/* The arcs fn(s) returns: (node, cost) pairs, the cost by the rule of
** real-number arguments (real_arg), named `what`. */
static size_t graph_arcs(py_graph *g, PyObject *fn, const char *what, astar_state s,
                         astar_state_arc *arcs, size_t cap) {
  if (g->failed) return 0;
  PyObject *r = PyObject_CallFunction(fn, "K", (unsigned long long)s);
  if (!r) {
    g->failed = 1;
    return 0;
  }
  PyObject *seq = PySequence_Fast(r, "successors must return a sequence of (node, cost)");
  Py_DECREF(r);
  if (!seq) {
    g->failed = 1;
    return 0;
  }
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  size_t k = 0;
  if (cap > g->max_degree) cap = g->max_degree;
  for (Py_ssize_t i = 0; i < n; i++) {
    unsigned long long node;
    PyObject *cost_obj;
    real_arg cost = {what, 0.0, HUGE_VAL, 0, 0.0};
    if (k == cap) {
      PyErr_Format(PyExc_ValueError, "a node has more than max_degree=%zu arcs", cap);
      g->failed = 1;
      break;
    }
    if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "KO;an arc is (node, cost)", &node,
                          &cost_obj) ||
        !real_arg_convert(cost_obj, &cost)) {
      g->failed = 1;
      break;
    }
    arcs[k].state = node;
    arcs[k].cost = cost.value;
    k++;
  }
  Py_DECREF(seq);
  return g->failed ? 0 : k;
}

static size_t graph_succ(void *ctx, astar_state s, astar_state_arc *arcs, size_t cap) {
  py_graph *g = ctx;
  return graph_arcs(g, g->successors, "an arc cost from neighbors()", s, arcs, cap);
}
static size_t graph_pred(void *ctx, astar_state s, astar_state_arc *arcs, size_t cap) {
  py_graph *g = ctx;
  return graph_arcs(g, g->predecessors, "an arc cost from predecessors()", s, arcs, cap);
}
static double graph_h(void *ctx, astar_state a, astar_state b) {
  py_graph *g = ctx;
  double v = 0.0;
  if (g->failed) return 0.0;
  PyObject *r =
      PyObject_CallFunction(g->heuristic, "KK", (unsigned long long)a, (unsigned long long)b);
  /* The nodes are the Python layer's numbers for them: name the call only. */
  if (heuristic_value(r, &v, NULL, NULL) < 0) {
    g->failed = 1;
    return 0.0;
  }
  return v;
}
static bool graph_stop(void *ctx) {
  return ((py_graph *)ctx)->failed != 0;
}

/* implicit_find(workspace, start, goal, successors, predecessors, heuristic,
**               max_states, max_degree, flags, engine tuple (parse_engine))
** -> (status, states as uint64 bytes or None, cost, expanded, generated,
**     reopened, max_open, end state, cause, states used, dropped,
**     iterations). */
static PyObject *py_implicit_find(PyObject *self, PyObject *args) {
  (void)self;
  WorkspaceObject *ws;
  unsigned long long start, goal;
  py_graph g = {NULL, NULL, NULL, 0, 0};
  unsigned int max_states, max_degree, flags;
  PyObject *engine;
  if (!PyArg_ParseTuple(args, "O!KKOOOIIIO", &WorkspaceType, &ws, &start, &goal, &g.successors,
                        &g.predecessors, &g.heuristic, &max_states, &max_degree, &flags, &engine))
    return NULL;
  static const astar_implicit_ops ops_all[4] = {
      {graph_succ, NULL, NULL, NULL},
      {graph_succ, graph_pred, NULL, NULL},
      {graph_succ, NULL, graph_h, NULL},
      {graph_succ, graph_pred, graph_h, NULL},
  };
  g.max_degree = max_degree;
  const int has_pred = g.predecessors != Py_None, has_h = g.heuristic != Py_None;
  astar_implicit space = {&ops_all[(has_pred ? 1 : 0) + (has_h ? 2 : 0)], &g, max_degree, flags};
  astar_engine_options eo;
  if (parse_engine(engine, &eo) < 0) return NULL;
  eo.stop_fn = graph_stop;
  eo.stop_ctx = &g;
  eo.stop_interval = 1;
  if (take_workspace(ws) < 0) return NULL;
  PyObject *ret = NULL;
  astar_state *path = NULL;
  astar_status st =
      astar_workspace_reserve_states(ws->ws, max_states, max_degree, method_reserve(eo.method));
  astar_engine_result er;
  memset(&er, 0, sizeof er);
  if (st == ASTAR_OK) {
    path = PyMem_Malloc((size_t)max_states * sizeof *path);
    if (!path) {
      PyErr_NoMemory();
      goto done;
    }
    st = astar_implicit_find_path(ws->ws, &space, &eo, start, goal, path, max_states, &er);
    if (st == ASTAR_BUFFER_TOO_SMALL && !g.failed) {
      /* The workspace kept a larger table from an earlier search, and the
      ** path outgrew max_states: search again into a buffer of its length
      ** (the same search, deterministic). */
      PyMem_Free(path);
      size_t len = er.length;
      path = PyMem_Malloc(len * sizeof *path);
      if (!path) {
        PyErr_NoMemory();
        goto done;
      }
      st = astar_implicit_find_path(ws->ws, &space, &eo, start, goal, path, len, &er);
    }
  }
  if (g.failed) goto done;
  PyObject *bytes = Py_NewRef(Py_None);
  if (st == ASTAR_OK || st == ASTAR_PARTIAL) {
    Py_DECREF(bytes);
    bytes = PyBytes_FromStringAndSize((const char *)path, (Py_ssize_t)(er.length * sizeof *path));
    if (!bytes) goto done;
  }
  ret = Py_BuildValue("(iNdKKKKKiIKK)", (int)st, bytes, er.cost,
                      (unsigned long long)er.stats.expanded, (unsigned long long)er.stats.generated,
                      (unsigned long long)er.stats.reopened, (unsigned long long)er.stats.max_open,
                      (unsigned long long)er.end_state, (int)er.cause,
                      (unsigned)astar_implicit_states_used(ws->ws), (unsigned long long)er.dropped,
                      (unsigned long long)er.iterations);
done:
  ws->busy = 0;
  PyMem_Free(path);
  return ret;
}

/* ---- Waypoints ------------------------------------------------------------------------ */

typedef struct {
  PyObject_HEAD astar_waypoints *wp;
  GridObject *grid;
} WaypointsObject;

static PyTypeObject WaypointsType;

static int Waypoints_traverse(WaypointsObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->grid);
  return 0;
}

static int Waypoints_clear(WaypointsObject *self) {
  astar_waypoints_free(self->wp);
  self->wp = NULL;
  Py_CLEAR(self->grid);
  return 0;
}

static void Waypoints_dealloc(WaypointsObject *self) {
  PyObject_GC_UnTrack(self);
  Waypoints_clear(self);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

#define WP_READY(self)                                                                             \
  do {                                                                                             \
    if (!(self)->wp || !(self)->grid) return busy_error("the Waypoints object was cleared");       \
  } while (0)

/* Waypoints(grid, corner, straight_cost, side_cells): built without the GIL. */
static PyObject *Waypoints_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"grid", "corner", "straight_cost", "side_cells", NULL};
  GridObject *grid;
  int corner = ASTAR_CORNER_NO_CUT;
  real_arg straight = {"straight_cost", 0.0, ASTAR_OPTION_MAX, 1, 1.0};
  flag_arg side = {"side_cells", 0};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|iO&O&", kwlist, &GridType, &grid, &corner,
                                   real_arg_convert, &straight, flag_arg_convert, &side))
    return NULL;
  GRID_READY(grid);
  astar_options o;
  astar_options_init(&o);
  o.corner = (astar_corner)corner;
  o.straight_cost = straight.value;
  WaypointsObject *self = (WaypointsObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->grid = (GridObject *)Py_NewRef(grid);
  astar_status st;
  grid->searching++;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_waypoints_new(&self->wp, grid->grid, &o, side.value ? ASTAR_WAYPOINTS_SIDE_CELLS : 0u,
                           NULL);
  Py_END_ALLOW_THREADS;
  grid->searching--;
  if (st != ASTAR_OK) {
    Py_DECREF(self);
    return raise_status(st,
                        st == ASTAR_UNSUPPORTED
                            ? "waypoint graphs need diagonal sightlines (not corner 'never') "
                              "and a grid without terrain costs"
                            : NULL,
                        NULL);
  }
  return (PyObject *)self;
}

static PyObject *Waypoints_count(WaypointsObject *self, void *c) {
  (void)c;
  WP_READY(self);
  return PyLong_FromUnsignedLong(astar_waypoints_count(self->wp));
}
static PyObject *Waypoints_edge_count(WaypointsObject *self, void *c) {
  (void)c;
  WP_READY(self);
  return PyLong_FromSize_t(astar_waypoints_edge_count(self->wp));
}
static PyObject *Waypoints_memory(WaypointsObject *self, void *c) {
  (void)c;
  WP_READY(self);
  return PyLong_FromSize_t(astar_waypoints_memory(self->wp));
}
static PyObject *Waypoints_grid(WaypointsObject *self, void *c) {
  (void)c;
  WP_READY(self);
  return Py_NewRef(self->grid);
}

/* _cells() -> bytes of int32 (x, y), waypoint i at 2i. */
static PyObject *Waypoints_cells(WaypointsObject *self, PyObject *noargs) {
  (void)noargs;
  WP_READY(self);
  const uint32_t n = astar_waypoints_count(self->wp);
  PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n * 2 * (Py_ssize_t)sizeof(int32_t));
  if (!out) return NULL;
  int32_t *v = (int32_t *)(void *)PyBytes_AS_STRING(out);
  for (uint32_t i = 0; i < n; i++) {
    astar_point p = astar_waypoints_cell(self->wp, i);
    v[2 * i] = p.x;
    v[2 * i + 1] = p.y;
  }
  return out;
}

static PyObject *Waypoints_neighbors(WaypointsObject *self, PyObject *args) {
  WP_READY(self);
  const uint32_t count = astar_waypoints_count(self->wp);
  /* count 0: min 1 > max 0, the empty range. */
  range_arg i = {.name = "i",
                 .min = count ? 0 : 1,
                 .max = count ? count - 1u : 0,
                 .status = ASTAR_OUT_OF_BOUNDS,
                 .empty = "the graph has no waypoints"};
  if (!PyArg_ParseTuple(args, "O&", range_arg_convert, &i)) return NULL;
  const uint32_t w = (uint32_t)i.u;
  size_t deg = astar_waypoints_neighbors(self->wp, w, NULL, 0);
  uint32_t *ids = PyMem_Malloc((deg ? deg : 1) * sizeof *ids);
  if (!ids) return PyErr_NoMemory();
  astar_waypoints_neighbors(self->wp, w, ids, deg);
  PyObject *list = PyList_New((Py_ssize_t)deg);
  for (size_t k = 0; list && k < deg; k++) {
    PyObject *v = PyLong_FromUnsignedLong(ids[k]);
    if (!v) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)k, v);
  }
  PyMem_Free(ids);
  return list;
}

static PyObject *Waypoints_visible(WaypointsObject *self, PyObject *args) {
  point_arg a = {"a", 0, {0, 0}}, b = {"b", 0, {0, 0}};
  if (!PyArg_ParseTuple(args, "O&O&", point_arg_convert, &a, point_arg_convert, &b)) return NULL;
  WP_READY(self);
  return PyBool_FromLong(astar_waypoints_visible(self->wp, self->grid->grid, a.value, b.value));
}

/* The sentence of a status of astar_waypoints_check (NULL: the library's). */
static const char *waypoints_detail(astar_status st) {
  return st == ASTAR_STALE      ? "the grid changed since the waypoint graph was built: build it "
                                  "again (grid.waypoints())"
         : st == ASTAR_MISMATCH ? "the waypoint graph belongs to another grid"
                                : NULL;
}

static PyObject *Waypoints_check(WaypointsObject *self, PyObject *noargs) {
  (void)noargs;
  WP_READY(self);
  astar_status st = astar_waypoints_check(self->wp, self->grid->grid);
  if (st != ASTAR_OK) return raise_status(st, waypoints_detail(st), NULL);
  Py_RETURN_NONE;
}

static PyMethodDef Waypoints_methods[] = {
    {"_cells", (PyCFunction)Waypoints_cells, METH_NOARGS, NULL},
    {"neighbors", (PyCFunction)Waypoints_neighbors, METH_VARARGS,
     "neighbors(i): the waypoints in sight of waypoint i, ascending"},
    {"visible", (PyCFunction)Waypoints_visible, METH_VARARGS,
     "visible(a, b): do cells a and b see each other (the graph's corner rule)?"},
    {"check", (PyCFunction)Waypoints_check, METH_NOARGS,
     "check(): raise StaleError if the grid changed since building"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Waypoints_getset[] = {
    {"count", (getter)Waypoints_count, NULL, "number of waypoints", NULL},
    {"edge_count", (getter)Waypoints_edge_count, NULL, "pairs of waypoints in sight", NULL},
    {"memory", (getter)Waypoints_memory, NULL, "bytes held", NULL},
    {"grid", (getter)Waypoints_grid, NULL, "the grid it was built for", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject WaypointsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.Waypoints",
    .tp_basicsize = sizeof(WaypointsObject),
    .tp_dealloc = (destructor)Waypoints_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Waypoints(grid, corner, straight_cost, side_cells): the waypoint graph of a grid.",
    .tp_traverse = (traverseproc)Waypoints_traverse,
    .tp_clear = (inquiry)Waypoints_clear,
    .tp_methods = Waypoints_methods,
    .tp_getset = Waypoints_getset,
    .tp_new = Waypoints_new,
};

/* waypoints_find(wp, workspace, start, goal, engine tuple (parse_engine))
** -> result tuple, the cells being the waypoints of the path. */
static PyObject *py_waypoints_find(PyObject *self, PyObject *args) {
  (void)self;
  WaypointsObject *wp;
  WorkspaceObject *ws;
  int sx, sy, gx, gy;
  PyObject *engine;
  if (!PyArg_ParseTuple(args, "O!O!(ii)(ii)O", &WaypointsType, &wp, &WorkspaceType, &ws, &sx, &sy,
                        &gx, &gy, &engine))
    return NULL;
  WP_READY(wp);
  astar_engine_options eo;
  if (parse_engine(engine, &eo) < 0) return NULL;
  if (take_workspace(ws) < 0) return NULL;
  PyObject *ret = NULL;
  astar_point stack_cells[STACK_CELLS];
  astar_point *cells = stack_cells;
  /* A path visits each node once: at most count + 2 of them. */
  const size_t cap = (size_t)astar_waypoints_count(wp->wp) + 2;
  astar_result r;
  memset(&r, 0, sizeof r);
  r.end = (astar_point){-1, -1};
  astar_engine_result er;
  memset(&er, 0, sizeof er);
  astar_status st = astar_waypoints_reserve(ws->ws, wp->wp, method_reserve(eo.method));
  if (st == ASTAR_OK && cap > STACK_CELLS && !(cells = PyMem_Malloc(cap * sizeof *cells))) {
    cells = stack_cells;
    PyErr_NoMemory();
    goto done;
  }
  if (st == ASTAR_OK) {
    wp->grid->searching++;
    Py_BEGIN_ALLOW_THREADS;
    st = astar_waypoints_find_path(ws->ws, wp->wp, wp->grid->grid, &eo, (astar_point){sx, sy},
                                   (astar_point){gx, gy}, cells, cap, &er);
    Py_END_ALLOW_THREADS;
    wp->grid->searching--;
    r.cost = er.cost;
    r.length = er.length;
    r.stats = er.stats;
    r.cause = er.cause;
    if ((st == ASTAR_OK || st == ASTAR_PARTIAL) && er.length > 0) r.end = cells[er.length - 1];
  } else {
    r.cause = st;
  }
  ret = result_tuple(st, cells, r.length, &r, waypoints_detail(st), &er);
done:
  ws->busy = 0;
  if (cells != stack_cells) PyMem_Free(cells);
  return ret;
}

/* waypoints_expand(bytes of int32 (x, y)) -> bytes: the cells walked. */
static PyObject *py_waypoints_expand(PyObject *self, PyObject *args) {
  (void)self;
  Py_buffer in;
  if (!PyArg_ParseTuple(args, "y*", &in)) return NULL;
  if (in.len % (Py_ssize_t)sizeof(astar_point) != 0) {
    PyBuffer_Release(&in);
    return PyErr_Format(PyExc_ValueError, "waypoints: int32 (x, y) pairs expected");
  }
  const size_t n = (size_t)in.len / sizeof(astar_point);
  size_t len = 0;
  PyObject *ret = NULL;
  astar_status st = astar_waypoints_expand(in.buf, n, NULL, 0, &len);
  if (st == ASTAR_OK || st == ASTAR_BUFFER_TOO_SMALL) {
    ret = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(len * sizeof(astar_point)));
    if (ret) {
      st = astar_waypoints_expand(in.buf, n, (astar_point *)(void *)PyBytes_AS_STRING(ret), len,
                                  &len);
      if (st != ASTAR_OK) Py_CLEAR(ret);
    }
  }
  PyBuffer_Release(&in);
  if (!ret && !PyErr_Occurred()) raise_status(st, NULL, NULL);
  return ret;
}

/* ---- the finder (astar/finder.h): one way to ask for a path ----------------------------- */

/* methods() -> tuple of (method, name, summary, flags, needs, takes, work),
** one per row of the library's method table (astar_method_info_of). */
static PyObject *py_methods(PyObject *self, PyObject *noargs) {
  (void)self;
  (void)noargs;
  PyObject *out = PyList_New(0);
  if (!out) return NULL;
  for (int i = 0; i < ASTAR_METHOD_COUNT; i++) {
    const astar_method_info *mi = astar_method_info_of((astar_method)i);
    if (!mi) continue;
    PyObject *t = Py_BuildValue("(issIIIs)", (int)mi->method, mi->name, mi->summary, mi->flags,
                                mi->needs, mi->takes, mi->work);
    if (!t || PyList_Append(out, t) < 0) {
      Py_XDECREF(t);
      Py_DECREF(out);
      return NULL;
    }
    Py_DECREF(t);
  }
  return out;
}

/* method_from_name(name) -> int or None (astar_method_from_name). */
static PyObject *py_method_from_name(PyObject *self, PyObject *arg) {
  (void)self;
  const char *name = PyUnicode_AsUTF8(arg);
  if (!name) return NULL;
  astar_method m;
  if (astar_method_from_name(name, &m) != ASTAR_OK) Py_RETURN_NONE;
  return PyLong_FromLong((long)m);
}

/* Precomputations a finder is prepared from, besides JpsPlus and Waypoints
** (which have their own types): a compressed path database, an HPA*
** hierarchy, a landmark table, a clearance map, a subgoal graph. One type
** for the five: Prep(kind, grid, options, a, b) builds it without the GIL
** for the grid as it is now and the movement rules of the options tuple
** (a, b: HPA*'s cluster side and levels; the landmarks' count; the
** clearance's largest unit side; the subgoal graph's levels). */
enum { PREP_CPD = 0, PREP_HPA, PREP_LANDMARKS, PREP_CLEARANCE, PREP_SUBGOAL, PREP_KINDS };

typedef struct {
  PyObject_HEAD int kind;
  void *obj;        /* astar_cpd *, astar_hpa *, astar_landmarks *, astar_clearance *,
                       astar_subgoal * */
  GridObject *grid; /* strong reference: the object holds its address */
  uint64_t version; /* the grid's version it reflects */
} PrepObject;

static PyTypeObject PrepType;

static void prep_release(PrepObject *self) {
  switch (self->kind) {
  case PREP_CPD:
    astar_cpd_free(self->obj);
    break;
  case PREP_HPA:
    astar_hpa_free(self->obj);
    break;
  case PREP_LANDMARKS:
    astar_landmarks_free(self->obj);
    break;
  case PREP_SUBGOAL:
    astar_subgoal_free(self->obj);
    break;
  default:
    astar_clearance_free(self->obj);
    break;
  }
  self->obj = NULL;
}

static int Prep_traverse(PrepObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->grid);
  return 0;
}

static int Prep_clear(PrepObject *self) {
  prep_release(self);
  Py_CLEAR(self->grid);
  return 0;
}

static void Prep_dealloc(PrepObject *self) {
  PyObject_GC_UnTrack(self);
  Prep_clear(self);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Prep_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"kind", "grid", "options", "a", "b", NULL};
  int kind, a, b;
  GridObject *grid;
  PyObject *opt_tuple;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "iO!Oii", kwlist, &kind, &GridType, &grid, &opt_tuple,
                                   &a, &b))
    return NULL;
  GRID_READY(grid);
  if (kind < 0 || kind >= PREP_KINDS) return PyErr_Format(PyExc_ValueError, "bad kind");
  int algo;
  astar_options o;
  py_callbacks cb;
  if (parse_options(opt_tuple, &algo, &o, &cb, NULL) < 0) return NULL;
  o.heuristic_fn = NULL, o.heuristic_ctx = NULL, o.observer = NULL, o.stop_fn = NULL;
  if (o.heuristic == ASTAR_H_CALLBACK) o.heuristic = ASTAR_H_AUTO;
  o.algorithm = ASTAR_ALGO_ASTAR;
  PrepObject *self = (PrepObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->kind = kind;
  self->grid = (GridObject *)Py_NewRef(grid);
  self->version = astar_grid_version(grid->grid);
  astar_status st;
  const char *why = NULL;
  grid->searching++;
  Py_BEGIN_ALLOW_THREADS;
  switch (kind) {
  case PREP_CPD: {
    astar_cpd_config c;
    astar_cpd_config_init(&c);
    c.rules = &o;
    why = astar_cpd_unsupported_reason(grid->grid, &o);
    st = why ? ASTAR_UNSUPPORTED : astar_cpd_build((astar_cpd **)&self->obj, grid->grid, &c, NULL);
    break;
  }
  case PREP_HPA: {
    astar_hpa_options h;
    astar_hpa_options_init(&h);
    h.cluster_size = a;
    h.levels = b;
    st = astar_hpa_new((astar_hpa **)&self->obj, grid->grid, &o, &h, NULL);
    if (st == ASTAR_UNSUPPORTED)
      why = "hpa: its abstract costs cannot hold a turn penalty or a terrain scale";
    break;
  }
  case PREP_LANDMARKS: {
    astar_landmark_options l;
    astar_landmark_options_init(&l);
    l.count = (uint32_t)a;
    st = astar_landmarks_new_grid((astar_landmarks **)&self->obj, grid->grid, &o, &l, NULL);
    if (st == ASTAR_UNSUPPORTED) why = "landmarks: the table holds the exact terrain costs";
    break;
  }
  case PREP_SUBGOAL: {
    astar_subgoal_config c;
    astar_subgoal_config_init(&c);
    c.options = o;
    c.levels = (uint32_t)a;
    why = astar_subgoal_unsupported_reason(grid->grid, &o);
    st = why ? ASTAR_UNSUPPORTED
             : astar_subgoal_build((astar_subgoal **)&self->obj, grid->grid, &c, NULL);
    break;
  }
  default:
    st = astar_clearance_new((astar_clearance **)&self->obj, grid->grid, NULL, NULL, 0, a, NULL);
    break;
  }
  Py_END_ALLOW_THREADS;
  grid->searching--;
  if (st != ASTAR_OK) {
    Py_DECREF(self);
    return raise_status(st, why, NULL);
  }
  return (PyObject *)self;
}

/* Is it built for the grid as it is now? */
static PyObject *Prep_current(PrepObject *self, void *c) {
  (void)c;
  if (!self->obj || !self->grid) Py_RETURN_FALSE;
  return PyBool_FromLong(self->version == astar_grid_version(self->grid->grid));
}

/* update(): bring an HPA* hierarchy or a clearance map up to the grid's
** edits in place (astar_hpa_sync, astar_clearance_update), holding the
** GIL so that no search with it starts meanwhile; the others are built
** again (the Python layer makes a new object). True when updated. */
static PyObject *Prep_update(PrepObject *self, PyObject *noargs) {
  (void)noargs;
  if (!self->obj || !self->grid) return busy_error("the precomputation was cleared");
  if (self->kind != PREP_HPA && self->kind != PREP_CLEARANCE) Py_RETURN_FALSE;
  if (self->grid->searching > 0)
    return busy_error("the grid is being searched in another thread; a precomputation may not "
                      "change during a search");
  astar_status st = self->kind == PREP_HPA ? astar_hpa_sync(self->obj, self->grid->grid, NULL)
                                           : astar_clearance_update(self->obj, self->grid->grid);
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  self->version = astar_grid_version(self->grid->grid);
  Py_RETURN_TRUE;
}

static PyObject *Prep_memory(PrepObject *self, void *c) {
  (void)c;
  if (!self->obj) return PyLong_FromLong(0);
  switch (self->kind) {
  case PREP_CPD:
    return PyLong_FromSize_t(astar_cpd_bytes(self->obj));
  case PREP_HPA:
    return PyLong_FromSize_t(astar_hpa_memory(self->obj));
  case PREP_LANDMARKS:
    return PyLong_FromSize_t(astar_landmarks_memory(self->obj));
  case PREP_SUBGOAL: {
    astar_subgoal_info info;
    return PyLong_FromSize_t(astar_subgoal_get_info(self->obj, &info) == ASTAR_OK ? info.bytes : 0);
  }
  default:
    return PyLong_FromSize_t(astar_clearance_memory(self->obj));
  }
}

static PyObject *Prep_grid(PrepObject *self, void *c) {
  (void)c;
  if (!self->grid) Py_RETURN_NONE;
  return Py_NewRef(self->grid);
}

static PyMethodDef Prep_methods[] = {
    {"update", (PyCFunction)Prep_update, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Prep_getset[] = {
    {"memory", (getter)Prep_memory, NULL, "bytes held", NULL},
    {"grid", (getter)Prep_grid, NULL, "the grid it was built for", NULL},
    {"current", (getter)Prep_current, NULL, "built for the grid as it is now", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject PrepType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.Prep",
    .tp_basicsize = sizeof(PrepObject),
    .tp_dealloc = (destructor)Prep_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)Prep_traverse,
    .tp_clear = (inquiry)Prep_clear,
    .tp_doc = "A precomputation a Finder is prepared from (Cpd, Hpa, Landmarks, Clearance, "
              "Subgoal).",
    .tp_methods = Prep_methods,
    .tp_getset = Prep_getset,
    .tp_new = Prep_new,
};

/* The attachment `o` of kind `kind` (None: none); -1 with an exception. */
static int prep_of(PyObject *o, int kind, const char *what, const void **out) {
  *out = NULL;
  if (o == Py_None) return 0;
  if (!PyObject_TypeCheck(o, &PrepType) || ((PrepObject *)o)->kind != kind) {
    PyErr_Format(PyExc_TypeError, "%s: the wrong kind of object (%.80s)", what,
                 Py_TYPE(o)->tp_name);
    return -1;
  }
  if (!((PrepObject *)o)->obj) {
    busy_error("the precomputation was cleared");
    return -1;
  }
  *out = ((PrepObject *)o)->obj;
  return 0;
}

/* A prepared query. The finder points into this object (the callbacks'
** context, the grid space's holder), which keeps alive every Python object
** it was prepared from (`keep`). Read-only once made: threads search with
** it at once, each on its own workspace (the GIL is released unless a
** Python heuristic or observer is called). */
typedef struct {
  PyObject_HEAD astar_finder *f;
  GridObject *grid;
  PyObject *keep; /* the attachments' Python objects and the option tuple (callbacks) */
  py_callbacks cb;
  int method;
  int graph;               /* a space finder over the grid as a space (space='graph') */
  int vec;                 /* its path is astar_vec2 points (Anya) */
  int keep_gil;            /* a Python heuristic or observer */
  astar_grid_space holder; /* graph: the grid as a space */
  astar_space space;
  astar_options gopt;     /* graph: the grid space's rules */
  uint64_t space_version; /* graph: the grid version the holder was made at */
} FinderObject;

static PyTypeObject FinderType;

static int Finder_traverse(FinderObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->grid);
  Py_VISIT(self->keep);
  return 0;
}

static int Finder_clear(FinderObject *self) {
  astar_finder_free(self->f);
  self->f = NULL;
  Py_CLEAR(self->grid);
  Py_CLEAR(self->keep);
  return 0;
}

static void Finder_dealloc(FinderObject *self) {
  PyObject_GC_UnTrack(self);
  Finder_clear(self);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Does the engine run this configuration on a grid (not the grid's loops)? */
static int runs_on_engine(int method, const astar_finder_config *cfg) {
  return (method < ASTAR_METHOD_ENGINE_COUNT && method != ASTAR_METHOD_ASTAR &&
          method != ASTAR_METHOD_DIJKSTRA) ||
         cfg->waypoints != NULL;
}

/* The astar_waypoint_table of a WaypointTable (its section is below); NULL
** with an exception for anything else. */
static const astar_waypoint_table *waypoint_table_of(PyObject *o);

/* The options of a fog-of-war / layers Overlay (its section is below). */
static int overlay_apply(PyObject *ov, astar_options *o);

/*
** The config of Finder(grid, method, options, attachments, smooth,
** unit_size, graph) -- attachments: (jps_plus, cpd, hpa, landmarks,
** waypoints, clearance), each None or the object -- into *cfg, the Python
** callbacks into *cb. *why: the reason it cannot be prepared (NULL: none),
** the library's sentence or the package's for what Python adds (the
** observer's events are the grid loops', a space='graph' search takes the
** grid space's options). 0, or -1 with an exception.
*/
static int finder_config(GridObject *grid, int method, PyObject *opt_tuple, PyObject *att,
                         int smooth, int unit, int graph, astar_finder_config *cfg,
                         py_callbacks *cb, const char **why, const astar_subgoal **sgp) {
  *why = NULL;
  *sgp = NULL;
  astar_finder_config_init(cfg);
  if (!astar_method_info_of((astar_method)method)) {
    PyErr_SetString(PyExc_ValueError, "unknown method");
    return -1;
  }
  cfg->method = (astar_method)method;
  int algo;
  if (parse_options(opt_tuple, &algo, &cfg->options, cb, &cfg->engine) < 0) return -1;
  /* Dijkstra's zero heuristic is the method's own (the finder sets it; a
  ** waypoint graph takes no other heuristic than its own). */
  if (method == ASTAR_METHOD_DIJKSTRA && cfg->options.heuristic == ASTAR_H_ZERO)
    cfg->options.heuristic = ASTAR_H_AUTO;
  PyObject *jpp, *cpd, *hpa, *lm, *wp, *clr, *table = Py_None, *overlay = Py_None, *sgo = Py_None;
  if (!PyArg_ParseTuple(att, "OOOOOO|OOO;bad attachment tuple", &jpp, &cpd, &hpa, &lm, &wp, &clr,
                        &table, &overlay, &sgo))
    return -1;
  if (overlay_apply(overlay, &cfg->options) < 0) return -1;
  if (table != Py_None && (cfg->table = waypoint_table_of(table)) == NULL) return -1;
  if (jpp != Py_None) {
    if (!PyObject_TypeCheck(jpp, &JpsPlusType)) {
      PyErr_SetString(PyExc_TypeError, "jps_plus: a JpsPlus object is required");
      return -1;
    }
    if (!(cfg->jps_plus = ((JpsPlusObject *)jpp)->pre)) {
      busy_error("the JpsPlus object was cleared");
      return -1;
    }
  }
  if (wp != Py_None) {
    if (!PyObject_TypeCheck(wp, &WaypointsType)) {
      PyErr_SetString(PyExc_TypeError, "waypoints: a Waypoints object is required");
      return -1;
    }
    if (!(cfg->waypoints = ((WaypointsObject *)wp)->wp)) {
      busy_error("the Waypoints object was cleared");
      return -1;
    }
  }
  const void *p;
  if (prep_of(cpd, PREP_CPD, "cpd", &p) < 0) return -1;
  cfg->cpd = p;
  if (prep_of(hpa, PREP_HPA, "hpa", &p) < 0) return -1;
  cfg->hpa = p;
  if (prep_of(lm, PREP_LANDMARKS, "landmarks", &p) < 0) return -1;
  cfg->landmarks = p;
  if (prep_of(clr, PREP_CLEARANCE, "clearance", &p) < 0) return -1;
  cfg->clearance = p;
  /* A subgoal graph is the argument of its finder's constructor
  ** (astar_finder_new_subgoal), not a field of the config. */
  if (prep_of(sgo, PREP_SUBGOAL, "subgoal", &p) < 0) return -1;
  *sgp = p;
  if (*sgp && method != ASTAR_METHOD_SUBGOAL) {
    *why = "subgoal= is given, but only method='subgoal' searches a subgoal graph (drop it, or "
           "choose subgoal)";
    return 0;
  }
  cfg->smooth = smooth != 0;
  cfg->unit_size = unit;
  /* The engine's search settings: a grid finder takes them from the grid
  ** options; a space finder from cfg.engine. */
  cfg->engine.weight = cfg->options.weight;
  cfg->engine.tie = cfg->options.tie;
  cfg->engine.reopen = cfg->options.reopen;
  cfg->engine.max_expansions = cfg->options.max_expansions;
  cfg->engine.partial = cfg->options.partial;
  if ((graph || runs_on_engine(method, cfg)) && cb->observer) {
    *why = "the observer receives the grid loops' events (astar, dijkstra, jps, jps-plus, theta, "
           "lazy-theta): the engine's methods and space='graph' report none";
    return 0;
  }
  if (graph) {
    if (!(astar_method_info_of((astar_method)method)->flags & ASTAR_MF_SPACE))
      *why = "space='graph' runs the engine's methods (astar, dijkstra, greedy, bidir, ida, beam, "
             "dynamic, bandwidth, f2f, retarget)";
    else if (cfg->jps_plus || cfg->cpd || cfg->hpa || cfg->landmarks || cfg->waypoints ||
             cfg->clearance || cfg->table || *sgp || smooth || unit != 1)
      *why = "space='graph' searches the cells as a graph: no precomputations, smoothing or "
             "units (use space='grid')";
    else if (cfg->options.knowledge || cfg->options.nlayers > 0)
      *why = "space='graph' searches the cells as a graph: no fog of war or influence layers "
             "(use space='grid')";
    else
      *why = engine_unsupported(&cfg->options, cb);
    return 0;
  }
  /* A Python callback that raised stops the search at the next expansion,
  ** where the method has a stop hook; the others run to their end, calling
  ** no more Python. */
  *why = *sgp ? astar_finder_subgoal_unsupported_reason(grid->grid, cfg)
              : astar_finder_unsupported_reason(grid->grid, NULL, cfg);
  if (*why && cfg->options.stop_fn == cb_stop) {
    astar_finder_config c2 = *cfg;
    c2.options.stop_fn = NULL;
    c2.options.stop_ctx = NULL;
    c2.engine.stop_fn = NULL;
    if (!(*sgp ? astar_finder_subgoal_unsupported_reason(grid->grid, &c2)
               : astar_finder_unsupported_reason(grid->grid, NULL, &c2))) {
      *cfg = c2;
      *why = NULL;
    }
  }
  if (cfg->options.stop_fn && runs_on_engine(method, cfg)) {
    cfg->engine.stop_fn = cfg->options.stop_fn;
    cfg->engine.stop_ctx = cfg->options.stop_ctx;
    cfg->engine.stop_interval = 1;
  }
  return 0;
}

/* finder_reason(grid, method, options, attachments, smooth, unit_size, graph) -> str or None */
static PyObject *py_finder_reason(PyObject *self, PyObject *args) {
  (void)self;
  GridObject *grid;
  int method, smooth, unit, graph;
  PyObject *opt_tuple, *att;
  if (!PyArg_ParseTuple(args, "O!iOO!pip", &GridType, &grid, &method, &opt_tuple, &PyTuple_Type,
                        &att, &smooth, &unit, &graph))
    return NULL;
  GRID_READY(grid);
  astar_finder_config cfg;
  py_callbacks cb;
  const char *why;
  const astar_subgoal *sg;
  if (finder_config(grid, method, opt_tuple, att, smooth, unit, graph, &cfg, &cb, &why, &sg) < 0)
    return NULL;
  if (!why) Py_RETURN_NONE;
  return PyUnicode_FromString(why);
}

/* (Re)make the grid space of a space='graph' finder for the grid as it is now. */
static astar_status finder_space(FinderObject *self) {
  const astar_status st =
      astar_grid_space_init(&self->space, &self->holder, self->grid->grid, &self->gopt);
  self->space_version = astar_grid_version(self->grid->grid);
  return st;
}

static PyObject *Finder_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"grid",   "method",    "options", "attachments",
                           "smooth", "unit_size", "graph",   NULL};
  GridObject *grid;
  int method, smooth, unit, graph;
  PyObject *opt_tuple, *att;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!iOO!pip", kwlist, &GridType, &grid, &method,
                                   &opt_tuple, &PyTuple_Type, &att, &smooth, &unit, &graph))
    return NULL;
  GRID_READY(grid);
  FinderObject *self = (FinderObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->grid = (GridObject *)Py_NewRef(grid);
  self->keep = Py_BuildValue("(OO)", opt_tuple, att);
  if (!self->keep) goto fail;
  astar_finder_config cfg;
  const char *why;
  const astar_subgoal *sg;
  if (finder_config(grid, method, opt_tuple, att, smooth, unit, graph, &cfg, &self->cb, &why, &sg) <
      0)
    goto fail;
  if (why) {
    raise_status(ASTAR_UNSUPPORTED, why, NULL);
    goto fail;
  }
  /* The config points to this object's callbacks, not the stack's. */
  if (cfg.options.heuristic_ctx) cfg.options.heuristic_ctx = &self->cb;
  if (cfg.options.observer_ctx) cfg.options.observer_ctx = &self->cb;
  if (cfg.options.stop_ctx) cfg.options.stop_ctx = &self->cb;
  if (cfg.engine.stop_ctx) cfg.engine.stop_ctx = &self->cb;
  self->method = method;
  self->graph = graph;
  self->keep_gil = self->cb.heuristic || self->cb.observer;
  self->vec = (astar_method_info_of((astar_method)method)->flags & ASTAR_MF_VEC) != 0;
  astar_status st;
  if (graph) {
    self->gopt = cfg.options;
    st = finder_space(self);
    if (st == ASTAR_OK) st = astar_finder_new_space(&self->f, &self->space, &cfg, NULL);
  } else {
    /* A unit's derived grid is filled without the GIL (O(cells)); anything
    ** else is a few checks, made holding it. */
    PyThreadState *ts = NULL;
    grid->searching++;
    if (cfg.clearance) ts = PyEval_SaveThread();
    st = sg ? astar_finder_new_subgoal(&self->f, grid->grid, sg, &cfg, NULL)
            : astar_finder_new(&self->f, grid->grid, &cfg, NULL);
    if (ts) PyEval_RestoreThread(ts);
    grid->searching--;
  }
  if (st != ASTAR_OK) {
    const char *detail = st == ASTAR_MISMATCH ? "an attachment was built for another grid or "
                                                "other movement rules (moves, corner, costs)"
                         : st == ASTAR_STALE  ? "an attachment was built before the grid's last "
                                                "change: build it again (or update it)"
                         : st == ASTAR_INVALID_ARGUMENT
                             ? "an option is out of range (unit_size: 1 .. the clearance's "
                               "largest unit)"
                             : NULL;
    raise_status(st, detail, NULL);
    goto fail;
  }
  return (PyObject *)self;
fail:
  Py_DECREF(self);
  return NULL;
}

/* The result tuple of a finder search: result_tuple's thirteen entries,
** then (work, sight_checks, abstract_expanded, abstract_length, grid_cost,
** points bytes of float64 (x, y) pairs or None). */
static PyObject *finder_tuple(astar_status st, const astar_point *cells, const astar_vec2 *points,
                              const astar_path_result *pr, const char *detail) {
  astar_result r;
  memset(&r, 0, sizeof r);
  r.cost = pr->cost;
  r.length = pr->length;
  r.stats = pr->stats;
  r.cause = pr->cause;
  r.end = pr->end;
  r.retargeted = pr->retargeted;
  astar_engine_result er;
  memset(&er, 0, sizeof er);
  er.dropped = pr->dropped;
  er.iterations = pr->iterations;
  PyObject *head = result_tuple(st, cells, pr->length, &r, detail, &er);
  if (!head) return NULL;
  PyObject *pts = Py_NewRef(Py_None);
  if (points && (st == ASTAR_OK || st == ASTAR_PARTIAL)) {
    Py_DECREF(pts);
    pts = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(pr->length * 2 * sizeof(double)));
    if (!pts) {
      Py_DECREF(head);
      return NULL;
    }
    double *out = (double *)(void *)PyBytes_AS_STRING(pts);
    for (size_t i = 0; i < pr->length; i++) {
      out[2 * i] = points[i].x;
      out[2 * i + 1] = points[i].y;
    }
  }
  PyObject *tail = Py_BuildValue(
      "(KKKIdN)", (unsigned long long)pr->work, (unsigned long long)pr->sight_checks,
      (unsigned long long)pr->abstract_expanded, pr->abstract_length, pr->grid_cost, pts);
  if (!tail) {
    Py_DECREF(head);
    return NULL;
  }
  PyObject *all = PySequence_Concat(head, tail);
  Py_DECREF(head);
  Py_DECREF(tail);
  return all;
}

/* The finder's own refusal of a status, for the exception's detail. */
static const char *finder_detail(astar_status st) {
  if (st == ASTAR_STALE)
    return "the grid changed since the finder was prepared: its attachments are out of date "
           "(finder.refresh())";
  return NULL;
}

/* Grow a workspace's path buffer to n points (cells and vectors). */
static int ws_buffer(WorkspaceObject *ws, size_t n) {
  if (n <= ws->cap) return 0;
  astar_point *c = PyMem_Realloc(ws->cells, n * sizeof *c);
  if (c) ws->cells = c;
  astar_vec2 *v = c ? PyMem_Realloc(ws->vecs, n * sizeof *v) : NULL;
  if (v) ws->vecs = v;
  if (!c || !v) {
    PyErr_NoMemory();
    return -1;
  }
  ws->cap = n;
  return 0;
}

/* The start and goal of a space='graph' finder as nodes; ASTAR_OUT_OF_BOUNDS
** for a cell outside the grid. */
static astar_status graph_ends(FinderObject *self, astar_point s, astar_point g, astar_node *ns,
                               astar_node *ng) {
  const astar_grid *grid = self->grid->grid;
  if (!astar_grid_contains(grid, s.x, s.y) || !astar_grid_contains(grid, g.x, g.y))
    return ASTAR_OUT_OF_BOUNDS;
  if (self->space_version != astar_grid_version(grid)) {
    /* Costs and heuristic scale follow the terrain. The grid cannot have
    ** changed while a search runs, so no search uses the old holder. */
    const astar_status st = finder_space(self);
    if (st != ASTAR_OK) return st;
  }
  *ns = astar_grid_space_node(&self->holder, s);
  *ng = astar_grid_space_node(&self->holder, g);
  return ASTAR_OK;
}

/* One whole search or a sliced search's finish, into ws's buffer (grown
** and the call made again when the path did not fit). `sliced`: finish. */
static astar_status finder_call(FinderObject *self, WorkspaceObject *ws, int sliced, astar_point s,
                                astar_point g, astar_node ns, astar_node ng,
                                astar_path_result *res) {
  for (;;) {
    astar_status st;
    if (self->graph) {
      astar_node *nodes = (astar_node *)ws->vecs; /* 16 bytes a point: room for nodes */
      st = sliced ? astar_finder_finish_nodes(ws->ws, nodes, ws->cap, res)
                  : astar_finder_find_nodes(self->f, ws->ws, ns, ng, nodes, ws->cap, res);
      if (st == ASTAR_OK || st == ASTAR_PARTIAL)
        for (size_t i = 0; i < res->length; i++)
          ws->cells[i] = astar_grid_space_cell(&self->holder, nodes[i]);
      if (res->end_node != ASTAR_NODE_NONE)
        res->end = astar_grid_space_cell(&self->holder, res->end_node);
    } else if (self->vec) {
      st = sliced ? astar_finder_finish_vec(ws->ws, ws->vecs, ws->cap, res)
                  : astar_finder_find_vec(self->f, ws->ws, s, g, ws->vecs, ws->cap, res);
    } else {
      st = sliced ? astar_finder_finish(ws->ws, ws->cells, ws->cap, res)
                  : astar_finder_find(self->f, ws->ws, s, g, ws->cells, ws->cap, res);
    }
    if (st != ASTAR_BUFFER_TOO_SMALL || res->length <= ws->cap || sliced) return st;
    /* A finish cannot be repeated: its buffer is grown at begin (below). */
    PyGILState_STATE gs = PyGILState_Ensure();
    const int grown = ws_buffer(ws, res->length);
    if (grown < 0) PyErr_Clear();
    PyGILState_Release(gs);
    if (grown < 0) return ASTAR_NO_MEMORY;
  }
}

/* A taken workspace made ready for a search of the finder with the GIL
** held, as the searches before the finder did: the path buffer grown to n
** points and the node records to the grid (the finder would grow them
** without the GIL, holding the workspace all that time). 0, or -1 with an
** exception and ws given back. */
static int finder_prepare_ws(FinderObject *self, WorkspaceObject *ws, size_t n) {
  astar_status st = ASTAR_OK;
  if (ws_buffer(ws, n) < 0) {
    ws->busy = 0;
    return -1;
  }
  if (!self->graph) st = astar_workspace_reserve(ws->ws, self->grid->grid);
  if (st != ASTAR_OK) {
    ws->busy = 0;
    raise_status(st, NULL, NULL);
    return -1;
  }
  return 0;
}

#define FINDER_READY(self)                                                                         \
  do {                                                                                             \
    if (!(self)->f || !(self)->grid || !(self)->grid->grid)                                        \
      return busy_error("the finder was cleared");                                                 \
  } while (0)

/* find(workspace, start, goal) -> result tuple */
static PyObject *Finder_find(FinderObject *self, PyObject *args) {
  WorkspaceObject *ws;
  astar_point s, g;
  if (!PyArg_ParseTuple(args, "O!(ii)(ii)", &WorkspaceType, &ws, &s.x, &s.y, &g.x, &g.y))
    return NULL;
  FINDER_READY(self);
  if (take_workspace(ws) < 0) return NULL;
  if (finder_prepare_ws(self, ws, STACK_CELLS) < 0) return NULL;
  astar_path_result res;
  astar_node ns = ASTAR_NODE_NONE, ng = ASTAR_NODE_NONE;
  astar_status st = ASTAR_OK;
  if (self->graph) st = graph_ends(self, s, g, &ns, &ng);
  if (st != ASTAR_OK) {
    astar_finder_cancel(ws->ws);
    memset(&res, 0, sizeof res);
    res.status = res.cause = st;
    res.end = (astar_point){-1, -1};
  } else {
    self->cb.failed = 0;
    self->grid->searching++;
    PyThreadState *ts = self->keep_gil ? NULL : PyEval_SaveThread();
    st = finder_call(self, ws, 0, s, g, ns, ng, &res);
    if (ts) PyEval_RestoreThread(ts);
    self->grid->searching--;
  }
  ws->busy = 0;
  if (self->cb.failed) return NULL; /* a Python callback raised: its exception */
  return finder_tuple(st, self->vec ? NULL : ws->cells, self->vec ? ws->vecs : NULL, &res,
                      finder_detail(st));
}

/* begin(workspace, start, goal) -> status: a sliced search on ws (the
** Python layer keeps ws taken until finish or cancel). ws's path buffer
** is grown to the grid's cells here, so that the finish never has to be
** repeated (a grid path visits a cell once; Anya's and HPA*'s longer
** paths are rare: ASTAR_BUFFER_TOO_SMALL then). */
static PyObject *Finder_begin(FinderObject *self, PyObject *args) {
  WorkspaceObject *ws;
  astar_point s, g;
  if (!PyArg_ParseTuple(args, "O!(ii)(ii)", &WorkspaceType, &ws, &s.x, &s.y, &g.x, &g.y))
    return NULL;
  FINDER_READY(self);
  const astar_grid *grid = self->grid->grid;
  if (take_workspace(ws) < 0) return NULL; /* kept until finish or cancel */
  if (finder_prepare_ws(self, ws,
                        (size_t)astar_grid_width(grid) * (size_t)astar_grid_height(grid) + 1) < 0)
    return NULL;
  astar_status st = ASTAR_OK;
  astar_node ns = ASTAR_NODE_NONE, ng = ASTAR_NODE_NONE;
  if (self->graph) st = graph_ends(self, s, g, &ns, &ng);
  if (st == ASTAR_OUT_OF_BOUNDS) {
    /* No node: the finder's sliced search ends at once with the engine's
    ** outcome for a node outside the space, which finish gives. */
    ns = ng = ASTAR_NODE_NONE;
    st = ASTAR_OK;
  }
  if (st == ASTAR_OK) {
    self->grid->searching++;
    PyThreadState *ts = self->keep_gil ? NULL : PyEval_SaveThread();
    st = self->graph ? astar_finder_begin_nodes(self->f, ws->ws, ns, ng)
                     : astar_finder_begin(self->f, ws->ws, s, g);
    if (ts) PyEval_RestoreThread(ts);
    self->grid->searching--;
  } else {
    astar_finder_cancel(ws->ws);
  }
  return PyLong_FromLong((long)st);
}

/* step(workspace, budget) -> (status, work) */
static PyObject *Finder_step(FinderObject *self, PyObject *args) {
  WorkspaceObject *ws;
  unsigned long long budget;
  if (!PyArg_ParseTuple(args, "O!K", &WorkspaceType, &ws, &budget)) return NULL;
  FINDER_READY(self);
  uint64_t work = 0;
  astar_status st;
  self->cb.failed = 0;
  self->grid->searching++;
  PyThreadState *ts = self->keep_gil ? NULL : PyEval_SaveThread();
  st = astar_finder_step(ws->ws, budget, &work);
  if (ts) PyEval_RestoreThread(ts);
  self->grid->searching--;
  if (self->cb.failed) return NULL;
  return Py_BuildValue("(iK)", (int)st, (unsigned long long)work);
}

/* finish(workspace) -> result tuple, or None before the end */
static PyObject *Finder_finish(FinderObject *self, PyObject *args) {
  WorkspaceObject *ws;
  if (!PyArg_ParseTuple(args, "O!", &WorkspaceType, &ws)) return NULL;
  FINDER_READY(self);
  astar_path_result res;
  const astar_status st = finder_call(self, ws, 1, (astar_point){0, 0}, (astar_point){0, 0},
                                      ASTAR_NODE_NONE, ASTAR_NODE_NONE, &res);
  if (st == ASTAR_IN_PROGRESS) Py_RETURN_NONE;
  ws->busy = 0;
  return finder_tuple(st, self->vec ? NULL : ws->cells, self->vec ? ws->vecs : NULL, &res,
                      finder_detail(st));
}

/* cancel(workspace) */
static PyObject *Finder_cancel(FinderObject *self, PyObject *args) {
  (void)self;
  WorkspaceObject *ws;
  if (!PyArg_ParseTuple(args, "O!", &WorkspaceType, &ws)) return NULL;
  astar_finder_cancel(ws->ws);
  ws->busy = 0;
  Py_RETURN_NONE;
}

static PyObject *Finder_method(FinderObject *self, void *c) {
  (void)c;
  return PyLong_FromLong(self->method);
}

static PyObject *Finder_vec(FinderObject *self, void *c) {
  (void)c;
  return PyBool_FromLong(self->vec);
}

static PyMethodDef Finder_methods[] = {
    {"find", (PyCFunction)Finder_find, METH_VARARGS, NULL},
    {"begin", (PyCFunction)Finder_begin, METH_VARARGS, NULL},
    {"step", (PyCFunction)Finder_step, METH_VARARGS, NULL},
    {"finish", (PyCFunction)Finder_finish, METH_VARARGS, NULL},
    {"cancel", (PyCFunction)Finder_cancel, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Finder_getset[] = {
    {"method", (getter)Finder_method, NULL, "the astar_method", NULL},
    {"vec", (getter)Finder_vec, NULL, "its paths are points on grid corners (Anya)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject FinderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.Finder",
    .tp_basicsize = sizeof(FinderObject),
    .tp_dealloc = (destructor)Finder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)Finder_traverse,
    .tp_clear = (inquiry)Finder_clear,
    .tp_doc = "A prepared query (astar/finder.h): libastar.Finder is its Python face.",
    .tp_methods = Finder_methods,
    .tp_getset = Finder_getset,
    .tp_new = Finder_new,
};

/* ---- planners: fields, D* Lite / LPA*, islands, smoothing, path encodings ---------------- */

/* The options of the calls below: a tuple of Options, without Python
** callbacks (these calls run without the GIL). 0, or -1 with an exception
** naming `what`. */
static int plain_options(PyObject *opt_tuple, astar_options *o, const char *what) {
  int algo;
  py_callbacks cb;
  if (parse_options(opt_tuple, &algo, o, &cb, NULL) < 0) return -1;
  if (cb.heuristic || cb.observer) {
    PyErr_Format(PyExc_TypeError, "%s runs without the GIL: no Python heuristic or observer", what);
    return -1;
  }
  o->algorithm = ASTAR_ALGO_ASTAR;
  o->stop_fn = NULL;
  o->stop_ctx = NULL;
  return 0;
}

/* int32 (x, y) pairs from a bytes-like object (the package's _cells(...).tobytes()). */
static int cells_of(PyObject *o, Py_buffer *view, const astar_point **cells, size_t *n) {
  if (PyObject_GetBuffer(o, view, PyBUF_SIMPLE) < 0) return -1;
  if (view->len % (Py_ssize_t)sizeof(astar_point)) {
    PyBuffer_Release(view);
    PyErr_SetString(PyExc_ValueError, "cells: int32 (x, y) pairs expected");
    return -1;
  }
  *cells = view->buf;
  *n = (size_t)view->len / sizeof(astar_point);
  return 0;
}

/*
** field(grid, options, goals, max_cost) -> (cost, next, expanded): the
** distance field of the goals (int32 pairs) as row-major bytearrays --
** float64 costs (inf unreached) and uint8 directions (255: none) --
** built and copied out without the GIL (astar_field_new_goals,
** astar_field_export).
*/
static PyObject *py_field(PyObject *self, PyObject *args) {
  (void)self;
  GridObject *grid;
  PyObject *opt_tuple, *goals_obj;
  real_arg max_cost = {.name = "max_cost", .min = 0.0, .max = INFINITY};
  if (!PyArg_ParseTuple(args, "O!OOO&", &GridType, &grid, &opt_tuple, &goals_obj, real_arg_convert,
                        &max_cost))
    return NULL;
  GRID_READY(grid);
  astar_options o;
  if (plain_options(opt_tuple, &o, "a distance field") < 0) return NULL;
  Py_buffer view;
  const astar_point *goals;
  size_t ngoals;
  if (cells_of(goals_obj, &view, &goals, &ngoals) < 0) return NULL;
  const size_t cells = (size_t)astar_grid_width(grid->grid) * (size_t)astar_grid_height(grid->grid);
  PyObject *cost = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(cells * sizeof(double)));
  PyObject *next = cost ? PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)cells) : NULL;
  if (!next) {
    PyBuffer_Release(&view);
    Py_XDECREF(cost);
    return NULL;
  }
  double *c = (double *)(void *)PyByteArray_AS_STRING(cost);
  uint8_t *nx = (uint8_t *)PyByteArray_AS_STRING(next);
  astar_stats stats;
  astar_field *f = NULL;
  astar_status st;
  grid->searching++;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_field_new_goals(&f, grid->grid, &o, goals, ngoals, max_cost.value, NULL, &stats);
  if (st == ASTAR_OK) st = astar_field_export(f, c, nx, cells);
  astar_field_free(f);
  Py_END_ALLOW_THREADS;
  grid->searching--;
  PyBuffer_Release(&view);
  if (st != ASTAR_OK) {
    Py_DECREF(cost);
    Py_DECREF(next);
    return raise_status(
        st, st == ASTAR_UNSUPPORTED ? "a distance field takes no turn penalty" : NULL, NULL);
  }
  return Py_BuildValue("(NNK)", cost, next, (unsigned long long)stats.expanded);
}

/* islands(grid, options) -> (labels bytearray of uint32, row-major, 0 blocked; count) */
static PyObject *py_islands(PyObject *self, PyObject *args) {
  (void)self;
  GridObject *grid;
  PyObject *opt_tuple;
  if (!PyArg_ParseTuple(args, "O!O", &GridType, &grid, &opt_tuple)) return NULL;
  GRID_READY(grid);
  astar_options o;
  if (plain_options(opt_tuple, &o, "islands") < 0) return NULL;
  const int32_t w = astar_grid_width(grid->grid), h = astar_grid_height(grid->grid);
  PyObject *labels =
      PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)((size_t)w * (size_t)h * sizeof(uint32_t)));
  if (!labels) return NULL;
  uint32_t *out = (uint32_t *)(void *)PyByteArray_AS_STRING(labels);
  astar_islands *isl = NULL;
  astar_status st;
  uint32_t count = 0;
  grid->searching++;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_islands_new(&isl, grid->grid, &o, NULL);
  if (st == ASTAR_OK) {
    count = astar_islands_count(isl);
    for (int32_t y = 0; y < h; y++)
      for (int32_t x = 0; x < w; x++)
        out[(size_t)y * (size_t)w + (size_t)x] = astar_islands_id(isl, x, y);
  }
  astar_islands_free(isl);
  Py_END_ALLOW_THREADS;
  grid->searching--;
  if (st != ASTAR_OK) {
    Py_DECREF(labels);
    return raise_status(st, NULL, NULL);
  }
  return Py_BuildValue("(NI)", labels, (unsigned)count);
}

/* smooth(grid, options, cells) -> (points bytearray, cost): string pulling
** (astar_path_smooth) and the result's cost (astar_polyline_cost). */
static PyObject *py_smooth(PyObject *self, PyObject *args) {
  (void)self;
  GridObject *grid;
  PyObject *opt_tuple, *cells_obj;
  if (!PyArg_ParseTuple(args, "O!OO", &GridType, &grid, &opt_tuple, &cells_obj)) return NULL;
  GRID_READY(grid);
  astar_options o;
  if (plain_options(opt_tuple, &o, "smoothing") < 0) return NULL;
  Py_buffer view;
  const astar_point *cells;
  size_t n;
  if (cells_of(cells_obj, &view, &cells, &n) < 0) return NULL;
  PyObject *out = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)((n ? n : 1) * sizeof *cells));
  if (!out) {
    PyBuffer_Release(&view);
    return NULL;
  }
  astar_point *pts = (astar_point *)(void *)PyByteArray_AS_STRING(out);
  size_t len = 0, bad = 0;
  double cost = 0.0;
  astar_status st;
  grid->searching++;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_path_smooth(grid->grid, &o, cells, n, pts, n, &len);
  if (st == ASTAR_OK && len > 0) st = astar_polyline_cost(grid->grid, &o, pts, len, &cost, &bad);
  Py_END_ALLOW_THREADS;
  grid->searching--;
  PyBuffer_Release(&view);
  if (st != ASTAR_OK) {
    Py_DECREF(out);
    return raise_status(st,
                        st == ASTAR_INVALID_ARGUMENT
                            ? "cells: the path must be in sight step by step (a legal grid path)"
                            : NULL,
                        NULL);
  }
  if (PyByteArray_Resize(out, (Py_ssize_t)(len * sizeof *pts)) < 0) {
    Py_DECREF(out);
    return NULL;
  }
  return Py_BuildValue("(Nd)", out, cost);
}

/* polyline_cost(grid, options, points) -> cost, or InvalidArgumentError
** with info index= (the first point outside or out of sight). */
static PyObject *py_polyline_cost(PyObject *self, PyObject *args) {
  (void)self;
  GridObject *grid;
  PyObject *opt_tuple, *cells_obj;
  if (!PyArg_ParseTuple(args, "O!OO", &GridType, &grid, &opt_tuple, &cells_obj)) return NULL;
  GRID_READY(grid);
  astar_options o;
  if (plain_options(opt_tuple, &o, "polyline_cost") < 0) return NULL;
  Py_buffer view;
  const astar_point *cells;
  size_t n, bad = 0;
  if (cells_of(cells_obj, &view, &cells, &n) < 0) return NULL;
  double cost = 0.0;
  astar_status st = astar_polyline_cost(grid->grid, &o, cells, n, &cost, &bad);
  PyBuffer_Release(&view);
  if (st == ASTAR_INVALID_ARGUMENT && n > 0) {
    PyObject *info = Py_BuildValue("{sn}", "index", (Py_ssize_t)bad);
    char detail[120];
    snprintf(detail, sizeof detail,
             "points[%zu] lies outside the grid or out of sight of the one before", bad);
    PyObject *r = raise_status(st, detail, info);
    Py_XDECREF(info);
    return r;
  }
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  return PyFloat_FromDouble(cost);
}

/* path_encode(cells, encoding) -> bytes (astar_path_encode). */
static PyObject *py_path_encode(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *cells_obj;
  range_arg enc = {.name = "encoding", .min = 0, .max = ASTAR_PATH_ENCODING_COUNT - 1};
  if (!PyArg_ParseTuple(args, "OO&", &cells_obj, range_arg_convert, &enc)) return NULL;
  Py_buffer view;
  const astar_point *cells;
  size_t n, len = 0;
  if (cells_of(cells_obj, &view, &cells, &n) < 0) return NULL;
  astar_status st = astar_path_encode(cells, n, (astar_path_encoding)enc.u, NULL, 0, &len);
  PyObject *out = NULL;
  if (st == ASTAR_OK || st == ASTAR_BUFFER_TOO_SMALL) {
    out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)len);
    if (out)
      st = astar_path_encode(cells, n, (astar_path_encoding)enc.u, PyBytes_AS_STRING(out), len,
                             &len);
  }
  PyBuffer_Release(&view);
  if (!out && PyErr_Occurred()) return NULL;
  if (st != ASTAR_OK) {
    Py_XDECREF(out);
    return raise_status(st,
                        st == ASTAR_INVALID_ARGUMENT
                            ? (n == 0 ? "cells: a path has at least one cell"
                                      : "cells: every step must be to one of the 8 neighbours")
                            : NULL,
                        NULL);
  }
  return out;
}

/* path_decode(data) -> (cells bytearray, encoding) (astar_path_decode). */
static PyObject *py_path_decode(PyObject *self, PyObject *arg) {
  (void)self;
  Py_buffer view;
  if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
  astar_path_info info;
  astar_status st = astar_path_info_of(view.buf, (size_t)view.len, &info);
  PyObject *out = NULL;
  size_t n = 0;
  if (st == ASTAR_OK) {
    st = astar_path_decode(view.buf, (size_t)view.len, NULL, 0, &n);
    if (st == ASTAR_BUFFER_TOO_SMALL || st == ASTAR_OK) {
      out = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(n * sizeof(astar_point)));
      if (out)
        st = astar_path_decode(view.buf, (size_t)view.len,
                               (astar_point *)(void *)PyByteArray_AS_STRING(out), n, &n);
    }
  }
  PyBuffer_Release(&view);
  if (!out && PyErr_Occurred()) return NULL;
  if (st != ASTAR_OK) {
    Py_XDECREF(out);
    return raise_status(
        st, st == ASTAR_PARSE_ERROR ? "not an encoded path, or a damaged one" : NULL, NULL);
  }
  return Py_BuildValue("(Ni)", out, (int)info.encoding);
}

/* turn_points(cells) -> bytearray; expand_turn_points(points) -> bytearray. */
static PyObject *py_turn_points(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *cells_obj;
  int expand;
  if (!PyArg_ParseTuple(args, "Op", &cells_obj, &expand)) return NULL;
  Py_buffer view;
  const astar_point *cells;
  size_t n, m = 0;
  if (cells_of(cells_obj, &view, &cells, &n) < 0) return NULL;
  astar_status st = expand ? astar_path_expand_turn_points(cells, n, NULL, 0, &m)
                           : astar_path_turn_points(cells, n, NULL, 0, &m);
  PyObject *out = NULL;
  if (st == ASTAR_OK || st == ASTAR_BUFFER_TOO_SMALL) {
    out = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(m * sizeof(astar_point)));
    if (out) {
      astar_point *o = (astar_point *)(void *)PyByteArray_AS_STRING(out);
      st = expand ? astar_path_expand_turn_points(cells, n, o, m, &m)
                  : astar_path_turn_points(cells, n, o, m, &m);
    }
  }
  PyBuffer_Release(&view);
  if (!out && PyErr_Occurred()) return NULL;
  if (st != ASTAR_OK) {
    Py_XDECREF(out);
    return raise_status(st,
                        st == ASTAR_INVALID_ARGUMENT
                            ? (expand ? "points: at least one; consecutive points distinct and on "
                                        "one of the 8 directions"
                                      : "cells: at least one; every step to one of the 8 "
                                        "neighbours")
                            : NULL,
                        NULL);
  }
  return out;
}

/* D* Lite and LPA* on a grid (astar/dstar.h). The planner keeps the grid
** alive (it reads it at creation, update_cells, sync and restart); plans
** read only its own snapshot and run without the GIL. One thread at a
** time (`busy`). */
typedef struct {
  PyObject_HEAD astar_dstar *p;
  GridObject *grid;
  int busy;
  astar_status last; /* the last plan's status (ASTAR_STALE before any) */
} DStarObject;

static PyTypeObject DStarType;

static int DStar_traverse(DStarObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->grid);
  return 0;
}

static int DStar_clear(DStarObject *self) {
  astar_dstar_free(self->p);
  self->p = NULL;
  Py_CLEAR(self->grid);
  return 0;
}

static void DStar_dealloc(DStarObject *self) {
  PyObject_GC_UnTrack(self);
  DStar_clear(self);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int dstar_ready(DStarObject *self) {
  if (!self->p) {
    busy_error("the planner was cleared");
    return -1;
  }
  if (self->busy) {
    busy_error("the planner is planning in another thread (one thread at a time)");
    return -1;
  }
  return 0;
}

static const char *dstar_detail(astar_status st) {
  switch (st) {
  case ASTAR_UNSUPPORTED:
    return "D* Lite and LPA* take moves, corner, straight_cost, diagonal_cost, a consistent "
           "heuristic ('auto', 'octile', 'chebyshev', 'euclidean', 'zero'; 'manhattan' with "
           "moves=4) and heuristic_floor: no weight, turn penalty, terrain scale, partial paths "
           "or expansion limit";
  case ASTAR_STALE:
    return "the map or the agent changed since the last plan: plan() again";
  default:
    return NULL;
  }
}

/* DStar(grid, options, lpa, start, goal) */
static PyObject *DStar_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"grid", "options", "lpa", "start", "goal", NULL};
  GridObject *grid;
  PyObject *opt_tuple;
  int lpa;
  astar_point s, g;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!Op(ii)(ii)", kwlist, &GridType, &grid, &opt_tuple,
                                   &lpa, &s.x, &s.y, &g.x, &g.y))
    return NULL;
  GRID_READY(grid);
  astar_options o;
  if (plain_options(opt_tuple, &o, "a planner") < 0) return NULL;
  DStarObject *self = (DStarObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->grid = (GridObject *)Py_NewRef(grid);
  self->last = ASTAR_STALE;
  astar_status st = astar_dstar_new_grid(&self->p, grid->grid, &o,
                                         lpa ? ASTAR_DSTAR_LPA : ASTAR_DSTAR_LITE, s, g, NULL);
  if (st != ASTAR_OK) {
    Py_DECREF(self);
    return raise_status(st, dstar_detail(st), NULL);
  }
  return (PyObject *)self;
}

/* plan() -> (status, cost, expanded, requeued, updated, plans) */
static PyObject *DStar_plan(DStarObject *self, PyObject *noargs) {
  (void)noargs;
  if (dstar_ready(self) < 0) return NULL;
  astar_dstar_result r;
  memset(&r, 0, sizeof r);
  astar_status st;
  self->busy = 1;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_dstar_plan(self->p, &r);
  Py_END_ALLOW_THREADS;
  self->busy = 0;
  self->last = st;
  return Py_BuildValue("(idKKKK)", (int)st, r.cost, (unsigned long long)r.stats.expanded,
                       (unsigned long long)r.stats.requeued, (unsigned long long)r.stats.updated,
                       (unsigned long long)r.stats.plans);
}

/* path() -> cells bytearray, or the status's error */
static PyObject *DStar_path(DStarObject *self, PyObject *noargs) {
  (void)noargs;
  if (dstar_ready(self) < 0) return NULL;
  size_t len = 0;
  astar_status st = astar_dstar_path(self->p, NULL, 0, &len);
  if (st != ASTAR_OK && st != ASTAR_BUFFER_TOO_SMALL)
    return raise_status(st, dstar_detail(st), NULL);
  PyObject *out = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(len * sizeof(astar_point)));
  if (!out) return NULL;
  st = astar_dstar_path(self->p, (astar_point *)(void *)PyByteArray_AS_STRING(out), len, &len);
  if (st != ASTAR_OK) {
    Py_DECREF(out);
    return raise_status(st, dstar_detail(st), NULL);
  }
  return out;
}

static PyObject *DStar_next(DStarObject *self, PyObject *noargs) {
  (void)noargs;
  if (dstar_ready(self) < 0) return NULL;
  astar_point p;
  astar_status st = astar_dstar_next(self->p, &p);
  if (st != ASTAR_OK) return raise_status(st, dstar_detail(st), NULL);
  return Py_BuildValue("(ii)", p.x, p.y);
}

static PyObject *DStar_move(DStarObject *self, PyObject *args) {
  astar_point p;
  if (!PyArg_ParseTuple(args, "(ii)", &p.x, &p.y) || dstar_ready(self) < 0) return NULL;
  astar_status st = astar_dstar_move(self->p, p);
  if (st != ASTAR_OK)
    return raise_status(st,
                        st == ASTAR_UNSUPPORTED ? "an LPA* planner's ends are fixed: restart() "
                                                  "it, or use D* Lite"
                                                : NULL,
                        NULL);
  Py_RETURN_NONE;
}

/* update_cells(cells bytes): the cells that may have changed on the grid */
static PyObject *DStar_update_cells(DStarObject *self, PyObject *args) {
  PyObject *cells_obj;
  if (!PyArg_ParseTuple(args, "O", &cells_obj) || dstar_ready(self) < 0) return NULL;
  Py_buffer view;
  const astar_point *cells;
  size_t n;
  if (cells_of(cells_obj, &view, &cells, &n) < 0) return NULL;
  astar_status st = astar_dstar_update_cells(self->p, self->grid->grid, cells, n);
  PyBuffer_Release(&view);
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  Py_RETURN_NONE;
}

static PyObject *DStar_sync(DStarObject *self, PyObject *noargs) {
  (void)noargs;
  if (dstar_ready(self) < 0) return NULL;
  astar_status st;
  self->busy = 1;
  self->grid->searching++;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_dstar_sync(self->p, self->grid->grid);
  Py_END_ALLOW_THREADS;
  self->grid->searching--;
  self->busy = 0;
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  Py_RETURN_NONE;
}

static PyObject *DStar_restart(DStarObject *self, PyObject *args) {
  astar_point s, g;
  if (!PyArg_ParseTuple(args, "(ii)(ii)", &s.x, &s.y, &g.x, &g.y) || dstar_ready(self) < 0)
    return NULL;
  astar_status st = astar_dstar_restart(self->p, self->grid->grid, s, g);
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  self->last = ASTAR_STALE;
  Py_RETURN_NONE;
}

/* stats() -> (total, last), each (expanded, requeued, updated, plans) */
static PyObject *DStar_stats(DStarObject *self, PyObject *noargs) {
  (void)noargs;
  if (dstar_ready(self) < 0) return NULL;
  astar_dstar_stats t, l;
  astar_dstar_stats_get(self->p, &t, &l);
  return Py_BuildValue(
      "((KKKK)(KKKK))", (unsigned long long)t.expanded, (unsigned long long)t.requeued,
      (unsigned long long)t.updated, (unsigned long long)t.plans, (unsigned long long)l.expanded,
      (unsigned long long)l.requeued, (unsigned long long)l.updated, (unsigned long long)l.plans);
}

static PyObject *DStar_start(DStarObject *self, void *c) {
  (void)c;
  astar_point p = astar_dstar_start(self->p);
  return Py_BuildValue("(ii)", p.x, p.y);
}

static PyObject *DStar_goal(DStarObject *self, void *c) {
  (void)c;
  astar_point p = astar_dstar_goal(self->p);
  return Py_BuildValue("(ii)", p.x, p.y);
}

static PyObject *DStar_memory(DStarObject *self, void *c) {
  (void)c;
  return PyLong_FromSize_t(astar_dstar_memory(self->p));
}

static PyObject *DStar_grid(DStarObject *self, void *c) {
  (void)c;
  if (!self->grid) Py_RETURN_NONE;
  return Py_NewRef(self->grid);
}

static PyMethodDef DStar_methods[] = {
    {"plan", (PyCFunction)DStar_plan, METH_NOARGS, NULL},
    {"path", (PyCFunction)DStar_path, METH_NOARGS, NULL},
    {"next", (PyCFunction)DStar_next, METH_NOARGS, NULL},
    {"move", (PyCFunction)DStar_move, METH_VARARGS, NULL},
    {"update_cells", (PyCFunction)DStar_update_cells, METH_VARARGS, NULL},
    {"sync", (PyCFunction)DStar_sync, METH_NOARGS, NULL},
    {"restart", (PyCFunction)DStar_restart, METH_VARARGS, NULL},
    {"stats", (PyCFunction)DStar_stats, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef DStar_getset[] = {
    {"start", (getter)DStar_start, NULL, "the start (D* Lite: the agent's cell)", NULL},
    {"goal", (getter)DStar_goal, NULL, "the goal", NULL},
    {"memory", (getter)DStar_memory, NULL, "bytes held", NULL},
    {"grid", (getter)DStar_grid, NULL, "the grid", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject DStarType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.DStar",
    .tp_basicsize = sizeof(DStarObject),
    .tp_dealloc = (destructor)DStar_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)DStar_traverse,
    .tp_clear = (inquiry)DStar_clear,
    .tp_doc = "A D* Lite or LPA* planner on a grid (astar/dstar.h).",
    .tp_methods = DStar_methods,
    .tp_getset = DStar_getset,
    .tp_new = DStar_new,
};

/* clearance_array(clearance) -> bytearray of uint8, row-major: the
** clearance of every cell (astar_clearance_at, every terrain type). */
static PyObject *py_clearance_array(PyObject *self, PyObject *arg) {
  (void)self;
  const void *c;
  if (prep_of(arg, PREP_CLEARANCE, "clearance", &c) < 0) return NULL;
  const astar_grid *g = ((PrepObject *)arg)->grid->grid;
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  PyObject *out = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)w * (Py_ssize_t)h);
  if (!out) return NULL;
  uint8_t *o = (uint8_t *)PyByteArray_AS_STRING(out);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      const int32_t v = astar_clearance_at(c, x, y, ASTAR_CAPABILITY_ALL);
      o[(size_t)y * (size_t)w + (size_t)x] = (uint8_t)(v < 0 ? 0 : v);
    }
  return out;
}

/* The finder of a queued request (Queue.submit's `finder`): a grid finder
** that runs without the GIL. NULL with an exception otherwise. */
static const astar_finder *queue_finder_of(PyObject *o) {
  if (!PyObject_TypeCheck(o, &FinderType)) {
    PyErr_Format(PyExc_TypeError, "finder: a Finder expected, got %.80s", Py_TYPE(o)->tp_name);
    return NULL;
  }
  FinderObject *f = (FinderObject *)o;
  if (!f->f) {
    busy_error("the finder was cleared");
    return NULL;
  }
  if (f->keep_gil || f->graph) {
    raise_status(ASTAR_UNSUPPORTED,
                 f->keep_gil ? "queued requests run without the GIL: no Python heuristic or "
                               "observer"
                             : "a space='graph' finder searches a space, not the queue's grid",
                 NULL);
    return NULL;
  }
  return f->f;
}

/* ---- many queries and every space: batches, graphs, hex and callback finders ---------- */

/*
** Batch(threads): the workers of astar/batch.h, each with its own
** workspace (0: one per processor). The workspaces start at one cell and
** grow to a finder's grid on its first batch, then stay grown: a Batch
** kept between calls costs no allocation, and dropping it frees them
** (`memory` says how much). One batch at a time (busy flag), but its
** queries run on every worker without the GIL.
*/
typedef struct {
  PyObject_HEAD astar_batch *b;
  int busy;
} BatchObject;

static PyTypeObject BatchType;

static void Batch_dealloc(BatchObject *self) {
  astar_batch_free(self->b);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Batch_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"threads", NULL};
  range_arg threads = {"threads", 0, ASTAR_BATCH_MAX_THREADS, ASTAR_OK, 0, NULL, 0, 0};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&", kwlist, range_arg_convert, &threads))
    return NULL;
  BatchObject *self = (BatchObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  astar_grid *one = NULL;
  astar_status st = astar_grid_new(&one, 1, 1, NULL);
  if (st == ASTAR_OK) st = astar_batch_new(&self->b, one, (unsigned)threads.u, NULL);
  astar_grid_free(one);
  if (st != ASTAR_OK) {
    Py_DECREF(self);
    return raise_status(st, NULL, NULL);
  }
  return (PyObject *)self;
}

static PyObject *Batch_threads(BatchObject *self, void *c) {
  (void)c;
  return PyLong_FromUnsignedLong(astar_batch_threads(self->b));
}

static PyObject *Batch_memory(BatchObject *self, void *c) {
  (void)c;
  return PyLong_FromSize_t(astar_batch_memory(self->b));
}

static PyGetSetDef Batch_getset[] = {
    {"threads", (getter)Batch_threads, NULL, "workers, the calling thread included", NULL},
    {"memory", (getter)Batch_memory, NULL, "bytes the workers' workspaces hold", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.Batch",
    .tp_basicsize = sizeof(BatchObject),
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Batch(threads=0): worker threads with a workspace each, for Finder.find_many "
              "(0: one per processor). Its workspaces grow to the largest grid searched and "
              "are freed with it.",
    .tp_getset = Batch_getset,
    .tp_new = Batch_new,
};

/* The kinds of path a batch writes. */
enum { BATCH_CELLS = 0, BATCH_VEC, BATCH_NODES };

/* Points of one path slot a batch gives each query when paths are kept:
** enough for most paths of a big batch within about 64 MB of slots, at
** least 64; the longer ones run again (below). */
#define BATCH_SLOT_BUDGET ((size_t)1 << 23)

/*
** Run queries[0 .. n-1] (astar_query, or astar_node_query for BATCH_NODES)
** through `f` on every worker of `b`, into res[0 .. n-1] and, unless
** costs_only, *paths (malloc'd, `*stride` points a query). The queries
** whose path did not fit their slot run again -- the same searches (a
** slot depends on its query only), so every result is the one a lone
** astar_finder_find gives -- in second batches whose slots hold the
** longest such path, as many queries at a time as BATCH_SLOT_BUDGET
** points allow, and their paths are packed into *extra: query i's path
** starts at point extra_at[i] (SIZE_MAX: in *paths). Memory: the slots,
** at most BATCH_SLOT_BUDGET points of scratch, and the long paths
** themselves. Called without the GIL; allocates with malloc. Returns the
** batch's status (ASTAR_OK when every query ran).
*/
static astar_status batch_run(astar_batch *b, const astar_finder *f, int kind, const void *queries,
                              size_t n, size_t bound, size_t slot, int costs_only,
                              astar_path_result *res, void **paths, size_t *stride, void **extra,
                              size_t *extra_at, unsigned *used) {
  const size_t point = kind == BATCH_CELLS ? sizeof(astar_point)
                       : kind == BATCH_VEC ? sizeof(astar_vec2)
                                           : sizeof(astar_node);
  const size_t qsize = kind == BATCH_NODES ? sizeof(astar_node_query) : sizeof(astar_query);
  *paths = *extra = NULL;
  *stride = 0;
  for (size_t i = 0; i < n; i++) extra_at[i] = SIZE_MAX;
  size_t s = 0;
  if (!costs_only && n > 0) {
    s = BATCH_SLOT_BUDGET / n;
    if (s < 64) s = 64;
    if (bound && s > bound) s = bound;
    if (slot) s = slot; /* the tests' small slots (the second batches' path) */
    if (!(*paths = malloc(n * s * point))) return ASTAR_NO_MEMORY;
  }
  *stride = s;
  astar_status st = kind == BATCH_CELLS ? astar_batch_find(b, f, queries, n, res, *paths, s, used)
                    : kind == BATCH_VEC
                        ? astar_batch_find_vec(b, f, queries, n, res, *paths, s, used)
                        : astar_batch_find_nodes(b, f, queries, n, res, *paths, s, used);
  if (st != ASTAR_OK || costs_only) return st;
  size_t m = 0, longest = 0, total = 0;
  for (size_t i = 0; i < n; i++)
    if (res[i].status == ASTAR_BUFFER_TOO_SMALL && res[i].length > s) {
      extra_at[i] = total;
      total += res[i].length;
      m++;
      if (res[i].length > longest) longest = res[i].length;
    }
  if (m == 0) return ASTAR_OK;
  /* (The tests' small slots run them three at a time: several second batches.) */
  size_t chunk = slot ? 3 : BATCH_SLOT_BUDGET / longest;
  if (chunk < 1) chunk = 1;
  if (chunk > m) chunk = m;
  unsigned char *q2 = malloc(chunk * qsize);
  size_t *who = malloc(chunk * sizeof *who);
  astar_path_result *r2 = malloc(chunk * sizeof *r2);
  void *scratch = malloc(chunk * longest * point);
  *extra = malloc(total * point);
  st = q2 && who && r2 && scratch && *extra ? ASTAR_OK : ASTAR_NO_MEMORY;
  for (size_t i = 0; st == ASTAR_OK && i < n;) {
    size_t k = 0;
    for (; i < n && k < chunk; i++)
      if (extra_at[i] != SIZE_MAX) {
        memcpy(q2 + k * qsize, (const unsigned char *)queries + i * qsize, qsize);
        who[k++] = i;
      }
    if (k == 0) break;
    st = kind == BATCH_CELLS
             ? astar_batch_find(b, f, (const astar_query *)q2, k, r2, scratch, longest, NULL)
         : kind == BATCH_VEC
             ? astar_batch_find_vec(b, f, (const astar_query *)q2, k, r2, scratch, longest, NULL)
             : astar_batch_find_nodes(b, f, (const astar_node_query *)q2, k, r2, scratch, longest,
                                      NULL);
    for (size_t j = 0; st == ASTAR_OK && j < k; j++) {
      const size_t q = who[j];
      res[q] = r2[j];
      memcpy((unsigned char *)*extra + extra_at[q] * point,
             (const unsigned char *)scratch + j * longest * point,
             (r2[j].status == ASTAR_OK || r2[j].status == ASTAR_PARTIAL ? r2[j].length : 0) *
                 point);
    }
  }
  free(q2);
  free(who);
  free(r2);
  free(scratch);
  return st;
}

/* A batch's costs: (costs bytes of float64, statuses bytes of int32). */
static PyObject *batch_costs(const astar_path_result *res, size_t n) {
  PyObject *costs = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * sizeof(double)));
  PyObject *sts = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * sizeof(int32_t)));
  if (!costs || !sts) {
    Py_XDECREF(costs);
    Py_XDECREF(sts);
    return NULL;
  }
  double *c = (double *)(void *)PyBytes_AS_STRING(costs);
  int32_t *s = (int32_t *)(void *)PyBytes_AS_STRING(sts);
  for (size_t i = 0; i < n; i++) {
    c[i] = res[i].cost;
    s[i] = (int32_t)res[i].status;
  }
  return Py_BuildValue("(NN)", costs, sts);
}

static int take_batch(BatchObject *b) {
  if (b->busy) {
    busy_error("the batch is in use by another call (use one Batch per thread)");
    return -1;
  }
  b->busy = 1;
  return 0;
}

/*
** grid_batch(batch, finder, queries, costs_only, slot) -> (threads used, list of
** result tuples as Finder.find gives them) or, costs_only, (threads used,
** (costs, statuses)). queries: bytes of int32 (sx, sy, gx, gy) rows.
** The whole batch runs without the GIL (with it, on one worker, for a
** finder calling Python).
*/
static PyObject *py_grid_batch(PyObject *self, PyObject *args) {
  (void)self;
  BatchObject *b;
  FinderObject *fo;
  Py_buffer q;
  int costs_only;
  Py_ssize_t slot = 0; /* points a query's path slot holds; 0: automatic */
  if (!PyArg_ParseTuple(args, "O!O!y*p|n", &BatchType, &b, &FinderType, &fo, &q, &costs_only,
                        &slot))
    return NULL;
  PyObject *ret = NULL;
  const size_t n = (size_t)q.len / sizeof(astar_query);
  astar_path_result *res = NULL;
  astar_node_query *nq = NULL;
  size_t *extra_at = NULL;
  unsigned char *oob = NULL;
  void *paths = NULL, *extra = NULL;
  size_t stride = 0;
  unsigned used = 0;
  if (!fo->f || !fo->grid || !fo->grid->grid) {
    busy_error("the finder was cleared");
    goto out;
  }
  if (fo->keep_gil && astar_batch_threads(b->b) > 1) {
    PyErr_SetString(PyExc_ValueError, "a finder calling Python (a heuristic or observer) runs "
                                      "its batch on one thread: threads=1");
    goto out;
  }
  if (take_batch(b) < 0) goto out;
  res = PyMem_Calloc(n ? n : 1, sizeof *res);
  extra_at = PyMem_Malloc((n ? n : 1) * sizeof *extra_at);
  if (!res || !extra_at) {
    PyErr_NoMemory();
    b->busy = 0;
    goto out;
  }
  const astar_query *queries = q.buf;
  const int kind = fo->graph ? BATCH_NODES : fo->vec ? BATCH_VEC : BATCH_CELLS;
  const astar_grid *grid = fo->grid->grid;
  if (kind == BATCH_NODES) {
    /* The grid as a space: its node ids, and cells outside it answered as
    ** a lone find answers them. */
    if (fo->space_version != astar_grid_version(grid) && finder_space(fo) != ASTAR_OK) {
      b->busy = 0;
      raise_status(ASTAR_NO_MEMORY, NULL, NULL);
      goto out;
    }
    nq = PyMem_Malloc((n ? n : 1) * sizeof *nq);
    oob = PyMem_Calloc(n ? n : 1, 1);
    if (!nq || !oob) {
      PyErr_NoMemory();
      b->busy = 0;
      goto out;
    }
    for (size_t i = 0; i < n; i++) {
      const astar_point s = queries[i].start, g = queries[i].goal;
      if (!astar_grid_contains(grid, s.x, s.y) || !astar_grid_contains(grid, g.x, g.y)) {
        oob[i] = 1; /* runs as 0 -> 0, answered afterwards as a lone find answers it */
        nq[i].start = nq[i].goal = 0;
      } else {
        nq[i].start = astar_grid_space_node(&fo->holder, s);
        nq[i].goal = astar_grid_space_node(&fo->holder, g);
      }
    }
  }
  const size_t bound =
      kind == BATCH_VEC ? 0 : (size_t)astar_grid_width(grid) * (size_t)astar_grid_height(grid) + 1;
  fo->cb.failed = 0;
  fo->grid->searching++;
  PyThreadState *ts = fo->keep_gil ? NULL : PyEval_SaveThread();
  astar_status st = batch_run(b->b, fo->f, kind, kind == BATCH_NODES ? (const void *)nq : queries,
                              n, bound, (size_t)(slot > 0 ? slot : 0), costs_only, res, &paths,
                              &stride, &extra, extra_at, &used);
  if (ts) PyEval_RestoreThread(ts);
  fo->grid->searching--;
  b->busy = 0;
  if (fo->cb.failed) goto out;
  if (st != ASTAR_OK) {
    raise_status(st, NULL, NULL);
    goto out;
  }
  for (size_t i = 0; oob && i < n; i++)
    if (oob[i]) {
      memset(&res[i], 0, sizeof res[i]);
      res[i].status = res[i].cause = ASTAR_OUT_OF_BOUNDS;
      res[i].end = (astar_point){-1, -1};
      res[i].end_node = ASTAR_NODE_NONE;
      extra_at[i] = SIZE_MAX;
    }
  if (costs_only) {
    PyObject *c = batch_costs(res, n);
    if (c) ret = Py_BuildValue("(IN)", used, c);
    goto out;
  }
  PyObject *list = PyList_New((Py_ssize_t)n);
  if (!list) goto out;
  astar_point *cells = NULL;
  size_t longest = 0;
  for (size_t i = 0; i < n; i++)
    if (res[i].length > longest) longest = res[i].length;
  if (kind == BATCH_NODES && !(cells = PyMem_Malloc((longest + 1) * sizeof *cells))) {
    Py_DECREF(list);
    PyErr_NoMemory();
    goto out;
  }
  for (size_t i = 0; i < n; i++) {
    astar_path_result *r = &res[i];
    const size_t slot = extra_at[i] != SIZE_MAX ? extra_at[i] : i * stride;
    const unsigned char *base = extra_at[i] != SIZE_MAX ? extra : paths;
    const astar_status si = r->status;
    PyObject *t;
    if (kind == BATCH_NODES) {
      const astar_node *nodes = (const astar_node *)(const void *)base + slot;
      if (si == ASTAR_OK || si == ASTAR_PARTIAL)
        for (size_t k = 0; k < r->length; k++)
          cells[k] = astar_grid_space_cell(&fo->holder, nodes[k]);
      if (r->end_node != ASTAR_NODE_NONE) r->end = astar_grid_space_cell(&fo->holder, r->end_node);
      t = finder_tuple(si, cells, NULL, r, finder_detail(si));
    } else if (kind == BATCH_VEC) {
      t = finder_tuple(si, NULL, (const astar_vec2 *)(const void *)base + slot, r,
                       finder_detail(si));
    } else {
      t = finder_tuple(si, (const astar_point *)(const void *)base + slot, NULL, r,
                       finder_detail(si));
    }
    if (!t) {
      Py_DECREF(list);
      list = NULL;
      break;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)i, t);
  }
  PyMem_Free(cells);
  if (list) ret = Py_BuildValue("(IN)", used, list);
out:
  PyBuffer_Release(&q);
  PyMem_Free(res);
  PyMem_Free(nq);
  PyMem_Free(oob);
  PyMem_Free(extra_at);
  free(paths);
  free(extra);
  return ret;
}

/* ---- Graph: a static graph in CSR form (astar/graph.h) ---- */

typedef struct {
  PyObject_HEAD astar_graph *g;
} GraphObject;

static PyTypeObject GraphType;

static void Graph_dealloc(GraphObject *self) {
  astar_graph_free(self->g);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Graph(node_count, edges, undirected, coords) -- edges: bytes of
** astar_graph_edge (uint32 from, uint32 to, float64 cost); coords: None or
** bytes of float64 (x, y) per node (the Euclidean heuristic, scaled to stay
** admissible: astar_graph_set_coords). */
static PyObject *Graph_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"node_count", "edges", "undirected", "coords", NULL};
  range_arg nodes = {"node_count", 1, ASTAR_GRAPH_MAX_NODES, ASTAR_OK, 1, NULL, 0, 0};
  Py_buffer e;
  int undirected;
  PyObject *coords;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&y*pO", kwlist, range_arg_convert, &nodes, &e,
                                   &undirected, &coords))
    return NULL;
  GraphObject *self = NULL;
  const size_t ne = (size_t)e.len / sizeof(astar_graph_edge);
  size_t bad = 0;
  astar_status st = astar_graph_check_edges((uint32_t)nodes.u, e.buf, ne, &bad);
  if (st != ASTAR_OK) {
    const astar_graph_edge *x = (const astar_graph_edge *)e.buf + bad;
    PyObject *cost = PyFloat_FromDouble(x->cost);
    PyObject *msg =
        cost ? PyUnicode_FromFormat("edge %zu: from %u to %u, cost %R: the nodes must "
                                    "be in [0, %llu) and the cost in [0, 1e15]",
                                    bad, (unsigned)x->from, (unsigned)x->to, cost, nodes.u)
             : NULL;
    Py_XDECREF(cost);
    if (msg) {
      raise_status(st, PyUnicode_AsUTF8(msg), NULL);
      Py_DECREF(msg);
    }
    goto out;
  }
  self = (GraphObject *)type->tp_alloc(type, 0);
  if (!self) goto out;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_graph_new(&self->g, (uint32_t)nodes.u, e.buf, ne,
                       undirected ? ASTAR_GRAPH_UNDIRECTED : 0u, NULL);
  Py_END_ALLOW_THREADS;
  if (st == ASTAR_OK && coords != Py_None) {
    Py_buffer c;
    if (PyObject_GetBuffer(coords, &c, PyBUF_SIMPLE) < 0) {
      Py_CLEAR(self);
      goto out;
    }
    if ((size_t)c.len != (size_t)nodes.u * 2 * sizeof(double)) {
      PyBuffer_Release(&c);
      PyErr_SetString(PyExc_ValueError, "coords: one (x, y) pair per node expected");
      Py_CLEAR(self);
      goto out;
    }
    st = astar_graph_set_coords(self->g, 2, c.buf);
    PyBuffer_Release(&c);
    if (st == ASTAR_INVALID_ARGUMENT) {
      raise_status(st, "coords: every coordinate must be finite", NULL);
      Py_CLEAR(self);
      goto out;
    }
  }
  if (st != ASTAR_OK) {
    raise_status(st, NULL, NULL);
    Py_CLEAR(self);
  }
out:
  PyBuffer_Release(&e);
  return (PyObject *)self;
}

static PyObject *Graph_node_count(GraphObject *self, void *c) {
  (void)c;
  return PyLong_FromUnsignedLong(astar_graph_node_count(self->g));
}

static PyObject *Graph_arc_count(GraphObject *self, void *c) {
  (void)c;
  return PyLong_FromSize_t(astar_graph_arc_count(self->g));
}

static PyObject *Graph_memory(GraphObject *self, void *c) {
  (void)c;
  return PyLong_FromSize_t(astar_graph_memory(self->g));
}

static PyObject *Graph_has_coords(GraphObject *self, void *c) {
  (void)c;
  return PyBool_FromLong(astar_graph_dims(self->g) != 0);
}

/* _arcs(v, out) -> list of (node, cost): the arcs out of v (or into v). */
static PyObject *Graph_arcs(GraphObject *self, PyObject *args) {
  unsigned int v;
  int out;
  if (!PyArg_ParseTuple(args, "Ip", &v, &out)) return NULL;
  size_t d =
      out ? astar_graph_out_arcs(self->g, v, NULL, 0) : astar_graph_in_arcs(self->g, v, NULL, 0);
  astar_arc *arcs = PyMem_Malloc((d ? d : 1) * sizeof *arcs);
  if (!arcs) return PyErr_NoMemory();
  d = out ? astar_graph_out_arcs(self->g, v, arcs, d) : astar_graph_in_arcs(self->g, v, arcs, d);
  PyObject *list = PyList_New((Py_ssize_t)d);
  for (size_t i = 0; list && i < d; i++) {
    PyObject *t = Py_BuildValue("(kd)", (unsigned long)arcs[i].node, arcs[i].cost);
    if (!t) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)i, t);
  }
  PyMem_Free(arcs);
  return list;
}

static PyMethodDef Graph_methods[] = {
    {"_arcs", (PyCFunction)Graph_arcs, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Graph_getset[] = {
    {"node_count", (getter)Graph_node_count, NULL, "nodes", NULL},
    {"arc_count", (getter)Graph_arc_count, NULL, "arcs (an undirected edge counts twice)", NULL},
    {"memory", (getter)Graph_memory, NULL, "bytes held", NULL},
    {"has_coords", (getter)Graph_has_coords, NULL, "nodes have coordinates (a heuristic)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject GraphType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.Graph",
    .tp_basicsize = sizeof(GraphObject),
    .tp_dealloc = (destructor)Graph_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A static graph in CSR form (astar/graph.h): libastar.Graph is its Python face.",
    .tp_methods = Graph_methods,
    .tp_getset = Graph_getset,
    .tp_new = Graph_new,
};

/* ---- WaypointTable: the waypoint-table heuristic of A* (astar/waypoint_table.h) ---- */

typedef struct {
  PyObject_HEAD astar_waypoint_table *t;
  GridObject *grid; /* strong reference: the table reads its version and terrain */
  uint64_t version; /* the grid's version it was built for */
} WaypointTableObject;

static PyTypeObject WaypointTableType;

static int WaypointTable_traverse(WaypointTableObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->grid);
  return 0;
}

static int WaypointTable_clear(WaypointTableObject *self) {
  astar_waypoint_table_free(self->t);
  self->t = NULL;
  Py_CLEAR(self->grid);
  return 0;
}

static void WaypointTable_dealloc(WaypointTableObject *self) {
  PyObject_GC_UnTrack(self);
  WaypointTable_clear(self);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* WaypointTable(grid, options, pick, form, gap, tile, max_count, nearest,
** cells or None): built without the GIL (astar_waypoint_table_new) under
** the movement rules of the options tuple; cells: int32 (x, y) pairs for
** pick GIVEN. */
static PyObject *WaypointTable_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"grid", "options",   "pick",    "form",  "gap",
                           "tile", "max_count", "nearest", "cells", NULL};
  GridObject *grid;
  PyObject *opt_tuple, *cells;
  int pick, form;
  range_arg gap = {"gap", 1, ASTAR_TABLE_MAX_GAP, ASTAR_OK, 0, NULL, 0, 0};
  range_arg tile = {"tile", 1, ASTAR_GRID_MAX_SIDE, ASTAR_OK, 0, NULL, 0, 0};
  range_arg maxc = {"max_count", 1, ASTAR_TABLE_MAX_COUNT, ASTAR_OK, 0, NULL, 0, 0};
  range_arg near = {"nearest", 1, ASTAR_TABLE_MAX_NEAREST, ASTAR_OK, 0, NULL, 0, 0};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!OiiO&O&O&O&O", kwlist, &GridType, &grid, &opt_tuple,
                                   &pick, &form, range_arg_convert, &gap, range_arg_convert, &tile,
                                   range_arg_convert, &maxc, range_arg_convert, &near, &cells))
    return NULL;
  GRID_READY(grid);
  int algo;
  astar_options o;
  py_callbacks cb;
  if (parse_options(opt_tuple, &algo, &o, &cb, NULL) < 0) return NULL;
  o.heuristic_fn = NULL, o.heuristic_ctx = NULL, o.observer = NULL, o.stop_fn = NULL;
  if (o.heuristic == ASTAR_H_CALLBACK) o.heuristic = ASTAR_H_AUTO;
  o.algorithm = ASTAR_ALGO_ASTAR;
  astar_waypoint_table_options w;
  astar_waypoint_table_options_init(&w);
  w.pick = (astar_table_pick)pick;
  w.form = (astar_table_form)form;
  w.gap = (int32_t)gap.u;
  w.tile = (int32_t)tile.u;
  w.max_count = (uint32_t)maxc.u;
  w.nearest = (uint32_t)near.u;
  Py_buffer view = {0};
  if (cells != Py_None) {
    if (PyObject_GetBuffer(cells, &view, PyBUF_SIMPLE) < 0) return NULL;
    w.cells = view.buf;
    w.ncells = (size_t)view.len / sizeof(astar_point);
  }
  WaypointTableObject *self = (WaypointTableObject *)type->tp_alloc(type, 0);
  if (!self) {
    if (cells != Py_None) PyBuffer_Release(&view);
    return NULL;
  }
  self->grid = (GridObject *)Py_NewRef(grid);
  self->version = astar_grid_version(grid->grid);
  astar_status st;
  grid->searching++;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_waypoint_table_new(&self->t, grid->grid, &o, &w, NULL);
  Py_END_ALLOW_THREADS;
  grid->searching--;
  if (cells != Py_None) PyBuffer_Release(&view);
  if (st != ASTAR_OK) {
    Py_DECREF(self);
    return raise_status(st,
                        st == ASTAR_INVALID_ARGUMENT
                            ? "cells: each passable, inside the grid, given once (and at least one)"
                        : st == ASTAR_OUT_OF_BOUNDS ? "cells: a cell outside the grid"
                        : st == ASTAR_TOO_LARGE     ? "more waypoints than max_count"
                                                    : NULL,
                        NULL);
  }
  return (PyObject *)self;
}

static PyObject *WaypointTable_count(WaypointTableObject *self, void *c) {
  (void)c;
  return PyLong_FromUnsignedLong(astar_waypoint_table_count(self->t));
}

static PyObject *WaypointTable_memory(WaypointTableObject *self, void *c) {
  (void)c;
  return PyLong_FromSize_t(astar_waypoint_table_memory(self->t));
}

static PyObject *WaypointTable_grid(WaypointTableObject *self, void *c) {
  (void)c;
  return Py_NewRef(self->grid ? (PyObject *)self->grid : Py_None);
}

static PyObject *WaypointTable_current(WaypointTableObject *self, void *c) {
  (void)c;
  if (!self->t || !self->grid) Py_RETURN_FALSE;
  return PyBool_FromLong(self->version == astar_grid_version(self->grid->grid));
}

/* _cells() -> bytes of int32 (x, y): the waypoints, in their order. */
static PyObject *WaypointTable_cells(WaypointTableObject *self, PyObject *noargs) {
  (void)noargs;
  const uint32_t n = astar_waypoint_table_count(self->t);
  PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n * 2 * (Py_ssize_t)sizeof(int32_t));
  if (!out) return NULL;
  int32_t *xy = (int32_t *)(void *)PyBytes_AS_STRING(out);
  for (uint32_t i = 0; i < n; i++) {
    const astar_point p = astar_waypoint_table_cell(self->t, i);
    xy[2 * i] = p.x;
    xy[2 * i + 1] = p.y;
  }
  return out;
}

static PyMethodDef WaypointTable_methods[] = {
    {"_cells", (PyCFunction)WaypointTable_cells, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef WaypointTable_getset[] = {
    {"count", (getter)WaypointTable_count, NULL, "waypoints", NULL},
    {"memory", (getter)WaypointTable_memory, NULL, "bytes held", NULL},
    {"grid", (getter)WaypointTable_grid, NULL, "the grid it was built for", NULL},
    {"current", (getter)WaypointTable_current, NULL, "built for the grid as it is now", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject WaypointTableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.WaypointTable",
    .tp_basicsize = sizeof(WaypointTableObject),
    .tp_dealloc = (destructor)WaypointTable_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)WaypointTable_traverse,
    .tp_clear = (inquiry)WaypointTable_clear,
    .tp_doc = "A waypoint table (astar_waypoint_table_new): libastar.WaypointTable.",
    .tp_methods = WaypointTable_methods,
    .tp_getset = WaypointTable_getset,
    .tp_new = WaypointTable_new,
};

static const astar_waypoint_table *waypoint_table_of(PyObject *o) {
  if (!PyObject_TypeCheck(o, &WaypointTableType) || !((WaypointTableObject *)o)->t) {
    PyErr_Format(PyExc_TypeError, "table: a WaypointTable expected, got %.80s",
                 Py_TYPE(o)->tp_name);
    return NULL;
  }
  return ((WaypointTableObject *)o)->t;
}

/* ---- SpaceLandmarks: a landmark table of a hex grid or a Graph (astar/landmarks.h) ---- */

typedef struct {
  PyObject_HEAD astar_landmarks *lm;
  PyObject *owner; /* the HexGrid or Graph the table was built on */
} SpaceLandmarksObject;

static PyTypeObject SpaceLandmarksType;

static int SpaceLandmarks_traverse(SpaceLandmarksObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->owner);
  return 0;
}

static int SpaceLandmarks_clear(SpaceLandmarksObject *self) {
  astar_landmarks_free(self->lm);
  self->lm = NULL;
  Py_CLEAR(self->owner);
  return 0;
}

static void SpaceLandmarks_dealloc(SpaceLandmarksObject *self) {
  PyObject_GC_UnTrack(self);
  SpaceLandmarks_clear(self);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The space of a HexGrid or a Graph; -1 with an exception for anything else. */
static int owner_space(PyObject *owner, astar_space *out) {
  astar_status st = ASTAR_INVALID_ARGUMENT;
  if (PyObject_TypeCheck(owner, &HexGridType) && ((HexGridObject *)owner)->grid)
    st = astar_hex_space(((HexGridObject *)owner)->grid, out);
  else if (PyObject_TypeCheck(owner, &GraphType))
    st = astar_graph_space(((GraphObject *)owner)->g, out);
  else {
    PyErr_SetString(PyExc_TypeError, "a HexGrid or a Graph expected");
    return -1;
  }
  if (st != ASTAR_OK) {
    raise_status(st, NULL, NULL);
    return -1;
  }
  return 0;
}

/* SpaceLandmarks(owner, count, data): built on owner's space (without the
** GIL), or loaded from `data` (bytes of save()) when it is not None,
** checked against the space's arcs (ASTAR_MISMATCH). */
static PyObject *SpaceLandmarks_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"owner", "count", "data", NULL};
  PyObject *owner, *data;
  range_arg count = {"count", 1, ASTAR_LANDMARKS_MAX, ASTAR_OK, 0, NULL, 0, 0};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO&O", kwlist, &owner, range_arg_convert, &count,
                                   &data))
    return NULL;
  astar_space space;
  if (owner_space(owner, &space) < 0) return NULL;
  Py_buffer buf = {0};
  if (data != Py_None && PyObject_GetBuffer(data, &buf, PyBUF_SIMPLE) < 0) return NULL;
  SpaceLandmarksObject *self = (SpaceLandmarksObject *)type->tp_alloc(type, 0);
  if (!self) {
    if (data != Py_None) PyBuffer_Release(&buf);
    return NULL;
  }
  self->owner = Py_NewRef(owner);
  Py_ssize_t *searching =
      PyObject_TypeCheck(owner, &HexGridType) ? &((HexGridObject *)owner)->searching : NULL;
  astar_status st;
  if (searching) (*searching)++;
  if (data != Py_None) {
    Py_BEGIN_ALLOW_THREADS;
    st = astar_landmarks_load(&self->lm, &space, buf.buf, (size_t)buf.len, NULL);
    Py_END_ALLOW_THREADS;
    PyBuffer_Release(&buf);
    /* Another node count: another map. */
    if (st == ASTAR_INVALID_ARGUMENT) st = ASTAR_MISMATCH;
  } else {
    astar_landmark_options o;
    astar_landmark_options_init(&o);
    o.count = (uint32_t)count.u;
    Py_BEGIN_ALLOW_THREADS;
    st = astar_landmarks_new(&self->lm, &space, &o, NULL);
    Py_END_ALLOW_THREADS;
  }
  if (searching) (*searching)--;
  if (st != ASTAR_OK) {
    Py_DECREF(self);
    return raise_status(
        st,
        st == ASTAR_MISMATCH      ? "the bytes were saved for another map (other nodes or arcs)"
        : st == ASTAR_PARSE_ERROR ? "the bytes are damaged, truncated or of another kind"
                                  : NULL,
        NULL);
  }
  return (PyObject *)self;
}

static PyObject *SpaceLandmarks_save(SpaceLandmarksObject *self, PyObject *noargs) {
  (void)noargs;
  if (!self->lm) return busy_error("the table was cleared");
  size_t len = 0;
  astar_status st = astar_landmarks_save(self->lm, NULL, 0, &len);
  if (st != ASTAR_OK && st != ASTAR_BUFFER_TOO_SMALL) return raise_status(st, NULL, NULL);
  PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)len);
  if (!out) return NULL;
  st = astar_landmarks_save(self->lm, PyBytes_AS_STRING(out), len, &len);
  if (st != ASTAR_OK) {
    Py_DECREF(out);
    return raise_status(st, NULL, NULL);
  }
  return out;
}

static PyObject *SpaceLandmarks_memory(SpaceLandmarksObject *self, void *c) {
  (void)c;
  return PyLong_FromSize_t(astar_landmarks_memory(self->lm));
}

static PyObject *SpaceLandmarks_count(SpaceLandmarksObject *self, void *c) {
  (void)c;
  return PyLong_FromUnsignedLong(astar_landmarks_count(self->lm));
}

static PyObject *SpaceLandmarks_owner(SpaceLandmarksObject *self, void *c) {
  (void)c;
  return Py_NewRef(self->owner ? self->owner : Py_None);
}

static PyMethodDef SpaceLandmarks_methods[] = {
    {"save", (PyCFunction)SpaceLandmarks_save, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef SpaceLandmarks_getset[] = {
    {"memory", (getter)SpaceLandmarks_memory, NULL, "bytes held", NULL},
    {"count", (getter)SpaceLandmarks_count, NULL, "landmarks chosen", NULL},
    {"space", (getter)SpaceLandmarks_owner, NULL, "the HexGrid or Graph it was built on", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SpaceLandmarksType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.SpaceLandmarks",
    .tp_basicsize = sizeof(SpaceLandmarksObject),
    .tp_dealloc = (destructor)SpaceLandmarks_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)SpaceLandmarks_traverse,
    .tp_clear = (inquiry)SpaceLandmarks_clear,
    .tp_doc = "A landmark table of a HexGrid or a Graph (astar_landmarks_new).",
    .tp_methods = SpaceLandmarks_methods,
    .tp_getset = SpaceLandmarks_getset,
    .tp_new = SpaceLandmarks_new,
};

/* ---- DIMACS shortest-path files (astar/graph.h): .gr, .co, .p2p ---- */

/* dimacs_gr(cls, text, undirected) -> a Graph of cls (astar_dimacs_parse_gr,
** without the GIL); ParseError with the line and column. */
static PyObject *py_dimacs_gr(PyObject *self, PyObject *args) {
  (void)self;
  PyTypeObject *cls;
  Py_buffer text;
  int undirected;
  if (!PyArg_ParseTuple(args, "O!y*p", &PyType_Type, &cls, &text, &undirected)) return NULL;
  if (!PyType_IsSubtype(cls, &GraphType)) {
    PyBuffer_Release(&text);
    return PyErr_Format(PyExc_TypeError, "a Graph class expected");
  }
  GraphObject *g = (GraphObject *)cls->tp_alloc(cls, 0);
  if (!g) {
    PyBuffer_Release(&text);
    return NULL;
  }
  astar_parse_error err;
  memset(&err, 0, sizeof err);
  astar_status st;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_dimacs_parse_gr(&g->g, text.buf, (size_t)text.len,
                             undirected ? ASTAR_GRAPH_UNDIRECTED : 0u, NULL, &err);
  Py_END_ALLOW_THREADS;
  PyBuffer_Release(&text);
  if (st != ASTAR_OK) {
    Py_DECREF(g);
    return err.line || err.message[0] ? parse_error(st, &err) : raise_status(st, NULL, NULL);
  }
  return (PyObject *)g;
}

/* dimacs_co(graph, text): the coordinates of a .co text given to the graph
** (astar_dimacs_parse_co, astar_graph_set_coords: the Euclidean heuristic). */
static PyObject *py_dimacs_co(PyObject *self, PyObject *args) {
  (void)self;
  GraphObject *g;
  Py_buffer text;
  if (!PyArg_ParseTuple(args, "O!y*", &GraphType, &g, &text)) return NULL;
  const uint32_t n = astar_graph_node_count(g->g);
  double *xy = PyMem_Malloc((size_t)n * 2 * sizeof *xy);
  if (!xy) {
    PyBuffer_Release(&text);
    return PyErr_NoMemory();
  }
  astar_parse_error err;
  memset(&err, 0, sizeof err);
  astar_status st = astar_dimacs_parse_co(text.buf, (size_t)text.len, n, xy, &err);
  PyBuffer_Release(&text);
  if (st == ASTAR_OK) st = astar_graph_set_coords(g->g, 2, xy);
  PyMem_Free(xy);
  if (st == ASTAR_PARSE_ERROR) return parse_error(st, &err);
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  Py_RETURN_NONE;
}

/* dimacs_p2p(text, node_count) -> (sources bytes of uint32, targets, costs
** bytes of float64 (-1: none given)) (astar_dimacs_parse_p2p). */
static PyObject *py_dimacs_p2p(PyObject *self, PyObject *args) {
  (void)self;
  Py_buffer text;
  unsigned long n;
  if (!PyArg_ParseTuple(args, "y*k", &text, &n)) return NULL;
  astar_parse_error err;
  memset(&err, 0, sizeof err);
  size_t count = 0;
  astar_status st =
      astar_dimacs_parse_p2p(text.buf, (size_t)text.len, (uint32_t)n, NULL, 0, &count, &err);
  astar_dimacs_query *q = NULL;
  if (st == ASTAR_BUFFER_TOO_SMALL) {
    if (!(q = PyMem_Malloc(count * sizeof *q))) {
      PyBuffer_Release(&text);
      return PyErr_NoMemory();
    }
    st = astar_dimacs_parse_p2p(text.buf, (size_t)text.len, (uint32_t)n, q, count, &count, &err);
  }
  PyBuffer_Release(&text);
  if (st != ASTAR_OK) {
    PyMem_Free(q);
    return st == ASTAR_PARSE_ERROR ? parse_error(st, &err) : raise_status(st, NULL, NULL);
  }
  PyObject *src = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * sizeof(uint32_t)));
  PyObject *dst = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * sizeof(uint32_t)));
  PyObject *cost = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * sizeof(double)));
  if (!src || !dst || !cost) {
    Py_XDECREF(src);
    Py_XDECREF(dst);
    Py_XDECREF(cost);
    PyMem_Free(q);
    return NULL;
  }
  uint32_t *a = (uint32_t *)(void *)PyBytes_AS_STRING(src);
  uint32_t *b = (uint32_t *)(void *)PyBytes_AS_STRING(dst);
  double *c = (double *)(void *)PyBytes_AS_STRING(cost);
  for (size_t i = 0; i < count; i++) {
    a[i] = q[i].source;
    b[i] = q[i].target;
    c[i] = q[i].cost;
  }
  PyMem_Free(q);
  return Py_BuildValue("(NNN)", src, dst, cost);
}

/* ---- SpaceFinder: the finder over a hex grid, a Graph or Python callbacks ---- */

/* A space of Python callbacks: nodes 0 .. node_count-1, successors(i)
** (and predecessors(i)) returning (node, cost) pairs, heuristic(a, b).
** The searches hold the GIL throughout. */
typedef struct {
  PyObject *succ, *pred, *h;
  uint32_t node_count, max_degree;
  int failed;
} py_space;

static size_t pyspace_arcs(py_space *g, PyObject *fn, const char *what, astar_node n,
                           astar_arc *arcs, size_t cap) {
  if (g->failed) return 0;
  PyObject *r = PyObject_CallFunction(fn, "k", (unsigned long)n);
  PyObject *seq =
      r ? PySequence_Fast(r, "a callback must return a sequence of (node, cost)") : NULL;
  Py_XDECREF(r);
  if (!seq) {
    g->failed = 1;
    return 0;
  }
  const Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
  size_t k = 0;
  if (cap > g->max_degree) cap = g->max_degree;
  for (Py_ssize_t i = 0; i < len; i++) {
    range_arg node = {"a node", 0, g->node_count - 1u, ASTAR_OUT_OF_BOUNDS, 0, NULL, 0, 0};
    real_arg cost = {what, 0.0, HUGE_VAL, 0, 0.0};
    PyObject *node_obj, *cost_obj;
    if (k == cap) {
      PyErr_Format(PyExc_ValueError, "node %lu has more than max_degree=%lu arcs", (unsigned long)n,
                   (unsigned long)g->max_degree);
      g->failed = 1;
      break;
    }
    if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "OO;an arc is (node, cost)", &node_obj,
                          &cost_obj) ||
        !range_arg_convert(node_obj, &node) || !real_arg_convert(cost_obj, &cost)) {
      g->failed = 1;
      break;
    }
    arcs[k].node = (astar_node)node.u;
    arcs[k].cost = cost.value;
    k++;
  }
  Py_DECREF(seq);
  return g->failed ? 0 : k;
}

static size_t pyspace_succ(const void *self, astar_node n, astar_arc *arcs, size_t cap) {
  py_space *g = (py_space *)(uintptr_t)self;
  return pyspace_arcs(g, g->succ, "an arc cost from successors()", n, arcs, cap);
}

static size_t pyspace_pred(const void *self, astar_node n, astar_arc *arcs, size_t cap) {
  py_space *g = (py_space *)(uintptr_t)self;
  return pyspace_arcs(g, g->pred, "an arc cost from predecessors()", n, arcs, cap);
}

static double pyspace_h(const void *self, astar_node a, astar_node b) {
  py_space *g = (py_space *)(uintptr_t)self;
  double v = 0.0;
  if (g->failed) return 0.0;
  PyObject *r = PyObject_CallFunction(g->h, "kk", (unsigned long)a, (unsigned long)b);
  if (heuristic_value(r, &v, NULL, NULL) < 0) {
    g->failed = 1;
    return 0.0;
  }
  return v;
}

static bool pyspace_stop(void *ctx) {
  return ((py_space *)ctx)->failed != 0;
}

static const astar_space_ops pyspace_ops[4] = {
    {pyspace_succ, NULL, NULL, NULL, NULL, NULL, 0},
    {pyspace_succ, pyspace_pred, NULL, NULL, NULL, NULL, 0},
    {pyspace_succ, NULL, pyspace_h, NULL, NULL, NULL, 0},
    {pyspace_succ, pyspace_pred, pyspace_h, NULL, NULL, NULL, 0},
};

enum { SPACE_HEX = 0, SPACE_GRAPH, SPACE_CALLBACKS };

typedef struct {
  PyObject_HEAD astar_finder *f;
  PyObject *owner;     /* the HexGrid, the Graph or the callbacks' tuple: what space.self is */
  PyObject *landmarks; /* the SpaceLandmarks attached, or None */
  int kind;
  int method;
  astar_space space;
  py_space cbs;
} SpaceFinderObject;

static PyTypeObject SpaceFinderType;

static int SpaceFinder_traverse(SpaceFinderObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->owner);
  Py_VISIT(self->landmarks);
  return 0;
}

static int SpaceFinder_clear(SpaceFinderObject *self) {
  astar_finder_free(self->f);
  self->f = NULL;
  Py_CLEAR(self->owner);
  Py_CLEAR(self->landmarks);
  return 0;
}

static void SpaceFinder_dealloc(SpaceFinderObject *self) {
  PyObject_GC_UnTrack(self);
  SpaceFinder_clear(self);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* SpaceFinder(kind, owner, engine tuple) -- owner: a HexGrid, a Graph, or
** (node_count, successors, predecessors or None, heuristic or None,
** max_degree, flags) for callbacks; the method is the engine tuple's. */
static PyObject *SpaceFinder_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"kind", "owner", "engine", "landmarks", NULL};
  int kind;
  PyObject *owner, *engine, *lm = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "iOO|O", kwlist, &kind, &owner, &engine, &lm))
    return NULL;
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  if (lm != Py_None) {
    if (!PyObject_TypeCheck(lm, &SpaceLandmarksType) ||
        ((SpaceLandmarksObject *)lm)->owner != owner || !((SpaceLandmarksObject *)lm)->lm) {
      PyErr_SetString(PyExc_TypeError, "landmarks: a table built on this map expected");
      return NULL;
    }
    cfg.landmarks = ((SpaceLandmarksObject *)lm)->lm;
  }
  if (parse_engine(engine, &cfg.engine) < 0) return NULL;
  cfg.method = cfg.engine.method;
  SpaceFinderObject *self = (SpaceFinderObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->owner = Py_NewRef(owner);
  self->landmarks = Py_NewRef(lm); /* the finder points to its table */
  self->kind = kind;
  self->method = (int)cfg.method;
  astar_status st = ASTAR_INVALID_ARGUMENT;
  if (kind == SPACE_HEX && PyObject_TypeCheck(owner, &HexGridType) &&
      ((HexGridObject *)owner)->grid) {
    st = astar_hex_space(((HexGridObject *)owner)->grid, &self->space);
  } else if (kind == SPACE_GRAPH && PyObject_TypeCheck(owner, &GraphType)) {
    st = astar_graph_space(((GraphObject *)owner)->g, &self->space);
  } else if (kind == SPACE_CALLBACKS) {
    unsigned long count, degree;
    unsigned int flags;
    if (!PyArg_ParseTuple(owner, "kOOOkI", &count, &self->cbs.succ, &self->cbs.pred, &self->cbs.h,
                          &degree, &flags))
      goto fail;
    self->cbs.node_count = (uint32_t)count;
    self->cbs.max_degree = (uint32_t)degree;
    if (self->cbs.pred == Py_None) self->cbs.pred = NULL;
    if (self->cbs.h == Py_None) self->cbs.h = NULL;
    self->space.ops = &pyspace_ops[(self->cbs.pred ? 1 : 0) + (self->cbs.h ? 2 : 0)];
    self->space.self = &self->cbs;
    self->space.node_count = (uint32_t)count;
    self->space.max_degree = (uint32_t)degree;
    self->space.flags = flags;
    cfg.engine.stop_fn = pyspace_stop;
    cfg.engine.stop_ctx = &self->cbs;
    cfg.engine.stop_interval = 1;
    st = ASTAR_OK;
  }
  if (st != ASTAR_OK) {
    raise_status(st, "the space could not be made", NULL);
    goto fail;
  }
  const char *why = astar_finder_unsupported_reason(NULL, &self->space, &cfg);
  if (why) {
    raise_status(ASTAR_UNSUPPORTED, why, NULL);
    goto fail;
  }
  st = astar_finder_new_space(&self->f, &self->space, &cfg, NULL);
  if (st != ASTAR_OK) {
    raise_status(st, NULL, NULL);
    goto fail;
  }
  return (PyObject *)self;
fail:
  Py_DECREF(self);
  return NULL;
}

/* The result tuple of a space search: (status, nodes bytes of uint32 or
** None, cost, expanded, generated, reopened, max_open, end node or -1,
** cause, dropped, iterations, work, detail or None). */
static PyObject *space_tuple(astar_status st, const astar_node *nodes, const astar_path_result *r,
                             const char *detail) {
  PyObject *bytes = Py_NewRef(Py_None);
  if (nodes && (st == ASTAR_OK || st == ASTAR_PARTIAL)) {
    Py_DECREF(bytes);
    bytes = PyBytes_FromStringAndSize((const char *)nodes, (Py_ssize_t)(r->length * sizeof *nodes));
    if (!bytes) return NULL;
  }
  return Py_BuildValue("(iNdKKKKLiKKKz)", (int)st, bytes, r->cost,
                       (unsigned long long)r->stats.expanded,
                       (unsigned long long)r->stats.generated,
                       (unsigned long long)r->stats.reopened, (unsigned long long)r->stats.max_open,
                       r->end_node == ASTAR_NODE_NONE ? -1LL : (long long)r->end_node,
                       (int)r->cause, (unsigned long long)r->dropped,
                       (unsigned long long)r->iterations, (unsigned long long)r->work, detail);
}

/* A search whose start or goal is no node of the space (NODE_NONE: a cell
** outside a hex grid), answered as the hex grid's own search answers it. */
static void space_outside(astar_path_result *r) {
  memset(r, 0, sizeof *r);
  r->status = r->cause = ASTAR_OUT_OF_BOUNDS;
  r->end = (astar_point){-1, -1};
  r->end_node = ASTAR_NODE_NONE;
}

static int space_keeps_gil(const SpaceFinderObject *self) {
  return self->kind == SPACE_CALLBACKS;
}

/* find(workspace, start node, goal node) -> space_tuple */
static PyObject *SpaceFinder_find(SpaceFinderObject *self, PyObject *args) {
  WorkspaceObject *ws;
  unsigned long s, g;
  if (!PyArg_ParseTuple(args, "O!kk", &WorkspaceType, &ws, &s, &g)) return NULL;
  if (!self->f) return busy_error("the finder was cleared");
  astar_path_result res;
  if (s >= self->space.node_count || g >= self->space.node_count) {
    space_outside(&res);
    return space_tuple(ASTAR_OUT_OF_BOUNDS, NULL, &res, NULL);
  }
  if (take_workspace(ws) < 0) return NULL;
  astar_status st = astar_workspace_reserve_space(ws->ws, &self->space,
                                                  method_reserve((astar_method)self->method));
  if (st != ASTAR_OK) {
    ws->busy = 0;
    return raise_status(st, NULL, NULL);
  }
  if (ws_buffer(ws, STACK_CELLS) < 0) {
    ws->busy = 0;
    return NULL;
  }
  const int keep = space_keeps_gil(self);
  Py_ssize_t *searching =
      self->kind == SPACE_HEX ? &((HexGridObject *)self->owner)->searching : NULL;
  self->cbs.failed = 0;
  if (searching) (*searching)++;
  for (;;) {
    PyThreadState *ts = keep ? NULL : PyEval_SaveThread();
    st = astar_finder_find_nodes(self->f, ws->ws, (astar_node)s, (astar_node)g,
                                 (astar_node *)ws->vecs, ws->cap, &res);
    if (ts) PyEval_RestoreThread(ts);
    if (st != ASTAR_BUFFER_TOO_SMALL || res.length <= ws->cap || self->cbs.failed) break;
    if (ws_buffer(ws, res.length) < 0) {
      if (searching) (*searching)--;
      ws->busy = 0;
      return NULL;
    }
  }
  if (searching) (*searching)--;
  ws->busy = 0;
  if (self->cbs.failed) return NULL;
  return space_tuple(st, (const astar_node *)ws->vecs, &res, NULL);
}

/* batch(batch, queries, costs_only, slot) -> (threads used, list of space_tuple)
** or (threads used, (costs, statuses)). queries: bytes of uint32 (start,
** goal) node pairs, ASTAR_NODE_NONE for a cell outside. */
static PyObject *SpaceFinder_batch(SpaceFinderObject *self, PyObject *args) {
  BatchObject *b;
  Py_buffer q;
  int costs_only;
  Py_ssize_t slot = 0;
  if (!PyArg_ParseTuple(args, "O!y*p|n", &BatchType, &b, &q, &costs_only, &slot)) return NULL;
  PyObject *ret = NULL;
  const size_t n = (size_t)q.len / sizeof(astar_node_query);
  astar_path_result *res = NULL;
  astar_node_query *nq = NULL;
  size_t *extra_at = NULL;
  void *paths = NULL, *extra = NULL;
  size_t stride = 0;
  unsigned used = 0;
  const int keep = space_keeps_gil(self);
  if (!self->f) {
    busy_error("the finder was cleared");
    goto out;
  }
  if (keep && astar_batch_threads(b->b) > 1) {
    PyErr_SetString(PyExc_ValueError, "a space of Python callbacks runs its batch on one "
                                      "thread: threads=1");
    goto out;
  }
  if (take_batch(b) < 0) goto out;
  res = PyMem_Calloc(n ? n : 1, sizeof *res);
  extra_at = PyMem_Malloc((n ? n : 1) * sizeof *extra_at);
  if (!res || !extra_at) {
    PyErr_NoMemory();
    b->busy = 0;
    goto out;
  }
  /* A query outside the space runs as 0 -> 0 and is answered afterwards
  ** as a lone find answers it. */
  const astar_node_query *given = q.buf;
  if (!(nq = PyMem_Malloc((n ? n : 1) * sizeof *nq))) {
    PyErr_NoMemory();
    b->busy = 0;
    goto out;
  }
  for (size_t i = 0; i < n; i++) {
    const int outside =
        given[i].start >= self->space.node_count || given[i].goal >= self->space.node_count;
    nq[i].start = outside ? 0 : given[i].start;
    nq[i].goal = outside ? 0 : given[i].goal;
  }
  Py_ssize_t *searching =
      self->kind == SPACE_HEX ? &((HexGridObject *)self->owner)->searching : NULL;
  self->cbs.failed = 0;
  if (searching) (*searching)++;
  PyThreadState *ts = keep ? NULL : PyEval_SaveThread();
  astar_status st = batch_run(b->b, self->f, BATCH_NODES, nq, n, self->space.node_count + 1u,
                              (size_t)(slot > 0 ? slot : 0), costs_only, res, &paths, &stride,
                              &extra, extra_at, &used);
  if (ts) PyEval_RestoreThread(ts);
  if (searching) (*searching)--;
  b->busy = 0;
  if (self->cbs.failed) goto out;
  if (st != ASTAR_OK) {
    raise_status(st, NULL, NULL);
    goto out;
  }
  for (size_t i = 0; i < n; i++)
    if (given[i].start >= self->space.node_count || given[i].goal >= self->space.node_count) {
      space_outside(&res[i]);
      extra_at[i] = SIZE_MAX;
    }
  if (costs_only) {
    PyObject *c = batch_costs(res, n);
    if (c) ret = Py_BuildValue("(IN)", used, c);
    goto out;
  }
  PyObject *list = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; list && i < n; i++) {
    const astar_node *nodes = extra_at[i] != SIZE_MAX ? (const astar_node *)extra + extra_at[i]
                                                      : (const astar_node *)paths + i * stride;
    PyObject *t = space_tuple(res[i].status, nodes, &res[i], NULL);
    if (!t) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)i, t);
  }
  if (list) ret = Py_BuildValue("(IN)", used, list);
out:
  PyBuffer_Release(&q);
  PyMem_Free(res);
  PyMem_Free(nq);
  PyMem_Free(extra_at);
  free(paths);
  free(extra);
  return ret;
}

/* begin(workspace, start node, goal node) -> status: a sliced search on ws
** (the Python layer keeps ws taken until finish or cancel), its path
** buffer grown to the space's nodes: a path visits a node once, so the
** finish never has to be repeated. */
static PyObject *SpaceFinder_begin(SpaceFinderObject *self, PyObject *args) {
  WorkspaceObject *ws;
  unsigned long s, g;
  if (!PyArg_ParseTuple(args, "O!kk", &WorkspaceType, &ws, &s, &g)) return NULL;
  if (!self->f) return busy_error("the finder was cleared");
  if (take_workspace(ws) < 0) return NULL;
  astar_status st = astar_workspace_reserve_space(ws->ws, &self->space,
                                                  method_reserve((astar_method)self->method));
  if (st != ASTAR_OK) {
    ws->busy = 0;
    return raise_status(st, NULL, NULL);
  }
  if (ws_buffer(ws, (size_t)self->space.node_count + 1) < 0) {
    ws->busy = 0;
    return NULL;
  }
  const int keep = space_keeps_gil(self);
  self->cbs.failed = 0;
  PyThreadState *ts = keep ? NULL : PyEval_SaveThread();
  st = astar_finder_begin_nodes(self->f, ws->ws,
                                s < self->space.node_count ? (astar_node)s : ASTAR_NODE_NONE,
                                g < self->space.node_count ? (astar_node)g : ASTAR_NODE_NONE);
  if (ts) PyEval_RestoreThread(ts);
  if (self->cbs.failed) {
    astar_finder_cancel(ws->ws);
    ws->busy = 0;
    return NULL;
  }
  return PyLong_FromLong((long)st);
}

/* step(workspace, budget) -> (status, work) */
static PyObject *SpaceFinder_step(SpaceFinderObject *self, PyObject *args) {
  WorkspaceObject *ws;
  unsigned long long budget;
  if (!PyArg_ParseTuple(args, "O!K", &WorkspaceType, &ws, &budget)) return NULL;
  if (!self->f) return busy_error("the finder was cleared");
  uint64_t work = 0;
  const int keep = space_keeps_gil(self);
  Py_ssize_t *searching =
      self->kind == SPACE_HEX ? &((HexGridObject *)self->owner)->searching : NULL;
  self->cbs.failed = 0;
  if (searching) (*searching)++;
  PyThreadState *ts = keep ? NULL : PyEval_SaveThread();
  const astar_status st = astar_finder_step(ws->ws, budget, &work);
  if (ts) PyEval_RestoreThread(ts);
  if (searching) (*searching)--;
  if (self->cbs.failed) return NULL;
  return Py_BuildValue("(iK)", (int)st, (unsigned long long)work);
}

/* finish(workspace) -> space_tuple, or None before the end */
static PyObject *SpaceFinder_finish(SpaceFinderObject *self, PyObject *args) {
  WorkspaceObject *ws;
  if (!PyArg_ParseTuple(args, "O!", &WorkspaceType, &ws)) return NULL;
  astar_path_result res;
  const astar_status st = astar_finder_finish_nodes(ws->ws, (astar_node *)ws->vecs, ws->cap, &res);
  if (st == ASTAR_IN_PROGRESS) Py_RETURN_NONE;
  ws->busy = 0;
  return space_tuple(st, (const astar_node *)ws->vecs, &res, NULL);
}

/* cancel(workspace) */
static PyObject *SpaceFinder_cancel(SpaceFinderObject *self, PyObject *args) {
  (void)self;
  WorkspaceObject *ws;
  if (!PyArg_ParseTuple(args, "O!", &WorkspaceType, &ws)) return NULL;
  astar_finder_cancel(ws->ws);
  ws->busy = 0;
  Py_RETURN_NONE;
}

static PyObject *SpaceFinder_node_count(SpaceFinderObject *self, void *c) {
  (void)c;
  return PyLong_FromUnsignedLong(self->space.node_count);
}

static PyMethodDef SpaceFinder_methods[] = {
    {"find", (PyCFunction)SpaceFinder_find, METH_VARARGS, NULL},
    {"batch", (PyCFunction)SpaceFinder_batch, METH_VARARGS, NULL},
    {"begin", (PyCFunction)SpaceFinder_begin, METH_VARARGS, NULL},
    {"step", (PyCFunction)SpaceFinder_step, METH_VARARGS, NULL},
    {"finish", (PyCFunction)SpaceFinder_finish, METH_VARARGS, NULL},
    {"cancel", (PyCFunction)SpaceFinder_cancel, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef SpaceFinder_getset[] = {
    {"node_count", (getter)SpaceFinder_node_count, NULL, "nodes of the space", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SpaceFinderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.SpaceFinder",
    .tp_basicsize = sizeof(SpaceFinderObject),
    .tp_dealloc = (destructor)SpaceFinder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)SpaceFinder_traverse,
    .tp_clear = (inquiry)SpaceFinder_clear,
    .tp_doc = "A finder over a space (astar_finder_new_space): libastar.Finder is its face.",
    .tp_methods = SpaceFinder_methods,
    .tp_getset = SpaceFinder_getset,
    .tp_new = SpaceFinder_new,
};

/* ---- saving and loading precomputations (Cpd, Hpa, Landmarks, Subgoal) ---- */

/* prep_save(prep) -> bytes (astar_cpd_save, astar_hpa_save, astar_landmarks_save,
** astar_subgoal_save) */
static PyObject *py_prep_save(PyObject *self, PyObject *arg) {
  (void)self;
  if (!PyObject_TypeCheck(arg, &PrepType)) return PyErr_Format(PyExc_TypeError, "a Prep expected");
  PrepObject *p = (PrepObject *)arg;
  if (!p->obj) return busy_error("the precomputation was cleared");
  if (p->kind == PREP_CLEARANCE)
    return raise_status(ASTAR_UNSUPPORTED,
                        "a clearance map has no file format: build it again (Clearance(grid))",
                        NULL);
  size_t len = 0;
  astar_status st = p->kind == PREP_CPD       ? astar_cpd_save(p->obj, NULL, 0, &len)
                    : p->kind == PREP_HPA     ? astar_hpa_save(p->obj, NULL, 0, &len)
                    : p->kind == PREP_SUBGOAL ? astar_subgoal_save(p->obj, NULL, 0, &len)
                                              : astar_landmarks_save(p->obj, NULL, 0, &len);
  if (st != ASTAR_OK && st != ASTAR_BUFFER_TOO_SMALL) return raise_status(st, NULL, NULL);
  PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)len);
  if (!out) return NULL;
  char *buf = PyBytes_AS_STRING(out);
  st = p->kind == PREP_CPD       ? astar_cpd_save(p->obj, buf, len, &len)
       : p->kind == PREP_HPA     ? astar_hpa_save(p->obj, buf, len, &len)
       : p->kind == PREP_SUBGOAL ? astar_subgoal_save(p->obj, buf, len, &len)
                                 : astar_landmarks_save(p->obj, buf, len, &len);
  if (st != ASTAR_OK) {
    Py_DECREF(out);
    return raise_status(st, NULL, NULL);
  }
  return out;
}

/* prep_load(cls, kind, grid, options tuple or None, data) -> a Prep of cls.
** Options None: the movement rules the bytes record (HPA*, landmarks). */
static PyObject *py_prep_load(PyObject *self, PyObject *args) {
  (void)self;
  PyTypeObject *cls;
  int kind;
  GridObject *grid;
  PyObject *opt_tuple;
  Py_buffer data;
  if (!PyArg_ParseTuple(args, "O!iO!Oy*", &PyType_Type, &cls, &kind, &GridType, &grid, &opt_tuple,
                        &data))
    return NULL;
  PyObject *ret = NULL;
  astar_options o;
  astar_options_init(&o);
  if (!grid->grid) {
    busy_error("the grid is not initialised");
    goto out;
  }
  if (!PyType_IsSubtype(cls, &PrepType) || kind < 0 || kind >= PREP_KINDS ||
      kind == PREP_CLEARANCE) {
    PyErr_SetString(PyExc_TypeError, "bad precomputation kind");
    goto out;
  }
  if (opt_tuple != Py_None) {
    int algo;
    py_callbacks cb;
    if (parse_options(opt_tuple, &algo, &o, &cb, NULL) < 0) goto out;
    o.heuristic_fn = NULL, o.heuristic_ctx = NULL, o.observer = NULL, o.stop_fn = NULL;
    if (o.heuristic == ASTAR_H_CALLBACK) o.heuristic = ASTAR_H_AUTO;
    o.algorithm = ASTAR_ALGO_ASTAR;
  } else if (kind == PREP_HPA) {
    if (astar_hpa_file_options(data.buf, (size_t)data.len, &o, NULL) != ASTAR_OK) {
      raise_status(ASTAR_PARSE_ERROR, "not the bytes of Hpa.save()", NULL);
      goto out;
    }
  } else if (kind == PREP_LANDMARKS) {
    const astar_status fs = astar_landmarks_file_options(data.buf, (size_t)data.len, &o);
    if (fs == ASTAR_PARSE_ERROR) {
      raise_status(ASTAR_PARSE_ERROR, "not the bytes of Landmarks.save()", NULL);
      goto out;
    }
    if (fs != ASTAR_OK) astar_options_init(&o);
  }
  PrepObject *p = (PrepObject *)cls->tp_alloc(cls, 0);
  if (!p) goto out;
  p->kind = kind;
  p->grid = (GridObject *)Py_NewRef(grid);
  p->version = astar_grid_version(grid->grid);
  astar_status st;
  grid->searching++;
  Py_BEGIN_ALLOW_THREADS;
  st = kind == PREP_CPD
           ? astar_cpd_load((astar_cpd **)&p->obj, grid->grid, data.buf, (size_t)data.len, NULL)
       : kind == PREP_SUBGOAL ? astar_subgoal_load((astar_subgoal **)&p->obj, grid->grid, data.buf,
                                                   (size_t)data.len, NULL)
       : kind == PREP_HPA
           ? astar_hpa_load((astar_hpa **)&p->obj, grid->grid, &o, data.buf, (size_t)data.len, NULL)
           : astar_landmarks_load_grid((astar_landmarks **)&p->obj, grid->grid, &o, data.buf,
                                       (size_t)data.len, NULL);
  Py_END_ALLOW_THREADS;
  grid->searching--;
  /* A landmark table of another node count: another grid. */
  if (kind == PREP_LANDMARKS && st == ASTAR_INVALID_ARGUMENT) st = ASTAR_MISMATCH;
  if (st != ASTAR_OK) {
    Py_DECREF(p);
    const char *detail =
        st == ASTAR_MISMATCH
            ? "the bytes were saved for another grid (size, cells or terrain) or other movement "
              "rules (moves, corner, costs)"
        : st == ASTAR_PARSE_ERROR ? "the bytes are damaged, truncated or of another kind"
                                  : NULL;
    raise_status(st, detail, NULL);
    goto out;
  }
  ret = (PyObject *)p;
out:
  PyBuffer_Release(&data);
  return ret;
}

/* ---- fog of war and layers ---------------------------------------------------------- */

/* Knowledge(grid): one player's view of a grid (astar/knowledge.h). The
** Python layer (libastar/_fog.py) checks cells and orders; this is a thin
** binding. Searches read it with the GIL released: like the C object, it
** must not change while a search reads it (reveal, set and clear hold the
** GIL; a search on another thread is the caller's to finish first). */
typedef struct {
  PyObject_HEAD astar_knowledge *k;
} KnowledgeObject;

static PyTypeObject KnowledgeType;

static void Knowledge_dealloc(KnowledgeObject *self) {
  astar_knowledge_free(self->k);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Knowledge_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"grid", NULL};
  GridObject *grid;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!", kwlist, &GridType, &grid)) return NULL;
  GRID_READY(grid);
  KnowledgeObject *self = (KnowledgeObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  const astar_status st = astar_knowledge_new(&self->k, grid->grid, NULL);
  if (st != ASTAR_OK) {
    Py_DECREF(self);
    return raise_status(st, NULL, NULL);
  }
  return (PyObject *)self;
}

static PyObject *Knowledge_reveal(KnowledgeObject *self, PyObject *args) {
  GridObject *grid;
  int x, y;
  if (!PyArg_ParseTuple(args, "O!(ii)", &GridType, &grid, &x, &y)) return NULL;
  GRID_READY(grid);
  const astar_status st = astar_knowledge_reveal(self->k, grid->grid, x, y);
  if (st != ASTAR_OK)
    return raise_status(
        st, st == ASTAR_INVALID_ARGUMENT ? "grid: not of the knowledge's size" : NULL, NULL);
  Py_RETURN_NONE;
}

static PyObject *Knowledge_reveal_radius(KnowledgeObject *self, PyObject *args) {
  GridObject *grid;
  int x, y, radius;
  if (!PyArg_ParseTuple(args, "O!(ii)i", &GridType, &grid, &x, &y, &radius)) return NULL;
  GRID_READY(grid);
  size_t changed = 0;
  const astar_status st =
      astar_knowledge_reveal_radius(self->k, grid->grid, x, y, radius, &changed);
  if (st != ASTAR_OK)
    return raise_status(
        st,
        st == ASTAR_INVALID_ARGUMENT ? "grid: not of the knowledge's size, or radius < 0" : NULL,
        NULL);
  return PyLong_FromSize_t(changed);
}

static PyObject *Knowledge_set(KnowledgeObject *self, PyObject *args) {
  int x, y, state;
  if (!PyArg_ParseTuple(args, "(ii)i", &x, &y, &state)) return NULL;
  if (state < ASTAR_CELL_UNKNOWN || state > ASTAR_CELL_BLOCKED)
    return PyErr_Format(PyExc_ValueError, "state: 0 (unknown), 1 (passable) or 2 (blocked)");
  const astar_status st = astar_knowledge_set(self->k, x, y, (astar_cell_knowledge)state);
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  Py_RETURN_NONE;
}

static PyObject *Knowledge_get(KnowledgeObject *self, PyObject *args) {
  int x, y;
  if (!PyArg_ParseTuple(args, "(ii)", &x, &y)) return NULL;
  return PyLong_FromLong((long)astar_knowledge_get(self->k, x, y));
}

static PyObject *Knowledge_clear(KnowledgeObject *self, PyObject *noargs) {
  (void)noargs;
  astar_knowledge_clear(self->k);
  Py_RETURN_NONE;
}

/* states() -> bytes: the state of every cell, row after row (width x height uint8). */
static PyObject *Knowledge_states(KnowledgeObject *self, PyObject *noargs) {
  (void)noargs;
  const int32_t w = astar_knowledge_width(self->k), h = astar_knowledge_height(self->k);
  PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)w * h);
  if (!b) return NULL;
  unsigned char *p = (unsigned char *)PyBytes_AS_STRING(b);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) *p++ = (unsigned char)astar_knowledge_get(self->k, x, y);
  return b;
}

static PyObject *Knowledge_version(KnowledgeObject *self, void *c) {
  (void)c;
  return PyLong_FromUnsignedLongLong(astar_knowledge_version(self->k));
}

static PyObject *Knowledge_count_known(KnowledgeObject *self, void *c) {
  (void)c;
  return PyLong_FromSize_t(astar_knowledge_count_known(self->k));
}

static PyObject *Knowledge_width(KnowledgeObject *self, void *c) {
  (void)c;
  return PyLong_FromLong(astar_knowledge_width(self->k));
}

static PyObject *Knowledge_height(KnowledgeObject *self, void *c) {
  (void)c;
  return PyLong_FromLong(astar_knowledge_height(self->k));
}

static PyMethodDef Knowledge_methods[] = {
    {"reveal", (PyCFunction)Knowledge_reveal, METH_VARARGS, "reveal(grid, (x, y))"},
    {"reveal_radius", (PyCFunction)Knowledge_reveal_radius, METH_VARARGS,
     "reveal_radius(grid, (x, y), radius) -> cells that changed state"},
    {"set", (PyCFunction)Knowledge_set, METH_VARARGS, "set((x, y), state)"},
    {"get", (PyCFunction)Knowledge_get, METH_VARARGS, "get((x, y)) -> state"},
    {"clear", (PyCFunction)Knowledge_clear, METH_NOARGS, "forget everything"},
    {"states", (PyCFunction)Knowledge_states, METH_NOARGS, "states() -> bytes (row-major uint8)"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Knowledge_getset[] = {
    {"version", (getter)Knowledge_version, NULL,
     "changes of what is known (astar_knowledge_version)", NULL},
    {"count_known", (getter)Knowledge_count_known, NULL, "number of known cells", NULL},
    {"width", (getter)Knowledge_width, NULL, "width in cells", NULL},
    {"height", (getter)Knowledge_height, NULL, "height in cells", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject KnowledgeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.Knowledge",
    .tp_basicsize = sizeof(KnowledgeObject),
    .tp_dealloc = (destructor)Knowledge_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Knowledge(grid): fog of war, every cell unknown (astar/knowledge.h).",
    .tp_methods = Knowledge_methods,
    .tp_getset = Knowledge_getset,
    .tp_new = Knowledge_new,
};

/* Layer(width, height): an influence layer of zeros (astar_layer_*). */
typedef struct {
  PyObject_HEAD astar_layer *layer;
} LayerObject;

static PyTypeObject LayerType;

static void Layer_dealloc(LayerObject *self) {
  astar_layer_free(self->layer);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Layer_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"width", "height", NULL};
  range_arg w = SIDE_ARG(width, ASTAR_GRID_MAX_SIDE), h = SIDE_ARG(height, ASTAR_GRID_MAX_SIDE);
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&", kwlist, range_arg_convert, &w,
                                   range_arg_convert, &h))
    return NULL;
  if (check_size(&w, &h, ASTAR_GRID_MAX_CELLS) < 0) return NULL;
  LayerObject *self = (LayerObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  const astar_status st = astar_layer_new(&self->layer, (int32_t)w.i, (int32_t)h.i, NULL);
  if (st != ASTAR_OK) {
    Py_DECREF(self);
    return raise_status(st, NULL, NULL);
  }
  return (PyObject *)self;
}

/* A layer value, checked as every real argument is (real_arg_convert):
** finite, >= 0, within float. */
#define LAYER_VALUE_ARG                                                                            \
  { "value", 0.0, FLT_MAX, 0, 0.0 }

/* load(values): width x height float32 values, row after row; each finite >= 0. */
static PyObject *Layer_load(LayerObject *self, PyObject *args) {
  Py_buffer buf;
  if (!PyArg_ParseTuple(args, "y*", &buf)) return NULL;
  const int32_t w = astar_layer_width(self->layer), h = astar_layer_height(self->layer);
  if (buf.len != (Py_ssize_t)w * h * (Py_ssize_t)sizeof(float)) {
    PyBuffer_Release(&buf);
    return PyErr_Format(PyExc_ValueError, "values: %d x %d float32 expected", (int)w, (int)h);
  }
  const float *v = buf.buf;
  /* Check every value before setting any: a bad array leaves the layer as it was. */
  for (Py_ssize_t i = 0; i < (Py_ssize_t)w * h; i++)
    if (!isfinite(v[i]) || v[i] < 0.0f) {
      PyObject *f = PyFloat_FromDouble((double)v[i]);
      if (f)
        PyErr_Format(PyExc_ValueError,
                     "values[%d, %d] (row, col) = %R: a layer value is a finite number >= 0",
                     (int)(i / w), (int)(i % w), f);
      Py_XDECREF(f);
      PyBuffer_Release(&buf);
      return NULL;
    }
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) (void)astar_layer_set(self->layer, x, y, v[(size_t)y * w + x]);
  PyBuffer_Release(&buf);
  Py_RETURN_NONE;
}

/* values() -> bytes: width x height float32, row after row. */
static PyObject *Layer_values(LayerObject *self, PyObject *noargs) {
  (void)noargs;
  const int32_t w = astar_layer_width(self->layer), h = astar_layer_height(self->layer);
  PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)w * h * (Py_ssize_t)sizeof(float));
  if (!b) return NULL;
  float *p = (float *)PyBytes_AS_STRING(b);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) *p++ = astar_layer_get(self->layer, x, y);
  return b;
}

static PyObject *Layer_set(LayerObject *self, PyObject *args) {
  int x, y;
  real_arg v = LAYER_VALUE_ARG;
  if (!PyArg_ParseTuple(args, "(ii)O&", &x, &y, real_arg_convert, &v)) return NULL;
  const astar_status st = astar_layer_set(self->layer, x, y, (float)v.value);
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  Py_RETURN_NONE;
}

static PyObject *Layer_get(LayerObject *self, PyObject *args) {
  int x, y;
  if (!PyArg_ParseTuple(args, "(ii)", &x, &y)) return NULL;
  return PyFloat_FromDouble((double)astar_layer_get(self->layer, x, y));
}

static PyObject *Layer_fill(LayerObject *self, PyObject *args) {
  real_arg v = LAYER_VALUE_ARG;
  if (!PyArg_ParseTuple(args, "O&", real_arg_convert, &v)) return NULL;
  const astar_status st = astar_layer_fill(self->layer, (float)v.value);
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  Py_RETURN_NONE;
}

static PyObject *Layer_add_cone(LayerObject *self, PyObject *args) {
  int x, y;
  real_arg radius = {"radius", 0.0, FLT_MAX, 1, 0.0}, v = LAYER_VALUE_ARG;
  if (!PyArg_ParseTuple(args, "(ii)O&O&", &x, &y, real_arg_convert, &radius, real_arg_convert, &v))
    return NULL;
  const astar_status st =
      astar_layer_add_cone(self->layer, x, y, (float)radius.value, (float)v.value);
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  Py_RETURN_NONE;
}

static PyObject *Layer_width(LayerObject *self, void *c) {
  (void)c;
  return PyLong_FromLong(astar_layer_width(self->layer));
}

static PyObject *Layer_height(LayerObject *self, void *c) {
  (void)c;
  return PyLong_FromLong(astar_layer_height(self->layer));
}

static PyMethodDef Layer_methods[] = {
    {"load", (PyCFunction)Layer_load, METH_VARARGS, "load(float32 bytes, row-major)"},
    {"values", (PyCFunction)Layer_values, METH_NOARGS, "values() -> float32 bytes, row-major"},
    {"set", (PyCFunction)Layer_set, METH_VARARGS, "set((x, y), value)"},
    {"get", (PyCFunction)Layer_get, METH_VARARGS, "get((x, y)) -> value (0 outside)"},
    {"fill", (PyCFunction)Layer_fill, METH_VARARGS, "fill(value)"},
    {"add_cone", (PyCFunction)Layer_add_cone, METH_VARARGS, "add_cone((x, y), radius, value)"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Layer_getset[] = {
    {"width", (getter)Layer_width, NULL, "width in cells", NULL},
    {"height", (getter)Layer_height, NULL, "height in cells", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject LayerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.Layer",
    .tp_basicsize = sizeof(LayerObject),
    .tp_dealloc = (destructor)Layer_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Layer(width, height): an influence layer of zeros (astar_layer_new).",
    .tp_methods = Layer_methods,
    .tp_getset = Layer_getset,
    .tp_new = Layer_new,
};

/* Overlay(knowledge or None, layers, weights, unknown, unknown_cost): what a
** finder's options point to (options.knowledge, .layers), kept together so
** that a Finder keeps it -- and through it the Knowledge and Layer objects
** -- alive in its attachment tuple (the 8th entry). */
typedef struct {
  PyObject_HEAD PyObject *knowledge; /* a Knowledge or NULL */
  PyObject *layer_objs;              /* a tuple of Layer */
  const astar_layer **layers;
  float *weights;
  size_t nlayers;
  int unknown;
  double unknown_cost;
} OverlayObject;

static PyTypeObject OverlayType;

static int Overlay_traverse(OverlayObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->knowledge);
  Py_VISIT(self->layer_objs);
  return 0;
}

static int Overlay_clear(OverlayObject *self) {
  Py_CLEAR(self->knowledge);
  Py_CLEAR(self->layer_objs);
  return 0;
}

static void Overlay_dealloc(OverlayObject *self) {
  PyObject_GC_UnTrack(self);
  Overlay_clear(self);
  PyMem_Free((void *)self->layers);
  PyMem_Free(self->weights);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Overlay_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  (void)kw;
  PyObject *knowledge, *layers, *weights;
  int unknown;
  double unknown_cost;
  if (!PyArg_ParseTuple(args, "OO!O!id", &knowledge, &PyTuple_Type, &layers, &PyTuple_Type,
                        &weights, &unknown, &unknown_cost))
    return NULL;
  if (knowledge != Py_None && !PyObject_TypeCheck(knowledge, &KnowledgeType))
    return PyErr_Format(PyExc_TypeError, "knowledge: a Knowledge object is required");
  const Py_ssize_t n = PyTuple_GET_SIZE(layers);
  if (PyTuple_GET_SIZE(weights) != n)
    return PyErr_Format(PyExc_ValueError, "one weight a layer expected");
  OverlayObject *self = (OverlayObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->knowledge = knowledge != Py_None ? Py_NewRef(knowledge) : NULL;
  self->layer_objs = Py_NewRef(layers);
  self->unknown = unknown;
  self->unknown_cost = unknown_cost;
  self->nlayers = (size_t)n;
  if (n > 0) {
    self->layers = PyMem_Calloc((size_t)n, sizeof *self->layers);
    self->weights = PyMem_Calloc((size_t)n, sizeof *self->weights);
    if (!self->layers || !self->weights) {
      PyErr_NoMemory();
      goto fail;
    }
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *l = PyTuple_GET_ITEM(layers, i);
    if (!PyObject_TypeCheck(l, &LayerType)) {
      PyErr_Format(PyExc_TypeError, "layers[%zd]: a Layer object is required", i);
      goto fail;
    }
    const double w = PyFloat_AsDouble(PyTuple_GET_ITEM(weights, i));
    if (w == -1.0 && PyErr_Occurred()) goto fail;
    self->layers[i] = ((LayerObject *)l)->layer;
    self->weights[i] = (float)w;
  }
  return (PyObject *)self;
fail:
  Py_DECREF(self);
  return NULL;
}

static PyTypeObject OverlayType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.Overlay",
    .tp_basicsize = sizeof(OverlayObject),
    .tp_dealloc = (destructor)Overlay_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Overlay(knowledge, layers, weights, unknown, unknown_cost): a search's fog of war "
              "and influence layers (libastar/_fog.py makes it).",
    .tp_traverse = (traverseproc)Overlay_traverse,
    .tp_clear = (inquiry)Overlay_clear,
    .tp_new = Overlay_new,
};

/* The options an Overlay sets (knowledge, unknown, unknown_cost, layers);
** None sets nothing. 0, or -1 with a TypeError. */
static int overlay_apply(PyObject *ov, astar_options *o) {
  if (ov == Py_None) return 0;
  if (!PyObject_TypeCheck(ov, &OverlayType)) {
    PyErr_SetString(PyExc_TypeError, "an Overlay (or None) expected");
    return -1;
  }
  const OverlayObject *v = (const OverlayObject *)ov;
  if (v->knowledge) {
    o->knowledge = ((KnowledgeObject *)v->knowledge)->k;
    o->unknown = (astar_unknown)v->unknown;
    o->unknown_cost = v->unknown_cost;
  }
  if (v->nlayers > 0) {
    o->layers = v->layers;
    o->layer_weights = v->weights;
    o->nlayers = v->nlayers;
  }
  return 0;
}

/* ---- space-time ---------------------------------------------------------------------- */

/* Thin bindings of astar/spacetime.h: the reservation table, the space-time
** workspace, SIPP's safe intervals, and the two searches (cooperative A*,
** SIPP). Argument ranges are checked by libastar/_spacetime.py; the C
** library checks them again and answers with a status. */

typedef struct {
  PyObject_HEAD astar_reservations *res;
  Py_ssize_t searching; /* searches reading it with the GIL released: no writer meanwhile */
} ReservationsObject;

static PyTypeObject ReservationsType;

static void Reservations_dealloc(ReservationsObject *self) {
  astar_reservations_free(self->res);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Reservations_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"capacity", NULL};
  unsigned long long capacity;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "K", kwlist, &capacity)) return NULL;
  ReservationsObject *self = (ReservationsObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  const astar_status st = astar_reservations_new(&self->res, (size_t)capacity, NULL);
  if (st != ASTAR_OK) {
    Py_DECREF(self);
    return raise_status(st, "capacity: 1 .. 2^26 reservations", NULL);
  }
  return (PyObject *)self;
}

#define RES_WRITABLE(self)                                                                         \
  do {                                                                                             \
    if ((self)->searching > 0)                                                                     \
      return busy_error("the reservation table is being searched in another thread");              \
  } while (0)

static PyObject *Reservations_clear(ReservationsObject *self, PyObject *unused) {
  (void)unused;
  RES_WRITABLE(self);
  astar_reservations_clear(self->res);
  Py_RETURN_NONE;
}

/* sizes() -> (count, capacity, memory) */
static PyObject *Reservations_sizes(ReservationsObject *self, PyObject *unused) {
  (void)unused;
  return Py_BuildValue("(KKK)", (unsigned long long)astar_reservations_count(self->res),
                       (unsigned long long)astar_reservations_capacity(self->res),
                       (unsigned long long)astar_reservations_memory(self->res));
}

/* reserve_path(agent, cells, t0, hold): cells int32 (x, y) pairs. */
static PyObject *Reservations_reserve_path(ReservationsObject *self, PyObject *args) {
  unsigned long agent, t0, hold;
  PyObject *cells_obj;
  if (!PyArg_ParseTuple(args, "kOkk", &agent, &cells_obj, &t0, &hold)) return NULL;
  RES_WRITABLE(self);
  Py_buffer view;
  const astar_point *cells;
  size_t n;
  if (cells_of(cells_obj, &view, &cells, &n) < 0) return NULL;
  const astar_status st = astar_reservations_reserve_path(self->res, (uint32_t)agent, cells, n,
                                                          (uint32_t)t0, (uint32_t)hold);
  PyBuffer_Release(&view);
  if (st != ASTAR_OK)
    return raise_status(st,
                        st == ASTAR_CAPACITY ? "the reservation table is full"
                                             : "the path is not a chain of neighbouring cells, or "
                                               "another agent holds one of its cells or moves",
                        NULL);
  Py_RETURN_NONE;
}

/* at(x, y, t) -> agent or -1 */
static PyObject *Reservations_at(ReservationsObject *self, PyObject *args) {
  int x, y;
  unsigned long t;
  if (!PyArg_ParseTuple(args, "iik", &x, &y, &t)) return NULL;
  const uint32_t a = astar_reservations_at(self->res, (astar_point){x, y}, (uint32_t)t);
  return PyLong_FromLong(a == ASTAR_AGENT_NONE ? -1L : (long)a);
}

/* move(fx, fy, tx, ty, t) -> agent or -1 */
static PyObject *Reservations_move(ReservationsObject *self, PyObject *args) {
  int fx, fy, tx, ty;
  unsigned long t;
  if (!PyArg_ParseTuple(args, "iiiik", &fx, &fy, &tx, &ty, &t)) return NULL;
  const uint32_t a =
      astar_reservations_move(self->res, (astar_point){fx, fy}, (astar_point){tx, ty}, (uint32_t)t);
  return PyLong_FromLong(a == ASTAR_AGENT_NONE ? -1L : (long)a);
}

/* release(agent, before): agent UINT32_MAX for every agent. */
static PyObject *Reservations_release(ReservationsObject *self, PyObject *args) {
  unsigned long agent, before;
  if (!PyArg_ParseTuple(args, "kk", &agent, &before)) return NULL;
  RES_WRITABLE(self);
  astar_reservations_release(self->res, (uint32_t)agent, (uint32_t)before);
  Py_RETURN_NONE;
}

static PyMethodDef Reservations_methods[] = {
    {"clear", (PyCFunction)Reservations_clear, METH_NOARGS, NULL},
    {"sizes", (PyCFunction)Reservations_sizes, METH_NOARGS, NULL},
    {"reserve_path", (PyCFunction)Reservations_reserve_path, METH_VARARGS, NULL},
    {"at", (PyCFunction)Reservations_at, METH_VARARGS, NULL},
    {"move", (PyCFunction)Reservations_move, METH_VARARGS, NULL},
    {"release", (PyCFunction)Reservations_release, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ReservationsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.Reservations",
    .tp_basicsize = sizeof(ReservationsObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Reservations(capacity): astar_reservations",
    .tp_new = Reservations_new,
    .tp_dealloc = (destructor)Reservations_dealloc,
    .tp_methods = Reservations_methods,
};

typedef struct {
  PyObject_HEAD astar_spacetime_workspace *ws;
  int busy; /* one search at a time */
} STWorkspaceObject;

static PyTypeObject STWorkspaceType;

static void STWorkspace_dealloc(STWorkspaceObject *self) {
  astar_spacetime_workspace_free(self->ws);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *STWorkspace_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"max_states", NULL};
  unsigned long long max_states;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "K", kwlist, &max_states)) return NULL;
  STWorkspaceObject *self = (STWorkspaceObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  astar_status st;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_spacetime_workspace_new(&self->ws, (size_t)max_states, NULL);
  Py_END_ALLOW_THREADS;
  if (st != ASTAR_OK) {
    Py_DECREF(self);
    return raise_status(st, "max_states: 1 .. 2^28", NULL);
  }
  return (PyObject *)self;
}

static PyObject *STWorkspace_memory(STWorkspaceObject *self, PyObject *unused) {
  (void)unused;
  return PyLong_FromSize_t(astar_spacetime_workspace_memory(self->ws));
}

static PyMethodDef STWorkspace_methods[] = {
    {"memory", (PyCFunction)STWorkspace_memory, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject STWorkspaceType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.SpaceTimeWorkspace",
    .tp_basicsize = sizeof(STWorkspaceObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "SpaceTimeWorkspace(max_states): astar_spacetime_workspace",
    .tp_new = STWorkspace_new,
    .tp_dealloc = (destructor)STWorkspace_dealloc,
    .tp_methods = STWorkspace_methods,
};

typedef struct {
  PyObject_HEAD astar_sipp *sipp;
} SippObject;

static PyTypeObject SippType;

static void Sipp_dealloc(SippObject *self) {
  astar_sipp_free(self->sipp);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Sipp(grid, occupancies): occupancies packed astar_occupancy records
** (int32 x, int32 y, uint32 t_from, uint32 t_to). */
static PyObject *Sipp_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"grid", "occupancies", NULL};
  GridObject *grid;
  PyObject *occ_obj;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O", kwlist, &GridType, &grid, &occ_obj))
    return NULL;
  GRID_READY(grid);
  Py_buffer view;
  if (PyObject_GetBuffer(occ_obj, &view, PyBUF_SIMPLE) < 0) return NULL;
  if (view.len % (Py_ssize_t)sizeof(astar_occupancy)) {
    PyBuffer_Release(&view);
    PyErr_SetString(PyExc_ValueError, "occupancies: packed (x, y, t_from, t_to) records expected");
    return NULL;
  }
  SippObject *self = (SippObject *)type->tp_alloc(type, 0);
  if (!self) {
    PyBuffer_Release(&view);
    return NULL;
  }
  const size_t n = (size_t)view.len / sizeof(astar_occupancy);
  astar_status st;
  grid->searching++;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_sipp_new(&self->sipp, grid->grid, n ? view.buf : NULL, n, NULL);
  Py_END_ALLOW_THREADS;
  grid->searching--;
  PyBuffer_Release(&view);
  if (st != ASTAR_OK) {
    Py_DECREF(self);
    return raise_status(st, st == ASTAR_OUT_OF_BOUNDS ? "obstacles: a cell outside the grid" : NULL,
                        NULL);
  }
  return (PyObject *)self;
}

/* sizes() -> (intervals, memory) */
static PyObject *Sipp_sizes(SippObject *self, PyObject *unused) {
  (void)unused;
  return Py_BuildValue("(KK)", (unsigned long long)astar_sipp_intervals(self->sipp),
                       (unsigned long long)astar_sipp_memory(self->sipp));
}

static PyMethodDef Sipp_methods[] = {
    {"sizes", (PyCFunction)Sipp_sizes, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SippType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.Sipp",
    .tp_basicsize = sizeof(SippObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Sipp(grid, occupancies): astar_sipp",
    .tp_new = Sipp_new,
    .tp_dealloc = (destructor)Sipp_dealloc,
    .tp_methods = Sipp_methods,
};

/* (cells bytes, cost, estimate, at_goal, arrival, expanded) of a timed path. */
static PyObject *timed_result(const astar_point *path, const astar_coop_result *r) {
  return Py_BuildValue("(y#ddOkK)", (const char *)path,
                       (Py_ssize_t)(r->length * sizeof(astar_point)), r->cost, r->estimate,
                       r->at_goal ? Py_True : Py_False, (unsigned long)r->arrival,
                       (unsigned long long)r->stats.expanded);
}

static int st_take(STWorkspaceObject *ws) {
  if (ws->busy) {
    busy_error("the space-time workspace is in use by another thread (one search at a time)");
    return -1;
  }
  ws->busy = 1;
  return 0;
}

/*
** coop_find(ws, grid, options, reservations or None, start, goal, agent, t0,
** window, horizon, wait_cost, use_field) -> timed result; astar_coop_find_path
** without the GIL. use_field: the heuristic is the true distance to the goal
** (a distance field built here, astar_field_new_goals) rather than octile.
*/
static PyObject *py_coop_find(PyObject *self, PyObject *args) {
  (void)self;
  STWorkspaceObject *ws;
  GridObject *grid;
  PyObject *opt_tuple, *res_obj;
  astar_point start, goal;
  unsigned long agent, t0, window, horizon;
  double wait_cost;
  int use_field;
  if (!PyArg_ParseTuple(args, "O!O!OO(ii)(ii)kkkkdp", &STWorkspaceType, &ws, &GridType, &grid,
                        &opt_tuple, &res_obj, &start.x, &start.y, &goal.x, &goal.y, &agent, &t0,
                        &window, &horizon, &wait_cost, &use_field))
    return NULL;
  GRID_READY(grid);
  ReservationsObject *res = NULL;
  if (res_obj != Py_None) {
    if (!PyObject_TypeCheck(res_obj, &ReservationsType)) {
      PyErr_SetString(PyExc_TypeError, "reservations: a Reservations table or None expected");
      return NULL;
    }
    res = (ReservationsObject *)res_obj;
  }
  astar_options o;
  if (plain_options(opt_tuple, &o, "a space-time search") < 0) return NULL;
  astar_coop_query q;
  astar_coop_query_init(&q);
  q.start = start;
  q.goal = goal;
  q.agent = (uint32_t)agent;
  q.t0 = (uint32_t)t0;
  q.window = (uint32_t)window;
  q.horizon = (uint32_t)horizon;
  q.wait_cost = wait_cost;
  /* A windowed path has at most window + 1 cells, a full one horizon + 1. */
  size_t cap = (size_t)(window ? window : horizon) + 1;
  astar_point *path = PyMem_Malloc(cap * sizeof *path);
  if (!path) return PyErr_NoMemory();
  if (st_take(ws) < 0) {
    PyMem_Free(path);
    return NULL;
  }
  astar_coop_result r;
  astar_status st = ASTAR_OK;
  astar_field *field = NULL;
  grid->searching++;
  if (res) res->searching++;
  Py_BEGIN_ALLOW_THREADS;
  if (use_field && astar_grid_contains(grid->grid, goal.x, goal.y) &&
      astar_grid_passable(grid->grid, goal.x, goal.y)) {
    astar_stats fs;
    st = astar_field_new_goals(&field, grid->grid, &o, &goal, 1, 0.0, NULL, &fs);
    q.field = field;
  }
  if (st == ASTAR_OK)
    st = astar_coop_find_path(ws->ws, grid->grid, &o, res ? res->res : NULL, &q, path, cap, &r);
  astar_field_free(field);
  Py_END_ALLOW_THREADS;
  grid->searching--;
  if (res) res->searching--;
  ws->busy = 0;
  PyObject *out = st == ASTAR_OK ? timed_result(path, &r) : raise_status(st, NULL, NULL);
  PyMem_Free(path);
  return out;
}

/*
** sipp_find(ws, sipp, grid, options, start, goal, t0, hold_goal) -> timed
** result; astar_sipp_find_path without the GIL (again with a larger buffer
** when the path is longer than the first guess).
*/
static PyObject *py_sipp_find(PyObject *self, PyObject *args) {
  (void)self;
  STWorkspaceObject *ws;
  SippObject *sipp;
  GridObject *grid;
  PyObject *opt_tuple;
  astar_point start, goal;
  unsigned long t0;
  int hold_goal;
  if (!PyArg_ParseTuple(args, "O!O!O!O(ii)(ii)kp", &STWorkspaceType, &ws, &SippType, &sipp,
                        &GridType, &grid, &opt_tuple, &start.x, &start.y, &goal.x, &goal.y, &t0,
                        &hold_goal))
    return NULL;
  GRID_READY(grid);
  astar_options o;
  if (plain_options(opt_tuple, &o, "a SIPP search") < 0) return NULL;
  size_t cap = 4096;
  astar_point *path = PyMem_Malloc(cap * sizeof *path);
  if (!path) return PyErr_NoMemory();
  if (st_take(ws) < 0) {
    PyMem_Free(path);
    return NULL;
  }
  astar_coop_result r;
  astar_status st;
  grid->searching++;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_sipp_find_path(ws->ws, sipp->sipp, grid->grid, &o, start, goal, (uint32_t)t0,
                            hold_goal != 0, path, cap, &r);
  Py_END_ALLOW_THREADS;
  if (st == ASTAR_BUFFER_TOO_SMALL) {
    PyMem_Free(path);
    cap = r.length;
    path = PyMem_Malloc(cap * sizeof *path);
    if (path) {
      Py_BEGIN_ALLOW_THREADS;
      st = astar_sipp_find_path(ws->ws, sipp->sipp, grid->grid, &o, start, goal, (uint32_t)t0,
                                hold_goal != 0, path, cap, &r);
      Py_END_ALLOW_THREADS;
    }
  }
  grid->searching--;
  ws->busy = 0;
  if (!path) return PyErr_NoMemory();
  PyObject *out = st == ASTAR_OK ? timed_result(path, &r) : raise_status(st, NULL, NULL);
  PyMem_Free(path);
  return out;
}

/* ---- multi-agent pathfinding (astar/mapf.h) ---------------------------------------------- */

/* Thin bindings of astar/mapf.h for libastar/mapf.py: the problem (a
** handle), the algorithm table, the random instance, the solvers (a handle
** of scratch, one solve at a time) and the validator. Every argument the
** Python layer passes on is checked here, once, with the converters above
** (names and ranges in the messages); the library checks again and answers
** with a status. Paths cross as bytes of int32 (x, y) pairs. */

typedef struct {
  PyObject_HEAD astar_mapf_problem *p;
} MapfProblemObject;

static PyTypeObject MapfProblemType;

static void MapfProblem_dealloc(MapfProblemObject *self) {
  astar_mapf_problem_free(self->p);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The sentence of a failed astar_mapf_problem_new, naming the argument and
** the agent (bad: SIZE_MAX when no agent is at fault). */
static PyObject *mapf_problem_error(astar_status st, size_t bad, const astar_grid *g,
                                    const astar_point *starts, const astar_point *goals, size_t n) {
  char msg[200];
  if (bad == SIZE_MAX || bad >= n) {
    if (st == ASTAR_INVALID_ARGUMENT)
      snprintf(msg, sizeof msg, "starts, goals: 1 .. 2^20 agents expected, got %zu", n);
    return raise_status(st, st == ASTAR_INVALID_ARGUMENT ? msg : NULL, NULL);
  }
  const astar_point s = starts[bad], gl = goals[bad];
  /* Which of the agent's two cells is at fault: the library names the agent. */
  const char *which = "starts";
  astar_point c = s;
  size_t other = SIZE_MAX;
  switch (st) {
  case ASTAR_INVALID_ARGUMENT:
    for (size_t j = 0; j < bad && other == SIZE_MAX; j++)
      if (starts[j].x == s.x && starts[j].y == s.y) other = j;
    if (other == SIZE_MAX) {
      which = "goals";
      c = gl;
      for (size_t j = 0; j < bad && other == SIZE_MAX; j++)
        if (goals[j].x == gl.x && goals[j].y == gl.y) other = j;
    }
    if (other == SIZE_MAX)
      snprintf(msg, sizeof msg, "agent %zu: its start or goal is another agent's too", bad);
    else
      snprintf(msg, sizeof msg, "%s[%zu]: (%d, %d) is %s[%zu] too (each agent its own)", which, bad,
               (int)c.x, (int)c.y, which, other);
    break;
  case ASTAR_OUT_OF_BOUNDS:
    if (astar_grid_contains(g, s.x, s.y)) {
      which = "goals";
      c = gl;
    }
    snprintf(msg, sizeof msg, "%s[%zu]: (%d, %d) lies outside the %d x %d grid", which, bad,
             (int)c.x, (int)c.y, (int)astar_grid_width(g), (int)astar_grid_height(g));
    break;
  case ASTAR_START_BLOCKED:
    snprintf(msg, sizeof msg, "starts[%zu]: (%d, %d) is blocked", bad, (int)s.x, (int)s.y);
    break;
  case ASTAR_GOAL_BLOCKED:
    snprintf(msg, sizeof msg, "goals[%zu]: (%d, %d) is blocked", bad, (int)gl.x, (int)gl.y);
    break;
  default:
    return raise_status(st, NULL, NULL);
  }
  PyObject *info = Py_BuildValue("{s:n}", "agent", (Py_ssize_t)bad);
  raise_status(st, msg, info);
  Py_XDECREF(info);
  return NULL;
}

/* MapfProblem(grid, starts, goals): starts, goals bytes of int32 (x, y) pairs. */
static PyObject *MapfProblem_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"grid", "starts", "goals", NULL};
  GridObject *grid;
  PyObject *s_obj, *g_obj;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!OO", kwlist, &GridType, &grid, &s_obj, &g_obj))
    return NULL;
  GRID_READY(grid);
  Py_buffer sv, gv;
  const astar_point *starts, *goals;
  size_t ns, ng;
  if (cells_of(s_obj, &sv, &starts, &ns) < 0) return NULL;
  if (cells_of(g_obj, &gv, &goals, &ng) < 0) {
    PyBuffer_Release(&sv);
    return NULL;
  }
  MapfProblemObject *self = NULL;
  if (ns != ng) {
    char msg[120];
    snprintf(msg, sizeof msg, "starts, goals: as many goals as starts expected, got %zu and %zu",
             ns, ng);
    raise_status(ASTAR_INVALID_ARGUMENT, msg, NULL);
    goto done;
  }
  self = (MapfProblemObject *)type->tp_alloc(type, 0);
  if (!self) goto done;
  size_t bad = SIZE_MAX;
  astar_status st;
  grid->searching++;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_mapf_problem_new(&self->p, grid->grid, starts, goals, ns, &bad, NULL);
  Py_END_ALLOW_THREADS;
  grid->searching--;
  if (st != ASTAR_OK) {
    Py_CLEAR(self);
    mapf_problem_error(st, bad, grid->grid, starts, goals, ns);
  }
done:
  PyBuffer_Release(&sv);
  PyBuffer_Release(&gv);
  return (PyObject *)self;
}

static PyObject *MapfProblem_agents(MapfProblemObject *self, void *c) {
  (void)c;
  return PyLong_FromSize_t(astar_mapf_problem_agents(self->p));
}
static PyObject *MapfProblem_width(MapfProblemObject *self, void *c) {
  (void)c;
  return PyLong_FromLong(astar_mapf_problem_width(self->p));
}
static PyObject *MapfProblem_height(MapfProblemObject *self, void *c) {
  (void)c;
  return PyLong_FromLong(astar_mapf_problem_height(self->p));
}
static PyObject *MapfProblem_memory(MapfProblemObject *self, void *c) {
  (void)c;
  return PyLong_FromSize_t(astar_mapf_problem_memory(self->p));
}

/* ends() -> (starts bytes, goals bytes): int32 (x, y) pairs, agent order. */
static PyObject *MapfProblem_ends(MapfProblemObject *self, PyObject *noargs) {
  (void)noargs;
  const size_t n = astar_mapf_problem_agents(self->p);
  astar_point *buf = PyMem_Malloc(2 * n * sizeof *buf);
  if (!buf) return PyErr_NoMemory();
  for (size_t i = 0; i < n; i++) {
    buf[i] = astar_mapf_problem_start(self->p, i);
    buf[n + i] = astar_mapf_problem_goal(self->p, i);
  }
  PyObject *out = Py_BuildValue("(y#y#)", (const char *)buf, (Py_ssize_t)(n * sizeof *buf),
                                (const char *)(buf + n), (Py_ssize_t)(n * sizeof *buf));
  PyMem_Free(buf);
  return out;
}

static PyObject *MapfProblem_passable(MapfProblemObject *self, PyObject *args) {
  XY_ARGS;
  if (!PyArg_ParseTuple(args, "O&O&", XY_PARSE)) return NULL;
  return PyBool_FromLong(astar_mapf_problem_passable(self->p, x.value, y.value));
}

/* lower_bound() -> int: NoPathError naming the first agent that cannot
** reach its goal. */
static PyObject *MapfProblem_lower_bound(MapfProblemObject *self, PyObject *noargs) {
  (void)noargs;
  uint64_t lb = 0;
  size_t agent = SIZE_MAX;
  astar_status st;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_mapf_lower_bound(self->p, &lb, &agent, NULL);
  Py_END_ALLOW_THREADS;
  if (st == ASTAR_NO_PATH) {
    char msg[120];
    snprintf(msg, sizeof msg, "agent %llu cannot reach its goal: the instance has no solution",
             (unsigned long long)agent);
    PyObject *info = Py_BuildValue("{s:K}", "agent", (unsigned long long)agent);
    raise_status(st, msg, info);
    Py_XDECREF(info);
    return NULL;
  }
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  return PyLong_FromUnsignedLongLong(lb);
}

static PyMethodDef MapfProblem_methods[] = {
    {"ends", (PyCFunction)MapfProblem_ends, METH_NOARGS, NULL},
    {"passable", (PyCFunction)MapfProblem_passable, METH_VARARGS, NULL},
    {"lower_bound", (PyCFunction)MapfProblem_lower_bound, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef MapfProblem_getset[] = {
    {"agents", (getter)MapfProblem_agents, NULL, NULL, NULL},
    {"width", (getter)MapfProblem_width, NULL, NULL, NULL},
    {"height", (getter)MapfProblem_height, NULL, NULL, NULL},
    {"memory", (getter)MapfProblem_memory, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject MapfProblemType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.MapfProblem",
    .tp_basicsize = sizeof(MapfProblemObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "MapfProblem(grid, starts, goals): astar_mapf_problem",
    .tp_new = MapfProblem_new,
    .tp_dealloc = (destructor)MapfProblem_dealloc,
    .tp_methods = MapfProblem_methods,
    .tp_getset = MapfProblem_getset,
};

typedef struct {
  PyObject_HEAD astar_mapf_solver *s;
  int busy; /* one solve at a time */
} MapfSolverObject;

static PyTypeObject MapfSolverType;

static void MapfSolver_dealloc(MapfSolverObject *self) {
  astar_mapf_solver_free(self->s);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *MapfSolver_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "", kwlist)) return NULL;
  MapfSolverObject *self = (MapfSolverObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  const astar_status st = astar_mapf_solver_new(&self->s, NULL);
  if (st != ASTAR_OK) {
    Py_DECREF(self);
    return raise_status(st, NULL, NULL);
  }
  return (PyObject *)self;
}

static PyObject *MapfSolver_memory(MapfSolverObject *self, void *c) {
  (void)c;
  return PyLong_FromSize_t(astar_mapf_solver_memory(self->s));
}

static PyGetSetDef MapfSolver_getset[] = {
    {"memory", (getter)MapfSolver_memory, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject MapfSolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.MapfSolver",
    .tp_basicsize = sizeof(MapfSolverObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "MapfSolver(): astar_mapf_solver",
    .tp_new = MapfSolver_new,
    .tp_dealloc = (destructor)MapfSolver_dealloc,
    .tp_getset = MapfSolver_getset,
};

/* mapf_algorithms() -> ((id, name, summary, flags), ...): the library's
** table (astar_mapf_algo_info_get), in astar_mapf_algo order. */
static PyObject *py_mapf_algorithms(PyObject *self, PyObject *noargs) {
  (void)self;
  (void)noargs;
  PyObject *out = PyTuple_New(ASTAR_MAPF_ALGO_COUNT);
  if (!out) return NULL;
  for (int i = 0; i < ASTAR_MAPF_ALGO_COUNT; i++) {
    const astar_mapf_algo_info *a = astar_mapf_algo_info_get((astar_mapf_algo)i);
    PyObject *row = a ? Py_BuildValue("(issI)", i, a->name, a->summary, a->flags) : NULL;
    if (!row) {
      Py_DECREF(out);
      return a ? NULL : PyErr_Format(PyExc_SystemError, "mapf algorithm %d has no row", i);
    }
    PyTuple_SET_ITEM(out, i, row);
  }
  return out;
}

/* mapf_faults() -> (name, ...): astar_mapf_fault_name of every kind. */
static PyObject *py_mapf_faults(PyObject *self, PyObject *noargs) {
  (void)self;
  (void)noargs;
  PyObject *out = PyTuple_New(ASTAR_MAPF_FAULT_COUNT);
  if (!out) return NULL;
  for (int i = 0; i < ASTAR_MAPF_FAULT_COUNT; i++) {
    PyObject *s = PyUnicode_FromString(astar_mapf_fault_name((astar_mapf_fault)i));
    if (!s) {
      Py_DECREF(out);
      return NULL;
    }
    PyTuple_SET_ITEM(out, i, s);
  }
  return out;
}

/* The algorithm called `name` (a str), or -1 with InvalidArgumentError
** listing the table's names. */
static int mapf_algo_arg(PyObject *name, astar_mapf_algo *out) {
  if (!PyUnicode_Check(name)) {
    PyErr_Format(PyExc_TypeError, "algo: an algorithm's name (str) expected, got %.80s %R",
                 Py_TYPE(name)->tp_name, name);
    return -1;
  }
  const char *s = PyUnicode_AsUTF8(name);
  if (!s) return -1;
  if (astar_mapf_algo_from_name(s, out) == ASTAR_OK) return 0;
  char names[256] = "";
  for (int i = 0; i < ASTAR_MAPF_ALGO_COUNT; i++) {
    const astar_mapf_algo_info *a = astar_mapf_algo_info_get((astar_mapf_algo)i);
    if (!a) continue;
    if (names[0]) strncat(names, "|", sizeof names - strlen(names) - 1);
    strncat(names, a->name, sizeof names - strlen(names) - 1);
  }
  PyObject *msg = PyUnicode_FromFormat("algo: expected one of %s, got %R", names, name);
  if (msg) {
    raise_status(ASTAR_INVALID_ARGUMENT, PyUnicode_AsUTF8(msg), NULL);
    Py_DECREF(msg);
  }
  return -1;
}

/* mapf_random(grid, n, seed) -> (starts bytes, goals bytes):
** astar_mapf_random_instance without the GIL. */
static PyObject *py_mapf_random(PyObject *self, PyObject *args) {
  (void)self;
  GridObject *grid;
  range_arg n = {.name = "n", .min = 1, .max = ASTAR_MAPF_MAX_AGENTS};
  range_arg seed = {.name = "seed", .min = 0, .max = UINT64_MAX};
  if (!PyArg_ParseTuple(args, "O!O&O&", &GridType, &grid, range_arg_convert, &n, range_arg_convert,
                        &seed))
    return NULL;
  GRID_READY(grid);
  astar_point *buf = PyMem_Malloc(2 * (size_t)n.u * sizeof *buf);
  if (!buf) return PyErr_NoMemory();
  astar_status st;
  grid->searching++;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_mapf_random_instance(grid->grid, seed.u, (size_t)n.u, buf, buf + n.u, NULL);
  Py_END_ALLOW_THREADS;
  grid->searching--;
  PyObject *out = NULL;
  if (st == ASTAR_TOO_LARGE) {
    char msg[200];
    snprintf(msg, sizeof msg,
             "n: %llu agents do not fit: the largest 4-connected region of the grid has fewer "
             "cells",
             n.u);
    raise_status(st, msg, NULL);
  } else if (st != ASTAR_OK) {
    raise_status(st, NULL, NULL);
  } else {
    const Py_ssize_t len = (Py_ssize_t)(n.u * sizeof *buf);
    out = Py_BuildValue("(y#y#)", (const char *)buf, len, (const char *)(buf + n.u), len);
  }
  PyMem_Free(buf);
  return out;
}

/* A solution of `n` agents from a sequence of n bytes objects (int32 (x, y)
** pairs), or NULL with an exception. */
static astar_mapf_solution *mapf_solution_of(PyObject *paths, size_t n) {
  PyObject *seq = PySequence_Fast(paths, "paths: a sequence of paths expected");
  if (!seq) return NULL;
  const size_t count = (size_t)PySequence_Fast_GET_SIZE(seq);
  astar_mapf_solution *sol = NULL;
  astar_status st = astar_mapf_solution_new(&sol, count ? count : n, NULL);
  if (st != ASTAR_OK) {
    Py_DECREF(seq);
    char msg[120];
    snprintf(msg, sizeof msg, "paths: 1 .. %lu paths expected, got %zu",
             (unsigned long)ASTAR_MAPF_MAX_AGENTS, count);
    raise_status(st, st == ASTAR_INVALID_ARGUMENT ? msg : NULL, NULL);
    return NULL;
  }
  for (size_t i = 0; i < count; i++) {
    Py_buffer view;
    const astar_point *cells;
    size_t len;
    if (cells_of(PySequence_Fast_GET_ITEM(seq, (Py_ssize_t)i), &view, &cells, &len) < 0) {
      astar_mapf_solution_free(sol);
      Py_DECREF(seq);
      return NULL;
    }
    st = astar_mapf_solution_set_path(sol, i, cells, len);
    PyBuffer_Release(&view);
    if (st != ASTAR_OK) {
      astar_mapf_solution_free(sol);
      Py_DECREF(seq);
      char msg[120];
      snprintf(msg, sizeof msg, "paths[%zu]: at most 2^28 cells", i);
      raise_status(st, st == ASTAR_INVALID_ARGUMENT ? msg : NULL, NULL);
      return NULL;
    }
  }
  Py_DECREF(seq);
  return sol;
}

/* mapf_check(problem, paths) -> (fault, agent, other, time, x, y,
** sum_of_costs, makespan): agent, other -1 when none; a solution of no
** paths is checked as one with the problem's number of agents, all empty. */
static PyObject *py_mapf_check(PyObject *self, PyObject *args) {
  (void)self;
  MapfProblemObject *p;
  PyObject *paths;
  if (!PyArg_ParseTuple(args, "O!O", &MapfProblemType, &p, &paths)) return NULL;
  astar_mapf_solution *sol = mapf_solution_of(paths, astar_mapf_problem_agents(p->p));
  if (!sol) return NULL;
  astar_mapf_report r;
  astar_status st;
  Py_BEGIN_ALLOW_THREADS;
  st = astar_mapf_check(p->p, sol, &r, NULL);
  Py_END_ALLOW_THREADS;
  astar_mapf_solution_free(sol);
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  return Py_BuildValue(
      "(iLLkiiKk)", (int)r.fault, r.agent == UINT32_MAX ? -1LL : (long long)r.agent,
      r.other == UINT32_MAX ? -1LL : (long long)r.other, (unsigned long)r.time, (int)r.cell.x,
      (int)r.cell.y, (unsigned long long)r.sum_of_costs, (unsigned long)r.makespan);
}

/* The Python on_improve of a solve (called with the GIL held: a solve with
** one keeps the GIL); the first exception it raises is kept, later calls
** are skipped, and mapf_solve raises it when the solve returns. Every
** improvement is also recorded as (sum_of_costs, seconds). */
typedef struct {
  PyObject *fn;     /* NULL: none */
  PyObject *record; /* list of (soc, seconds); NULL after a failure */
  int failed;
} mapf_improve_ctx;

static void mapf_on_improve(void *ud, uint64_t soc, double seconds) {
  mapf_improve_ctx *c = ud;
  if (c->failed) return;
  PyGILState_STATE gs = PyGILState_Ensure();
  PyObject *item = Py_BuildValue("(Kd)", (unsigned long long)soc, seconds);
  if (!item || PyList_Append(c->record, item) < 0) c->failed = 1;
  Py_XDECREF(item);
  if (!c->failed && c->fn) {
    PyObject *r = PyObject_CallFunction(c->fn, "Kd", (unsigned long long)soc, seconds);
    if (!r) c->failed = 1;
    Py_XDECREF(r);
  }
  PyGILState_Release(gs);
}

/*
** mapf_solve(solver, problem, algo, w, time_limit, max_work, max_memory,
** seed, max_steps, window, on_improve) -> (status, paths, stats,
** improvements): status the library's (OK, NO_PATH, LIMIT_REACHED; the
** others raise), paths a tuple of bytes (int32 (x, y) pairs; empty unless
** solved), stats (solved, optimal, sum_of_costs, makespan, lower_bound,
** bound, time_first, time_total, improvements, high_level, low_level,
** peak_memory), improvements a list of (sum_of_costs, seconds). Without
** the GIL unless on_improve is a callable (then it is called with each
** improvement; an exception it raises ends nothing in the solver but is
** raised when the solve returns).
*/
static PyObject *py_mapf_solve(PyObject *self, PyObject *args) {
  (void)self;
  MapfSolverObject *solver;
  MapfProblemObject *p;
  PyObject *algo_name, *on_improve;
  real_arg w = {"w", 1.0, 1000.0, 0, 0.0};
  real_arg time_limit = {"time_limit", 0.0, 1e6, 0, 0.0};
  range_arg max_work = {.name = "max_work", .min = 0, .max = UINT64_MAX};
  range_arg max_memory = {.name = "max_memory", .min = 0, .max = SIZE_MAX};
  range_arg seed = {.name = "seed", .min = 0, .max = UINT64_MAX};
  range_arg max_steps = {.name = "max_steps", .min = 0, .max = 1u << 28};
  range_arg window = {.name = "window", .min = 0, .max = 1u << 28};
  if (!PyArg_ParseTuple(args, "O!O!OO&O&O&O&O&O&O&O", &MapfSolverType, &solver, &MapfProblemType,
                        &p, &algo_name, real_arg_convert, &w, real_arg_convert, &time_limit,
                        range_arg_convert, &max_work, range_arg_convert, &max_memory,
                        range_arg_convert, &seed, range_arg_convert, &max_steps, range_arg_convert,
                        &window, &on_improve))
    return NULL;
  astar_mapf_options o;
  astar_mapf_options_init(&o);
  if (mapf_algo_arg(algo_name, &o.algo) < 0) return NULL;
  if (on_improve != Py_None && !PyCallable_Check(on_improve)) {
    PyErr_Format(PyExc_TypeError, "on_improve: a callable or None expected, got %.80s",
                 Py_TYPE(on_improve)->tp_name);
    return NULL;
  }
  o.w = w.value;
  o.time_limit = time_limit.value;
  o.max_work = max_work.u;
  o.max_memory = (size_t)max_memory.u;
  o.seed = seed.u;
  o.max_steps = (uint32_t)max_steps.u;
  o.window = (uint32_t)window.u;
  if (solver->busy)
    return busy_error("the MAPF solver is solving in another thread (one solve at a time)");
  const size_t n = astar_mapf_problem_agents(p->p);
  astar_mapf_solution *sol = NULL;
  astar_status st = astar_mapf_solution_new(&sol, n, NULL);
  if (st != ASTAR_OK) return raise_status(st, NULL, NULL);
  mapf_improve_ctx ctx = {on_improve == Py_None ? NULL : on_improve, PyList_New(0), 0};
  if (!ctx.record) {
    astar_mapf_solution_free(sol);
    return NULL;
  }
  o.on_improve = mapf_on_improve;
  o.improve_ud = &ctx;
  astar_mapf_stats stats;
  solver->busy = 1;
  /* The GIL is let go also with a Python on_improve: the callback takes it
  ** back (PyGILState_Ensure) for each improvement, which are few. */
  Py_BEGIN_ALLOW_THREADS;
  st = astar_mapf_solve(solver->s, p->p, &o, sol, &stats);
  Py_END_ALLOW_THREADS;
  solver->busy = 0;
  PyObject *out = NULL, *paths = NULL;
  if (ctx.failed) goto done; /* the callback's exception */
  if (st != ASTAR_OK && st != ASTAR_NO_PATH && st != ASTAR_LIMIT_REACHED) {
    char detail[160] = "";
    if (st == ASTAR_UNSUPPORTED)
      snprintf(detail, sizeof detail,
               "algo: %s cannot take this problem (or is not built into this library)",
               astar_mapf_algo_info_get(o.algo)->name);
    raise_status(st, detail[0] ? detail : NULL, NULL);
    goto done;
  }
  paths = PyTuple_New(st == ASTAR_OK ? (Py_ssize_t)n : 0);
  if (!paths) goto done;
  for (size_t i = 0; st == ASTAR_OK && i < n; i++) {
    size_t len = 0;
    const astar_point *cells = astar_mapf_solution_path(sol, i, &len);
    PyObject *b = PyBytes_FromStringAndSize(cells ? (const char *)cells : "",
                                            (Py_ssize_t)(len * sizeof *cells));
    if (!b) goto done;
    PyTuple_SET_ITEM(paths, (Py_ssize_t)i, b);
  }
  out = Py_BuildValue("(iO(OOKkKdddkKKK)O)", (int)st, paths, stats.solved ? Py_True : Py_False,
                      stats.optimal ? Py_True : Py_False, (unsigned long long)stats.sum_of_costs,
                      (unsigned long)stats.makespan, (unsigned long long)stats.lower_bound,
                      stats.bound, stats.time_first, stats.time_total,
                      (unsigned long)stats.improvements, (unsigned long long)stats.high_level,
                      (unsigned long long)stats.low_level, (unsigned long long)stats.peak_memory,
                      ctx.record);
done:
  Py_XDECREF(paths);
  Py_DECREF(ctx.record);
  astar_mapf_solution_free(sol);
  return out;
}

/* ---- navigation meshes (astar/mesh.h, astar/navmesh_build.h) ----------------------------- */

/* Thin bindings for libastar/mesh.py: a mesh (read, made from polygons, or
** a builder's), a polygon map, a builder (NavMesh) and a mesh finder.
** Vertices and points cross as bytes of float64 (x, y) pairs, indices as
** bytes of int32 / uint32; the Python layer makes NumPy arrays of them.
** A builder's mesh is borrowed: its Mesh object holds the builder alive,
** and the builder refuses edits while a search reads its mesh (searching). */

typedef struct {
  PyObject_HEAD astar_navmesh *nm;
  Py_ssize_t searching; /* searches of its mesh running with the GIL released */
} NavMeshObject;

typedef struct {
  PyObject_HEAD astar_mesh *own; /* read or made from polygons; NULL for a builder's */
  NavMeshObject *builder;        /* a builder's mesh: the builder (kept alive) */
  Py_ssize_t searching;          /* an owned mesh's searches (never edited: for symmetry) */
} MeshObject;

static PyTypeObject MeshType, NavMeshType, PolyMapType, MeshFinderType;

static const astar_mesh *mesh_of(MeshObject *m) {
  if (m->own) return m->own;
  return m->builder && m->builder->nm ? astar_navmesh_mesh(m->builder->nm) : NULL;
}

static Py_ssize_t *mesh_searching(MeshObject *m) {
  return m->builder ? &m->builder->searching : &m->searching;
}

#define MESH_READY(self, m)                                                                        \
  const astar_mesh *m = mesh_of(self);                                                             \
  if (!m) return busy_error("the mesh was freed")

/* Raise the exception of a failed mesh or polygon-map call with the fault's
** sentence and where: ParseError with line and column for text; the
** fault's kind, polygon, vertex and other as attributes. */
static PyObject *mesh_fault_error(astar_status st, const astar_mesh_fault *f, const char *what) {
  PyObject *info = Py_BuildValue("{s:i,s:i,s:i,s:i,s:i,s:i}", "line", (int)f->line, "column",
                                 (int)f->column, "kind", (int)f->kind, "polygon", (int)f->polygon,
                                 "vertex", (int)f->vertex, "other", (int)f->other);
  if (!info) return NULL;
  char detail[260];
  if (f->message[0])
    snprintf(detail, sizeof detail, "%s: %s", what, f->message);
  else
    snprintf(detail, sizeof detail, "%s", what);
  raise_status(st, detail, info);
  Py_DECREF(info);
  return NULL;
}

static PyObject *fault_tuple(const astar_mesh_fault *f) {
  return Py_BuildValue("(iiiiIIs)", (int)f->kind, (int)f->polygon, (int)f->vertex, (int)f->other,
                       (unsigned)f->line, (unsigned)f->column, f->message);
}

static void Mesh_dealloc(MeshObject *self) {
  astar_mesh_free(self->own);
  Py_XDECREF(self->builder);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static MeshObject *mesh_new(PyTypeObject *cls) {
  if (!PyType_IsSubtype(cls, &MeshType)) {
    PyErr_SetString(PyExc_TypeError, "a subclass of _core.Mesh expected");
    return NULL;
  }
  return (MeshObject *)cls->tp_alloc(cls, 0);
}

/* mesh_read(cls, text bytes) -> cls: astar_mesh_read (GIL released). */
static PyObject *py_mesh_read(PyObject *self, PyObject *args) {
  (void)self;
  PyTypeObject *cls;
  Py_buffer text;
  if (!PyArg_ParseTuple(args, "O!y*", &PyType_Type, &cls, &text)) return NULL;
  MeshObject *m = mesh_new(cls);
  if (!m) {
    PyBuffer_Release(&text);
    return NULL;
  }
  astar_mesh_fault fault;
  astar_status st;
  Py_BEGIN_ALLOW_THREADS st =
      astar_mesh_read(&m->own, (const char *)text.buf, (size_t)text.len, NULL, &fault);
  Py_END_ALLOW_THREADS PyBuffer_Release(&text);
  if (st != ASTAR_OK) {
    Py_DECREF(m);
    if (st == ASTAR_NO_MEMORY) return PyErr_NoMemory();
    return mesh_fault_error(st, &fault, "mesh");
  }
  return (PyObject *)m;
}

/* mesh_from_polygons(cls, vertices f64 bytes, sizes u32 bytes, indices i32 bytes) -> cls */
static PyObject *py_mesh_from_polygons(PyObject *self, PyObject *args) {
  (void)self;
  PyTypeObject *cls;
  Py_buffer v, s, ix;
  if (!PyArg_ParseTuple(args, "O!y*y*y*", &PyType_Type, &cls, &v, &s, &ix)) return NULL;
  PyObject *ret = NULL;
  MeshObject *m = mesh_new(cls);
  if (m) {
    const size_t nv = (size_t)v.len / sizeof(astar_vec2), np = (size_t)s.len / sizeof(uint32_t);
    astar_mesh_fault fault;
    astar_status st;
    Py_BEGIN_ALLOW_THREADS st =
        astar_mesh_from_polygons(&m->own, (const astar_vec2 *)v.buf, nv, (const uint32_t *)s.buf,
                                 (const int32_t *)ix.buf, np, NULL, &fault);
    Py_END_ALLOW_THREADS if (st == ASTAR_OK) ret = (PyObject *)m;
    else {
      Py_DECREF(m);
      if (st == ASTAR_NO_MEMORY)
        PyErr_NoMemory();
      else
        mesh_fault_error(st, &fault, "polygons");
    }
  }
  PyBuffer_Release(&v);
  PyBuffer_Release(&s);
  PyBuffer_Release(&ix);
  return ret;
}

/* write() -> bytes (format version 2) */
static PyObject *Mesh_write(MeshObject *self, PyObject *noargs) {
  (void)noargs;
  MESH_READY(self, m);
  size_t len = 0;
  astar_status st = astar_mesh_write(m, NULL, 0, &len);
  if (st != ASTAR_OK && st != ASTAR_BUFFER_TOO_SMALL) return raise_status(st, "write", NULL);
  PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)len + 1);
  if (!out) return NULL;
  st = astar_mesh_write(m, PyBytes_AS_STRING(out), len + 1, &len);
  if (st != ASTAR_OK) {
    Py_DECREF(out);
    return raise_status(st, "write", NULL);
  }
  if (_PyBytes_Resize(&out, (Py_ssize_t)len) < 0) return NULL;
  return out;
}

/* validate() -> None, or the fault tuple (kind, polygon, vertex, other, line, column, message) */
static PyObject *Mesh_validate(MeshObject *self, PyObject *noargs) {
  (void)noargs;
  MESH_READY(self, m);
  astar_mesh_fault fault;
  memset(&fault, 0, sizeof fault);
  astar_status st;
  Py_BEGIN_ALLOW_THREADS st = astar_mesh_validate(m, &fault);
  Py_END_ALLOW_THREADS if (st == ASTAR_OK) Py_RETURN_NONE;
  if (st == ASTAR_NO_MEMORY) return PyErr_NoMemory();
  return fault_tuple(&fault);
}

/* locate(x, y) -> (place, polygon, other, vertex) */
static PyObject *Mesh_locate(MeshObject *self, PyObject *args) {
  real_arg x = {"x", -HUGE_VAL, HUGE_VAL, 0, 0.0}, y = {"y", -HUGE_VAL, HUGE_VAL, 0, 0.0};
  if (!PyArg_ParseTuple(args, "O&O&", real_arg_convert, &x, real_arg_convert, &y)) return NULL;
  MESH_READY(self, m);
  astar_mesh_location loc;
  astar_mesh_locate(m, (astar_vec2){x.value, y.value}, &loc);
  return Py_BuildValue("(iiii)", (int)loc.place, (int)loc.polygon, (int)loc.other, (int)loc.vertex);
}

/* locate_many(points f64 bytes) -> bytes of int32 polygons (-1 outside) */
static PyObject *Mesh_locate_many(MeshObject *self, PyObject *arg) {
  MESH_READY(self, m);
  Py_buffer b;
  if (PyObject_GetBuffer(arg, &b, PyBUF_SIMPLE) < 0) return NULL;
  const size_t n = (size_t)b.len / sizeof(astar_vec2);
  PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * sizeof(int32_t)));
  if (out) {
    int32_t *o = (int32_t *)(void *)PyBytes_AS_STRING(out);
    const astar_vec2 *p = (const astar_vec2 *)b.buf;
    Py_BEGIN_ALLOW_THREADS for (size_t i = 0; i < n; i++) o[i] = astar_mesh_locate(m, p[i], NULL);
    Py_END_ALLOW_THREADS
  }
  PyBuffer_Release(&b);
  return out;
}

/* vertices() -> bytes of float64 (x, y) pairs */
static PyObject *Mesh_vertices(MeshObject *self, PyObject *noargs) {
  (void)noargs;
  MESH_READY(self, m);
  const size_t n = astar_mesh_vertex_count(m);
  PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * sizeof(astar_vec2)));
  if (!out) return NULL;
  astar_vec2 *o = (astar_vec2 *)(void *)PyBytes_AS_STRING(out);
  for (size_t i = 0; i < n; i++) o[i] = astar_mesh_vertex(m, i);
  return out;
}

/* polygons() -> (sizes uint32 bytes, one per slot (0: empty), vertices int32 bytes,
** neighbours int32 bytes), the slots' lists one after another */
static PyObject *Mesh_polygons(MeshObject *self, PyObject *noargs) {
  (void)noargs;
  MESH_READY(self, m);
  const size_t np = astar_mesh_polygon_count(m);
  size_t total = 0;
  for (size_t i = 0; i < np; i++) total += astar_mesh_polygon(m, i, NULL, NULL);
  PyObject *sizes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(np * sizeof(uint32_t)));
  PyObject *vs = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(total * sizeof(int32_t)));
  PyObject *ns = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(total * sizeof(int32_t)));
  if (!sizes || !vs || !ns) {
    Py_XDECREF(sizes);
    Py_XDECREF(vs);
    Py_XDECREF(ns);
    return NULL;
  }
  uint32_t *so = (uint32_t *)(void *)PyBytes_AS_STRING(sizes);
  int32_t *vo = (int32_t *)(void *)PyBytes_AS_STRING(vs);
  int32_t *no = (int32_t *)(void *)PyBytes_AS_STRING(ns);
  size_t k = 0;
  for (size_t i = 0; i < np; i++) {
    const int32_t *pv, *pn;
    const uint32_t n = astar_mesh_polygon(m, i, &pv, &pn);
    so[i] = n;
    if (n) {
      memcpy(vo + k, pv, n * sizeof *pv);
      memcpy(no + k, pn, n * sizeof *pn);
    }
    k += n;
  }
  return Py_BuildValue("(NNN)", sizes, vs, ns);
}

static PyObject *Mesh_bounds(MeshObject *self, void *c) {
  (void)c;
  MESH_READY(self, m);
  astar_vec2 lo, hi;
  astar_mesh_bounds(m, &lo, &hi);
  return Py_BuildValue("((dd)(dd))", lo.x, lo.y, hi.x, hi.y);
}
static PyObject *Mesh_area(MeshObject *self, void *c) {
  (void)c;
  MESH_READY(self, m);
  return PyFloat_FromDouble(astar_mesh_area(m));
}
static PyObject *Mesh_nbytes(MeshObject *self, void *c) {
  (void)c;
  MESH_READY(self, m);
  return PyLong_FromSize_t(astar_mesh_memory(m));
}
static PyObject *Mesh_version(MeshObject *self, void *c) {
  (void)c;
  MESH_READY(self, m);
  return PyLong_FromUnsignedLongLong((unsigned long long)astar_mesh_version(m));
}
static PyObject *Mesh_vertex_count(MeshObject *self, void *c) {
  (void)c;
  MESH_READY(self, m);
  return PyLong_FromSize_t(astar_mesh_vertex_count(m));
}
static PyObject *Mesh_polygon_count(MeshObject *self, void *c) {
  (void)c;
  MESH_READY(self, m);
  return PyLong_FromSize_t(astar_mesh_polygon_count(m));
}
static PyObject *Mesh_builder(MeshObject *self, void *c) {
  (void)c;
  return Py_NewRef(self->builder ? (PyObject *)self->builder : Py_None);
}

static PyMethodDef Mesh_methods[] = {
    {"write", (PyCFunction)Mesh_write, METH_NOARGS, NULL},
    {"validate", (PyCFunction)Mesh_validate, METH_NOARGS, NULL},
    {"locate", (PyCFunction)Mesh_locate, METH_VARARGS, NULL},
    {"locate_many", (PyCFunction)Mesh_locate_many, METH_O, NULL},
    {"vertices", (PyCFunction)Mesh_vertices, METH_NOARGS, NULL},
    {"polygons", (PyCFunction)Mesh_polygons, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Mesh_getset[] = {
    {"bounds", (getter)Mesh_bounds, NULL, "((min x, min y), (max x, max y))", NULL},
    {"area", (getter)Mesh_area, NULL, "total area of the polygons", NULL},
    {"nbytes", (getter)Mesh_nbytes, NULL, "bytes the mesh holds", NULL},
    {"version", (getter)Mesh_version, NULL, "edit count", NULL},
    {"vertex_count", (getter)Mesh_vertex_count, NULL, NULL, NULL},
    {"polygon_count", (getter)Mesh_polygon_count, NULL, "polygon slots, empty ones included", NULL},
    {"_builder", (getter)Mesh_builder, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject MeshType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.Mesh",
    .tp_basicsize = sizeof(MeshObject),
    .tp_dealloc = (destructor)Mesh_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A navigation mesh (astar/mesh.h): libastar.mesh.Mesh is its Python face.",
    .tp_methods = Mesh_methods,
    .tp_getset = Mesh_getset,
};

/* -- polygon maps -- */

typedef struct {
  PyObject_HEAD astar_polymap *pm;
} PolyMapObject;

static void PolyMap_dealloc(PolyMapObject *self) {
  astar_polymap_free(self->pm);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* polymap_read(cls, text bytes) -> cls */
static PyObject *py_polymap_read(PyObject *self, PyObject *args) {
  (void)self;
  PyTypeObject *cls;
  Py_buffer text;
  if (!PyArg_ParseTuple(args, "O!y*", &PyType_Type, &cls, &text)) return NULL;
  PolyMapObject *p =
      PyType_IsSubtype(cls, &PolyMapType) ? (PolyMapObject *)cls->tp_alloc(cls, 0) : NULL;
  if (!p) {
    PyBuffer_Release(&text);
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a subclass of _core.PolyMap expected");
    return NULL;
  }
  astar_mesh_fault fault;
  astar_status st;
  Py_BEGIN_ALLOW_THREADS st =
      astar_polymap_read(&p->pm, (const char *)text.buf, (size_t)text.len, NULL, &fault);
  Py_END_ALLOW_THREADS PyBuffer_Release(&text);
  if (st != ASTAR_OK) {
    Py_DECREF(p);
    if (st == ASTAR_NO_MEMORY) return PyErr_NoMemory();
    return mesh_fault_error(st, &fault, "polygon map");
  }
  return (PyObject *)p;
}

/* polymap_new(cls, points f64 bytes, sizes u32 bytes) -> cls */
static PyObject *py_polymap_new(PyObject *self, PyObject *args) {
  (void)self;
  PyTypeObject *cls;
  Py_buffer pts, sz;
  if (!PyArg_ParseTuple(args, "O!y*y*", &PyType_Type, &cls, &pts, &sz)) return NULL;
  PyObject *ret = NULL;
  PolyMapObject *p =
      PyType_IsSubtype(cls, &PolyMapType) ? (PolyMapObject *)cls->tp_alloc(cls, 0) : NULL;
  if (p) {
    astar_mesh_fault fault;
    const astar_status st =
        astar_polymap_new(&p->pm, (const astar_vec2 *)pts.buf, (const uint32_t *)sz.buf,
                          (size_t)sz.len / sizeof(uint32_t), NULL, &fault);
    if (st == ASTAR_OK) {
      ret = (PyObject *)p;
    } else {
      Py_DECREF(p);
      if (st == ASTAR_NO_MEMORY)
        PyErr_NoMemory();
      else
        mesh_fault_error(st, &fault, "polygons");
    }
  } else if (!PyErr_Occurred()) {
    PyErr_SetString(PyExc_TypeError, "a subclass of _core.PolyMap expected");
  }
  PyBuffer_Release(&pts);
  PyBuffer_Release(&sz);
  return ret;
}

/* polygons() -> list of bytes (float64 (x, y) pairs), one per polygon */
static PyObject *PolyMap_polygons(PolyMapObject *self, PyObject *noargs) {
  (void)noargs;
  if (!self->pm) return busy_error("the polygon map was freed");
  const size_t n = astar_polymap_count(self->pm);
  PyObject *out = PyList_New((Py_ssize_t)n);
  if (!out) return NULL;
  for (size_t i = 0; i < n; i++) {
    const astar_vec2 *pts;
    const uint32_t k = astar_polymap_polygon(self->pm, i, &pts);
    PyObject *b = PyBytes_FromStringAndSize((const char *)pts, (Py_ssize_t)(k * sizeof *pts));
    if (!b) {
      Py_DECREF(out);
      return NULL;
    }
    PyList_SET_ITEM(out, (Py_ssize_t)i, b);
  }
  return out;
}

static PyObject *PolyMap_write(PolyMapObject *self, PyObject *noargs) {
  (void)noargs;
  if (!self->pm) return busy_error("the polygon map was freed");
  size_t len = 0;
  astar_status st = astar_polymap_write(self->pm, NULL, 0, &len);
  if (st != ASTAR_OK && st != ASTAR_BUFFER_TOO_SMALL) return raise_status(st, "write", NULL);
  PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)len + 1);
  if (!out) return NULL;
  st = astar_polymap_write(self->pm, PyBytes_AS_STRING(out), len + 1, &len);
  if (st != ASTAR_OK) {
    Py_DECREF(out);
    return raise_status(st, "write", NULL);
  }
  if (_PyBytes_Resize(&out, (Py_ssize_t)len) < 0) return NULL;
  return out;
}

static PyMethodDef PolyMap_methods[] = {
    {"polygons", (PyCFunction)PolyMap_polygons, METH_NOARGS, NULL},
    {"write", (PyCFunction)PolyMap_write, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject PolyMapType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.PolyMap",
    .tp_basicsize = sizeof(PolyMapObject),
    .tp_dealloc = (destructor)PolyMap_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A polygon map (astar/navmesh_build.h): libastar.mesh.PolyMap is its Python face.",
    .tp_methods = PolyMap_methods,
};

/* -- builders -- */

static void NavMesh_dealloc(NavMeshObject *self) {
  astar_navmesh_free(self->nm);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static const char *build_detail(astar_status st) {
  switch (st) {
  case ASTAR_NO_PATH:
    return "nothing is free: the map has no free space to make a mesh of";
  case ASTAR_INVALID_ARGUMENT:
    return "radius: a number in [0, 1e6] expected";
  default:
    return NULL;
  }
}

/* navmesh_build(cls, source, radius, merge): source a Grid or a PolyMap */
static PyObject *py_navmesh_build(PyObject *self, PyObject *args) {
  (void)self;
  PyTypeObject *cls;
  PyObject *src;
  real_arg r = {"radius", 0.0, 1e6, 0, 0.0};
  int merge;
  if (!PyArg_ParseTuple(args, "O!OO&p", &PyType_Type, &cls, &src, real_arg_convert, &r, &merge))
    return NULL;
  if (!PyType_IsSubtype(cls, &NavMeshType)) {
    PyErr_SetString(PyExc_TypeError, "a subclass of _core.NavMesh expected");
    return NULL;
  }
  astar_navmesh_options o;
  astar_navmesh_options_init(&o);
  o.radius = r.value;
  o.merge = merge != 0;
  GridObject *grid = NULL;
  const astar_polymap *pm = NULL;
  if (PyObject_TypeCheck(src, &GridType)) {
    grid = (GridObject *)src;
    GRID_READY(grid);
  } else if (PyObject_TypeCheck(src, &PolyMapType)) {
    pm = ((PolyMapObject *)src)->pm;
    if (!pm) return busy_error("the polygon map was freed");
  } else {
    return PyErr_Format(PyExc_TypeError, "source: a Grid or a PolyMap expected, got %.80s",
                        Py_TYPE(src)->tp_name);
  }
  NavMeshObject *nm = (NavMeshObject *)cls->tp_alloc(cls, 0);
  if (!nm) return NULL;
  astar_status st;
  if (grid) grid->searching++; /* read without the GIL: no edits meanwhile */
  Py_BEGIN_ALLOW_THREADS st = grid ? astar_navmesh_from_grid(&nm->nm, grid->grid, &o, NULL)
                                   : astar_navmesh_from_polymap(&nm->nm, pm, &o, NULL);
  Py_END_ALLOW_THREADS if (grid) grid->searching--;
  if (st != ASTAR_OK) {
    Py_DECREF(nm);
    if (st == ASTAR_NO_MEMORY) return PyErr_NoMemory();
    return raise_status(st, build_detail(st), NULL);
  }
  return (PyObject *)nm;
}

#define NAVMESH_EDITABLE(self)                                                                     \
  do {                                                                                             \
    if (!(self)->nm) return busy_error("the navigation mesh was freed");                           \
    if ((self)->searching)                                                                         \
      return busy_error("the mesh is being searched: edit it when the searches are done");         \
  } while (0)

/* add_obstacle(points f64 bytes) -> id */
static PyObject *NavMesh_add_obstacle(NavMeshObject *self, PyObject *arg) {
  NAVMESH_EDITABLE(self);
  Py_buffer b;
  if (PyObject_GetBuffer(arg, &b, PyBUF_SIMPLE) < 0) return NULL;
  uint32_t id = 0;
  self->searching++; /* the edit runs without the GIL: no other edit or search meanwhile */
  astar_status st;
  Py_BEGIN_ALLOW_THREADS st = astar_navmesh_add_obstacle(self->nm, (const astar_vec2 *)b.buf,
                                                         (size_t)b.len / sizeof(astar_vec2), &id);
  Py_END_ALLOW_THREADS self->searching--;
  PyBuffer_Release(&b);
  if (st != ASTAR_OK) {
    if (st == ASTAR_NO_MEMORY) return PyErr_NoMemory();
    return raise_status(st,
                        st == ASTAR_INVALID_ARGUMENT
                            ? "points: a simple polygon of at least 3 finite points expected"
                            : NULL,
                        NULL);
  }
  return PyLong_FromUnsignedLong(id);
}

/* remove_obstacle(id) */
static PyObject *NavMesh_remove_obstacle(NavMeshObject *self, PyObject *args) {
  unsigned long id;
  if (!PyArg_ParseTuple(args, "k", &id)) return NULL;
  NAVMESH_EDITABLE(self);
  self->searching++;
  astar_status st;
  Py_BEGIN_ALLOW_THREADS st = astar_navmesh_remove_obstacle(self->nm, (uint32_t)id);
  Py_END_ALLOW_THREADS self->searching--;
  if (st == ASTAR_NO_MEMORY) return PyErr_NoMemory();
  if (st != ASTAR_OK) {
    PyObject *msg = PyUnicode_FromFormat("id: no obstacle %lu in this navigation mesh", id);
    if (!msg) return NULL;
    raise_status(st, PyUnicode_AsUTF8(msg), NULL);
    Py_DECREF(msg);
    return NULL;
  }
  Py_RETURN_NONE;
}

/* stats() -> (constraints, triangles, free_triangles, polygons, removed, added, memory) */
static PyObject *NavMesh_stats(NavMeshObject *self, PyObject *noargs) {
  (void)noargs;
  if (!self->nm) return busy_error("the navigation mesh was freed");
  astar_navmesh_stats s;
  astar_navmesh_stats_get(self->nm, &s);
  return Py_BuildValue("(nnnnnnn)", (Py_ssize_t)s.constraints, (Py_ssize_t)s.triangles,
                       (Py_ssize_t)s.free_triangles, (Py_ssize_t)s.polygons, (Py_ssize_t)s.removed,
                       (Py_ssize_t)s.added, (Py_ssize_t)s.memory);
}

/* borrow_mesh(cls) -> a Mesh (of class cls) borrowing the builder's mesh */
static PyObject *NavMesh_mesh(NavMeshObject *self, PyObject *cls) {
  if (!self->nm) return busy_error("the navigation mesh was freed");
  if (!PyType_Check(cls)) return PyErr_Format(PyExc_TypeError, "a type expected");
  MeshObject *m = mesh_new((PyTypeObject *)cls);
  if (!m) return NULL;
  m->builder = (NavMeshObject *)Py_NewRef(self);
  return (PyObject *)m;
}

static PyMethodDef NavMesh_methods[] = {
    {"add_obstacle", (PyCFunction)NavMesh_add_obstacle, METH_O, NULL},
    {"remove_obstacle", (PyCFunction)NavMesh_remove_obstacle, METH_VARARGS, NULL},
    {"stats", (PyCFunction)NavMesh_stats, METH_NOARGS, NULL},
    {"borrow_mesh", (PyCFunction)NavMesh_mesh, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject NavMeshType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.NavMesh",
    .tp_basicsize = sizeof(NavMeshObject),
    .tp_dealloc = (destructor)NavMesh_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A navigation-mesh builder (astar/navmesh_build.h): libastar.mesh.NavMesh.",
    .tp_methods = NavMesh_methods,
};

/* -- the mesh finder -- */

typedef struct {
  PyObject_HEAD astar_finder *f;
  MeshObject *mesh;
} MeshFinderObject;

static void MeshFinder_dealloc(MeshFinderObject *self) {
  astar_finder_free(self->f);
  Py_XDECREF(self->mesh);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* MeshFinder(mesh, method, weight, max_expansions) */
static PyObject *MeshFinder_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"mesh", "method", "weight", "max_expansions", NULL};
  MeshObject *mesh;
  int method;
  double weight;
  unsigned long long maxexp;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!idK", kwlist, &MeshType, &mesh, &method, &weight,
                                   &maxexp))
    return NULL;
  MESH_READY(mesh, m);
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  cfg.method = (astar_method)method;
  cfg.engine.weight = weight;
  cfg.engine.max_expansions = (uint64_t)maxexp;
  const char *why = astar_finder_mesh_unsupported_reason(m, &cfg);
  if (why) return raise_status(ASTAR_UNSUPPORTED, why, NULL);
  MeshFinderObject *self = (MeshFinderObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->mesh = (MeshObject *)Py_NewRef(mesh);
  const astar_status st = astar_finder_new_mesh(&self->f, m, &cfg, NULL);
  if (st != ASTAR_OK) {
    Py_DECREF(self);
    return raise_status(
        st, st == ASTAR_INVALID_ARGUMENT ? "weight: a number in [1, 1e9] expected" : NULL, NULL);
  }
  return (PyObject *)self;
}

/* find(workspace, (sx, sy), (gx, gy)) -> finder_tuple + (corridor,) */
static PyObject *MeshFinder_find(MeshFinderObject *self, PyObject *args) {
  WorkspaceObject *ws;
  astar_vec2 s, g;
  if (!PyArg_ParseTuple(args, "O!(dd)(dd)", &WorkspaceType, &ws, &s.x, &s.y, &g.x, &g.y))
    return NULL;
  if (!self->f || !mesh_of(self->mesh)) return busy_error("the finder was cleared");
  if (take_workspace(ws) < 0) return NULL;
  if (ws_buffer(ws, 64) < 0) {
    ws->busy = 0;
    return NULL;
  }
  astar_path_result res;
  astar_status st;
  Py_ssize_t *searching = mesh_searching(self->mesh);
  (*searching)++;
  for (;;) {
    Py_BEGIN_ALLOW_THREADS st =
        astar_finder_find_points(self->f, ws->ws, s, g, ws->vecs, ws->cap, &res);
    Py_END_ALLOW_THREADS if (st != ASTAR_BUFFER_TOO_SMALL || res.length <= ws->cap) break;
    if (ws_buffer(ws, res.length) < 0) {
      (*searching)--;
      ws->busy = 0;
      return NULL;
    }
  }
  (*searching)--;
  ws->busy = 0;
  PyObject *head = finder_tuple(st, NULL, ws->vecs, &res, NULL);
  if (!head) return NULL;
  PyObject *tail = Py_BuildValue("(I)", (unsigned)res.abstract_length);
  if (!tail) {
    Py_DECREF(head);
    return NULL;
  }
  PyObject *all = PySequence_Concat(head, tail);
  Py_DECREF(head);
  Py_DECREF(tail);
  return all;
}

/* begin(workspace, (sx, sy), (gx, gy)) -> status: a sliced search on ws
** (the Python layer keeps ws taken until finish or cancel). */
static PyObject *MeshFinder_begin(MeshFinderObject *self, PyObject *args) {
  WorkspaceObject *ws;
  astar_vec2 s, g;
  if (!PyArg_ParseTuple(args, "O!(dd)(dd)", &WorkspaceType, &ws, &s.x, &s.y, &g.x, &g.y))
    return NULL;
  if (!self->f || !mesh_of(self->mesh)) return busy_error("the finder was cleared");
  if (take_workspace(ws) < 0) return NULL; /* kept until finish or cancel */
  /* Room for any path, so that the finish never has to be repeated: a
  ** taut path bends at a vertex at most once. */
  const astar_mesh *m = mesh_of(self->mesh);
  if (ws_buffer(ws, astar_mesh_vertex_count(m) + astar_mesh_polygon_count(m) + 2) < 0) {
    ws->busy = 0;
    return NULL;
  }
  Py_ssize_t *searching = mesh_searching(self->mesh);
  astar_status st;
  (*searching)++;
  Py_BEGIN_ALLOW_THREADS st = astar_finder_begin_points(self->f, ws->ws, s, g);
  Py_END_ALLOW_THREADS(*searching)--;
  return PyLong_FromLong((long)st);
}

/* step(workspace, budget) -> (status, work) */
static PyObject *MeshFinder_step(MeshFinderObject *self, PyObject *args) {
  WorkspaceObject *ws;
  unsigned long long budget;
  if (!PyArg_ParseTuple(args, "O!K", &WorkspaceType, &ws, &budget)) return NULL;
  if (!self->f || !mesh_of(self->mesh)) return busy_error("the finder was cleared");
  Py_ssize_t *searching = mesh_searching(self->mesh);
  uint64_t work = 0;
  astar_status st;
  (*searching)++;
  Py_BEGIN_ALLOW_THREADS st = astar_finder_step(ws->ws, budget, &work);
  Py_END_ALLOW_THREADS(*searching)--;
  return Py_BuildValue("(iK)", (int)st, (unsigned long long)work);
}

/* finish(workspace) -> find's tuple, or None before the end (begin made
** ws's buffer big enough for any path of the mesh). */
static PyObject *MeshFinder_finish(MeshFinderObject *self, PyObject *args) {
  WorkspaceObject *ws;
  if (!PyArg_ParseTuple(args, "O!", &WorkspaceType, &ws)) return NULL;
  astar_path_result res;
  astar_status st = astar_finder_finish_vec(ws->ws, ws->vecs, ws->cap, &res);
  if (st == ASTAR_IN_PROGRESS) Py_RETURN_NONE;
  ws->busy = 0;
  PyObject *head = finder_tuple(st, NULL, ws->vecs, &res, NULL);
  if (!head) return NULL;
  PyObject *tail = Py_BuildValue("(I)", (unsigned)res.abstract_length);
  if (!tail) {
    Py_DECREF(head);
    return NULL;
  }
  PyObject *all = PySequence_Concat(head, tail);
  Py_DECREF(head);
  Py_DECREF(tail);
  return all;
}

static PyObject *MeshFinder_mesh(MeshFinderObject *self, void *c) {
  (void)c;
  return Py_NewRef((PyObject *)self->mesh);
}

static PyMethodDef MeshFinder_methods[] = {
    {"find", (PyCFunction)MeshFinder_find, METH_VARARGS, NULL},
    {"begin", (PyCFunction)MeshFinder_begin, METH_VARARGS, NULL},
    {"step", (PyCFunction)MeshFinder_step, METH_VARARGS, NULL},
    {"finish", (PyCFunction)MeshFinder_finish, METH_VARARGS, NULL},
    {"cancel", (PyCFunction)Finder_cancel, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef MeshFinder_getset[] = {
    {"mesh", (getter)MeshFinder_mesh, NULL, "the mesh it searches", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject MeshFinderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "libastar._core.MeshFinder",
    .tp_basicsize = sizeof(MeshFinderObject),
    .tp_dealloc = (destructor)MeshFinder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A mesh finder (astar_finder_new_mesh): libastar.Finder(mesh, 'polyanya').",
    .tp_methods = MeshFinder_methods,
    .tp_getset = MeshFinder_getset,
    .tp_new = MeshFinder_new,
};

/* ---- module ------------------------------------------------------------------------ */

static PyMethodDef module_methods[] = {
    {"version", py_version, METH_NOARGS, "the C library's version"},
    {"point", py_point, METH_VARARGS, "point(p, what, strict=False) -> (x, y): a cell argument"},
    {"integer", py_integer, METH_VARARGS,
     "integer(value, what, min, max) -> int: an integer argument in [min, max]"},
    {"real", py_real, METH_VARARGS,
     "real(value, what, min, max, min_open=False) -> float: a real-number argument in [min, max] "
     "((min, max] when min_open; max inf: any finite value)"},
    {"flag", py_flag, METH_VARARGS, "flag(value, what) -> bool: a yes-or-no argument"},
    {"strerror", py_strerror, METH_O, "astar_strerror(code)"},
    {"set_error_factory", py_set_error_factory, METH_O, NULL},
    {"parse_map", py_parse_map, METH_VARARGS, NULL},
    {"parse_scen", py_parse_scen, METH_VARARGS, NULL},
    {"parse_hex", py_parse_hex, METH_VARARGS, NULL},
    {"grid_find", py_grid_find, METH_VARARGS, NULL},
    {"hex_find", py_hex_find, METH_VARARGS, NULL},
    {"implicit_find", py_implicit_find, METH_VARARGS, NULL},
    {"waypoints_find", py_waypoints_find, METH_VARARGS, NULL},
    {"waypoints_expand", py_waypoints_expand, METH_VARARGS, NULL},
    {"unsupported_reason", py_unsupported_reason, METH_VARARGS, NULL},
    {"path_cost", py_path_cost, METH_VARARGS, NULL},
    {"methods", py_methods, METH_NOARGS, "the library's method table"},
    {"method_from_name", py_method_from_name, METH_O, NULL},
    {"finder_reason", py_finder_reason, METH_VARARGS, NULL},
    {"field", py_field, METH_VARARGS, NULL},
    {"islands", py_islands, METH_VARARGS, NULL},
    {"smooth", py_smooth, METH_VARARGS, NULL},
    {"polyline_cost", py_polyline_cost, METH_VARARGS, NULL},
    {"path_encode", py_path_encode, METH_VARARGS, NULL},
    {"path_decode", py_path_decode, METH_O, NULL},
    {"turn_points", py_turn_points, METH_VARARGS, NULL},
    {"clearance_array", py_clearance_array, METH_O, NULL},
    {"grid_batch", py_grid_batch, METH_VARARGS, NULL},
    {"prep_save", py_prep_save, METH_O, NULL},
    {"prep_load", py_prep_load, METH_VARARGS, NULL},
    {"dimacs_gr", py_dimacs_gr, METH_VARARGS, NULL},
    {"dimacs_co", py_dimacs_co, METH_VARARGS, NULL},
    {"dimacs_p2p", py_dimacs_p2p, METH_VARARGS, NULL},
    {"coop_find", py_coop_find, METH_VARARGS, NULL},
    {"sipp_find", py_sipp_find, METH_VARARGS, NULL},
    {"mapf_algorithms", py_mapf_algorithms, METH_NOARGS, "the library's MAPF algorithm table"},
    {"mapf_faults", py_mapf_faults, METH_NOARGS, "the validator's fault names"},
    {"mapf_random", py_mapf_random, METH_VARARGS, NULL},
    {"mapf_check", py_mapf_check, METH_VARARGS, NULL},
    {"mapf_solve", py_mapf_solve, METH_VARARGS, NULL},
    {"mesh_read", py_mesh_read, METH_VARARGS, NULL},
    {"mesh_from_polygons", py_mesh_from_polygons, METH_VARARGS, NULL},
    {"polymap_read", py_polymap_read, METH_VARARGS, NULL},
    {"polymap_new", py_polymap_new, METH_VARARGS, NULL},
    {"navmesh_build", py_navmesh_build, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "libastar._core",
    "The C extension of libastar (use the libastar package).",
    -1,
    module_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
  PyTypeObject *types[] = {&GridType,         &WorkspaceType, &JpsPlusType,     &QueueType,
                           &HexGridType,      &WaypointsType, &PrepType,        &FinderType,
                           &BatchType,        &GraphType,     &SpaceFinderType, &SpaceLandmarksType,
                           &WaypointTableType};
  const char *names[] = {"Grid",        "Workspace",      "JpsPlus",      "Queue", "HexGrid",
                         "Waypoints",   "Prep",           "Finder",       "Batch", "Graph",
                         "SpaceFinder", "SpaceLandmarks", "WaypointTable"};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (PyType_Ready(types[i]) < 0) return NULL;
  PyObject *m = PyModule_Create(&module_def);
  if (!m) return NULL;
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (PyModule_AddObjectRef(m, names[i], (PyObject *)types[i]) < 0) goto fail;
  PyObject *names_tuple = PyTuple_New(ASTAR_STATUS_COUNT);
  if (!names_tuple) goto fail;
  for (int i = 0; i < ASTAR_STATUS_COUNT; i++) {
    PyObject *s = PyUnicode_FromString(status_names[i]);
    if (!s) {
      Py_DECREF(names_tuple);
      goto fail;
    }
    PyTuple_SET_ITEM(names_tuple, i, s);
  }
  if (PyModule_AddObject(m, "STATUS_NAMES", names_tuple) < 0) {
    Py_DECREF(names_tuple);
    goto fail;
  }
  /* The largest terrain cost and the largest option value (move costs,
  ** weight, turn penalty, heuristic floor) the library accepts. */
  const char *const limit_names[] = {"TERRAIN_MAX", "OPTION_MAX"};
  const double limits[] = {(double)ASTAR_TERRAIN_MAX, ASTAR_OPTION_MAX};
  for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
    PyObject *v = PyFloat_FromDouble(limits[i]);
    const int added = v ? PyModule_AddObjectRef(m, limit_names[i], v) : -1;
    Py_XDECREF(v);
    if (added < 0) goto fail;
  }
  if (PyModule_AddIntConstant(m, "STACK_CELLS", STACK_CELLS) < 0 ||
      PyModule_AddIntConstant(m, "GRID_MAX_SIDE", ASTAR_GRID_MAX_SIDE) < 0 ||
      PyModule_AddIntConstant(m, "GRID_MAX_CELLS", ASTAR_GRID_MAX_CELLS) < 0 ||
      PyModule_AddIntConstant(m, "SPACE_ADMISSIBLE", ASTAR_SPACE_ADMISSIBLE) < 0 ||
      PyModule_AddIntConstant(m, "SPACE_CONSISTENT", ASTAR_SPACE_CONSISTENT) < 0)
    goto fail;
  /* The planners' section (D* Lite / LPA*). */
  if (PyType_Ready(&DStarType) < 0 || PyModule_AddObjectRef(m, "DStar", (PyObject *)&DStarType) < 0)
    goto fail;
  if (PyType_Ready(&KnowledgeType) < 0 ||
      PyModule_AddObjectRef(m, "Knowledge", (PyObject *)&KnowledgeType) < 0 ||
      PyType_Ready(&LayerType) < 0 ||
      PyModule_AddObjectRef(m, "Layer", (PyObject *)&LayerType) < 0 ||
      PyType_Ready(&OverlayType) < 0 ||
      PyModule_AddObjectRef(m, "Overlay", (PyObject *)&OverlayType) < 0)
    goto fail;
  /* The space-time section. */
  PyTypeObject *st_types[] = {&ReservationsType, &STWorkspaceType, &SippType};
  const char *st_names[] = {"Reservations", "SpaceTimeWorkspace", "Sipp"};
  for (size_t i = 0; i < sizeof st_types / sizeof st_types[0]; i++)
    if (PyType_Ready(st_types[i]) < 0 ||
        PyModule_AddObjectRef(m, st_names[i], (PyObject *)st_types[i]) < 0)
      goto fail;
  /* The multi-agent section. */
  if (PyType_Ready(&MapfProblemType) < 0 ||
      PyModule_AddObjectRef(m, "MapfProblem", (PyObject *)&MapfProblemType) < 0 ||
      PyType_Ready(&MapfSolverType) < 0 ||
      PyModule_AddObjectRef(m, "MapfSolver", (PyObject *)&MapfSolverType) < 0 ||
      PyModule_AddIntConstant(m, "MAPF_MAX_AGENTS", (long)ASTAR_MAPF_MAX_AGENTS) < 0)
    goto fail;
  /* The navigation-mesh section. */
  PyTypeObject *mesh_types[] = {&MeshType, &PolyMapType, &NavMeshType, &MeshFinderType};
  const char *mesh_names[] = {"Mesh", "PolyMap", "NavMesh", "MeshFinder"};
  for (size_t i = 0; i < sizeof mesh_types / sizeof mesh_types[0]; i++)
    if (PyType_Ready(mesh_types[i]) < 0 ||
        PyModule_AddObjectRef(m, mesh_names[i], (PyObject *)mesh_types[i]) < 0)
      goto fail;
  if (PyModule_AddIntConstant(m, "NAVMESH_RADIUS_SIDES", ASTAR_NAVMESH_RADIUS_SIDES) < 0) goto fail;
  return m;
fail:
  Py_DECREF(m);
  return NULL;
}
