# Thin wrapper over CMake for the Quick start: `make run`, `make test`.
# What each installs when missing (apt-get, as root) is exactly what it
# needs: make run libpng-dev; make test also Debian's packages for the
# python test. Everything else is opt-in, below.
BUILD ?= build
MAKEFLAGS += --no-print-directory
ASAN_BUILD ?= build-asan
MPI_BUILD ?= build-mpi
PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all build run test conformance clean asan install ports-check examples deps mpi mpi-test python \
        python-deps python-test python-dist
all: build

# The Debian package the build needs beyond gcc, cmake and make (libpng-dev),
# installed when missing: scripts/build-deps.sh (apt-get, root).
deps:
	scripts/build-deps.sh

$(BUILD)/CMakeCache.txt:
	scripts/build-deps.sh
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/astar run

# Every test but the exhaustive Moving AI conformance: the unit, CLI, Python
# and example tests, and every method on a spread sample of every shared map
# (tests/CMakeLists.txt): about 185 s of CPU, under 2 minutes on a quiet
# 2-core machine (.ci/run prints its time). The python test's
# packages are installed when missing (scripts/python-deps.sh --test, as
# root); without root the test says what it lacks and is skipped.
test: build
	@scripts/python-deps.sh --test || echo "make test: the python test will be skipped"
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -LE exhaustive
	@echo "make test: done. Not run: every query of every method (make conformance, ~17 min" \
	  "on 2 cores) and the playground in Chromium (make web-test; installs emscripten," \
	  "chromium, nodejs, npm)."

# The exhaustive Moving AI conformance (ctest label exhaustive): every query
# of every map for every method, with the golden path hashes (CI's
# conformance stage). ASTAR_EXHAUSTIVE=ON stays in $(BUILD)'s cache: a plain
# ctest there then runs both sizes, `make test` still only the sample.
conformance: build
	cmake -S . -B $(BUILD) -DASTAR_EXHAUSTIVE=ON >/dev/null
	cd $(BUILD) && ctest --output-on-failure --no-tests=error -j $(JOBS) -L exhaustive

clean:
	rm -rf $(BUILD)

# The astar tool with MPI (`mpirun -np P astar precompute --method cpd`,
# docs/scaling.md), opt-in: `make mpi` installs Open MPI when missing
# (libopenmpi-dev, openmpi-bin) and builds $(MPI_BUILD)/astar; the default
# build/astar never links MPI. `make mpi-test` also runs the tool's CLI tests
# with it, cli_mpi's mpirun runs among them (.ci/run's mpi stage).
mpi:
	scripts/build-deps.sh --mpi
	cmake -S . -B $(MPI_BUILD) -DCMAKE_BUILD_TYPE=Release -DASTAR_USE_MPI=ON \
	  -DASTAR_BUILD_EXAMPLES=OFF
	cmake --build $(MPI_BUILD) -j $(JOBS) --target astar_cli

mpi-test: mpi
	cd $(MPI_BUILD) && ctest --output-on-failure --no-tests=error -j $(JOBS) -R '^cli'

# The library, tests and examples under AddressSanitizer + UBSan, then ctest.
asan:
	scripts/build-deps.sh
	cmake -S . -B $(ASAN_BUILD) -DASTAR_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS)

# make install PREFIX=/opt/astar (DESTDIR=... works too, for staging).
install: build
	DESTDIR=$(DESTDIR) cmake --install $(BUILD) --prefix $(PREFIX)

# The vcpkg port and the Conan recipe (ports/, docs/packaging.md): their
# manifests, the CMake options they ask for, a build of each with those
# options, the installed layouts and consumers -- without vcpkg or Conan
# (tests/ports/check.sh, .ci/run's ports stage; about 70 s on 2 cores).
ports-check:
	scripts/build-deps.sh --install-checks
	tests/ports/check.sh

examples: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS) --target astar_examples

# The Python package (python/README.md). `make python-deps` installs the
# Debian packages it needs (apt-get, as root); `make python` builds it into
# $(BUILD)/python/lib (use it with PYTHONPATH=$(BUILD)/python/lib);
# `make python-test` builds it and runs its pytest suite (the `python` test
# of `make test`); `make python-dist` writes its sdist (the C library
# inside) and its wheel (stripped, tagged manylinux after the checks of
# python/wheeltag.py) to $(BUILD)/python/dist, from a clean copy of the
# tree (scripts/python-dist.sh; docs/python-guide.md, "Installing from one
# file").
PYTHON ?= /usr/bin/python3
python-deps:
	scripts/python-deps.sh

python:
	cd python && $(PYTHON) setup.py -q build --build-base $(CURDIR)/$(BUILD)/python \
	  --build-lib $(CURDIR)/$(BUILD)/python/lib -j $(JOBS)

python-test: build
	ASTAR_PYTHON=$(PYTHON) ASTAR_TOOL=$(CURDIR)/$(BUILD)/astar tests/python/run.sh . $(BUILD)

python-dist:
	PYTHON=$(PYTHON) scripts/python-dist.sh $(BUILD)/python/dist

# The WebAssembly playground (web/README.md): `make web` builds web/dist with
# Emscripten, `make serve` serves it on localhost (WEB_PORT, default 8000),
# `make web-test` runs its browser test (tests/web/browser_test.mjs: headless
# Chromium against build/astar), installing emscripten, chromium, nodejs and
# npm when missing (scripts/web-deps.sh, as root) and playwright-core (npm
# ci). docs/images/playground.png is left as it is (--no-docs-image).
WEB_PORT ?= 8000
.PHONY: web serve web-test
web:
	web/build.sh

web-test: build
	scripts/web-deps.sh
	cd tests/web && npm ci --no-audit --no-fund --loglevel=error
	web/build.sh
	node tests/web/browser_test.mjs --no-docs-image

serve: web
	@echo "playground: http://localhost:$(WEB_PORT)/  (Ctrl-C stops the server)"
	cd web/dist && python3 -m http.server $(WEB_PORT) --bind 127.0.0.1

# The npm package (js/README.md): `make npm` compiles the library and
# js/binding.c with Debian's emcc into js/dist (js/scripts/build.sh) and
# writes the tarball build/npm/libastar-<version>.tgz with `npm pack`;
# `make npm-test` runs its Node tests (node --test js/tests), the TypeScript
# check, the Chromium test and the install of the tarball into an empty
# folder, offline (.ci/run's npm stage). Needs emcc, node and npm
# (scripts/web-deps.sh installs them, as root).
.PHONY: npm npm-test
npm:
	js/scripts/build.sh
	cp LICENSE js/LICENSE
	mkdir -p $(BUILD)/npm
	cd js && npm pack --silent --pack-destination $(CURDIR)/$(BUILD)/npm >/dev/null
	@ls -l $(BUILD)/npm/*.tgz

npm-test: npm
	js/scripts/test.sh $(BUILD)

# The npm package against PathFinding.js 0.4.18 on Moving AI maps: A* and JPS
# per query through the drop-in (libastar/pathfinding) and the native API,
# path costs checked, medians and ratios; package size and load times
# (bench/js/, the tables of docs/npm-benchmark.md). A few minutes.
# BENCH_ARGS="--queries 50" for a quick run, --markdown for the table only.
.PHONY: bench-js
bench-js: npm
	cd js && npm ci --no-audit --no-fund --loglevel=error
	node --expose-gc bench/js/compare.mjs --reps 2 $(BENCH_ARGS)
	node bench/js/load.mjs $(BUILD)

# libastar's Python package against scikit-image, SciPy, networkx and igraph
# on the same queries (bench/python/compare.py; the table of
# docs/python-guide.md, "How fast"): a few minutes. BENCH_ARGS=--quick for a
# smoke run, --markdown for the guide's table.
.PHONY: bench-python
bench-python: python
	PYTHONPATH=$(CURDIR)/$(BUILD)/python/lib $(PYTHON) bench/python/compare.py $(BENCH_ARGS)

# The multi-agent (MAPF) benchmark sitting (issue 29; docs/multi-agent.md,
# "Benchmark"): libastar's PIBT, LaCAM*, CBS and EECBS beside the peers
# lacam3 and EECBS, on seeded generated scenarios of eight benchmark maps at
# one time limit, every solution checked by `astar mapf --check`. The peers
# are fetched and built outside the repository, in $(MAPF_PEERS)
# (bench/mapf/peers.sh: git, cmake, Boost). The sitting of the docs takes
# about 40 minutes on 2 cores; BENCH_ARGS="--plan quick" for a smoke run,
# or e.g. "--scens 25 --time-limit 10" for the full one. Results in
# $(BUILD)/mapf-bench/, the curves into docs/images/mapf-*.svg.
MAPF_PEERS ?= $(abspath ..)/peers
.PHONY: bench-mapf
bench-mapf:
	cmake --build $(BUILD) -j $(JOBS) --target astar_cli
	$(PYTHON) bench/mapf/run.py selftest
	MAPF_PEERS=$(MAPF_PEERS) bench/mapf/peers.sh
	MAPF_PEERS=$(MAPF_PEERS) $(PYTHON) bench/mapf/run.py scens $(BENCH_ARGS)
	MAPF_PEERS=$(MAPF_PEERS) $(PYTHON) bench/mapf/run.py run $(BENCH_ARGS)
	MAPF_PEERS=$(MAPF_PEERS) $(PYTHON) bench/mapf/run.py pibt-step \
	  --out $(BUILD)/mapf-bench/pibt-step.csv $(BENCH_ARGS)
	$(PYTHON) bench/mapf/table.py --svg-dir docs/images

# The navigation-mesh sitting (issue 30 "Measure"; docs/navmesh.md): libastar's
# Polyanya against the authors' C++ Polyanya (built outside the repository in
# $(NAVMESH_PEER) by bench/navmesh/peer.sh: git, make, g++), against Anya on
# the grid, A* + funnel against Polyanya, and mesh build time and memory;
# interleaved rounds, medians. About 15 minutes on 2 cores; BENCH_ARGS="--rounds 1
# --repeat 1" for a smoke run. Results in bench/navmesh/results/<date>/.
NAVMESH_PEER ?= $(abspath ..)/peers/polyanya
.PHONY: bench-navmesh
bench-navmesh:
	cmake --build $(BUILD) -j $(JOBS) --target astar_cli
	bench/navmesh/peer.sh $(NAVMESH_PEER)
	ASTAR=$(abspath $(BUILD))/astar NAVMESH_PEER=$(NAVMESH_PEER) $(PYTHON) bench/navmesh/run.py $(BENCH_ARGS)

# The Debian packages (docs/packaging.md, "Debian"): libastar0 (the shared
# library), libastar-dev (headers, static library, astar.pc, the CMake
# package) and astar (the tool, astar(1)). `make deb` installs what it needs
# when missing (scripts/deb-deps.sh: debhelper, lintian, devscripts...; as
# root), builds them with dpkg-buildpackage in a temporary copy of the tree
# into $(BUILD)/deb/ and runs lintian --info on them (scripts/deb-build.sh).
# `make deb-test` then installs them (apt-get, root) and builds the README's
# example against them with pkg-config and CMake (tests/deb/check.sh,
# .ci/run's deb stage); it purges what it installed.
.PHONY: deb deb-test
deb:
	scripts/deb-deps.sh
	JOBS=$(JOBS) scripts/deb-build.sh $(BUILD)/deb

deb-test: deb
	tests/deb/check.sh --no-build $(BUILD)/deb
