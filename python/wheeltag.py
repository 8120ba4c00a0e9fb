"""The platform tag a libastar wheel can honestly claim, and the retag.

    python3 wheeltag.py DIST/libastar-X-cp311-cp311-linux_x86_64.whl [--check]

A wheel built here is tagged `linux_x86_64`: "some Linux". The manylinux
tags (PEP 600: manylinux_2_N_ARCH, "runs on any Linux with glibc >= 2.N")
are a promise about the extension modules inside, which this script checks
with binutils on each .so of the wheel (what auditwheel's `show` checks,
auditwheel being neither in Debian 12 nor on PyPI here):

  1. the ELF machine matches the tag's architecture;
  2. the libraries it loads (DT_NEEDED) are all in the manylinux policy's
     list (PEP 599: libc, libm, libpthread, libdl, librt, libgcc_s, ...:
     what every glibc system has) -- none bundled, no RPATH/RUNPATH;
  3. the symbol versions it needs from them (readelf's version needs):
     GLIBC_2.N gives the glibc it requires; GCC_/GLIBCXX_/CXXABI_ versions
     must be those of the manylinux2014 toolchain or older.

The tag is then manylinux_2_N with N the highest GLIBC_2.N needed (at
least 17, manylinux2014, the oldest policy this checks for). Built on
Debian 12 (glibc 2.36) the module needs pthread_create@GLIBC_2.34 (glibc
2.34 moved libpthread into libc): manylinux_2_34_x86_64 -- Debian 12,
Ubuntu 22.04, RHEL 9 and later. A wheel for older systems (manylinux2014)
needs a build on the manylinux2014 image (CentOS 7's glibc 2.17), which is
not available offline; neither is a run of the wheel on such systems.
What is not checked: the instruction set beyond the architecture's
baseline (the build adds no -march), and auditwheel's repair (nothing to
bundle: only policy libraries are needed).

--check only prints the verdict; otherwise the wheel is rewritten under its
new name (WHEEL's Tag and RECORD updated) and the old file removed.
"""
import argparse
import base64
import csv
import hashlib
import io
import os
import re
import subprocess
import sys
import tempfile
import zipfile

# PEP 599 (manylinux2014) / PEP 600: the libraries a manylinux wheel may
# load from the system, beside the dynamic loader.
POLICY_LIBRARIES = {
    "libgcc_s.so.1", "libstdc++.so.6", "libm.so.6", "libdl.so.2", "librt.so.1", "libc.so.6",
    "libnsl.so.1", "libutil.so.1", "libpthread.so.0", "libresolv.so.2", "libX11.so.6",
    "libXext.so.6", "libXrender.so.1", "libICE.so.6", "libSM.so.6", "libGL.so.1",
    "libgobject-2.0.so.0", "libgthread-2.0.so.0", "libglib-2.0.so.0",
}
LOADERS = re.compile(r"^ld-linux.*\.so\.\d$|^ld64\.so\.\d$")
# The newest non-glibc symbol versions of the manylinux2014 toolchain (GCC 4.8).
TOOLCHAIN_MAX = {"GCC": (4, 8, 0), "GLIBCXX": (3, 4, 19), "CXXABI": (1, 3, 7)}
OLDEST = 17  # manylinux_2_17 = manylinux2014
MACHINES = {"Advanced Micro Devices X86-64": "x86_64", "AArch64": "aarch64",
            "Intel 80386": "i686", "PowerPC64": "ppc64le", "IBM S/390": "s390x"}


def version_tuple(text):
    return tuple(int(p) for p in text.split("."))


def elf_facts(so_path):
    """{'machine', 'needed', 'rpath', 'versions': {library: [version, ...]}}
    of one shared object, read with readelf."""
    def readelf(*args):
        return subprocess.run(["readelf", "-W", *args, so_path], capture_output=True, text=True,
                              check=True).stdout
    header = readelf("-h")
    m = re.search(r"Machine:\s*(.+)", header)
    dynamic = readelf("-d")
    versions = {}
    current = None
    for line in readelf("-V").splitlines():
        f = re.search(r"File: (\S+)", line)
        if f:
            current = f.group(1)
            versions.setdefault(current, [])
            continue
        n = re.search(r"Name: (\S+)\s+Flags", line)
        if n and current:
            versions[current].append(n.group(1))
    return {
        "machine": MACHINES.get(m.group(1).strip(), m.group(1).strip()) if m else "?",
        "needed": re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic),
        "rpath": re.findall(r"\((?:RPATH|RUNPATH)\)\s+Library r(?:un)?path: \[([^\]]+)\]", dynamic),
        "versions": versions,
    }


def manylinux_verdict(facts, arch):
    """(glibc minor N or None, [problems]) for one module's facts: N is the
    highest GLIBC_2.N it needs (at least OLDEST); problems say why no
    manylinux tag fits."""
    problems = []
    if facts["machine"] != arch:
        problems.append(f"ELF machine {facts['machine']}, not {arch}")
    for lib in facts["needed"]:
        if lib not in POLICY_LIBRARIES and not LOADERS.match(lib):
            problems.append(f"loads {lib}, which is not in the manylinux policy (bundle it)")
    if facts["rpath"]:
        problems.append(f"has RPATH/RUNPATH {facts['rpath']}")
    glibc = OLDEST
    for lib, names in facts["versions"].items():
        for name in names:
            space, _, ver = name.partition("_")
            if space == "GLIBC" and re.fullmatch(r"2\.\d+(\.\d+)?", ver):
                glibc = max(glibc, version_tuple(ver)[1])
            elif space in TOOLCHAIN_MAX and re.fullmatch(r"[\d.]+", ver):
                if version_tuple(ver) > TOOLCHAIN_MAX[space]:
                    problems.append(f"needs {name} of {lib}, newer than manylinux2014's toolchain")
            elif space not in ("GLIBC", "GCC", "GLIBCXX", "CXXABI"):
                problems.append(f"needs symbol version {name} of {lib}")
    return (None if problems else glibc), problems


def platform_tags(glibc_minor, arch):
    tags = [f"manylinux_2_{glibc_minor}_{arch}"]
    if glibc_minor == 17:
        tags.append(f"manylinux2014_{arch}")  # the legacy alias pip < 20.3 knows
    return tags


def wheel_platform(wheel_name):
    """(name-version-python-abi, platform) of a wheel's file name."""
    stem = os.path.basename(wheel_name)[:-len(".whl")]
    head, plat = stem.rsplit("-", 1)
    return head, plat


def check_wheel(path):
    """(platform tags or None, report lines) for a wheel: every extension
    module checked, the tag the most demanding one allows."""
    head, plat = wheel_platform(path)
    arch = plat.split("_", 1)[1] if plat.startswith("linux_") else None
    lines = []
    if arch is None:
        return None, [f"{os.path.basename(path)}: platform {plat} is not linux_ARCH"]
    worst, problems = OLDEST, []
    with zipfile.ZipFile(path) as z, tempfile.TemporaryDirectory() as tmp:
        modules = [n for n in z.namelist() if n.endswith(".so") or ".so." in n]
        if not modules:
            problems.append("no extension module in the wheel")
        for name in modules:
            so = z.extract(name, tmp)
            facts = elf_facts(so)
            glibc, bad = manylinux_verdict(facts, arch)
            need = ", ".join(f"{lib} ({' '.join(sorted(v, key=str))})"
                             for lib, v in sorted(facts["versions"].items()))
            lines.append(f"{name}: {facts['machine']}; loads {', '.join(facts['needed'])}; "
                         f"needs {need}")
            problems += [f"{name}: {p}" for p in bad]
            if glibc is not None:
                worst = max(worst, glibc)
    if problems:
        return None, lines + problems
    tags = platform_tags(worst, arch)
    lines.append(f"verdict: {'.'.join(tags)} (glibc >= 2.{worst})")
    return tags, lines


def retag(path, tags):
    """Rewrites the wheel `path` with platform tags `tags`; returns the new
    path. The old file is removed."""
    head, _ = wheel_platform(path)
    new = os.path.join(os.path.dirname(path), f"{head}-{'.'.join(tags)}.whl")
    py, abi = head.split("-")[-2:]
    with zipfile.ZipFile(path) as z:
        infos = z.infolist()
        data = {i.filename: z.read(i.filename) for i in infos}
    distinfo = next(n.split("/")[0] for n in data if n.endswith(".dist-info/WHEEL"))
    wheel_file, record_file = f"{distinfo}/WHEEL", f"{distinfo}/RECORD"
    text = data[wheel_file].decode()
    text = re.sub(r"^Tag: .*\n", "", text, flags=re.M).rstrip("\n") + "\n"
    text += "".join(f"Tag: {py}-{abi}-{t}\n" for t in tags)
    data[wheel_file] = text.encode()
    rows = list(csv.reader(io.StringIO(data[record_file].decode())))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        if row and row[0] == wheel_file:
            digest = base64.urlsafe_b64encode(hashlib.sha256(data[wheel_file]).digest())
            row = [wheel_file, "sha256=" + digest.rstrip(b"=").decode(), str(len(data[wheel_file]))]
        writer.writerow(row)
    data[record_file] = out.getvalue().encode()
    tmp = new + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for info in infos:
            z.writestr(info, data[info.filename])
    os.replace(tmp, new)
    if os.path.abspath(new) != os.path.abspath(path):
        os.remove(path)
    return new


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("wheel")
    ap.add_argument("--check", action="store_true", help="print the verdict, change nothing")
    args = ap.parse_args(argv)
    if not os.path.isfile(args.wheel) or not args.wheel.endswith(".whl"):
        print(f"wheeltag: {args.wheel}: not a wheel file", file=sys.stderr)
        return 2
    tags, lines = check_wheel(args.wheel)
    for line in lines:
        print(f"wheeltag: {line}")
    if tags is None:
        print(f"wheeltag: {os.path.basename(args.wheel)}: no manylinux tag fits; left as it is",
              file=sys.stderr)
        return 1
    if not args.check:
        print(f"wheeltag: wrote {retag(args.wheel, tags)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
