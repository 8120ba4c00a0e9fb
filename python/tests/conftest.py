"""Shared fixtures of the libastar Python tests.

Environment (tests/python/run.sh sets it when run by ctest):
  ASTAR_SOURCE_DIR         the repository (default: two folders above this file)
  ASTAR_TOOL               the astar tool, for the parity tests (default:
                           SOURCE/build/astar; skipped when absent)
  ASTAR_MOVINGAI           the Moving AI folder (default: SOURCE/../shared/bench/movingai)
  ASTAR_REQUIRE_MOVINGAI=1 fail instead of skipping when it is absent
"""
import os
import pathlib

import pytest

SOURCE = pathlib.Path(os.environ.get("ASTAR_SOURCE_DIR",
                                     pathlib.Path(__file__).resolve().parents[2]))

_report_lines = []


@pytest.fixture(scope="session")
def source_dir() -> pathlib.Path:
    return SOURCE


@pytest.fixture(scope="session")
def data_dir() -> pathlib.Path:
    return SOURCE / "tests" / "data"


@pytest.fixture(scope="session")
def tool() -> str:
    path = os.environ.get("ASTAR_TOOL") or str(SOURCE / "build" / "astar")
    if not os.access(path, os.X_OK):
        pytest.skip(f"the astar tool is not built ({path}); set ASTAR_TOOL")
    return path


@pytest.fixture(scope="session")
def movingai() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("ASTAR_MOVINGAI",
                                       SOURCE.parent / "shared" / "bench" / "movingai"))
    if not any(path.glob("*/*.map.scen")):
        message = (f"Moving AI benchmark data not found at {path} (shared/bench/movingai "
                   "beside the repository, or ASTAR_MOVINGAI)")
        if os.environ.get("ASTAR_REQUIRE_MOVINGAI") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture
def report():
    """report(line): printed in the summary at the end of the run (measurements)."""
    return _report_lines.append


def pytest_terminal_summary(terminalreporter):
    if _report_lines:
        terminalreporter.section("measurements")
        for line in _report_lines:
            terminalreporter.write_line(line)


def parse_solve(text: str) -> dict:
    """The report of `astar solve --no-picture`: status sentence, cost,
    expanded, path (list of (x, y)), reached cell."""
    import re
    out = {"path": []}
    in_path = False
    for line in text.splitlines():
        if line.startswith("path:"):
            in_path = True
            line = line[5:]
        elif in_path and line.startswith("          "):
            pass
        else:
            in_path = False
            key, _, value = line.partition(":")
            out[key.strip()] = value.strip()
            continue
        out["path"] += [(int(x), int(y)) for x, y in re.findall(r"\((-?\d+),(-?\d+)\)", line)]
    if "cost" in out:
        out["cost"] = float(out["cost"].split()[0])
    if "waypoints" in out:  # --space waypoints: "N (M segments): (x,y) ..."
        out["waypoints"] = [(int(x), int(y))
                            for x, y in re.findall(r"\((-?\d+),(-?\d+)\)", out["waypoints"])]
    m = re.search(r"expanded (\d+)", out.get("work", ""))
    out["expanded"] = int(m.group(1)) if m else None
    return out


@pytest.fixture(scope="session")
def solve(tool):
    """solve(map_path, start, goal, *args) -> parse_solve of `astar solve` (exit status in 'rc')."""
    import subprocess

    def run(map_path, start, goal, *args):
        cmd = [tool, "solve", str(map_path), str(start[0]), str(start[1]), str(goal[0]),
               str(goal[1]), "--no-picture", *map(str, args)]
        r = subprocess.run(cmd, capture_output=True, text=True, check=False)
        out = parse_solve(r.stdout)
        out["rc"] = r.returncode
        out["stderr"] = r.stderr
        return out

    return run
