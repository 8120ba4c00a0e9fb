#!/usr/bin/env bash
# mpi_tests.sh -- precompute --method cpd over MPI (tools/cpd_mpi.c): under
# `mpirun -np 2` the file is byte for byte the single-process one on the
# small maps and dao/den312d, and bench --pre --check passes with it; a write
# failure on rank 0 makes every rank exit non-zero, the others naming rank 0.
# In a build without MPI (the default; ASTAR_USE_MPI=ON or `make mpi-test`
# builds and tests the MPI tool): under a launcher with 2 processes (its
# environment faked) precompute --method cpd exits 2 and says how to get the
# distributed build, on the launcher's rank 0 only; other methods still run.
# Usage: mpi_tests.sh PATH/TO/astar REPO_ROOT  (environment: ASTAR_BUILT_WITH_MPI=0|1,
#        set by ctest from the build's configuration)
set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
cli_tmp mpi
SMALL=$ROOT/tests/data/small
DEN=$ROOT/../shared/bench/movingai/dao/den312d.map

if [ "${ASTAR_BUILT_WITH_MPI:-0}" != 1 ]; then
  OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0 \
    run precompute "$SMALL/maze64-1.map" --method cpd -o "$TMP/a.cpd"
  expect_rc "no MPI, 2 launcher ranks: refused" 2
  expect_err "the refusal says what to install" "libopenmpi-dev"
  expect_err "the refusal names make mpi" "make mpi"
  expect_err "the refusal names the CMake option" "ASTAR_USE_MPI=ON"
  if [ -e "$TMP/a.cpd" ]; then fail "refused, yet a file was written"; else ok; fi
  OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=1 \
    run precompute "$SMALL/maze64-1.map" --method cpd -o "$TMP/a.cpd"
  expect_rc "no MPI, rank 1: refused" 2
  if [ -s "$ERR" ]; then fail "rank 1 repeats the message"; else ok; fi
  OMPI_COMM_WORLD_SIZE=1 run precompute "$SMALL/maze64-1.map" --method cpd -o "$TMP/a.cpd"
  expect_rc "no MPI, 1 launcher rank: builds" 0
  PMI_SIZE=2 run precompute "$SMALL/maze64-1.map" -o "$TMP/j.jpp"
  expect_rc "no MPI, 2 ranks, jps-plus: runs" 0
  echo "the tool is built without MPI: its refusal checked (\`make mpi-test\` tests the MPI tool)"
  cli_summary
  exit
fi

MPIRUN=$(command -v mpirun || true)
if [ -z "$MPIRUN" ]; then
  echo "FAIL: the tool is built with MPI but mpirun is not found (Debian: openmpi-bin)"
  exit 1
fi
# Open MPI refuses root without these (containers, CI); the machine may have
# fewer cores than ranks. Shared memory only, nothing probed on the network:
# start-up in about a second.
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_osc=^ucx OMPI_MCA_mtl=^ofi,psm,psm2
export OMPI_MCA_btl_vader_single_copy_mechanism=none
MPI=("$MPIRUN" -np 2 --oversubscribe)

# mpirun_astar ARGS...: `run` under mpirun.
mpirun_astar() {
  "${MPI[@]}" "$ASTAR" "$@" >"$OUT" 2>"$ERR"
  RC=$?
}

maps=("$SMALL"/*.map)
[ -f "$DEN" ] && maps+=("$DEN")
for map in "${maps[@]}"; do
  name=$(basename "$map" .map)
  mpirun_astar precompute "$map" --method cpd -o "$TMP/$name.mpi.cpd"
  expect_rc "$name: mpirun -np 2 precompute" 0
  expect_out "$name: rank 0 reports the ranks" "^mpi: +2 ranks"
  run precompute "$map" --method cpd -o "$TMP/$name.one.cpd"
  expect_rc "$name: single-process precompute" 0
  if cmp -s "$TMP/$name.mpi.cpd" "$TMP/$name.one.cpd"; then ok; else
    fail "$name: the 2-rank file differs from the single-process one"
  fi
  run bench "$map.scen" --algo cpd --pre "$TMP/$name.mpi.cpd" --check --quiet
  expect_rc "$name: bench --pre (2-rank file) --check" 0
done

# A failure on rank 0 after the build (the file cannot be written): every
# rank exits non-zero, rank 1 names rank 0.
mpirun_astar precompute "$SMALL/cave64.map" --method cpd -o "$TMP/no/such/dir/x.cpd"
if [ "$RC" -ne 0 ]; then ok; else fail "write failure on rank 0: mpirun exit status 0"; fi
expect_err "rank 1 names rank 0" "rank 1 of 2: rank 0 failed"

cli_summary
