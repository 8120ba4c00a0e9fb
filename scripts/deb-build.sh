#!/usr/bin/env bash
# scripts/deb-build.sh -- `make deb`: the Debian packages of debian/
# (libastar0, libastar-dev, astar and their -dbgsym packages), built
# unsigned with dpkg-buildpackage -us -uc -b, then checked with lintian.
#
#   scripts/deb-build.sh [--no-lintian] [OUT_DIR]      (default: build/deb)
#
# dpkg-buildpackage builds in the source tree and writes its results to the
# tree's parent folder, so the build runs in a temporary copy of the tree
# (the files git tracks plus the untracked ones it does not ignore: the
# working tree as it is, without build folders) and only the files it made
# are moved to OUT_DIR: the .debs, the .changes, the .buildinfo, the build
# log (libastar_VERSION_ARCH.build) and lintian's report (lintian.txt).
# Files of the same names there are replaced; nothing else is touched. The
# temporary copy is removed (KEEP=1 keeps it).
#
# The version of debian/changelog must be the library's
# (include/astar/base.h, ASTAR_VERSION_STRING): checked first. lintian runs
# with --info and fails the script on any tag that debian/*.lintian-overrides
# does not explain. DEB_BUILD_OPTIONS is passed on (nocheck skips the
# package's tests, docs/packaging.md). JOBS sets the parallel jobs (default:
# the processors). The tools come from scripts/deb-deps.sh (`make deb` runs
# it first).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
lintian=1
out=
for arg in "$@"; do
  case $arg in
    --no-lintian) lintian=0 ;;
    -*)
      echo "usage: $0 [--no-lintian] [OUT_DIR]" >&2
      exit 2
      ;;
    *)
      [[ -z $out ]] || {
        echo "usage: $0 [--no-lintian] [OUT_DIR]" >&2
        exit 2
      }
      out=$arg
      ;;
  esac
done
out=${out:-$ROOT/build/deb}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

for tool in dpkg-buildpackage dpkg-parsechangelog dh; do
  command -v "$tool" >/dev/null || {
    echo "error: $tool not found: run scripts/deb-deps.sh (as root) or \`make deb\`" >&2
    exit 1
  }
done
if [[ $lintian == 1 ]] && ! command -v lintian >/dev/null; then
  echo "error: lintian not found: run scripts/deb-deps.sh (as root) or \`make deb\`" >&2
  exit 1
fi

# One version: the changelog says what base.h says.
version=$(sed -n 's/^#define ASTAR_VERSION_STRING "\(.*\)"$/\1/p' "$ROOT/include/astar/base.h")
deb_version=$(dpkg-parsechangelog -l "$ROOT/debian/changelog" -SVersion)
source=$(dpkg-parsechangelog -l "$ROOT/debian/changelog" -SSource)
if [[ -z $version || $deb_version != "$version" ]]; then
  echo "error: debian/changelog is at version '$deb_version' but include/astar/base.h says" \
    "'$version': add a changelog entry (dch -v $version) before building" >&2
  exit 1
fi
arch=$(dpkg-architecture -qDEB_HOST_ARCH)

mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/astar-deb.XXXXXX")
if [[ ${KEEP:-0} == 1 ]]; then
  echo "keeping $tmp"
else
  trap 'rm -rf "$tmp"' EXIT
fi
tree=$tmp/$source-$version

# The copy: what git knows of the working tree (tracked, or untracked and
# not ignored; a tracked file deleted in the working tree is left out), or,
# outside a git checkout, the tree without its build folders.
mkdir "$tree"
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do
      if [[ -e $f || -L $f ]]; then printf '%s\0' "$f"; fi
    done | tar --null -T - -cf -) | tar -xf - -C "$tree"
else
  (cd "$ROOT" && tar --exclude='./build*' --exclude=./.git --exclude=./debian/build \
    --exclude='./debian/.debhelper' -cf - .) | tar -xf - -C "$tree"
fi

log=$tmp/${source}_${version}_$arch.build
echo "dpkg-buildpackage -us -uc -b -j$jobs ($source $version, $arch; log: $out/${log##*/})"
t=$SECONDS
if ! (cd "$tree" && dpkg-buildpackage -us -uc -b "-j$jobs") >"$log" 2>&1; then
  cp "$log" "$out/"
  tail -n 40 "$log" >&2
  echo "error: dpkg-buildpackage failed (full log: $out/${log##*/})" >&2
  exit 1
fi
echo "built in $((SECONDS - t)) s"

# What the build made: the .changes and every file it lists.
changes=${source}_${version}_$arch.changes
made=("$changes" "${log##*/}")
while read -r f; do made+=("$f"); done < <(
  awk '/^Files:/ {on = 1; next} /^[^ ]/ {on = 0} on && NF == 5 {print $5}' "$tmp/$changes"
)
for f in "${made[@]}"; do
  mv -f "$tmp/$f" "$out/$f"
done
for f in "${made[@]}"; do
  case $f in
    *.deb) printf '  %-44s %7d bytes\n' "$f" "$(stat -c %s "$out/$f")" ;;
  esac
done

if [[ $lintian == 1 ]]; then
  # --info shows the informational tags too; each one fails the build
  # unless an override (with its reason) explains it.
  echo "lintian --info $changes"
  if lintian --info --fail-on error,warning,info "$out/$changes" >"$tmp/lintian.txt" 2>&1; then
    lintian_rc=0
  else
    lintian_rc=$?
  fi
  # (Its note on running as root, CI's case, is not a finding.)
  grep -v '^running with root privileges' "$tmp/lintian.txt" >"$out/lintian.txt" || true
  cat "$out/lintian.txt"
  if [[ $lintian_rc != 0 ]]; then
    echo "error: lintian is not clean (report: $out/lintian.txt)" >&2
    exit 1
  fi
  echo "lintian: clean"
fi
echo "packages in $out"
