"""Packaging (issue 27 item 1): the sdist is self-contained -- the C
library's sources and headers, the tests and examples with their data, the
metadata -- its setup.py builds from it alone, any interpreter with
setuptools >= 58 can build its wheel offline (even without the `wheel`
package: setup.py's own bdist_wheel), and the wheel's platform tag follows
from checks of its module (python/wheeltag.py).

The sdist tests need the repository (they make one); in an unpacked sdist
(repository/python/tests) they skip and the others run."""
import base64
import csv
import hashlib
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

PARTS = ("python", "src", "include", os.path.join("tests", "data"), "README.md",
         os.path.join("docs", "python-guide.md"),
         os.path.join("docs", "python-api-map.md"), os.path.join("bench", "python"))


def library_version(root):
    text = (root / "include" / "astar" / "base.h").read_text()
    return re.search(r'#define ASTAR_VERSION_STRING "([^"]+)"', text).group(1)


@pytest.fixture(scope="module")
def sdist(source_dir, tmp_path_factory):
    """(path of the sdist made from a copy of the repository, its members)."""
    if not (source_dir / "python" / "setup.py").is_file():
        pytest.skip("the sdist is made from the repository (this is an unpacked sdist)")
    tree = tmp_path_factory.mktemp("tree")
    for part in PARTS + (("LICENSE",) if (source_dir / "LICENSE").exists() else ()):
        src, dst = source_dir / part, tree / part
        if src.is_dir():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns(
                "build", "*.egg-info", "__pycache__", ".pytest_cache", "*.so"))
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    out = tmp_path_factory.mktemp("dist")
    run = subprocess.run([sys.executable, "setup.py", "-q", "sdist", "-d", str(out)],
                         cwd=tree / "python", capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    (path,) = out.glob("libastar-*.tar.gz")
    with tarfile.open(path) as t:
        members = t.getnames()
    return path, members


def test_sdist_holds_the_c_library(sdist, source_dir):
    path, members = sdist
    top = f"libastar-{library_version(source_dir)}"
    assert path.name == top + ".tar.gz"
    assert all(m == top or m.startswith(top + "/") for m in members), members
    assert not [m for m in members if "/../" in m or m.startswith("..")]
    names = {m[len(top) + 1:] for m in members}
    c_library = [p.relative_to(source_dir).as_posix()
                 for pattern in ("src/**/*.c", "src/**/*.h", "include/astar/*.h")
                 for p in source_dir.glob(pattern)]
    assert len(c_library) > 30
    missing = sorted(f for f in c_library if f"repository/{f}" not in names)
    assert not missing, f"C sources missing from the sdist: {missing}"


def test_sdist_holds_tests_examples_and_their_data(sdist, source_dir):
    path, members = sdist
    names = {m.split("/", 1)[1] for m in members if "/" in m}
    for required in ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in", "wheeltag.py",
                     "PKG-INFO", "src/libastar/__init__.py", "src/libastar/_core.c",
                     "src/libastar/py.typed", "repository/README.md",
                     "repository/python/README.md", "repository/docs/python-guide.md",
                     "repository/python/tests/conftest.py",
                     "repository/tests/data/small/cave64.map",
                     "repository/bench/python/compare.py",  # test_bench_script runs it
                     "repository/docs/python-api-map.md"):  # test_api_map reads it
        assert required in names, required
    for kind, pattern in (("tests", "python/tests/*.py"), ("examples", "python/examples/*.py")):
        want = {p.relative_to(source_dir).as_posix() for p in source_dir.glob(pattern)}
        assert want and not {f for f in want if f"repository/{f}" not in names}, kind
    if (source_dir / "LICENSE").exists():
        assert "LICENSE" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith((".so", ".o", ".pyc"))]


def test_sdist_metadata(sdist, source_dir):
    path, _ = sdist
    with tarfile.open(path) as t:
        top = t.getnames()[0].split("/")[0]
        pkg_info = t.extractfile(f"{top}/PKG-INFO").read().decode()
    head = pkg_info.split("\n\n")[0]
    fields = {}
    for line in head.splitlines():
        key, _, value = line.partition(": ")
        fields.setdefault(key, []).append(value)
    assert fields["Name"] == ["libastar"]
    assert fields["Version"] == [library_version(source_dir)]
    assert fields["Requires-Python"] == [">=3.9"]
    assert fields["Author"] and fields["Author"][0]
    assert fields["Description-Content-Type"] == ["text/markdown"]
    assert "# libastar for Python" in pkg_info  # the long description is python/README.md
    for c in ("Programming Language :: Python :: 3.9", "Programming Language :: C",
              "Operating System :: POSIX :: Linux", "Typing :: Typed"):
        assert c in fields["Classifier"], c
    assert (source_dir / "LICENSE").exists(), "the repository's LICENSE is missing"
    assert fields.get("License-File") == ["LICENSE"]
    assert fields.get("License") == ["MIT"]
    assert "License :: OSI Approved :: MIT License" in fields["Classifier"]


def test_unpacked_sdist_finds_its_own_copy(sdist, tmp_path):
    """setup.py of the unpacked sdist reads the version from its own
    repository/include -- even unpacked beside another libastar's include/
    -- and without it says what is missing."""
    path, _ = sdist
    with tarfile.open(path) as t:
        t.extractall(tmp_path)
    (pkg,) = tmp_path.glob("libastar-*")
    version = pkg.name.split("-", 1)[1]

    def setup_version():
        run = subprocess.run([sys.executable, "setup.py", "--version"], cwd=pkg,
                             capture_output=True, text=True, timeout=120)
        return run.returncode, run.stdout.split()[-1:], run.stdout + run.stderr

    assert setup_version()[:2] == (0, [version])
    decoy = tmp_path / "include" / "astar"  # the folder it was unpacked in, a checkout's
    decoy.mkdir(parents=True)
    (decoy / "astar.h").write_text("")
    (decoy / "base.h").write_text('#define ASTAR_VERSION_STRING "0.0.0"\n')
    assert setup_version()[:2] == (0, [version])
    shutil.rmtree(tmp_path / "include")
    shutil.rmtree(pkg / "repository" / "include")
    code, _, out = setup_version()
    assert code != 0 and "the C library's sources were not found" in out, out


# ---- a build without the `wheel` package (setup.py's minimal bdist_wheel) ------------


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


def test_pip_installs_the_sdist_without_the_wheel_package(bare_env, sdist, tmp_path):
    """With setuptools < 70.1 and no `wheel` (pyenv's 3.9 and 3.11), pip
    stopped at "invalid command 'bdist_wheel'"; setup.py's own bdist_wheel
    now makes the wheel. The library is linked from CMake's libastar.a
    (ASTAR_PREBUILT_LIB, which ctest sets) to keep this test short."""
    prebuilt = os.environ.get("ASTAR_PREBUILT_LIB", "")
    if not os.path.isfile(prebuilt):
        pytest.skip("ASTAR_PREBUILT_LIB (CMake's libastar.a) is not set: compiling the whole "
                    "library here would take a minute (.ci/run's python stage does it)")
    path, _ = sdist
    run = subprocess.run([bare_env, "-m", "pip", "install", "--no-build-isolation", "--no-index",
                          "--no-deps", "--no-cache-dir", str(path)],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path,
                         env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    assert run.returncode == 0, run.stdout + run.stderr
    code = ("import importlib.metadata as m, importlib.util as u, glob, os, sys\n"
            "d = m.distribution('libastar')\n"
            "print(d.version); print(d.metadata['Requires-Python'])\n"
            "print(d.read_text('WHEEL'))\n"
            "print(sorted(d.requires or []))\n"
            "so = [str(f.locate()) for f in d.files if f.name.endswith('.so')][0]\n"
            "spec = u.spec_from_file_location('libastar._core', so)\n"
            "core = u.module_from_spec(spec); spec.loader.exec_module(core)\n"
            "print('core', core.version())\n")
    shown = subprocess.run([bare_env, "-c", code], capture_output=True, text=True, timeout=60,
                           cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    version = path.name[len("libastar-"):-len(".tar.gz")]
    assert out.splitlines()[:2] == [version, ">=3.9"], out
    tag = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    assert re.search(rf"^Tag: {tag}-{tag}\w*-linux_\w+$", out, re.M), out
    assert "Root-Is-Purelib: false" in out
    assert "'numpy'" in out and 'pytest; extra == "test"' in out, out
    assert f"core {version}" in out


def test_setup_py_still_works_there_without_pip(bare_env, source_dir):
    """setup.py's other commands (`setup.py build` is how `make test`
    builds) run there as before."""
    if not (source_dir / "python" / "setup.py").is_file():
        pytest.skip("needs the repository")
    run = subprocess.run([bare_env, "setup.py", "--name", "--version"],
                         cwd=source_dir / "python", capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.split()[:1] == ["libastar"], run.stdout


# ---- the wheel's platform tag (python/wheeltag.py) --------------------------------------


@pytest.fixture(scope="module")
def wheeltag(source_dir):
    for path in (source_dir / "python" / "wheeltag.py", source_dir.parent / "wheeltag.py"):
        if path.is_file():
            spec = importlib.util.spec_from_file_location("wheeltag", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
    pytest.skip("wheeltag.py not found")


def facts(**kw):
    base = {"machine": "x86_64", "needed": ["libm.so.6", "libc.so.6"], "rpath": [],
            "versions": {"libc.so.6": ["GLIBC_2.2.5", "GLIBC_2.14"], "libm.so.6": ["GLIBC_2.2.5"]}}
    return {**base, **kw}


def test_manylinux_verdict(wheeltag):
    v = wheeltag.manylinux_verdict
    assert v(facts(), "x86_64") == (17, [])
    assert wheeltag.platform_tags(17, "x86_64") == ["manylinux_2_17_x86_64",
                                                    "manylinux2014_x86_64"]
    assert v(facts(versions={"libc.so.6": ["GLIBC_2.34", "GLIBC_2.4"]}), "x86_64") == (34, [])
    assert wheeltag.platform_tags(34, "x86_64") == ["manylinux_2_34_x86_64"]
    for bad, why in ((facts(needed=["libc.so.6", "libpng16.so.16"]), "libpng16.so.16"),
                     (facts(rpath=["$ORIGIN/lib"]), "RPATH"),
                     (facts(machine="aarch64"), "machine"),
                     (facts(versions={"libstdc++.so.6": ["GLIBCXX_3.4.30"]}), "GLIBCXX_3.4.30")):
        glibc, problems = v(bad, "x86_64")
        assert glibc is None and any(why in p for p in problems), (bad, problems)
    assert v(facts(needed=["libc.so.6", "ld-linux-x86-64.so.2"]), "x86_64")[0] == 17


def make_wheel(path, files):
    record = io.StringIO()
    w = csv.writer(record, lineterminator="\n")
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            w.writerow([name, "sha256=" + digest.decode(), len(data)])
        w.writerow(["libastar-0.1.0.dist-info/RECORD", "", ""])
        z.writestr("libastar-0.1.0.dist-info/RECORD", record.getvalue())


def test_the_built_module_and_the_retag(wheeltag, tmp_path):
    """The module this suite imports, in a wheel: the checks pass, the tag
    names a glibc no newer than this system's (or, for a module with an
    RPATH, no tag and the reason), and the retagged wheel's name, WHEEL
    and RECORD agree."""
    if shutil.which("readelf") is None:
        pytest.skip("readelf (binutils) is missing")
    from libastar import _core
    arch = os.uname().machine
    wheel = tmp_path / f"libastar-0.1.0-cp3-cp3-linux_{arch}.whl"
    make_wheel(wheel, {
        "libastar/_core.so": open(_core.__file__, "rb").read(),
        "libastar-0.1.0.dist-info/WHEEL":
            f"Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: cp3-cp3-linux_{arch}\n".encode(),
    })
    tags, lines = wheeltag.check_wheel(str(wheel))
    if wheeltag.elf_facts(_core.__file__)["rpath"]:
        # pyenv's interpreters link extensions with -rpath to their own
        # lib/: no manylinux tag for such a module, and the check says why.
        assert tags is None and any("RPATH" in line for line in lines), lines
        tags = [f"manylinux_2_34_{arch}"]  # the retag is checked all the same
    else:
        assert tags, lines
        glibc = int(tags[0].split("_")[2])
        system = os.confstr("CS_GNU_LIBC_VERSION").split()[-1]  # "glibc 2.36"
        assert 17 <= glibc <= int(system.split(".")[1]), (tags, system)
    new = wheeltag.retag(str(wheel), tags)
    assert os.path.basename(new) == f"libastar-0.1.0-cp3-cp3-{'.'.join(tags)}.whl"
    assert not wheel.exists()
    with zipfile.ZipFile(new) as z:
        text = z.read("libastar-0.1.0.dist-info/WHEEL").decode()
        assert [l for l in text.splitlines() if l.startswith("Tag:")] == [
            f"Tag: cp3-cp3-{t}" for t in tags]
        for name, digest, size in csv.reader(io.StringIO(
                z.read("libastar-0.1.0.dist-info/RECORD").decode())):
            if digest:
                data = z.read(name)
                assert int(size) == len(data), name
                assert digest == "sha256=" + base64.urlsafe_b64encode(
                    hashlib.sha256(data).digest()).rstrip(b"=").decode(), name


def test_wheeltag_refuses_what_is_not_a_linux_wheel(wheeltag, tmp_path, capsys):
    assert wheeltag.main([str(tmp_path / "nothing.whl")]) == 2
    assert "not a wheel file" in capsys.readouterr().err
    wheel = tmp_path / "libastar-0.1.0-cp3-cp3-macosx_11_0_arm64.whl"
    make_wheel(wheel, {"libastar/__init__.py": b""})
    assert wheeltag.main([str(wheel), "--check"]) == 1
    assert "not linux_ARCH" in capsys.readouterr().out


# ---- Python 3.9 ---------------------------------------------------------------------------


def python_files(source_dir):
    package = source_dir / "python" / "src" / "libastar"
    if not package.is_dir():  # an unpacked sdist: the installed package
        import libastar
        package = __import__("pathlib").Path(libastar.__file__).parent
    return sorted(package.glob("*.py")) + sorted((source_dir / "python" / "examples").glob("*.py"))


def test_the_package_is_python_3_9_code(source_dir):
    """python_requires is >= 3.9 and pyenv's 3.9 has no NumPy to run the
    suite with: the package's modules and examples are checked here for
    what 3.9 cannot run -- 3.10 syntax (match, ...: ast's feature_version),
    `X | Y` of types evaluated at run time, and `X | Y` in annotations
    without `from __future__ import annotations`."""
    import ast
    files = python_files(source_dir)
    assert any(f.name == "__init__.py" for f in files)
    problems = []
    for path in files:
        src = path.read_text()
        try:
            tree = ast.parse(src, str(path), feature_version=(3, 9))
        except SyntaxError as e:
            problems.append(f"{path.name}:{e.lineno}: not Python 3.9 syntax: {e.msg}")
            continue
        future = any(isinstance(n, ast.ImportFrom) and n.module == "__future__"
                     and any(a.name == "annotations" for a in n.names) for n in tree.body)
        in_annotation = set()
        for node in ast.walk(tree):
            for field in ("annotation", "returns"):
                sub = getattr(node, field, None)
                if sub is not None:
                    in_annotation.update(id(x) for x in ast.walk(sub))

        def typelike(n):  # None, X[...], a class name (not a CONSTANT), a builtin type
            return ((isinstance(n, ast.Constant) and n.value is None)
                    or isinstance(n, ast.Subscript)
                    or (isinstance(n, ast.Name) and (
                        (n.id[:1].isupper() and not n.id.isupper())
                        or n.id in ("int", "float", "str", "bytes", "bool", "list", "dict",
                                    "tuple"))))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr)):
                continue
            if not (typelike(node.left) or typelike(node.right)):
                continue
            if id(node) not in in_annotation:
                problems.append(f"{path.name}:{node.lineno}: X | Y of types at run time "
                                "(Python 3.10; use typing.Union / Optional)")
            elif not future:
                problems.append(f"{path.name}:{node.lineno}: X | Y in an annotation needs "
                                "`from __future__ import annotations` on Python 3.9")
    assert not problems, "\n".join(problems)
