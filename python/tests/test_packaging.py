"""Building the package with pip (issue 25, item 23): with an interpreter
whose setuptools is older than 70.1 and which lacks the `wheel` package
(pyenv's 3.11: setuptools 65.5), `pip install --no-build-isolation` failed
with "invalid command 'bdist_wheel'". The same setup is made here offline:
a virtual environment of this interpreter without its site packages gets
pip and setuptools from ensurepip (Debian's python3-venv: setuptools 66,
no wheel). The build must stop at once with a message naming what is
missing and the interpreter to use. (The supported way -- Debian's
interpreter with python3-wheel -- is what .ci/run's python stage
installs and uses.)"""
import importlib.util
import os
import shutil
import subprocess
import sys

import pytest


@pytest.fixture(scope="module")
def bare_env(tmp_path_factory):
    """A venv with ensurepip's pip and setuptools and no wheel package, or a
    skip when this interpreter cannot make one lacking bdist_wheel."""
    if importlib.util.find_spec("ensurepip") is None:
        pytest.skip("ensurepip is missing (Debian: apt-get install python3-venv)")
    env = tmp_path_factory.mktemp("bare") / "env"
    made = subprocess.run([sys.executable, "-m", "venv", str(env)], capture_output=True,
                          text=True, timeout=300)
    if made.returncode != 0:
        pytest.skip(f"python -m venv failed: {made.stderr.strip()[-300:]}")
    py = str(env / "bin" / "python")
    probe = subprocess.run(
        [py, "-c", "import importlib.util as u, setuptools; print(setuptools.__version__, "
         "u.find_spec('wheel') is None and u.find_spec('setuptools.command.bdist_wheel') is None)"],
        capture_output=True, text=True, timeout=60)
    version, lacking = (probe.stdout.split() + ["?", "?"])[:2]
    if probe.returncode != 0 or lacking != "True":
        pytest.skip(f"ensurepip's setuptools ({version}) provides bdist_wheel here: the old "
                    "setup cannot be made")
    return py


@pytest.fixture
def sources(source_dir, tmp_path):
    """A copy of python/, src/ and include/ (pip builds in the source tree)."""
    for part in ("python", "src", "include"):
        shutil.copytree(source_dir / part, tmp_path / part,
                        ignore=shutil.ignore_patterns("build", "__pycache__", "*.egg-info"))
    return tmp_path


def test_pip_without_bdist_wheel_says_why_and_what_to_use(bare_env, sources):
    run = subprocess.run([bare_env, "-m", "pip", "install", "--no-build-isolation",
                          "--no-index", "--no-deps", str(sources / "python")],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    out = run.stdout + run.stderr
    assert run.returncode != 0, out
    assert "libastar: pip cannot build the package with this Python" in out, out
    assert "setuptools >= 70.1, or with the 'wheel' package" in out, out
    assert "/usr/bin/python3 -m venv --system-site-packages" in out, out
    # Nothing was compiled: it stopped at pip's first step.
    assert not (sources / "python" / "build").exists()


def test_setup_py_still_works_there_without_pip(bare_env, sources):
    """The stand-in only answers for bdist_wheel: setup.py's other commands
    (`setup.py build` is how `make test` builds) run as before."""
    run = subprocess.run([bare_env, "setup.py", "--name", "--version"],
                         cwd=sources / "python", capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.split()[:1] == ["libastar"], run.stdout
