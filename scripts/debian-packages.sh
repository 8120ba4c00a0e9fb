#!/usr/bin/env bash
# scripts/debian-packages.sh -- the install-when-missing step that
# scripts/build-deps.sh and scripts/python-deps.sh share: checks each Debian
# package with dpkg-query and installs the missing ones quietly with
# apt-get (as root; otherwise says the command to run).
#
#   scripts/debian-packages.sh LABEL MODE PACKAGE...
#     LABEL  what the packages are for, in messages ("build", "python")
#     MODE   --check: only say what is missing (exit 1 if anything);
#            anything else: install what is missing
#   ASTAR_APT_NO_RECOMMENDS=1 installs without the recommended packages.
set -euo pipefail
label=$1 mode=$2
shift 2
missing=()
for p in "$@"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "$label packages: all installed ($*)"
  exit 0
fi
if [[ $mode == --check ]]; then
  echo "$label packages missing: ${missing[*]}"
  exit 1
fi
if [[ $(id -u) != 0 ]]; then
  echo "error: missing ${missing[*]}; install them as root:" >&2
  echo "       sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "installing ${missing[*]}"
apt_opts=(-y -qq)
[[ ${ASTAR_APT_NO_RECOMMENDS:-0} == 1 ]] && apt_opts+=(--no-install-recommends)
{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install "${apt_opts[@]}" "${missing[@]}"; } \
  >/dev/null || {
  echo "error: could not install ${missing[*]} (apt-get needs the Debian mirrors)" >&2
  exit 1
}
