#!/usr/bin/env bash
# scripts/deb-deps.sh -- installs what `make deb` (scripts/deb-build.sh) and
# tests/deb/check.sh need when it is missing: dpkg-dev (dpkg-buildpackage),
# debhelper, lintian, devscripts (hardening-check), the Build-Depends of
# debian/control beyond build-essential (cmake, libpng-dev, libcjson-dev), and for the
# checks of the installed packages pkg-config and man-db. Recommended
# packages are left out: lintian and devscripts recommend some 70 more that
# neither the build nor the checks use (114 packages instead of 186, about
# 15 s on a fresh Debian 12). Needs root (apt-get) only when something is
# missing.
#
#   scripts/deb-deps.sh           install what is missing (quiet)
#   scripts/deb-deps.sh --check   only say what is missing (exit 1 if anything)
set -euo pipefail

if ! command -v dpkg-query >/dev/null; then
  echo "error: the Debian packages need a Debian system (dpkg-query not found)" >&2
  exit 1
fi
ASTAR_APT_NO_RECOMMENDS=1 exec "$(dirname "${BASH_SOURCE[0]}")/debian-packages.sh" deb "${1:-}" \
  build-essential dpkg-dev debhelper lintian devscripts cmake libpng-dev libcjson-dev pkg-config man-db
