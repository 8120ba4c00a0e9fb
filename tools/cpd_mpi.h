/*
** cpd_mpi.h -- `astar precompute --method cpd` over MPI (cpd_mpi.c): the
** compressed path database's sources split over the processes of an MPI
** launcher (mpirun), the blocks gathered on rank 0, which assembles them and
** writes the file -- byte for byte the single-process file.
**
** Only the tool knows MPI (the library has no dependency), and only when
** built with the CMake option ASTAR_USE_MPI (`make mpi`; ASTAR_HAVE_MPI
** here; off by default). MPI is started only
** by precompute --method cpd and only under a launcher (the environment says
** so: OMPI_COMM_WORLD_SIZE or PMI_SIZE), so every other command and every
** run without mpirun stays a plain process: no start-up cost, no messages.
** Without MPI in the build, precompute --method cpd under a launcher with
** more than one process refuses (exit 2) and says how to get the distributed
** build.
**
** Sequence in precompute: cli_mpi_begin, then every rank reads the map and
** calls cli_mpi_agree, the CPD build hook calls cli_mpi_cpd_build when
** cli_mpi_ranks() > 1, only the root saves and prints, and every rank ends
** with cli_mpi_end. The collective calls (agree, build, end) must be reached
** by every rank, in this order, whatever failed before.
*/
#ifndef ASTAR_CPD_MPI_H
#define ASTAR_CPD_MPI_H

#include <stdbool.h>
#include <stdio.h>

#include <astar/astar.h>

/* Is MPI built in (ASTAR_HAVE_MPI)? */
bool cli_mpi_built(void);

/* The process count an MPI launcher announced in the environment
** (OMPI_COMM_WORLD_SIZE, else PMI_SIZE); 0 when not under a launcher. */
int cli_mpi_launcher_size(void);

/*
** Start MPI for precompute when `cpd` (the method is cpd) and the process runs
** under a launcher; otherwise nothing. Returns -1 to go on, or an exit status
** to return at once: CLI_EXIT_USAGE after a message when the build has no MPI
** but the launcher started more than one process (the message is printed by
** the launcher's rank 0 only, every rank exits 2).
*/
int cli_mpi_begin(bool cpd);

/* Ranks of the running build (1 when MPI is not running) and this one's rank. */
int cli_mpi_ranks(void);
int cli_mpi_rank(void);

/* True on rank 0 and whenever MPI is not running: the process that saves. */
bool cli_mpi_root(void);

/*
** Collective: true when `ok` on every rank. When some rank is not ok, each
** failing rank prints "rank R of P: <what>" and each other one names the
** first failing rank. Without MPI: returns ok.
*/
bool cli_mpi_agree(bool ok, const char *what);

/*
** Collective: build the CPD of `grid` spread over the ranks (blocks of sources
** interleaved: block k on rank k mod P, each rank's blocks on `threads`
** threads; cfg->memory_limit applies per rank), gather the blocks on rank 0
** and assemble them there. On rank 0 *out gets the CPD; on the other ranks
** *out = NULL and ASTAR_OK when every rank succeeded. A failure on any rank
** is returned on every rank (the failing rank's status) after a message
** naming the rank.
*/
astar_status cli_mpi_cpd_build(astar_cpd **out, const astar_grid *grid, const astar_cpd_config *cfg,
                               unsigned threads);

/* The "mpi:" lines of the last cli_mpi_cpd_build (ranks, threads, balance,
** bytes gathered and the time it took); nothing when there was none. */
void cli_mpi_report(FILE *out);

/*
** Collective: the exit status of the whole run, the highest of every rank's
** `rc` (a rank whose own rc was 0 names the failing rank on stderr), then
** MPI_Finalize. Without MPI: returns rc.
*/
int cli_mpi_end(int rc);

#endif /* ASTAR_CPD_MPI_H */
