"""docs/python-api-map.md stays true: every Python name it gives exists (with
the keywords and method names it shows), every function the public headers
declare is listed under its header, and the summary's counts are the tables'.
"""
import inspect
import os
import pathlib
import re

import pytest

import libastar

SOURCE = pathlib.Path(os.environ.get("ASTAR_SOURCE_DIR",
                                     pathlib.Path(__file__).resolve().parents[2]))
MAP = SOURCE / "docs" / "python-api-map.md"
HEADERS = SOURCE / "include" / "astar"
STATUSES = ("direct", "finder", "covered", "gap")

# A declaration in a public header: a line starting with its return type, the
# name, "(" -- not a comment, a directive, a typedef of a function pointer.
DECL = re.compile(r"^(?!\s*(?:\*|/\*|//|#|return\b|typedef\b))[A-Za-z_][\w \*]*?\b(astar_\w+)\s*\(",
                  re.M)
# A Python name in the map: Name(.attr)* with optional (key=value, key=) keywords.
PYNAME = re.compile(r"^(?P<path>[A-Za-z_]\w*(?:\.\w+)*)(?:\((?P<args>[^()]*)\))?$")


def _tables():
    """{header: [(c_names, python_names, status, notes)]} from the map."""
    if not MAP.exists():
        pytest.skip(f"{MAP} not found (not a checkout)")
    tables, header = {}, None
    for line in MAP.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^## (\w+)\.h$", line)
        if m:
            header = m.group(1) + ".h"
            tables[header] = []
        elif header and line.startswith("| `astar_"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            assert len(cells) == 4, f"{header}: a row needs 4 columns: {line}"
            c, py, status, notes = cells
            tables[header].append((re.findall(r"`(astar_\w+)`", c),
                                   re.findall(r"`([^`]+)`", py), status, notes))
    assert tables, "no tables found in the map"
    return tables


def _resolve(path):
    obj = libastar
    for part in path.split("."):
        assert hasattr(obj, part), f"libastar.{path}: no {part!r}"
        obj = getattr(obj, part)
    return obj


def _check_python_name(token):
    m = PYNAME.match(token)
    assert m, f"not a Python name: {token!r}"
    obj = _resolve(m.group("path"))
    if not m.group("args"):
        return   # a bare name, or a call without arguments ("Workspace()")
    params = inspect.signature(obj).parameters
    methods = {info.name for info in libastar.methods()}
    for arg in filter(None, (a.strip() for a in m.group("args").split(","))):
        key, eq, value = arg.partition("=")
        if not eq:
            continue   # a positional argument ("Finder(graph, ...)")
        assert key in params, f"{token}: {m.group('path')} takes no keyword {key!r}"
        if key in ("method", "algo") and value:
            assert value.strip("\"'") in methods, f"{token}: no method {value}"


def test_python_names_exist():
    checked = 0
    for header, rows in _tables().items():
        for c_names, py_names, status, notes in rows:
            assert status in STATUSES, f"{header} {c_names}: status {status!r}"
            if status == "gap":
                assert not py_names, f"{header} {c_names}: a gap gives no Python name"
            elif status != "covered":   # plumbing may have no Python name
                assert py_names, f"{header} {c_names}: {status} but no Python name"
            for token in py_names:
                _check_python_name(token)
                checked += 1
            # Names of the package in the notes (a capitalised libastar name,
            # or a private _core binding) are checked too.
            for token in re.findall(r"`([^`]+)`", notes):
                head = token.split(".")[0].split("(")[0]
                if token.startswith("_core."):
                    assert hasattr(libastar._core, token[6:].split("(")[0]), token
                elif head[:1].isupper() and hasattr(libastar, head) and PYNAME.match(token):
                    _check_python_name(token)
    assert checked > 100


def test_every_header_function_is_listed():
    if not HEADERS.is_dir():
        pytest.skip(f"{HEADERS} not found (not a checkout)")
    tables = _tables()
    for h in sorted(HEADERS.glob("*.h")):
        declared = set(DECL.findall(h.read_text(encoding="utf-8")))
        if not declared:
            continue   # astar.h: includes the others
        listed = [n for row in tables.get(h.name, []) for n in row[0]]
        assert h.name in tables, f"{h.name}: no table in the map"
        assert sorted(set(listed)) == sorted(listed), f"{h.name}: a function listed twice"
        missing, extra = sorted(declared - set(listed)), sorted(set(listed) - declared)
        assert not missing, f"{h.name}: not in the map: {missing}"
        assert not extra, f"{h.name}: not declared there: {extra}"


def test_summary_counts():
    rows = [row for rows in _tables().values() for row in rows]   # skips outside a checkout
    text = MAP.read_text(encoding="utf-8")
    m = re.search(r"<!-- counts: groups=(\d+) direct=(\d+) finder=(\d+) "
                  r"covered=(\d+) gap=(\d+) -->", text)
    assert m, "the summary's counts comment is missing"
    got = [len(rows)] + [sum(r[2] == s for r in rows) for s in STATUSES]
    assert got == [int(g) for g in m.groups()], f"tables count {got}"
    functions = sum(len(r[0]) for r in rows)
    for status in STATUSES:   # the summary's table: | status | groups | functions |
        want = (sum(r[2] == status for r in rows), sum(len(r[0]) for r in rows if r[2] == status))
        assert f"| {status} | {want[0]} | {want[1]} |" in text, f"summary row of {status}: {want}"
    assert f"{functions} functions" in text
    assert f"**{got[0]} groups**" in text
