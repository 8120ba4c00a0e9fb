#!/usr/bin/env bash
# peer.sh -- build the authors' C++ Polyanya OUTSIDE the repository (issue 30
# "Measure"; docs/navmesh.md): anyangle/polyanya of github:xiangzebo/Polyanya
# (a mirror of Daniel Harabor's pathfinding repository; MIT) at commit
# 14a95d3, built with its own Makefile's flags (-O3 -DNDEBUG), plus our driver
# bench/navmesh/polyanya_peer.cpp as $DIR/bin/polyanya_run.
#
# One patch, applied here: that commit's structs/searchnode.h has a field
# `int cur_polygon;` that nothing uses, inserted before next_polygon, which
# shifts every brace initializer of SearchNode (g lands in next_polygon:
# the narrowing error g++ 12 stops at). Deleting the field gives back the
# struct of the original Polyanya, which the search code was written for.
#
# usage: bench/navmesh/peer.sh [DIR]   (default: $NAVMESH_PEER, else
# <repo>/../peers/polyanya). DIR may already hold the sources (anyangle/polyanya's
# files at its top); otherwise they are cloned. Needs git, make and g++.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DIR=${1:-${NAVMESH_PEER:-$REPO/../peers/polyanya}}
COMMIT=14a95d3b63ae7251e1e5d6f42b34f276e3d3f5c7
if [[ ! -f $DIR/search/searchinstance.cpp ]]; then
  tmp=$(mktemp -d)
  git clone -q https://github.com/xiangzebo/Polyanya.git "$tmp/src"
  git -C "$tmp/src" checkout -q $COMMIT
  mkdir -p "$DIR"
  cp -r "$tmp/src/anyangle/polyanya/." "$DIR/"
  rm -rf "$tmp"
fi
sed -i '/^    \/\/current polygon\.$/d; /^    int cur_polygon;$/d' "$DIR/structs/searchnode.h"
make -C "$DIR" fast -j2 >/dev/null
objs=$(cd "$DIR" && ls structs/*.o helpers/*.o search/*.o)
if [[ ! -x $DIR/bin/polyanya_run || $REPO/bench/navmesh/polyanya_peer.cpp -nt $DIR/bin/polyanya_run ]]; then
  (cd "$DIR" && g++ -std=c++11 -O3 -DNDEBUG -Istructs -Ihelpers -Isearch $objs \
    "$REPO/bench/navmesh/polyanya_peer.cpp" -o bin/polyanya_run)
fi
echo "peer in $DIR: Polyanya $COMMIT"
ls -l "$DIR/bin/polyanya_run"
