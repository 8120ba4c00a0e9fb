#!/usr/bin/env bash
#
# options_test.sh -- every option of every command, in every position, for
# every kind of input, generated from the tool's own option tables (`astar
# COMMAND --dump-options`, tools/opts.h): nothing here lists an option.
#
# For each command of `astar --help`, each kind of input it serves (square
# maps, hex maps, graphs, scenario files; simulate's modes) and each option
# of that kind, the option with a value it takes runs before the
# positionals, between them, after them, as --name=value and by its alias:
# all must end alike (exit status, standard error, standard output with its
# timings masked), and none may be a parse error (unknown option, missing
# value, a positional taken as a value or the reverse). A value the option
# refuses, before the positionals, gives exit 2 and "NAME: expected RANGE,
# got 'VALUE'" (the range from the table); no value at the end gives "NAME:
# missing value, expected RANGE"; a flag given a value is refused. An option
# of the command that the kind does not take is refused by name, before the
# positionals too. Options that need an algorithm (--width: beam) get it.
# Usage: options_test.sh PATH/TO/astar REPO_ROOT
set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
case $ASTAR in /*) ;; *) ASTAR=$PWD/$ASTAR ;; esac
case $ROOT in /*) ;; *) ROOT=$PWD/$ROOT ;; esac
cli_tmp options
cd "$TMP" || exit 2

# ---- fixtures: one small input of each kind ------------------------------------------

printf '.......\n...#...\n.S.#.G.\n...#...\n.......\n' >t.txt
mkdir scen
printf 'type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n' >scen/w.map
printf 'version 1\n0\tw.map\t4\t3\t0\t0\t3\t0\t3\n0\tw.map\t4\t3\t0\t0\t3\t2\t5\n' >scen/w.map.scen
cp "$ROOT/tests/data/hex/flat.hex" flat.hex
cp "$ROOT/tests/data/dimacs/tiny.gr" tiny.gr
# A navigation mesh: two triangles of the unit square, and a query on it.
printf 'mesh\n2\n4 2\n0 0 2 0 -1\n1 0 3 0 1 -1\n1 1 2 1 -1\n0 1 3 -1 1 0\n3 0 1 3 -1 -1 1\n3 1 2 3 0 -1 -1\n' >sq.mesh
printf 'version 1\n0\tsq.mesh\t1\t1\t0.1\t0.1\t0.9\t0.9\t1.1313708499\n' >sq.scen

# base COMMAND KIND: the command line the options are tried on, as POS
# (positionals) and OPTS (options it needs). An option of OPTS under test
# is taken out of OPTS and moved around with its own value.
base() {
  POS=()
  OPTS=()
  case "$1/$2" in
  run/maps) ;;
  solve/square) POS=(t.txt 1 2 5 2) ;;
  solve/hex) POS=(flat.hex 0 0 9 5) ;;
  solve/graph) POS=(1 5) OPTS=(--graph tiny.gr) ;;
  solve/mesh) POS=(0.1 0.1 0.9 0.9) OPTS=(--mesh sq.mesh) ;;
  bench/scen) POS=(scen) ;;
  bench/graph) OPTS=(--graph tiny.gr --random 3) ;;
  bench/mesh) POS=(sq.scen) OPTS=(--mesh sq.mesh) ;;
  mesh/map) POS=(t.txt) ;;
  precompute/map) POS=(t.txt) OPTS=(-o out.pre) ;;
  simulate/queue) POS=(t.txt) OPTS=(--agents 2 --budget 50) ;;
  simulate/coop) POS=(t.txt) OPTS=(--agents 2 --cooperative) ;;
  simulate/world) POS=(t.txt) OPTS=(--agents 2 --replan astar) ;;
  group/map) POS=(t.txt 5 2) OPTS=(--units 2) ;;
  render/square) POS=(t.txt 1 2 5 2) OPTS=(-o pic.svg) ;;
  render/hex) POS=(flat.hex) OPTS=(-o pic.svg) ;;
  convert/map) POS=(t.txt) OPTS=(-o out.gr) ;;
  mapf/scen) POS=(scen/w.map scen/w.map.scen) OPTS=(--agents 1 --algo pibt) ;;
  mapf/random) POS=(scen/w.map) OPTS=(--random 2 --algo pibt) ;;
  mapf/check) OPTS=(--check x) ;;
  *) return 1 ;;
  esac
}

# The checks below read the outputs with bash alone: a fork costs more than
# a run of the tool on these inputs.

# runm ARGS...: run, then mask in stdout the numbers with a fraction (times)
# and the spaces that align them, into $OUT.m.
runm() {
  run "$@"
  sed -E 's/ *[0-9]+\.[0-9]+/ #/g' "$OUT" >"$OUT.m"
}

# What the last runm ended with: status, stderr, masked stdout.
outcome() {
  printf 'exit %s\n%s\n%s' "$RC" "$(<"$ERR")" "$(<"$OUT.m")"
}

# Messages that mean the command line was misread.
PARSE_ERROR="unknown option|missing value|takes no value|is an option of|: expected .*, got '|unexpected argument|expected MAP|expected the source"

# same LABEL FIRST: the last runm ended as the run whose outcome is FIRST.
same() {
  local now
  now=$(outcome)
  if [ "$now" = "$2" ]; then ok; else
    fail "$1: differs from the option before the positionals (${now:0:200} vs ${2:0:200})"
  fi
}

# has_err LABEL TEXT: stderr is one line holding TEXT; check_rc LABEL CODE.
has_err() {
  local err
  err=$(<"$ERR")
  if [[ $err == *"$2"* && $err != *$'\n'* ]]; then ok; else fail "$1: stderr is not one line with \"$2\""; fi
}
check_rc() {
  if [ "$RC" -eq "$2" ]; then ok; else fail "$1: exit status $RC, expected $2"; fi
}

commands=$("$ASTAR" --help | awk '/^Commands:/ {on = 1; next} on && /^$/ {on = 0} on {print $1}')
[ -n "$commands" ] && ok || fail "astar --help lists no command"
tried=0
for cmd in $commands; do
  if ! "$ASTAR" "$cmd" --dump-options >"$TMP/dump" 2>"$TMP/dump.err"; then
    fail "astar $cmd --dump-options: $(head -c 300 "$TMP/dump.err")"
    continue
  fi
  # Per option name: the value kind and a value of its first row, whether
  # it selects a kind by being given.
  declare -A vkind_of=() sample_of=() selects=()
  while IFS=$'\t' read -r what f2 f3 _ f5 f6 _; do
    if [ "$what" = opt ] && [ -z "${vkind_of[$f3]+set}" ]; then
      vkind_of[$f3]=$f5
      sample_of[$f3]=$f6
    elif [ "$what" = selects ]; then
      selects[$f2]=$f3
    fi
  done <"$TMP/dump"
  algo_opt=$(awk -F'\t' '$1 == "algo" {print $2}' "$TMP/dump")
  kinds=$(awk -F'\t' '$1 == "kind" {print $3}' "$TMP/dump")
  names=$(awk -F'\t' '$1 == "opt" {print $3}' "$TMP/dump" | sort -u)
  for kind in $kinds; do
    if ! base "$cmd" "$kind"; then
      fail "$cmd: no command line for its kind '$kind' in options_test.sh"
      continue
    fi
    base_pos=("${POS[@]}")
    base_opts=("${OPTS[@]}")
    # The options of this kind.
    while IFS=$'\t' read -r _ _ name alias vkind sample bad range algos; do
      tried=$((tried + 1))
      POS=("${base_pos[@]}")
      # An option the base line gives moves with the base line's value.
      OPTS=()
      given=""
      for ((i = 0; i < ${#base_opts[@]}; i++)); do
        o=${base_opts[i]}
        if [ "$o" = "$name" ] || [ "$o" = "$alias" ]; then
          given=yes
          if [ "$vkind" != flag ]; then
            i=$((i + 1))
            sample=${base_opts[i]}
          fi
        else
          OPTS+=("$o")
        fi
      done
      [ "$algos" != "-" ] && [ -z "$given" ] && OPTS+=("$algo_opt" "${algos%%|*}")
      if [ "$vkind" = flag ]; then opt=("$name"); else opt=("$name" "$sample"); fi
      label="$cmd ($kind) ${opt[*]}"
      runm "$cmd" "${opt[@]}" "${POS[@]}" "${OPTS[@]}"
      first=$(outcome)
      if [[ $(<"$ERR") =~ $PARSE_ERROR ]]; then
        fail "$label: misread before the positionals: $(<"$ERR")"
      else
        ok
      fi
      if [ ${#POS[@]} -ge 2 ]; then
        runm "$cmd" "${POS[0]}" "${opt[@]}" "${POS[@]:1}" "${OPTS[@]}"
        same "$label between the positionals" "$first"
      fi
      runm "$cmd" "${POS[@]}" "${OPTS[@]}" "${opt[@]}"
      same "$label after the positionals" "$first"
      if [ "$vkind" != flag ]; then
        runm "$cmd" "${POS[@]}" "${OPTS[@]}" "$name=$sample"
        same "$label as $name=VALUE" "$first"
      fi
      if [ "$alias" != "-" ]; then
        opt[0]=$alias
        runm "$cmd" "${opt[@]}" "${POS[@]}" "${OPTS[@]}"
        same "$label as $alias" "$first"
      fi
      # A flag given a value, a value refused, a value missing.
      if [ "$vkind" = flag ]; then
        run "$cmd" "${POS[@]}" "${OPTS[@]}" "$name=x"
        check_rc "$label=x" 2
        has_err "$label=x" "astar: $name: takes no value, got 'x'"
        continue
      fi
      if [ "$bad" != "-" ]; then
        run "$cmd" "$name" "$bad" "${POS[@]}" "${OPTS[@]}"
        check_rc "$cmd ($kind) $name $bad" 2
        has_err "$cmd ($kind) $name $bad" "$name: expected $range, got '$bad'"
      fi
      run "$cmd" "${POS[@]}" "${OPTS[@]}" "$name"
      check_rc "$cmd ($kind) $name without its value" 2
      has_err "$cmd ($kind) $name without its value" "$name: missing value, expected $range"
    done < <(awk -F'\t' -v k="$kind" '$1 == "opt" && $2 == k' "$TMP/dump")
    # The command's options this kind does not take: refused by name.
    mine=$(awk -F'\t' -v k="$kind" '$1 == "opt" && $2 == k {print $3}' "$TMP/dump" | sort -u)
    kind_label=$(awk -F'\t' -v k="$kind" '$1 == "kind" && $3 == k {print $4}' "$TMP/dump")
    for name in $(comm -23 <(printf '%s\n' "$names") <(printf '%s\n' "$mine")); do
      # An option that selects its kind (--graph, --replan) is tried there.
      [ -n "${selects[$name]+set}" ] && continue
      tried=$((tried + 1))
      if [ "${vkind_of[$name]}" = flag ]; then opt=("$name"); else opt=("$name" "${sample_of[$name]}"); fi
      run "$cmd" "${opt[@]}" "${base_pos[@]}" "${base_opts[@]}"
      check_rc "$cmd ($kind) ${opt[*]}: not an option of this kind" 2
      has_err "$cmd ($kind) ${opt[*]}: refused by name" \
        "astar: $cmd: $name is an option of "
      has_err "$cmd ($kind) ${opt[*]}: refused for this kind" ", not of $kind_label (see "
    done
  done
done
echo "$tried options and kinds tried"
cli_summary
