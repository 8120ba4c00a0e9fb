#!/usr/bin/env python3
"""check_docs.py -- the documentation says what the tree holds.

    check_docs.py headers ROOT     every public header is in the umbrella
                                   header (its #includes and its own list)
                                   and in README.md's header table, and
                                   every example program is named there
    check_docs.py contracts ROOT   every object of the public API states,
                                   at its declaration, what it retains and
                                   its thread safety, and has a row in
                                   README.md's object table

The objects are found in the headers, not listed here, so that a new one
cannot slip through: every type a constructor hands out (`astar_status
f(T **out, ...)`), every struct an `astar_*_init` function prepares in
caller storage (a non-const `T *` parameter of a status-returning init),
and every type named in README.md's object table. The statement of type T
is the comment directly above its declaration -- the line `typedef struct
T T;` or `typedef struct T {` in the header that builds T or defines its
fields, or, for a type only forward-declared there, above its first
constructor -- and must hold "Retains:" and "Thread safety:" (astar/base.h
explains the form).

Prints one line per check and "N passed, M failed"; exits 1 when a check
failed, 2 on bad usage. Standard library only.
"""
import glob
import os
import re
import sys

passed = 0
failed = 0


def ok(msg):
    global passed
    passed += 1
    print("ok   " + msg)


def fail(msg):
    global failed
    failed += 1
    print("FAIL " + msg)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def headers(root):
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(root, "include/astar/*.h")))


def readme_table(readme, first_cell):
    """Rows of the Markdown table whose header row starts with `first_cell`:
    a list of lists of cells (header and separator rows left out)."""
    rows, on = [], False
    for line in readme.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not on:
            if line.startswith("|") and cells and cells[0] == first_cell:
                on = True
            continue
        if not line.startswith("|"):
            break
        if set(cells[0]) <= set("-: "):
            continue
        rows.append(cells)
    return rows


def check_list(what, found, want):
    missing = sorted(set(want) - set(found))
    extra = sorted(set(found) - set(want))
    if not missing and not extra:
        ok("%s: all %d" % (what, len(want)))
        return
    if missing:
        fail("%s: missing %s" % (what, ", ".join(missing)))
    if extra:
        fail("%s: names what does not exist: %s" % (what, ", ".join(extra)))


def cmd_headers(root):
    hs = headers(root)
    others = [h for h in hs if h != "astar.h"]
    umbrella = read(os.path.join(root, "include/astar/astar.h"))
    check_list("astar.h #includes every other header",
               re.findall(r'^#include "([\w.]+\.h)"', umbrella, re.M), others)
    top = umbrella.split("*/", 1)[0]
    check_list("astar.h's list (its top comment) names every other header",
               re.findall(r"^\*\*\s+([\w]+\.h)\s", top, re.M), others)

    readme = read(os.path.join(root, "README.md"))
    rows = readme_table(readme, "header")
    names = []
    for r in rows:
        m = re.fullmatch(r"`astar/([\w]+\.h)`", r[0])
        if m:
            names.append(m.group(1))
        else:
            fail("README header table: a row that is not `astar/NAME.h`: %s" % r[0])
    if not rows:
        fail("README.md has no table whose first column is 'header'")
    check_list("README header table lists every header of include/astar", names, hs)

    progs = sorted(os.path.relpath(p, root).replace(os.sep, "/")
                   for pat in ("examples/*.c", "examples/cpp/*.cpp")
                   for p in glob.glob(os.path.join(root, pat)))
    named = [p for p in progs if p in readme]
    check_list("README.md names every example program", named, progs)


def comment_above(lines, i):
    """The text of the comment lines directly above line i (no blank line
    between), their /* ** */ markers gone and lines joined by one space."""
    j = i - 1
    block = []
    while j >= 0:
        s = lines[j].strip()
        if s.startswith("/*") or s.startswith("*"):
            s = re.sub(r"^(/\*+|\*+/?)|\*/$", "", s).strip()
            block.insert(0, s)
            j -= 1
        else:
            break
    return " ".join(w for w in block if w)


def cmd_contracts(root):
    texts = {h: read(os.path.join(root, "include/astar", h)) for h in headers(root)}
    code = {h: re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), t, flags=re.S)
            for h, t in texts.items()}

    ctor = r"ASTAR_API\s+astar_status\s+astar_\w+\s*\(\s*%s\s*\*\s*\*\s*\w+"
    # Public structs with a pointer among their fields: prepared by an init
    # function, such a struct refers to memory it does not own.
    refers = set()
    for c in code.values():
        for name, body in re.findall(r"typedef\s+struct\s+(astar_\w+)\s*\{([^}]*)\}", c):
            if "*" in body:
                refers.add(name)

    objects = {}  # type -> how it was found
    for h, c in code.items():
        for t in re.findall(ctor % r"(astar_\w+)", c):
            objects.setdefault(t, "constructor in %s" % h)
        for params in re.findall(r"ASTAR_API\s+astar_status\s+astar_\w+_init\s*\(([^)]*)\)", c):
            for p in params.split(","):
                m = re.fullmatch(r"\s*(astar_\w+)\s*\*\s*\w+\s*", p)
                if m and m.group(1) in refers:
                    objects.setdefault(m.group(1), "prepared by an _init in %s" % h)

    readme = read(os.path.join(root, "README.md"))
    rows = readme_table(readme, "object")
    if not rows:
        fail("README.md has no table whose first column is 'object'")
    table = {}
    for r in rows:
        m = re.fullmatch(r"`(astar_\w+)`", r[0])
        if not m or len(r) < 3 or not r[1] or not r[2]:
            fail("README object table: a row that is not `astar_TYPE` | retains | threads: %s"
                 % " | ".join(r))
            continue
        table[m.group(1)] = r
        objects.setdefault(m.group(1), "README.md's object table")

    for t in sorted(objects):
        typedef = re.compile(r"^typedef\s+struct\s+%s\b(\s*\{|\s+%s\s*;)" % (t, t), re.M)
        make = re.compile(ctor % t)
        place = None
        for h in sorted(code):
            c = code[h]
            m = typedef.search(c)
            if m and (m.group(1).strip() == "{" or make.search(c)):
                place = (h, m.start())
                break
        if place is None:  # forward-declared elsewhere: its first constructor
            for h in sorted(code):
                m = make.search(code[h])
                if m:
                    place = (h, code[h].rfind("\n", 0, m.start()) + 1)
                    break
        if place is None:
            fail("%s (%s): no declaration found in include/astar" % (t, objects[t]))
            continue
        h, pos = place
        lines = texts[h].splitlines()
        line = texts[h].count("\n", 0, pos)
        doc = comment_above(lines, line)
        where = "include/astar/%s:%d" % (h, line + 1)
        lacks = [w for w in ("Retains:", "Thread safety:") if w not in doc]
        if lacks:
            fail("%s (%s): the comment above its declaration at %s lacks %s"
                 % (t, objects[t], where, " and ".join('"%s"' % w for w in lacks)))
        else:
            ok("%s: retains and thread safety stated at %s" % (t, where))
        if t not in table:
            fail("%s: no row in README.md's object table" % t)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("headers", "contracts"):
        print("usage: check_docs.py headers|contracts REPO_ROOT", file=sys.stderr)
        return 2
    root = sys.argv[2]
    (cmd_headers if sys.argv[1] == "headers" else cmd_contracts)(root)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
