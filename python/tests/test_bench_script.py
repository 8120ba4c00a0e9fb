"""bench/python/compare.py (the guide's "How fast" table) still runs: its
--quick mode (small maps, a few queries, one round) measures every peer that
is installed and its correctness checks pass -- every path legal under its
library's rule, every cost equal to libastar A*'s. Skipped without the peers
(SciPy, scikit-image); networkx and igraph are measured when present."""
import importlib.util
import json
import os
import subprocess
import sys

import pytest

PEERS = ("scipy", "skimage")


@pytest.mark.skipif(any(importlib.util.find_spec(p) is None for p in PEERS),
                    reason="compare.py's peers are not installed (python3-scipy, python3-skimage)")
def test_compare_quick(source_dir, tmp_path):
    script = source_dir / "bench" / "python" / "compare.py"
    out = tmp_path / "figures.json"
    env = dict(os.environ)
    env.setdefault("ASTAR_MOVINGAI", str(source_dir.parent / "shared" / "bench" / "movingai"))
    r = subprocess.run([sys.executable, str(script), "--quick", "--json", str(out)],
                       capture_output=True, text=True, timeout=120, env=env, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "every cost agrees" in r.stdout
    figures = json.loads(out.read_text())
    assert figures["problems"] == []
    maps = {m["name"]: m for m in figures["maps"]}
    assert {"random64", "open128"} <= set(maps)
    for m in maps.values():
        rows = {row["name"]: row for row in m["rows"]}
        assert all(row["ok"] for row in rows.values()), m["name"]
        # each installed peer ran and was checked, with a ratio against libastar
        assert rows["scipy csgraph.dijkstra"]["ratio"] > 0
        assert rows["scikit-image MCP_Geometric (reused)"]["ratio"] > 0
        for name, module in (("networkx astar_path", "networkx"),
                             ("igraph get_shortest_paths", "igraph")):
            if importlib.util.find_spec(module) is not None:
                assert rows[name]["ok"], (m["name"], name)
        assert m["batch"]["loop"] > 0
