#!/usr/bin/env python3
"""tests/ports/recipes.py -- reads the vcpkg port and the Conan recipe for
tests/ports/check.sh, without vcpkg or Conan (neither is reachable in CI).

  recipes.py vcpkg-manifest ROOT         checks ports/vcpkg/libastar/vcpkg.json
                                         against vcpkg's manifest rules
  recipes.py conan-attributes ROOT       imports ports/conan/conanfile.py with a
                                         stand-in `conan` module (below) and checks
                                         its declared attributes and set_version()
  recipes.py conan-cmake ROOT OPT=VAL..  the -D options the recipe's generate()
                                         gives CMake for those options (read from
                                         its source with ast: not Conan)
  recipes.py conan-package ROOT          what package() removes from and copies
                                         into the package folder (ast again)

The stand-in `conan` package only lets the recipe be imported so that its
class attributes can be read: it runs no build, resolves nothing, and is NOT
a test of the recipe under Conan (docs/packaging.md says what was run with
the real Conan and how).
"""
import ast
import json
import os
import re
import sys
import types

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def base_version(root):
    with open(os.path.join(root, "include", "astar", "base.h"), encoding="utf-8") as f:
        m = re.search(r'^#define ASTAR_VERSION_STRING "([^"]*)"', f.read(), re.MULTILINE)
    return m.group(1) if m else None


# --- vcpkg ------------------------------------------------------------------
# vcpkg's rules (its manifest documentation): port and feature names are
# lowercase alphanumerics separated by single hyphens, not reserved words;
# "version" is dot-separated non-negative integers without leading zeros
# (the relaxed scheme); dependencies are names or objects with "name".
NAME_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
RESERVED = {"prn", "aux", "nul", "con", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7",
            "lpt8", "lpt9", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
            "com9", "core", "default"}
VERSION_RE = re.compile(r"^(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*$")
MANIFEST_KEYS = {"$schema", "$comment", "name", "version", "version-semver", "version-date",
                 "version-string", "port-version", "maintainers", "description", "homepage",
                 "documentation", "license", "supports", "dependencies", "default-features",
                 "features", "overrides", "builtin-baseline", "vcpkg-configuration"}
DEP_KEYS = {"$comment", "name", "host", "features", "default-features", "platform", "version>="}
FEATURE_KEYS = {"$comment", "description", "dependencies", "supports", "license"}


def valid_name(name):
    return isinstance(name, str) and bool(NAME_RE.match(name)) and name not in RESERVED


def check_deps(deps, where):
    ok = isinstance(deps, list)
    for d in deps if ok else []:
        if isinstance(d, str):
            ok &= valid_name(d)
        elif isinstance(d, dict):
            ok &= valid_name(d.get("name")) and set(d) <= DEP_KEYS
            ok &= all(valid_name(f if isinstance(f, str) else f.get("name"))
                      for f in d.get("features", []))
        else:
            ok = False
    check(ok, f"vcpkg.json {where}: dependencies are valid names or objects")


def vcpkg_manifest(root):
    port = os.path.join(root, "ports", "vcpkg", "libastar")
    with open(os.path.join(port, "vcpkg.json"), encoding="utf-8") as f:
        m = json.load(f)
    check(set(m) <= MANIFEST_KEYS, f"vcpkg.json: only known keys ({sorted(set(m) - MANIFEST_KEYS)})")
    check(m.get("name") == "libastar" and valid_name(m["name"]),
          "vcpkg.json: name is libastar, the port folder's name")
    schemes = [k for k in ("version", "version-semver", "version-date", "version-string") if k in m]
    check(schemes == ["version"], "vcpkg.json: exactly one version field, the relaxed 'version'")
    check(bool(VERSION_RE.match(str(m.get("version", "")))), "vcpkg.json: version is N(.N)*")
    check(m.get("version") == base_version(root),
          f"vcpkg.json: version {m.get('version')} is base.h's {base_version(root)}")
    check(isinstance(m.get("description"), str) and m["description"] != "",
          "vcpkg.json: description")
    check(m.get("license") == "MIT", "vcpkg.json: license MIT (LICENSE)")
    deps = m.get("dependencies", [])
    check_deps(deps, "top level")
    hosts = {d["name"] for d in deps if isinstance(d, dict) and d.get("host")}
    check({"vcpkg-cmake", "vcpkg-cmake-config"} <= hosts,
          "vcpkg.json: vcpkg-cmake and vcpkg-cmake-config are host dependencies")
    features = m.get("features", {})
    check(isinstance(features, dict) and all(valid_name(n) for n in features),
          f"vcpkg.json: feature names are valid ({sorted(features)})")
    for name, feat in features.items():
        check(set(feat) <= FEATURE_KEYS and bool(feat.get("description")),
              f"vcpkg.json feature {name}: known keys and a description")
        fdeps = feat.get("dependencies", [])
        check_deps(fdeps, f"feature {name}")
        for d in fdeps:
            if isinstance(d, dict) and d.get("name") == "libastar":
                check(all(f in features for f in d.get("features", [])),
                      f"vcpkg.json feature {name}: depends only on declared features of its own")
    check(set(features) == {"tool", "mpi"}, "vcpkg.json: features tool and mpi")
    mpi_deps = features.get("mpi", {}).get("dependencies", [])
    check(any(isinstance(d, dict) and d.get("name") == "libastar" and "tool" in d.get("features", [])
              for d in mpi_deps) and "mpi" in mpi_deps,
          "vcpkg.json: feature mpi brings the tool and vcpkg's mpi port")
    check("libpng" in features.get("tool", {}).get("dependencies", []),
          "vcpkg.json: feature tool depends on libpng")
    check("cjson" in features.get("tool", {}).get("dependencies", []),
          "vcpkg.json: feature tool depends on cjson (astar mapf --check)")
    with open(os.path.join(port, "portfile.cmake"), encoding="utf-8") as f:
        portfile = f.read()
    block = re.search(r"vcpkg_check_features\((.*?)\)", portfile, re.S)
    used = set(re.findall(r"^\s*([a-z0-9-]+)\s+ASTAR_\w+", block.group(1), re.M)) if block else set()
    used |= set(re.findall(r'"([a-z0-9-]+)" IN_LIST FEATURES', portfile))
    check(used == set(features),
          f"portfile.cmake uses exactly the features vcpkg.json declares ({sorted(used)})")
    check(os.path.isfile(os.path.join(port, "usage")), "usage file present")


# --- Conan ------------------------------------------------------------------
def fake_conan():
    """A stand-in for the parts of the `conan` package the recipe imports."""
    mods = {}
    for name in ("conan", "conan.errors", "conan.tools", "conan.tools.cmake",
                 "conan.tools.files", "conan.tools.microsoft", "conan.tools.build"):
        mods[name] = types.ModuleType(name)

    class ConanFile:
        pass

    class ConanInvalidConfiguration(Exception):
        pass

    def load(_self, path, encoding="utf-8"):
        with open(path, encoding=encoding) as f:
            return f.read()

    def unused(*_a, **_k):
        raise RuntimeError("the stand-in conan module runs no build step")

    mods["conan"].ConanFile = ConanFile
    mods["conan.errors"].ConanInvalidConfiguration = ConanInvalidConfiguration
    mods["conan.tools.files"].load = load
    for n in ("copy", "rmdir", "rm", "get", "save"):
        setattr(mods["conan.tools.files"], n, unused)
    for n in ("CMake", "CMakeDeps", "CMakeToolchain", "cmake_layout"):
        setattr(mods["conan.tools.cmake"], n, unused)
    mods["conan.tools.microsoft"].is_msvc = unused
    mods["conan.tools.build"].can_run = unused
    return mods


def load_recipe(root):
    saved = {k: sys.modules.get(k) for k in fake_conan()}
    sys.modules.update(fake_conan())
    try:
        path = os.path.join(root, "ports", "conan", "conanfile.py")
        ns = {"__file__": path, "__name__": "conanfile"}
        with open(path, encoding="utf-8") as f:
            exec(compile(f.read(), path, "exec"), ns)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    base = ns["ConanFile"]
    classes = [v for v in ns.values() if isinstance(v, type) and issubclass(v, base) and v is not base]
    return classes[0] if len(classes) == 1 else None, path


def conan_attributes(root):
    cls, path = load_recipe(root)
    check(cls is not None, "conanfile.py defines one ConanFile class")
    if cls is None:
        return
    check(getattr(cls, "name", None) == "libastar", "conanfile.py: name = libastar")
    obj = cls()
    obj.recipe_folder = os.path.dirname(path)
    version = getattr(cls, "version", None)
    if version is None and hasattr(cls, "set_version"):
        obj.set_version()
        version = getattr(obj, "version", None)
    check(version == base_version(root),
          f"conanfile.py: version {version} (set_version) is base.h's {base_version(root)}")
    check(getattr(cls, "license", None) == "MIT", "conanfile.py: license MIT")
    check(getattr(cls, "package_type", None) == "library", "conanfile.py: package_type library")
    check(tuple(getattr(cls, "settings", ())) == ("os", "arch", "compiler", "build_type"),
          "conanfile.py: settings os, arch, compiler, build_type")
    opts = getattr(cls, "options", {})
    defaults = getattr(cls, "default_options", {})
    check(set(opts) == {"shared", "fPIC", "tool", "mpi"},
          f"conanfile.py: options shared, fPIC, tool, mpi ({sorted(opts)})")
    check(all(opts[o] == [True, False] for o in opts), "conanfile.py: every option is [True, False]")
    check(set(defaults) == set(opts) and all(defaults[o] in opts[o] for o in opts),
          "conanfile.py: default_options give every option an allowed value")
    check(defaults.get("shared") is False and defaults.get("fPIC") is True,
          "conanfile.py: static with fPIC by default (conan-center convention)")
    for m in ("export_sources", "config_options", "configure", "layout", "requirements",
              "validate", "generate", "build", "package", "package_info"):
        check(callable(getattr(cls, m, None)), f"conanfile.py: {m}()")
    src = open(path, encoding="utf-8").read()
    props = dict(re.findall(r'set_property\("(\w+)",\s*"([^"]+)"\)', src))
    check(props.get("cmake_file_name") == "astar", "package_info: cmake_file_name astar")
    check(props.get("cmake_target_name") == "astar::astar", "package_info: cmake_target_name astar::astar")
    check(props.get("pkg_config_name") == "astar", "package_info: pkg_config_name astar")
    tp = os.path.join(root, "ports", "conan", "test_package")
    check(all(os.path.isfile(os.path.join(tp, f)) for f in
              ("conanfile.py", "CMakeLists.txt", "test_package.c")), "test_package/ is complete")


def method_ast(root, name):
    path = os.path.join(root, "ports", "conan", "conanfile.py")
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    sys.exit(f"recipes.py: conanfile.py has no {name}()")


class Options:
    def __init__(self, values):
        self.__dict__.update(values)


def conan_cmake(root, assignments):
    """-DVAR=ON/OFF for each tc.cache_variables["VAR"] = EXPR in generate()."""
    values = {}
    for a in assignments:
        k, v = a.split("=", 1)
        values[k] = v == "True"
    env = {"self": types.SimpleNamespace(options=Options(values)), "bool": bool}
    out = []
    for node in ast.walk(method_ast(root, "generate")):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and
                isinstance(node.targets[0], ast.Subscript) and
                ast.unparse(node.targets[0].value).endswith("cache_variables")):
            var = ast.literal_eval(node.targets[0].slice)
            val = eval(compile(ast.Expression(node.value), "generate", "eval"),
                       {"__builtins__": {}}, env)
            out.append(f"-D{var}={'ON' if val is True else 'OFF' if val is False else val}")
    if not out:
        sys.exit("recipes.py: generate() sets no tc.cache_variables")
    print("\n".join(out))


def conan_package(root):
    """remove PATH / copy PATTERN DEST lines for package()'s rmdir/rm/copy calls
    whose destination is os.path.join(self.package_folder, "literal", ...)."""
    def rel(expr):
        if (isinstance(expr, ast.Call) and ast.unparse(expr.func) == "os.path.join" and
                ast.unparse(expr.args[0]) == "self.package_folder"):
            return "/".join(ast.literal_eval(a) for a in expr.args[1:])
        return None
    for node in ast.walk(method_ast(root, "package")):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in ("rmdir", "rm") and len(node.args) >= 2 and rel(node.args[1]):
                print(f"remove {rel(node.args[1])}")
            elif node.func.id == "copy":
                dst = next((k.value for k in node.keywords if k.arg == "dst"), None)
                if dst is not None and rel(dst):
                    print(f"copy {ast.literal_eval(node.args[1])} {rel(dst)}")


def conan_version(root):
    """Print the version the recipe declares (its set_version() run under the
    stand-in), for tests/version_check.sh."""
    cls, path = load_recipe(root)
    version = getattr(cls, "version", None) if cls else None
    if cls is not None and version is None and hasattr(cls, "set_version"):
        obj = cls()
        obj.recipe_folder = os.path.dirname(path)
        obj.set_version()
        version = getattr(obj, "version", None)
    print(version)


def main():
    cmd, root = sys.argv[1], sys.argv[2]
    if cmd == "conan-version":
        conan_version(root)
        return 0
    if cmd == "vcpkg-manifest":
        vcpkg_manifest(root)
    elif cmd == "conan-attributes":
        conan_attributes(root)
    elif cmd == "conan-cmake":
        conan_cmake(root, sys.argv[3:])
        return 0
    elif cmd == "conan-package":
        conan_package(root)
        return 0
    else:
        sys.exit(f"recipes.py: unknown command {cmd}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
