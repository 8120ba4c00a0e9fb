#!/usr/bin/env bash
# peers.sh -- fetch and build the two MAPF peers OUTSIDE the repository
# (issue 29 "Measure"; docs/multi-agent.md): lacam3 (Kei18/lacam3, MIT) and
# EECBS (Jiaoyang-Li/EECBS, USC research licence), at the commits the
# published sitting used, in Release; plus lacam3-pibt, a small driver of
# ours (bench/mapf/lacam3_pibt.cpp) that runs lacam3's own PIBT step by
# step, since lacam3's executable has no plain-PIBT mode.
#
# usage: bench/mapf/peers.sh [DIR]   (default: $MAPF_PEERS, else <repo>/../peers)
# A peer already built in DIR is left alone. Needs git (network), cmake, a
# C++17 compiler and, for EECBS, Boost (Debian: libboost-program-options-dev
# libboost-system-dev libboost-filesystem-dev; installed here when missing
# and run as root).
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DIR=${1:-${MAPF_PEERS:-$REPO/../peers}}
LACAM3_COMMIT=1a269b7addc1edc4f1f56b194d307190f5491943
EECBS_COMMIT=ae3c594ec8babc7b7a12ef98bff1611099a8e37d
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

fetch() { # url commit dir
  [[ -d $3 ]] && return 0
  git clone -q "$1" "$3"
  git -C "$3" checkout -q "$2"
  git -C "$3" submodule -q update --init --recursive
}

if [[ ! -x $DIR/lacam3/build/main ]]; then
  fetch https://github.com/Kei18/lacam3.git $LACAM3_COMMIT "$DIR/lacam3"
  cmake -S "$DIR/lacam3" -B "$DIR/lacam3/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$DIR/lacam3/build" -j 2 --target main
fi
if [[ ! -x $DIR/eecbs/build/eecbs ]]; then
  if [[ ! -e /usr/include/boost/program_options.hpp ]] && [[ $(id -u) == 0 ]]; then
    apt-get install -y libboost-program-options-dev libboost-system-dev libboost-filesystem-dev
  fi
  fetch https://github.com/Jiaoyang-Li/EECBS.git $EECBS_COMMIT "$DIR/eecbs"
  cmake -S "$DIR/eecbs" -B "$DIR/eecbs/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$DIR/eecbs/build" -j 2
fi
if [[ ! -x $DIR/lacam3-pibt/pibt_run || $REPO/bench/mapf/lacam3_pibt.cpp -nt $DIR/lacam3-pibt/pibt_run ]]; then
  mkdir -p "$DIR/lacam3-pibt"
  c++ -O3 -DNDEBUG -std=c++17 -I"$DIR/lacam3/lacam3/include" "$REPO/bench/mapf/lacam3_pibt.cpp" \
    "$DIR/lacam3/build/lacam3/liblacam3.a" -lpthread -o "$DIR/lacam3-pibt/pibt_run"
fi
echo "peers in $DIR: lacam3 $LACAM3_COMMIT, EECBS $EECBS_COMMIT"
ls -l "$DIR/lacam3/build/main" "$DIR/eecbs/build/eecbs" "$DIR/lacam3-pibt/pibt_run"
