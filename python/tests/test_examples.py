"""The examples (python/examples/*.py) run, and the Python snippets of
python/README.md and of the top README run, in order, as a reader would."""
import os
import pathlib
import re
import subprocess
import sys

import pytest

EXAMPLES = sorted((pathlib.Path(__file__).resolve().parents[1] / "examples").glob("*.py"))


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_example_runs(example):
    r = subprocess.run([sys.executable, str(example)], capture_output=True, text=True,
                       timeout=120, env=dict(os.environ), check=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip()


def python_blocks(markdown: str, section: str = None):
    if section is not None:
        start = markdown.index(section)
        end = markdown.find("\n## ", start + len(section))
        markdown = markdown[start:end if end > 0 else None]
    return re.findall(r"```python\n(.*?)```", markdown, re.S)


@pytest.mark.parametrize("readme,section", [("python/README.md", None), ("README.md", "## Python")])
def test_readme_snippets_run(source_dir, readme, section, monkeypatch, capsys):
    blocks = python_blocks((source_dir / readme).read_text(), section)
    assert blocks, f"no python snippet in {readme}"
    monkeypatch.chdir(source_dir)
    namespace = {"__name__": "__readme__"}
    for block in blocks:
        exec(compile(block, readme, "exec"), namespace)  # noqa: S102 - the README's own code
    out = capsys.readouterr().out
    assert out
    # the comments that show output agree with it
    for expected in re.findall(r"# (GOAL_BLOCKED 4 the goal cell is blocked)", "\n".join(blocks)):
        assert expected in out
