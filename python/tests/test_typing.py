"""Type information (issue 27 part 3): mypy flags a misspelled or mistyped
option, the package passes mypy (strict but for bare generics and Any
returns), the examples pass it, and the stub of the C extension agrees with
it. Skipped when mypy is missing (CI installs python3-mypy)."""
import ast
import importlib.util
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

import libastar
from libastar import _core


PACKAGE = pathlib.Path(libastar.__file__).resolve().parent
EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"
# What the package passes: --strict but for bare generic types (tuple,
# dict, np.ndarray) and functions returning what the C extension gives as Any.
PACKAGE_FLAGS = ["--strict", "--allow-any-generics", "--no-warn-return-any"]


@pytest.fixture(scope="module")
def mypy(tmp_path_factory):
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (apt-get install python3-mypy)")
    cache = tmp_path_factory.mktemp("mypy-cache")
    config = cache / "mypy.ini"   # none of the project's or the user's
    # The package seen as a user sees an installed one: checked as strictly
    # as it passes (PACKAGE_FLAGS), whatever the flags for the user's code.
    config.write_text("[mypy]\n[mypy-libastar.*]\ndisallow_any_generics = False\n"
                      "warn_return_any = False\n")

    # A package imported from a build folder (PYTHONPATH) is shown to mypy
    # through MYPYPATH; an installed one (site-packages: the sdist's test run
    # in CI) mypy finds by itself, and refuses site-packages in MYPYPATH.
    installed = PACKAGE.parent.name in ("site-packages", "dist-packages")
    env = dict(os.environ)
    if not installed:
        env["MYPYPATH"] = str(PACKAGE.parent)

    def run(*args, cwd=None):
        r = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache),
                            "--config-file", str(config),
                            "--no-error-summary", "--show-error-codes", *map(str, args)],
                           capture_output=True, text=True, env=env, cwd=cwd, timeout=600,
                           check=False)
        return r.returncode, r.stdout + r.stderr

    return run


def check(mypy, tmp_path, code, *flags):
    f = tmp_path / "snippet.py"
    f.write_text(textwrap.dedent(code))
    return mypy(*flags, f, cwd=tmp_path)


def test_a_misspelled_option_is_flagged(mypy, tmp_path):
    rc, out = check(mypy, tmp_path, """
        import numpy as np
        import libastar

        grid = libastar.Grid.from_mask(np.ones((8, 8), dtype=bool))
        grid.find_path((0, 0), (7, 7), algo="jps", heuristc="octile")
        grid.find_path((0, 0), (7, 7), moves="8")
        grid.path_cost([(0, 0), (1, 1)], corner_rule="never")
        libastar.Finder(grid, "astar", wieght=1.5)
        libastar.Options(max_expansion=10)
        libastar.Queue(grid).submit((0, 0), (7, 7), partal=True)
        libastar.HexGrid(4, 4).find_path((0, 0), (3, 3), beam_widht=8)
        libastar.Grid.from_occupancy(np.zeros((2, 2), np.int8), treshold=50)
        grid.distance_field((0, 0), move=4)
        libastar.DStarLite(grid, (0, 0), (7, 7), corners="never")
        libastar.Landmarks.load(grid, b"", move=4)
        libastar.WaypointTable(grid, "doors", straigth_cost=2.0)
    """)
    assert rc == 1, out
    lines = out.splitlines()
    for line, name in [(6, "heuristc"), (8, "corner_rule"), (9, "wieght"), (10, "max_expansion"),
                       (11, "partal"), (12, "beam_widht"), (13, "treshold"), (14, "move"),
                       (15, "corners"), (16, "move"), (17, "straigth_cost")]:
        assert any(f"snippet.py:{line}:" in e and f'Unexpected keyword argument "{name}"' in e
                   for e in lines), (name, out)
    assert any("snippet.py:7:" in e and '"moves"' in e and "[arg-type]" in e for e in lines), out


def test_the_right_spelling_passes_strict(mypy, tmp_path):
    rc, out = check(mypy, tmp_path, """
        import numpy as np
        import libastar

        grid = libastar.Grid.from_occupancy(np.zeros((8, 8), np.int8), threshold=50,
                                            unknown="free", order="rc")
        path = grid.find_path((0, 0), (7, 7), algo="jps", heuristic="octile",
                              options=libastar.Options(moves=8), order="rc")
        rows: int = int(path.rc[:, 0].max())
        cost: float = path.cost + grid.path_cost(path.cells, corner="no-cut")
        finder = libastar.Finder(grid, "astar", weight=1.5)
        with libastar.Workspace() as ws:
            finder.find(libastar.RC(0, 0), libastar.XY(7, 7), workspace=ws)
        freed: int = libastar.release_memory() + libastar.thread_workspace().nbytes
        status: libastar.Status = libastar.Status.NO_PATH
        paths: list[libastar.Path] = finder.find_many([(0, 0)], [(7, 7)], threads=2, order="rc")
        worst: float = float(finder.find_many([(0, 0)], [(7, 7)], costs_only=True).max())
        lm = libastar.Landmarks.load(grid, libastar.Landmarks(grid).save(), moves=8)
        table = libastar.WaypointTable(grid, "coarse", tile=4, corner="never")
        road = libastar.Graph(3, [0, 1], [1, 2], [1.0, 1.0])
        nodes = libastar.Finder(road, "dijkstra").find(0, 2)
        hexes = libastar.Finder(libastar.HexGrid(4, 4), "astar").find((0, 0), (3, 3))
    """, "--strict")
    assert rc == 0, out


def test_the_package_passes_mypy(mypy):
    rc, out = mypy(*PACKAGE_FLAGS, "-p", "libastar")
    assert rc == 0, out


def test_the_examples_pass_mypy(mypy):
    """Every example with its untyped functions' bodies checked (what
    catches a misspelled option there); the NumPy recipes --strict."""
    rc, out = mypy("--check-untyped-defs",
                   *sorted(EXAMPLES.glob("*.py")))
    assert rc == 0, out
    strict = [EXAMPLES / f for f in ("occupancy_grid.py", "cost_map.py", "memory.py")]
    strict = [f for f in strict if f.exists()]
    if strict:
        rc, out = mypy("--strict", *strict)
        assert rc == 0, out


def test_status_members_agree_with_the_library():
    """The TYPE_CHECKING copy of Status lists _core.STATUS_NAMES."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "Status":
            names = [t.targets[0].id for t in node.body if isinstance(t, ast.Assign)]
            values = [t.value.value for t in node.body if isinstance(t, ast.Assign)]
            break
    else:
        pytest.fail("no class Status in __init__.py")
    assert names == list(_core.STATUS_NAMES) and values == list(range(len(names)))
    assert [s.name for s in libastar.Status] == names


def test_the_stub_names_exist():
    """Every name _core.pyi declares is in the extension (a stale stub
    would type-check calls that fail)."""
    stub = ast.parse((PACKAGE / "_core.pyi").read_text())
    for node in stub.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and node.name != "__getattr__":
            assert hasattr(_core, node.name), node.name
            if isinstance(node, ast.ClassDef):
                for m in node.body:
                    if isinstance(m, ast.FunctionDef):
                        assert hasattr(getattr(_core, node.name), m.name), (node.name, m.name)
        elif isinstance(node, ast.AnnAssign) and not node.target.id.startswith("_"):
            assert hasattr(_core, node.target.id), node.target.id


def test_option_keywords_are_listed_in_order():
    """The typed keywords are read back by position (libastar._given zips
    them with the names): every signature lists them in Options' order,
    and none takes **kwargs any more."""
    import inspect

    names = libastar.OPTION_NAMES
    rules = libastar.RULE_NAMES
    for fn, want in [(libastar.Grid.find_path, names), (libastar.Grid.find_path_any, names),
                     (libastar.Grid.path_cost, names), (libastar.Grid.unsupported_reason, names),
                     (libastar.Options.replace, names), (libastar.Queue.submit, names),
                     (libastar.JpsPlus.find_path, names[1:]), (libastar.Finder.__init__, names[1:]),
                     (libastar.Cpd.__new__, rules), (libastar.Hpa.__new__, rules),
                     (libastar.Landmarks.__new__, rules), (libastar.Field.__init__, names),
                     (libastar.Cpd.load, rules), (libastar.Hpa.load, rules),
                     (libastar.Landmarks.load, rules), (libastar.WaypointTable.__new__, rules),
                     (libastar.Grid.distance_field, names), (libastar.Grid.smooth, names),
                     (libastar.DStarLite.__init__, names), (libastar.Islands.__init__, names)]:
        params = inspect.signature(fn).parameters
        assert [p for p in params if p in names] == list(want), fn.__qualname__
        assert not any(p.kind == p.VAR_KEYWORD for p in params.values()), fn.__qualname__
    g = libastar.Grid(8, 8)
    assert g.find_path((0, 0), (7, 7), options=libastar.Options(moves=4)).cost == 14
    assert g.find_path((0, 0), (7, 7), options=libastar.Options(moves=4), moves=8).cost < 14
    assert libastar.Options(moves=4).replace(corner="never") == libastar.Options(
        moves=4, corner="never")
